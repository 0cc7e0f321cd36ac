"""The warfare area's year-start steps: looted business incomes, once paid, are spent; surplus
manpower carried off by slave raids regrows as the table's setting says."""

from __future__ import annotations

from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.commands import CommandContext
from yak_tui.kernel.season.seasons import StepReport, year_start_step
from yak_tui.kernel.world.tables import table


@year_start_step("expiries", name="warfare-looted-income")
def _clear_looted_income(ctx: CommandContext, report: StepReport) -> None:
    """After the business-income step (which pays and clears `income_looted_by`), the marks of this
    year or older are spent."""
    world = ctx.world
    year = world.date.year
    for bid, biz in sorted(world.all("businesses")):
        if "income_looted_for" in biz and (
            not biz.get("income_looted_by") or int(biz.get("income_looted_for") or year) <= year
        ):
            edited = world.edit("businesses", bid)
            edited.pop("income_looted_by", None)
            edited.pop("income_looted_for", None)
            report.add("looted incomes spent", 1)


@year_start_step("expiries", name="warfare-surplus-regrowth")
def _surplus_regrowth(ctx: CommandContext, report: StepReport) -> None:
    """`slaves.surplus_regrowth_per_year` of what slave raids took grows back (0: never)."""
    world = ctx.world
    per_year = int(table("warfare")["slaves"].get("surplus_regrowth_per_year", 0))
    if per_year <= 0:
        return
    for pid, province in sorted(world.all("provinces")):
        raided = int(province.get("surplus_raided", 0))
        if raided <= 0:
            continue
        grown = min(per_year, raided)
        edited = world.edit("provinces", pid)
        edited["surplus_manpower"] = int(edited.get("surplus_manpower", 0)) + grown
        edited["surplus_raided"] = raided - grown
        owner = province.get("kingdom")
        if owner:
            ctx.log(
                f"{province.get('name', pid)} regrows {grown} surplus manpower lost to slave raids "
                f"({edited['surplus_manpower']} now).",
                kind="year-start",
                audience=kingdom_audience(owner),
                refs={"province": pid, "surplus_manpower": edited["surplus_manpower"]},
            )
        report.add("surplus manpower regrown", grown, public=False)
