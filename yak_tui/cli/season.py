"""The season-cycle verbs of `yak`: `season` (deadline, status), `ready`, `verify` (the dice ledger). Kept apart from
`yak_tui.cli.commands` so each verb's parser and handler sit together."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yak_tui.cli.session import GlobalOptions, emit, identity_of, open_save
from yak_tui.kernel.errors import YakError
from yak_tui.kernel.world.numbers import counted


def add_season_parsers(sub: Any) -> None:
    """The season verbs' sub-parsers (called by `yak_tui.cli.parser.build_parser`)."""
    verify = sub.add_parser(
        "verify", help="check the dice ledger of the save and its backups (exit 1 if a link is broken)"
    )
    verify.add_argument(
        "--reveal",
        action="store_true",
        help="also re-derive every roll whose season secret is revealed (exit 1 on a mismatch or a re-rolled season)",
    )
    season = sub.add_parser("season", help="the season's orders deadline, and who is ready")
    season_sub = season.add_subparsers(dest="season_verb", metavar="ACTION")
    deadline = season_sub.add_parser(
        "deadline", help="set the orders deadline (GM), e.g. '2026-12-07 20:00 Europe/Berlin' or '2026-12-07T19:00Z'"
    )
    deadline.add_argument("at", help="date and time with a zone or offset (else your own zone, or UTC); '' lifts it")
    deadline.add_argument("--force", action="store_true", help="set it even though it has already passed")
    extend = season_sub.add_parser("extend", help="move the deadline on (GM), e.g. 24h --reason 'the holidays'")
    extend.add_argument("by", help="how long: 24h, 2d, 90m, 1d12h")
    extend.add_argument("--reason", required=True, help="why, for the public post")
    pause = season_sub.add_parser("pause", help="stop the season's clock (GM); resume moves the deadline on")
    pause.add_argument("--reason", default="", help="why, for the public post")
    season_sub.add_parser("resume", help="start the season's clock again (GM)")
    season_sub.add_parser("status", help="deadline, and who has filed, is ready, or sent no orders")
    nudge = season_sub.add_parser(
        "nudge", help="remind the seats with no orders (and not ready) of the deadline, through their own channel (GM)"
    )
    nudge.add_argument("--before", default="12h", help="only once the deadline is this near (default %(default)s)")
    nudge.add_argument("--dry-run", action="store_true", help="print who would be reminded; send nothing")
    narrative = season_sub.add_parser(
        "narrative", help="the GM's story of this season, at the top of its season post ('' clears it)"
    )
    narrative.add_argument("text", help="the narrative, as the forum reads it")
    report = sub.add_parser("report", help="the season reports you may read (the GM: all); --out writes them as files")
    report.add_argument("--season", help="e.g. 'Spring 313' (default: the last season closed)")
    report.add_argument(
        "--format",
        choices=("bbcode", "markdown", "discord"),
        help="default: markdown; discord: Markdown cut into messages of at most 2,000 characters; "
        "--out writes bbcode and markdown unless one is named",
    )
    report.add_argument("--out", type=Path, help="write DIR/<season>/<recipient>.bbcode and .md (.discord.md)")
    diff = sub.add_parser("diff", help="what changed between two seasons, from the backups each advance takes")
    diff.add_argument("before", help="a season, e.g. 'Spring 313'")
    diff.add_argument("after", help="a later season, e.g. 'Summer 313' (the current one is the save itself)")
    ready = sub.add_parser("ready", help="say you have sent all your orders this season (player or King)")
    ready.add_argument("--not", dest="not_ready", action="store_true", help="take it back: not ready yet")


def verb_verify(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.dicechain import verify_files
    from yak_tui.kernel.play.fairdice import season_commitments, verify_reveal
    from yak_tui.kernel.season.history import read_state
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    data = save.read()
    result = verify_files(data, save.path.name, ((path, read_state(path)) for path in save.backups()))
    main = result.reports[0]
    lines = [
        f"{main.name}: {main.records} dice records"
        + (f", {main.undone} of them undone (kept in the ledger)" if main.undone else "")
        + (f"; {main.before_chain} older rolls from before the ledger, not chained" if main.before_chain else ""),
        f"backups checked: {len(result.reports) - 1}",
    ]
    lines += [f"restore {line} (a re-rolled season)" for line in main.restores]
    first = result.first_broken
    if first is None:
        lines.append("the dice ledger holds: every link checks")
    else:
        lines.append(f"BROKEN: {first.line()}")
        problems = sum(len(r.broken) for r in result.reports) + len(result.forks)
        if problems > 1:
            lines.append(f"({problems - 1} more problems; --json lists them all)")
    payload = result.to_dict()
    ok = result.ok
    current = season_commitments(World(data), World(data).date.key())
    if current:
        lines.append(f"this season's commitments: public {current['public']}, private {current['private']}")
    if args.reveal:
        fair = verify_reveal(data)
        payload["fair"] = fair.to_dict()
        lines += fair.lines()
        ok = ok and fair.ok
    emit(opts, payload, "\n".join(lines))
    return 0 if ok else 1


def _run(opts: GlobalOptions, name: str, params: dict[str, Any]) -> Any:
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.season.session import check_identity

    identity = identity_of(opts)
    return run_command(open_save(opts), identity, name, params, check=lambda world: check_identity(world, identity))


def verb_season(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.season.readiness import season_status
    from yak_tui.kernel.world.model import World

    acts = {
        "deadline": lambda: ("season-deadline", {"at": args.at, "force": args.force}),
        "extend": lambda: ("season-extend", {"by": args.by, "reason": args.reason}),
        "pause": lambda: ("season-pause", {"reason": args.reason}),
        "resume": lambda: ("season-resume", {}),
    }
    if args.season_verb in acts:
        name, params = acts[args.season_verb]()
        result = _run(opts, name, params)
        lines = [e["text"] for e in result.shown or []]
        if result.data.get("shown"):
            lines.append(f"In your zone: {result.data['shown']}")
        emit(opts, result.payload(), "\n".join(lines), encoded=result.encoded)
        return 0
    if args.season_verb == "narrative":
        result = _run(opts, "season-narrative", {"text": args.text})
        said = result.data["narrative"]
        text = f"{result.data['season']}: the narrative is set" if said else f"{result.data['season']}: no narrative"
        emit(opts, result.payload(), text, encoded=result.encoded)
        return 0
    load_command_modules()
    if args.season_verb == "nudge":
        return _nudge(opts, args)
    world = World.load(open_save(opts))
    status = season_status(world, identity_of(opts, world))
    lines = [f"{status['season']}: orders due by {status['deadline_shown'] or '(no deadline set)'}"]
    lines += [
        f"  {row['label']}: {row['status']}"
        + (f" ({row['filed']} filed)" if row["filed"] else "")
        + (f"; missed {counted(row['missed'], 'season')} in a row" if row["missed"] else "")
        for row in status["seats"]
    ]
    emit(opts, status, "\n".join(lines))
    return 0


def _nudge(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.deliver.nudge import plan_nudges
    from yak_tui.deliver.post import deliver
    from yak_tui.kernel.play.commands import gm_refusal
    from yak_tui.kernel.season.clock import parse_duration
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    world = World.load(save)
    identity = identity_of(opts, world)
    if not identity.is_gm:
        raise gm_refusal("send deadline nudges", identity)
    done = deliver(
        save.path, plan_nudges(save.path, world, parse_duration(args.before, "before")), dry_run=args.dry_run
    )
    lines = [f"{d.recipient} -> {d.target}: {d.action}" for d in done]
    emit(
        opts,
        {"dry_run": bool(args.dry_run), "nudges": [d.to_dict() for d in done]},
        "\n".join(lines) or "no nudge due (no deadline within --before, or every seat has filed or is ready)",
    )
    return 0


def verb_ready(opts: GlobalOptions, args: argparse.Namespace) -> int:
    result = _run(opts, "ready", {"ready": not args.not_ready})
    emit(opts, result.payload(), "\n".join(e["text"] for e in result.shown or []), encoded=result.encoded)
    return 0


def verb_report(opts: GlobalOptions, args: argparse.Namespace) -> int:
    # Stored reports are printed as they were written: no area is imported (issue 30).
    from yak_tui.kernel.season.reports import (
        DISCORD_BREAK,
        EXPORT_FORMATS,
        export_reports,
        render_report,
        reports_for,
    )
    from yak_tui.kernel.world.model import World

    world = World.load(open_save(opts))
    identity = identity_of(opts, world)
    found = reports_for(world, identity, args.season)
    if not found:
        raise YakError(
            "no season report yet: reports are written when a season closes (`yak advance`)"
            if not args.season
            else f"no report for {args.season}"
        )
    if args.out is not None:
        formats = (args.format,) if args.format else EXPORT_FORMATS
        written = export_reports(found, args.out, formats)
        emit(opts, {"written": [str(p) for p in written]}, "\n".join(str(p) for p in written))
        return 0
    between = f"\n{DISCORD_BREAK}\n" if args.format == "discord" else "\n\n"  # each report its own messages
    text = between.join(render_report(r, args.format or "markdown").rstrip("\n") for r in found)
    emit(opts, {"reports": found}, text.rstrip("\n"))
    return 0


def verb_diff(opts: GlobalOptions, args: argparse.Namespace) -> int:
    # Two worlds compared field by field in words: no area is imported (issue 30).
    from yak_tui.kernel.season.history import diff_worlds, season_state
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    current = save.read()  # read once: either side may be the current season
    after = World(season_state(save, args.after, current))
    identity = identity_of(opts, after)
    result = diff_worlds(World(season_state(save, args.before, current)), after, identity)
    emit(opts, result.to_dict(), "\n".join(result.lines()))
    return 0


SEASON_VERBS: dict[str, Callable[[GlobalOptions, argparse.Namespace], int]] = {
    "verify": verb_verify,
    "season": verb_season,
    "ready": verb_ready,
    "report": verb_report,
    "diff": verb_diff,
}
