"""How magic's orders read in a season post and a report (`kernel.season.post`), in the Magic section."""

from __future__ import annotations

from yak_tui.kernel.season.post import order_words, post_section, shown_param

post_section("Magic", "magic", rank=40)

order_words(
    "cast",
    did=lambda world, order, own: (
        f"{shown_param(world, order, 'caster')} cast {shown_param(world, order, 'spell', 'a spell')}: "
        f"{order.get('outcome') or 'done'}"
    ),
    plan=lambda world, order: f"cast {shown_param(world, order, 'spell', 'a spell')}",
    tells=("spell",),
)

__all__: list[str] = []
