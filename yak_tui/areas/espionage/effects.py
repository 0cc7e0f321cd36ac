"""The kinds of effect document a successful mission writes (`effects.<id>.kind`), by name.

Another area that reads an espionage effect (warfare its morale penalties and control
infiltrations, economy its academy interference and recruitment cut) imports the name from the
package (`from yak_tui.areas.espionage import MORALE_PENALTY`), never the string; a test fails
when a name here is written by no `MissionKind`. This module imports nothing of the package.
"""

from __future__ import annotations

INFILTRATION = "infiltration"
SECURITY_BREACH = "security-breach"
SMUGGLING_RING = "smuggling-ring"
ACADEMY_INTERFERENCE = "academy-interference"
CRASH_MARKET = "crash-market"
LIMIT_TRADE = "limit-trade"
COMMERCIAL_ANIMOSITY = "commercial-animosity"
SAILOR_RECRUITMENT_CUT = "sailor-recruitment-cut"
MORALE_PENALTY = "morale-penalty"
COUNTERFEIT = "counterfeit"
ASSASSINATION_ATTEMPT = "assassination-attempt"

EFFECT_DOCUMENTS = (
    INFILTRATION,
    SECURITY_BREACH,
    SMUGGLING_RING,
    ACADEMY_INTERFERENCE,
    CRASH_MARKET,
    LIMIT_TRADE,
    COMMERCIAL_ANIMOSITY,
    SAILOR_RECRUITMENT_CUT,
    MORALE_PENALTY,
    COUNTERFEIT,
    ASSASSINATION_ATTEMPT,
)
