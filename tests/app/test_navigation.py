"""The nav bar's order is declared once (`app/navigation.py`) over the screens each area's package
declares: a screen left out of the order, or an order naming no declared screen, is refused by name."""

from __future__ import annotations

import pytest

from yak_tui.app import navigation


def test_the_nav_bar_follows_the_declared_order() -> None:
    assert list(navigation.SCREENS) == list(navigation.NAV_ORDER)
    assert {name: nav.key for name, nav in navigation.SCREENS.items()} == {
        "dashboard": "d",
        "espionage": "e",
        "market": "b",
        "sieges": "s",
        "map": "m",
        "chronicle": "c",
    }


def test_a_declared_screen_missing_from_the_order_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(navigation, "NAV_ORDER", tuple(name for name in navigation.NAV_ORDER if name != "map"))
    with pytest.raises(ValueError, match=r"missing \['map'\]"):
        navigation.nav_screens()


def test_an_order_naming_no_declared_screen_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(navigation, "NAV_ORDER", (*navigation.NAV_ORDER, "tavern"))
    with pytest.raises(ValueError, match=r"unknown \['tavern'\]"):
        navigation.nav_screens()


def test_an_area_action_names_a_screen_that_exists() -> None:
    for action in navigation.AREA_ACTIONS.values():
        assert navigation.screen_class(action.module, action.cls).__name__ == action.cls
    assert navigation.AREA_ACTIONS["cast"].key == "g"
