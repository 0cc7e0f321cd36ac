"""How the court's orders read in a season post and a report (`kernel.season.post`): a roll is told by
its own line (what was rolled and what came of it); a request to the GM by what was asked."""

from __future__ import annotations

from yak_tui.kernel.play.orders import REQUEST
from yak_tui.kernel.season.post import order_words, shown_param

order_words("roll", did=None, plan=lambda world, order: f"roll for {shown_param(world, order, 'reason', 'a reason')}")
order_words(
    REQUEST,
    did=None,
    plan=lambda world, order: f"ask the GM: {shown_param(world, order, 'text', 'a request')}",
)

__all__: list[str] = []
