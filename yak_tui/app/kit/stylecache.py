"""Each stylesheet source is parsed once per process, not once per app and per screen visit.

Textual keeps the rules it parsed per `Stylesheet` object, and `Stylesheet.reparse()` starts from a
fresh one: it runs when a screen with its own stylesheet is first shown and when the theme changes,
and re-parses every source the app holds (yak.tcss, each widget's DEFAULT_CSS, each screen's .tcss),
about 60 ms each time. Every app parses them all again too: `yak serve` runs one app per session and
the test suite one per test. Parsed rules depend only on the source text, where it was read from,
its scope and tie-breaker, and the theme's variables; Textual treats them as read-only once parsed
(one stylesheet reuses them across its own parses), so one table per process, keyed on all of
those, gives every app the same rules without parsing twice.
"""

from __future__ import annotations

import inspect
from typing import Any

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet

# Sources times themes: the app holds ~120 sources and a session switches between a few themes.
PARSED_RULES: LRUCache[tuple[Any, ...], list[Any]] = LRUCache(4096)
_EXPECTED_PARAMETERS = ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
_textual_parse_rules = Stylesheet._parse_rules


def _variables_key(stylesheet: Stylesheet) -> tuple[tuple[str, str], ...]:
    """The theme's variables as a hashable key, worked out once per variables mapping."""
    variables = stylesheet._variables
    remembered = getattr(stylesheet, "_yak_variables_key", None)
    if remembered is not None and remembered[0] is variables:
        return remembered[1]
    key = tuple(sorted(variables.items()))
    stylesheet._yak_variables_key = (variables, key)  # type: ignore[attr-defined]
    return key


def _parse_rules_once(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                      tie_breaker: int = 0, scope: str = "") -> list[Any]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self))
    rules = PARSED_RULES.get(key)
    if rules is None:  # a source that fails to parse raises here, as it always has, and is not kept
        rules = _textual_parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        PARSED_RULES[key] = rules
    return rules


def share_parsed_stylesheets() -> bool:
    """Install the per-process table (idempotent). A Textual whose `_parse_rules` has another shape
    keeps its own behaviour: the table is only a saving, never needed for correctness."""
    if Stylesheet._parse_rules is _parse_rules_once:
        return True
    if list(inspect.signature(_textual_parse_rules).parameters) != _EXPECTED_PARAMETERS:
        return False
    Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]
    return True
