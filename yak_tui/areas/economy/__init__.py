"""The economy (RULINGS §5–§6): businesses, competition, monopolies, production and the market,
credit and loans, specialists, academies, engineers and missionaries.

This package is the area's public face: front ends and other areas import the names in `__all__`
from here, never a module inside. Importing it registers the economy's commands, its season and
year-start steps and its `yak resolve` checks (the modules in `REGISTERING_MODULES` register as
they load).

The arithmetic lives in `rules`; the command modules validate, roll through `ctx.dice`, move
every ducat through `ctx.move_ducats` and write the chronicle; `read` builds the market screen's
read models and never writes.

State kept by the economy (for the screens):
- `businesses.<id>`: name, owner, province, pc, sector, size, invested, plus `monopoly`
  (trade|service|goods|None), `stock` {good: n} (sold at season end), `warehouse` {good: n}
  (kept), `produced` {season, goods}, `trained` {year, count}, `income_looted_by` (kingdom id)
  and `income_looted_for` (year), set by warfare's looting and read by the business-income step.
- `provinces.<id>`: `potential_penalties` {potential: -n} (from monopolies), `price_modifiers`
  {good: ±n} (set by espionage).
- `characters.<id>.goods` {good: n}: shipped goods; `kingdoms.<id>.goods.Gunpowder`: barrels.
- `specialists.<kingdom>`: pool counts by type, `engineers_assigned` {siege: {engine: n},
  gunpowder: n}.
- `ledger.<id>`: credit, loan and bad-debt documents (see `credit._new_debt`), visible to `parties`.
- `effects.<id>`: traps (kind "trap") and standing counter-missionaries (kind
  "counter-missionary"); espionage's "academy-interference" and "sailor-recruitment-cut" are read
  (marked `consumed`; espionage's expiry step ends them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yak_tui.areas.economy import (
    academies,
    business,
    cli,
    credit,
    engineers,
    market,
    missionaries,
    monopolies,
    production,
    specialists,
    year_start,
)
from yak_tui.areas.economy import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.economy.academies import academy_follow_town
from yak_tui.areas.economy.business import (
    business_income_preview,
    businesses_at_pc,
    dismantle_business,
    effective_potentials,
    sector_businesses,
    sector_usage,
)
from yak_tui.areas.economy.engineers import active_traps, assign_engineers, fight_key, release_engineers, trap_fights
from yak_tui.areas.economy.market import province_prices
from yak_tui.areas.economy.production import produced_this_season
from yak_tui.areas.economy.shared import (
    ACADEMY_INTERFERENCE,
    ENGINEER_TASKS,
    HIRED_TYPES,
    MONOPOLY_KINDS,
    RULINGS_MADE,
    SAILOR_RECRUITMENT,
)
from yak_tui.areas.economy.specialist_rules import sailor_slave_price, sailors_per_ship
from yak_tui.areas.economy.specialists import (
    add_specialists,
    controlled_provinces,
    hire_status,
    specialist_pool,
    take_specialists,
    trained_this_year,
)
from yak_tui.kernel.play.lazy import lazy_exports

# The modules that register commands, steps and checks (imported above for that alone).
REGISTERING_MODULES = (
    business,
    monopolies,
    production,
    market,
    credit,
    specialists,
    academies,
    engineers,
    missionaries,
    year_start,
    cli,
)

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.economy.credit_read import (
        LedgerLine,
        Lending,
        debtor_choices,
        ledger_lines,
        lending_preview,
        lending_requirement,
    )
    from yak_tui.areas.economy.read import (
        BusinessDetail,
        BusinessLine,
        ExpandPreview,
        GoodPrice,
        Goods,
        MarketBoard,
        ProducePreview,
        ProvinceInfo,
        RivalOdds,
        Route,
        SectorLine,
        action_route,
        business_detail,
        expand_help,
        expand_preview,
        market_board,
        produce_preview,
        production_help,
        province_info,
    )
    from yak_tui.areas.economy.specialist_read import (
        AcademyLine,
        HirePreview,
        SpecialistLine,
        academy_lines,
        hire_help,
        hire_preview,
        specialist_lines,
    )

__all__ = [
    "ACADEMY_INTERFERENCE",
    "ENGINEER_TASKS",
    "HIRED_TYPES",
    "MONOPOLY_KINDS",
    "REGISTERING_MODULES",
    "RULINGS_MADE",
    "SAILOR_RECRUITMENT",
    "AcademyLine",
    "BusinessDetail",
    "BusinessLine",
    "ExpandPreview",
    "GoodPrice",
    "Goods",
    "HirePreview",
    "LedgerLine",
    "Lending",
    "MarketBoard",
    "ProducePreview",
    "ProvinceInfo",
    "RivalOdds",
    "Route",
    "SectorLine",
    "SpecialistLine",
    "academy_follow_town",
    "academy_lines",
    "action_route",
    "active_traps",
    "add_specialists",
    "assign_engineers",
    "business_detail",
    "business_income_preview",
    "businesses_at_pc",
    "controlled_provinces",
    "debtor_choices",
    "dismantle_business",
    "effective_potentials",
    "expand_help",
    "expand_preview",
    "fight_key",
    "hire_help",
    "hire_preview",
    "hire_status",
    "ledger_lines",
    "lending_preview",
    "lending_requirement",
    "market_board",
    "produce_preview",
    "produced_this_season",
    "production_help",
    "province_info",
    "province_prices",
    "release_engineers",
    "sailor_slave_price",
    "sailors_per_ship",
    "sector_businesses",
    "sector_usage",
    "specialist_lines",
    "specialist_pool",
    "take_specialists",
    "trained_this_year",
    "trap_fights",
]

# The names not defined above: the read models, loaded when first used.
__getattr__ = lazy_exports(
    __name__,
    ("yak_tui.areas.economy.read", "yak_tui.areas.economy.credit_read", "yak_tui.areas.economy.specialist_read"),
    __all__,
)
