"""The season post a GM pastes as it is, and the reports that tell each reader everything of his (issue 27).

A scripted three-kingdom season of the demo world: Varos and Kesh raise regiments, Elbreth hires a spy,
Corvin expands his bank, Lysa's order is rejected and she is captured and robbed, Silas runs a
private mission, and a battle costs Elbreth a regiment. Its public post and three reports are pinned in
BBCode and Markdown (`golden/season_post/`; `YAK_GOLDEN_WRITE=1` rewrites them when the words change on
purpose). The post must hold no id, no command syntax and no line twice; each report must tell every
change of every holding of its reader; every name and reason must reach the forum as literal text.
"""

from __future__ import annotations

import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import bbcode
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.markup import escape_bbcode, escape_markdown, render_discord, split_messages
from yak_tui.kernel.season.reports import render_report, reports_for
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GOLDEN = Path(__file__).parent / "golden" / "season_post"
GM = Identity.parse("gm")
KINGS = ("king:elbreth", "king:varos", "king:kesh")
PLAYERS = ("player:corvin", "player:lysa", "player:silas")
PINNED = ("public", "king:varos", "player:lysa", "player:corvin")
# A business name and a rejection reason a forum must show as they are, never as markup.
NASTY_NAME = "Amber *Vintners* [url=https://evil.example]_cheap_[/url] [/list]"
NASTY_REASON = "the guild says no [/list][*] `rm` <b>bold</b> &amp; 1. done"
NARRATIVE = "Summer came early to the Amber March.\n\nThree crowns watched the roads, and *nobody* slept."


def _do(save: WorldFile, who: str, name: str, params: dict[str, Any], seed: int = 7) -> dict[str, Any]:
    return run_command(save, Identity.parse(who), name, params, SeededDice(seed)).data


def _file(save: WorldFile, who: str, command: str, params: dict[str, Any]) -> str:
    return str(_do(save, who, "order-file", {"command": command, "params": json.dumps(params)})["order"])


def _play(directory: Path) -> tuple[WorldFile, dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The scripted season; returns the save, and each reader's holdings-bearing documents as the
    season opened and as it closed."""
    save = create_world(directory / "world.json")
    _do(save, "gm", "gm-set", {"table": "businesses", "id": "amber-vintners", "field": "name", "value": NASTY_NAME})
    _do(save, "gm", "advance", {})  # Spring 312 closes: Summer 312 is the scripted season
    opened = World(save.read()).data
    _do(save, "gm", "season-narrative", {"text": NARRATIVE})
    orders = [
        _file(
            save, "king:varos", "recruit", {"kingdom": "varos", "pc": "thornfield", "kind": "infantry", "regiments": 2}
        ),
        _file(save, "king:kesh", "recruit", {"kingdom": "kesh", "pc": "keshar", "kind": "cavalry", "regiments": 1}),
        _file(save, "king:elbreth", "hire", {"kingdom": "elbreth", "type": "spy", "count": 1}),
        _file(save, "player:corvin", "business-expand", {"business": "hale-bank", "sizes": 1}),
        _file(save, "player:silas", "spy-mission", {"mission": "infiltrate-treasury", "target": "kesh"}),
    ]
    rejected = _file(save, "player:lysa", "business-expand", {"business": "amber-vintners", "sizes": 1})
    for seed, order in enumerate(orders, start=21):
        _do(save, "gm", "order-resolve", {"order": order}, seed)
    _do(save, "gm", "order-reject", {"order": rejected, "reason": NASTY_REASON})
    _do(
        save,
        "gm",
        "battle",
        {"attacker": "varos", "defender": "elbreth", "winner": "attacker", "losses": "brinehaven-watch:1"},
    )
    _do(save, "gm", "gm-capture", {"character": "lysa", "captor": "elbreth", "rob": True})
    _do(save, "gm", "advance", {}, 99)
    return save, opened, World(save.read()).data


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[WorldFile, dict[str, Any], dict[str, Any]]:
    return _play(tmp_path_factory.mktemp("season-post"))


def _reports(save: WorldFile) -> dict[str, dict[str, Any]]:
    world = World(save.read())
    return {str(r["recipient"]): r for r in reports_for(world, GM, "Summer 312")}


def test_the_season_post_and_three_reports_read_as_pinned(season: tuple[WorldFile, Any, Any]) -> None:
    reports = _reports(season[0])
    written = {
        f"{recipient.replace(':', '-')}.{ext}": render_report(reports[recipient], fmt)
        for recipient in PINNED
        for fmt, ext in (("bbcode", "bbcode"), ("markdown", "md"))
    }
    if os.environ.get("YAK_GOLDEN_WRITE"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for name, text in written.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in written.items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name


def test_the_post_has_a_title_the_narrative_sections_and_the_ledger_head(season: tuple[WorldFile, Any, Any]) -> None:
    save, _, closed = season
    post = render_report(_reports(save)["public"], "markdown")
    assert post.startswith("# Elbreth: Summer 312\n\nSummer came early to the Amber March.\n\nThree crowns")
    assert "\\*nobody\\*" in post  # the GM's words are his text, escaped like every other
    assert post.index("## War") < post.index("## Trade") < post.index("## Court")
    assert "Kingdom of Varos raised 2 regiments of infantry at Thornfield" in post
    assert "Principality of Kesh raised 1 regiment of cavalry at Keshar" in post
    assert str(closed["meta"]["world"]["dice_head"]) in post.splitlines()[-1]


def test_the_public_post_has_no_id_no_command_syntax_and_no_line_twice(season: tuple[WorldFile, Any, Any]) -> None:
    save, _, closed = season
    world = World(closed)
    post = _reports(save)["public"]
    lines = [item["text"] for section in post["sections"] for item in section["items"]]
    lines += [detail for section in post["sections"] for item in section["items"] for detail in item["details"]]
    text = "\n".join(lines)
    assert len(lines) == len(set(lines)), "a line is told twice"
    assert not re.search(r"\b[a-z]+-\d{4}\b", text), "an id like o-0001 in the post"
    # Only ids nobody reads: slugs of documents whose name is not the same word.
    ids = {
        doc_id
        for table in ("orders", "effects", "units", "pcs", "businesses", "ledger")
        for doc_id, _ in world.all(table)
    }
    named = {
        str(doc.get("name", "")).lower() for table in ("units", "pcs", "businesses") for _, doc in world.all(table)
    }
    for doc_id in ids - named:
        if "-" in doc_id:
            assert doc_id not in text, f"the id {doc_id} in the post"
    assert not re.search(r"\b\w+=\S", text.replace(NASTY_NAME, "")), "key=value command syntax in the post"
    for words in ("files an order", "resolved:", "is ready", "due by", "closes.", "begins.", "nothing to do", "GM:"):
        assert words not in text, f"bookkeeping in the post: {words!r}"
    assert "Kingdom Kingdom" not in text and "(s)" not in text and re.search(r"\b1 ducats\b", text) is None


def test_the_public_post_keeps_every_secret(season: tuple[WorldFile, Any, Any]) -> None:
    post = render_report(_reports(season[0])["public"], "markdown")
    assert "Infiltrate Treasury" not in post and "Silas" not in post  # a private mission
    assert "guild says no" not in post  # a rejection's reason is the filer's


# -- every change of every holding shows in its owner's report ----------------------------------------


def _holding_changes(reader: str, opened: dict[str, Any], closed: dict[str, Any]) -> list[str]:
    """What changed of the reader's holdings, as the words the report must name (the holding's name
    or its kind), read straight from the documents as the season opened and closed."""
    role, _, subject = reader.partition(":")
    words: list[str] = []

    def docs(state: dict[str, Any], table: str, **match: str) -> dict[str, dict[str, Any]]:
        return {i: d for i, d in state[table].items() if all(d.get(k) == v for k, v in match.items())}

    def compare(table: str, label: Any, fields: tuple[str, ...], **match: str) -> None:
        old, new = docs(opened, table, **match), docs(closed, table, **match)
        for doc_id in sorted(set(old) | set(new)):
            was, now = old.get(doc_id, {}), new.get(doc_id, {})
            if any(was.get(f) != now.get(f) for f in fields):
                words.append(label(now or was, was, now))

    if role == "king":
        old_k, new_k = opened["kingdoms"][subject], closed["kingdoms"][subject]
        words += [label for key, label in _KINGDOM_FIELDS if old_k.get(key) != new_k.get(key)]
        compare("units", lambda d, w, n: str(d["name"]), ("regiments", "ships", "size"), owner=subject)
        compare("pcs", lambda d, w, n: str(d["name"]), ("controller",), controller=subject)
        compare(
            "specialists",
            lambda d, w, n: "Specialists",
            ("spy", "cold_spy", "engineer", "missionary", "sailor"),
            kingdom=subject,
        )
        compare("characters", lambda d, w, n: str(d["name"]), ("captive_of",), captive_of=subject)
    else:
        old_c, new_c = opened["characters"][subject], closed["characters"][subject]
        words += [label for key, label in _CHARACTER_FIELDS if old_c.get(key) != new_c.get(key)]
        compare("businesses", lambda d, w, n: str(d["name"]), ("size",), owner=subject)
        compare("units", lambda d, w, n: str(d["name"]), ("regiments", "ships"), commander=subject)
    return words


_KINGDOM_FIELDS = (("treasury", "Treasury"), ("manpower", "Manpower"), ("influence", "Influence"))
_CHARACTER_FIELDS = (
    ("treasury", "Purse"),
    ("status", "Condition"),
    ("alive", "Condition"),
    ("captive_of", "Condition"),
    ("location", "Whereabouts"),
    ("goods", "Goods"),
)


@pytest.mark.parametrize("reader", KINGS + PLAYERS)
def test_every_change_of_every_holding_shows_in_its_owners_report(
    season: tuple[WorldFile, Any, Any], reader: str
) -> None:
    save, opened, closed = season
    report = _reports(save)[reader]
    changes = next(s for s in report["sections"] if s["title"] == "Changes this season")
    told = "\n".join(item["text"] for item in changes["items"])
    expected = _holding_changes(reader, opened, closed)
    for word in expected:
        assert word in told, f"{reader}'s report does not tell that {word} changed:\n{told}"
    assert (told == "Nothing changed.") == (not expected)


def test_the_scripted_season_changed_something_of_every_kind(season: tuple[WorldFile, Any, Any]) -> None:
    """The test above must be able to fail: the season changes a purse, a treasury, a unit's
    regiments, a business's size, specialists and a captive's condition."""
    _, opened, closed = season
    assert set(_holding_changes("player:lysa", opened, closed)) >= {"Purse", "Condition"}
    assert "Brinehaven Watch" in _holding_changes("king:elbreth", opened, closed)
    assert "Hale & Sons Bank" in _holding_changes("player:corvin", opened, closed)
    assert "Specialists" in _holding_changes("king:elbreth", opened, closed)


def test_a_captive_woman_is_told_she_was_robbed_in_her_pronouns(season: tuple[WorldFile, Any, Any]) -> None:
    reports = _reports(season[0])
    public = render_report(reports["public"], "markdown")
    assert "captures Lysa Marr and robs her of" in public
    lysa = render_report(reports["player:lysa"], "markdown")
    assert "Condition: alive, fresh → alive, fresh, a captive of Kingdom of Elbreth" in lysa
    assert "the guild says no" in lysa  # her order's rejection and its reason, told to her


def test_each_report_ends_with_orders_to_send_back_as_ssh_reads_them(season: tuple[WorldFile, Any, Any]) -> None:
    from yak_tui.serve.execs import _parse_order_line

    report = _reports(season[0])["player:corvin"]
    template = report["sections"][-1]
    assert template["title"] == "Orders for Autumn 312" and template["kind"] == "code"
    lines = [item["text"] for item in template["items"] if not item["text"].startswith("#")]
    parsed = dict(_parse_order_line(line) for line in lines)
    assert parsed["business-expand"] == {"business": "hale-bank", "sizes": "1"}  # his own business, by id
    assert parsed["relocate"] == {"character": "corvin"}
    assert "recruit" not in parsed  # a King's order, not his


# -- names and reasons are literal text in every format ---------------------------------------------------


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _bbcode_text(markup: str) -> str:
    """What a reader sees of a BBCode post: a real BBCode parser's HTML, tags dropped."""
    parser = bbcode.Parser(replace_cosmetic=False, replace_links=False, newline="\n")
    parser.REPLACE_COSMETIC = ()  # its typography ("..." as an ellipsis), inside tags too: SMF does none
    found = _Text()
    found.feed(parser.format(markup))
    return html.unescape("".join(found.parts))


def _markdown_inline_texts(markup: str) -> list[str]:
    """Every inline run of a Markdown post as markdown-it parses it: a literal text is one `text` run
    (softbreaks joined), and any link, emphasis, code or HTML would be a token of its own."""
    runs: list[str] = []
    for token in MarkdownIt("commonmark").parse(markup):
        if token.type == "inline":
            kinds = {child.type for child in token.children or []}
            assert kinds <= {"text", "softbreak"}, f"markup in {markup!r}: {kinds}"
            runs.append("".join(child.content for child in token.children or []))
    return runs


LITERAL = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from("[]*_`<>&#!|~\\-=+.()/"),
    min_size=1,
    max_size=60,
).filter(lambda t: t.strip() != "")


@settings(max_examples=300, deadline=None)
@given(LITERAL)
def test_any_name_or_reason_survives_bbcode_and_markdown_as_literal_text(name: str) -> None:
    expected = " ".join(name.split())
    bb = f"[list]\n[*]{escape_bbcode(name)}\n[/list]"
    assert _bbcode_text(bb).strip() == expected
    runs = _markdown_inline_texts(f"- {escape_markdown(name)}\n")
    assert runs == [expected]


def test_the_nasty_name_and_reason_reach_the_forum_as_written(season: tuple[WorldFile, Any, Any]) -> None:
    lysa = _reports(season[0])["player:lysa"]
    assert NASTY_NAME in _bbcode_text(render_report(lysa, "bbcode"))
    assert any(NASTY_REASON in run for run in _markdown_inline_texts(render_report(lysa, "markdown")))


# -- Discord: messages of at most 2,000 characters, cut between lines -------------------------------------


def test_discord_messages_are_at_most_2000_characters_and_never_cut_a_line(season: tuple[WorldFile, Any, Any]) -> None:
    report = _reports(season[0])["king:elbreth"]
    messages = render_discord(report, limit=600)
    assert len(messages) > 1 and all(len(m) <= 600 for m in messages)
    whole = render_report(report, "markdown").splitlines()
    for message in messages:
        for line in message.splitlines():
            assert line in whole, f"a cut line: {line!r}"
    assert all(m.count("```") % 2 == 0 for m in messages)  # a code block cut in two is closed and reopened
    assert render_discord(report) == split_messages(render_report(report, "markdown"))


# -- the GM's tools: `yak season narrative`, `yak report --format discord` ---------------------------------


def test_yak_season_narrative_tops_the_post_and_discord_cuts_it_into_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from yak_tui.cli import main
    from yak_tui.kernel.season.reports import DISCORD_BREAK

    save = create_world(tmp_path / "world.json")
    argv = ["--save", str(save.path), "--as", "gm"]
    assert main([*argv, "season", "narrative", "The rains came, [b]hard[/b]."]) == 0
    assert "Spring 312: the narrative is set" in capsys.readouterr().out
    refused = main(["--save", str(save.path), "--as", "king:varos", "season", "narrative", "mine"])
    assert refused != 0 and World(save.read()).meta["narrative"] == "The rains came, [b]hard[/b]."
    capsys.readouterr()
    assert main([*argv, "advance"]) == 0
    assert "narrative" not in World(save.read()).meta  # it went with its season's post
    capsys.readouterr()
    assert main([*argv, "report", "--format", "bbcode"]) == 0
    out = capsys.readouterr().out
    assert "The rains came, [[i][/i]b]hard[[i][/i]/b]." in out
    assert main([*argv, "report", "--format", "discord"]) == 0
    messages = capsys.readouterr().out.split(f"\n{DISCORD_BREAK}\n")
    assert len(messages) > 1 and all(len(m.strip("\n")) <= 2000 for m in messages)


def test_escape_markdown_agrees_with_the_regular_expressions() -> None:
    """Issue 30: escaping is one pass of a character table; it escapes exactly as the three regular
    expressions did (whitespace runs, inline specials, entities, a block opener at the start)."""
    import random
    import re

    from yak_tui.kernel.season.markup import escape_markdown

    inline = re.compile(r"([\\`*_\[\]<>~|#])")
    entity = re.compile(r"&(?=#?\w+;)")
    start = re.compile(r"^(\s*)([-+=]|(\d+)([.)]))")

    def reference(text: str) -> str:
        line = entity.sub(r"\\&", inline.sub(r"\\\1", re.sub(r"\s+", " ", text).strip()))

        def block(match: re.Match[str]) -> str:
            if match.group(3) is not None:
                return f"{match.group(1)}{match.group(3)}\\{match.group(4)}"
            return f"{match.group(1)}\\{match.group(2)}"

        return start.sub(block, line, count=1)

    alphabet = list("ab1 2\t\n\\`*_[]<>~|#&;-+=.)x\u00a0\u2003\u0663\u00b2\x1c\x85@")
    chance = random.Random(30)
    for _ in range(20000):
        text = "".join(chance.choice(alphabet) for _ in range(chance.randint(0, 12)))
        assert escape_markdown(text) == reference(text), repr(text)
