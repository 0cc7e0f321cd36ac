"""Money moves one way: `move_ducats` debits, credits and writes the chronicle line with the sum
(a command calls it as `ctx.move_ducats`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yak_tui.kernel.errors import CommandError, ShortfallError
from yak_tui.kernel.play.audience import PUBLIC
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money, shown_money

if TYPE_CHECKING:
    from yak_tui.kernel.play.commands import CommandContext


def treasury_holder(world: World, party: tuple[str, str]) -> dict[str, Any]:
    table, doc_id = party
    return world.edit(table, doc_id)


def move_ducats(
    ctx: CommandContext,
    source: tuple[str, str] | None,
    target: tuple[str, str] | None,
    amount: float,
    reason: str,
    *,
    audience: str = PUBLIC,
    allow_negative: bool = False,
    kind: str = "ducats",
    secret: str = "",
) -> dict[str, Any]:
    if amount < 0:
        raise CommandError("amount", f"cannot move a negative sum ({amount})")
    world = ctx.world
    if source is not None:
        payer = treasury_holder(world, source)
        balance = float(payer.get("treasury", 0))
        if balance - amount < -1e-9 and not allow_negative:
            name = world.display_name(source[0], source[1])
            raise ShortfallError(
                "treasury", f"{name} has {ducats(balance)}, {shown_money(amount)} are needed for {reason}"
            )
        payer["treasury"] = money(balance - amount)
    if target is not None:
        payee = treasury_holder(world, target)
        payee["treasury"] = money(float(payee.get("treasury", 0)) + amount)
    amounts: dict[str, float] = {}
    if source is not None:
        amounts[f"{source[0]}:{source[1]}"] = -amount
    if target is not None:
        key = f"{target[0]}:{target[1]}"
        amounts[key] = amounts.get(key, 0) + amount  # paying oneself nets to zero
    if source is None and target is not None:
        text = f"{world.display_name(*target)} receives {ducats(amount)}: {reason}"
    elif target is None and source is not None:
        text = f"{world.display_name(*source)} pays {ducats(amount)}: {reason}"
    elif source is not None and target is not None:
        text = f"{world.display_name(*source)} pays {ducats(amount)} to {world.display_name(*target)}: {reason}"
    else:
        raise CommandError("amount", "money must come from or go to someone")
    return ctx.log(text, kind=kind, audience=audience, amounts=amounts, secret=secret)
