"""Magic (RULINGS §4): casting a spell in three stages, its carry, and the consequences the GM fills.

Importing this package registers its commands (`commands`) and its `yak resolve spell` check
(`cli`). Front ends and other areas use the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.magic import cli, commands  # noqa: F401  (registers)
from yak_tui.areas.magic import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.magic.commands import stage_odds
from yak_tui.areas.magic.rules import STAGES
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.magic.read import (
        STAGE_TITLES,
        CasterRow,
        CastSetup,
        Preview,
        band_tone,
        carry_tone,
        cast_setup,
        casters,
        effect_tone,
        given_words,
        pending_lines,
        preview,
        retone,
        stage_odds_rows,
    )

__all__ = [
    "STAGES",
    "STAGE_TITLES",
    "CastSetup",
    "CasterRow",
    "Preview",
    "band_tone",
    "carry_tone",
    "cast_setup",
    "casters",
    "effect_tone",
    "given_words",
    "pending_lines",
    "preview",
    "retone",
    "stage_odds",
    "stage_odds_rows",
]

__getattr__ = lazy_exports(__name__, "yak_tui.areas.magic.read", __all__)  # the names not defined above
