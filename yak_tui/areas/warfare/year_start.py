"""The warfare area's year-start step: looted business incomes, once paid, are spent."""

from __future__ import annotations

from yak_tui.kernel.commands import CommandContext
from yak_tui.kernel.seasons import StepReport, year_start_step


@year_start_step("expiries")
def _clear_looted_income(ctx: CommandContext, report: StepReport) -> None:
    """After the business-income step (which pays and clears `income_looted_by`), the marks of this
    year or older are spent."""
    world = ctx.world
    year = world.date.year
    for bid, biz in sorted(world.all("businesses")):
        if "income_looted_for" in biz and (not biz.get("income_looted_by")
                                           or int(biz.get("income_looted_for") or year) <= year):
            edited = world.edit("businesses", bid)
            edited.pop("income_looted_by", None)
            edited.pop("income_looted_for", None)
            report.add("looted incomes spent", 1)
