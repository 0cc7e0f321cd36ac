"""How the nobles' orders read in a season post and a report (`kernel.season.post`), in the Court section."""

from __future__ import annotations

from yak_tui.kernel.season.post import COURT, order_words, post_section, shown_param

post_section(COURT, "nobles")

order_words(
    "relocate",
    did=lambda world, order, own: (
        f"{shown_param(world, order, 'character')} moved to "
        f"{shown_param(world, order, 'pc') or shown_param(world, order, 'legion') or 'a new place'}"
    ),
    plan=lambda world, order: (
        f"move {shown_param(world, order, 'character')} to "
        f"{shown_param(world, order, 'pc') or shown_param(world, order, 'legion') or 'a new place'}"
    ),
    tells=("relocate", "move"),
)

__all__: list[str] = []
