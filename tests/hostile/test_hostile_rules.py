"""Bad house rules (`--rules DIR` or YAK_RULES): bad UTF-8, a directory, TOML that does not parse,
unknown tables and keys, wrong types, NaN, infinities and huge integers. They are refused at
startup, before any command runs, on one line that names the file, the table entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_helpers import assert_refused, yak

from yak_tui.kernel.world.tables import RulesTableError, check_override_dir, set_override_dir, table

MISSION = (
    'slug = "x"\nname = "X"\nfamily = "general"\neffect = "y"\ndetection_special = false\n'
    'spy_used_up = false\nis_infiltration = false\nextras = []\ntext = ""\nparams = {}\n'
)

# (case id, file name, bytes, what the error line must name)
CASES: list[tuple[str, str, bytes, tuple[str, ...]]] = [
    ("bad-utf8", "nobles.toml", b"[outcome]\neviction_ratio = 0.5 # \xff\xfe\n", ("nobles.toml", "UTF-8")),
    ("bad-toml", "nobles.toml", b"[outcome\n", ("nobles.toml", "TOML", "line 1")),
    ("unknown-table", "nobility.toml", b"[outcome]\neviction_ratio = 0.5\n", ("nobility.toml", "nobles")),
    ("unknown-section", "nobles.toml", b"[outcomes]\neviction_ratio = 0.5\n", ("nobles.toml", "outcomes")),
    (
        "unknown-key",
        "nobles.toml",
        b"[outcome]\nevicton_ratio = 0.25\n",
        ("nobles.toml", "[outcome]", "evicton_ratio", "eviction_ratio"),
    ),
    (
        "text-for-number",
        "nobles.toml",
        b'[outcome]\neviction_ratio = "half"\n',
        ("nobles.toml", "[outcome]", "eviction_ratio", "number"),
    ),
    ("float-for-whole", "nobles.toml", b"[swing]\nmax_percent = 1.5\n", ("nobles.toml", "max_percent", "whole")),
    ("nan", "nobles.toml", b"[outcome]\neviction_ratio = nan\n", ("nobles.toml", "eviction_ratio", "finite")),
    ("inf", "warfare.toml", b"[messenger]\nthreshold = inf\n", ("warfare.toml", "threshold")),
    ("minus-inf", "core.toml", b"[upkeep]\nregiment = -inf\n", ("core.toml", "regiment", "finite")),
    (
        "beyond-64-bits",
        "nobles.toml",
        b"[costs]\nincite = 99999999999999999999\n",
        ("nobles.toml", "incite", "64 bits"),
    ),
    ("table-for-number", "core.toml", b"[rtd]\nrtd_success = { a = 1 }\n", ("core.toml", "rtd_success")),
    ("number-for-table", "core.toml", b"rtd = 3\n", ("core.toml", "rtd", "table")),
    ("list-item-type", "core.toml", b'[calendar]\nseasons = ["Spring", 3]\n', ("core.toml", "calendar.seasons[2]")),
    (
        "band-missing-field",
        "core.toml",
        b"[rtd]\nbands = [{ max_total = 2 }]\n",
        ("core.toml", "rtd.bands[1]", "band", "required"),
    ),
    (
        "band-unknown-field",
        "economy.toml",
        b"[[market_sale.faces]]\nmax_natural = 1\ndelta = -1\nbonus = 3\n",
        ("economy.toml", "market_sale.faces[1]", "bonus"),
    ),
    (
        "mission-wrong-type",
        "espionage.toml",
        b"[[missions]]\n" + MISSION.encode() + b'cost = "abc"\n',
        ("espionage.toml", "missions[1]", "slug 'x'", "cost", "whole number"),
    ),
    (
        "mission-missing-field",
        "espionage.toml",
        b"[[missions]]\n" + MISSION.replace("effect", "x_effect").encode() + b"cost = 1\n",
        ("espionage.toml", "missions[1]", "slug 'x'", "effect"),
    ),
    (
        "new-title-incomplete",
        "nobles.toml",
        b'[titles.emperor]\nname = "Emperor"\n',
        ("nobles.toml", "titles.emperor", "share", "required"),
    ),
    (
        "new-commodity-wrong-type",
        "economy.toml",
        b'[commodities]\nTea = "cheap"\n',
        ("economy.toml", "[commodities]", "Tea"),
    ),
]


@pytest.mark.parametrize(
    ("name", "content", "names"), [(n, c, x) for _, n, c, x in CASES], ids=[c for c, _, _, _ in CASES]
)
def test_bad_house_rules_are_refused_at_startup(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    save_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    content: bytes,
    names: tuple[str, ...],
) -> None:
    rules = tmp_path / "house"
    rules.mkdir()
    (rules / name).write_bytes(content)
    try:
        for argv in (["do", "note", "text=x"], ["show"], ["resolve", "rtd", "--dice", "3"], ["--json", "log"]):
            assert_refused(capsys, ["--save", str(save_path), "--rules", str(rules), *argv], save_path, *names)
        monkeypatch.setenv("YAK_RULES", str(rules))
        assert_refused(capsys, ["--save", str(save_path), "do", "note", "text=x"], save_path, *names)
    finally:
        set_override_dir(None)


def test_a_directory_where_a_table_file_should_be(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save_path: Path
) -> None:
    rules = tmp_path / "house"
    (rules / "core.toml").mkdir(parents=True)
    try:
        assert_refused(
            capsys,
            ["--save", str(save_path), "--rules", str(rules), "do", "note", "text=x"],
            save_path,
            "core.toml",
            "directory",
        )
    finally:
        set_override_dir(None)


def test_a_missing_rules_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path, save_path: Path) -> None:
    assert_refused(
        capsys,
        ["--save", str(save_path), "--rules", str(tmp_path / "nowhere"), "show"],
        save_path,
        "nowhere",
        "no such directory",
    )


def test_good_house_rules_still_apply(capsys: pytest.CaptureFixture[str], tmp_path: Path, save_path: Path) -> None:
    rules = tmp_path / "house"
    rules.mkdir()
    (rules / "nobles.toml").write_text(
        "[outcome]\neviction_ratio = 0.25\nexecution_ratio = 0.75\n"
        '[titles.emperor]\nname = "Emperor"\nshare = 90\nsource = "house rule"\n'
    )
    (rules / "economy.toml").write_text("[commodities]\nTea = 4\n")
    (rules / "core.toml").write_text("[rtd]\nrtd_success = 4\n")
    (rules / "README.md").write_text("not a table: ignored")
    try:
        code, out, err = yak(capsys, ["--rules", str(rules), "resolve", "rtd", "--dice", "3", "--json"])
        assert code == 0, err
        assert '"success":false' in out
        assert table("nobles")["titles"]["emperor"]["share"] == 90
        assert table("economy")["commodities"]["Tea"] == 4
    finally:
        set_override_dir(None)


def test_the_check_is_the_loader_s_own(tmp_path: Path) -> None:
    (tmp_path / "spells.toml").write_text("[power]\ntop_band = 3\n")
    with pytest.raises(RulesTableError, match=r"spells.toml: \[power\], field top_band: must be text"):
        check_override_dir(str(tmp_path))


# -- lists of named entries merge entry by entry ----------------------------------------------------


def test_a_house_rule_mission_changes_that_mission_only(tmp_path: Path) -> None:
    """Listing one mission (by slug) with one field changes that field of that mission; the other
    34 missions and the mission's other fields stay as the default table has them."""
    default = table("espionage")["missions"]
    (tmp_path / "espionage.toml").write_text('[[missions]]\nslug = "establish-smuggling-ring"\ncost = 5\n')
    try:
        set_override_dir(str(tmp_path))
        merged = table("espionage")["missions"]
    finally:
        set_override_dir(None)
    assert [m["slug"] for m in merged] == [m["slug"] for m in default]
    assert merged[0] == {**default[0], "cost": 5}
    assert merged[1:] == default[1:]


def test_a_house_rule_mission_with_a_new_slug_is_added(tmp_path: Path) -> None:
    default = table("espionage")["missions"]
    (tmp_path / "espionage.toml").write_text("[[missions]]\n" + MISSION + "cost = 2\n")
    try:
        set_override_dir(str(tmp_path))
        merged = table("espionage")["missions"]
    finally:
        set_override_dir(None)
    assert merged[:-1] == default
    assert merged[-1]["slug"] == "x" and merged[-1]["cost"] == 2


def test_a_change_to_a_named_mission_is_still_checked(tmp_path: Path) -> None:
    """A partial entry may leave out what it keeps, but what it gives must fit the table."""
    (tmp_path / "espionage.toml").write_text(
        '[[missions]]\nslug = "establish-smuggling-ring"\ncost = "two"\n'
        '[[missions]]\nslug = "purge-administration"\ncots = 1\n'
    )
    with pytest.raises(
        RulesTableError,
        match=r"missions\[1\] \(slug 'establish-smuggling-ring'\), field cost: "
        r"must be a whole number",
    ):
        check_override_dir(str(tmp_path))
    (tmp_path / "espionage.toml").write_text('[[missions]]\nslug = "purge-administration"\ncots = 1\n')
    with pytest.raises(
        RulesTableError,
        match=r"missions\[1\] \(slug 'purge-administration'\), field cots: "
        r"is not a key",
    ):
        check_override_dir(str(tmp_path))


def test_lists_without_names_are_still_replaced_whole(tmp_path: Path) -> None:
    (tmp_path / "core.toml").write_text('[rtd]\nbands = [{ band = "all", max_total = 99 }]\n')
    try:
        set_override_dir(str(tmp_path))
        assert table("core")["rtd"]["bands"] == [{"band": "all", "max_total": 99}]
    finally:
        set_override_dir(None)
