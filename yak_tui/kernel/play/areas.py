"""The one list of area packages. Importing an area's package registers its commands, year-start
steps and `yak resolve` checks; the kernel names them here as strings and imports them when a
registry is first needed, so the kernel itself imports no area.

`COMMAND_AREAS` says which of them (or which kernel module) registers each command, so a reader
that needs a few commands' specs (`yak orders`: the waiting orders' descriptions and odds) imports
only their areas (`kernel.play.commands.spec_for`). `tests/foundation/test_command_areas.py` holds
it to the registrations: a command registered anywhere else, or missing here, fails it.
"""

from __future__ import annotations

AREA_PACKAGES = (
    "yak_tui.areas.court",
    "yak_tui.areas.espionage",
    "yak_tui.areas.economy",
    "yak_tui.areas.warfare",
    "yak_tui.areas.magic",
    "yak_tui.areas.nobles",
)

_REGISTERED_BY: dict[str, tuple[str, ...]] = {
    "yak_tui.areas.court": (
        "advance",
        "gm-add",
        "gm-conquer",
        "gm-death",
        "gm-estate",
        "gm-move",
        "gm-remove",
        "gm-set",
        "gm-transfer",
        "note",
        "roll",
        "rules-clear",
        "rules-set",
        "schedule",
        "season-narrative",
        "undo",
        "user-add",
        "user-remove",
        "user-revoke",
        "user-web-login",
        "user-zone",
    ),
    "yak_tui.areas.espionage": ("assassination-resolve", "counter-spy", "spy-mission", "spy-order", "spy-resolve"),
    "yak_tui.areas.economy": (
        "academy-expand",
        "academy-found",
        "business-dismantle",
        "business-expand",
        "business-open",
        "business-sell",
        "business-tax-set",
        "convert",
        "convert-counter",
        "credit-extend",
        "credit-repay",
        "engineer-assign",
        "engineer-release",
        "goods-release",
        "goods-ship",
        "goods-store",
        "hire",
        "loan-extend",
        "loan-repay",
        "monopoly-grant",
        "monopoly-revoke",
        "prices",
        "produce",
        "sponsor-training",
        "trap",
        "trap-resolve",
    ),
    "yak_tui.areas.warfare": (
        "battle",
        "blockade",
        "capture",
        "convert-slaves",
        "dismantle",
        "gm-capture",
        "loot",
        "loot-share",
        "messenger",
        "raid",
        "raise-guard",
        "raze",
        "recruit",
        "ship-build",
        "ship-disband",
        "ship-sink",
        "siege-begin",
        "siege-decide",
        "siege-lift",
        "slave-raid",
        "smuggle",
        "upgrade",
        "vault-set",
    ),
    "yak_tui.areas.magic": ("cast", "consequence-fill"),
    "yak_tui.areas.nobles": ("incite", "relocate", "usurp"),
    "yak_tui.kernel.play.orders": (
        "ask",
        "order-file",
        "order-late",
        "order-reject",
        "order-resolve",
        "order-withdraw",
    ),
    "yak_tui.kernel.season.readiness": ("ready", "season-deadline", "season-extend", "season-pause", "season-resume"),
}

# command -> the package or module whose import registers it (with its odds' words)
COMMAND_AREAS: dict[str, str] = {name: module for module, names in _REGISTERED_BY.items() for name in names}

__all__ = ["AREA_PACKAGES", "COMMAND_AREAS"]
