"""`yak-verify POST...`: a player's own check of the dice, from the posted texts alone.

Give it the public season posts (and, if you like, your own reports) as files, as the forum showed
them (BBCode or Markdown). It needs no save and no GM: it checks every revealed secret against the
commitment posted a season before, every posted ledger record against its hash and the chain
between the committed heads, re-derives every public roll listed, and names any re-rolled season.
Exit 0 when every roll checks, 1 when one does not or a season was re-rolled, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from yak_tui.kernel.play.fairdice import posted_items, verify_posts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="yak-verify", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("posts", nargs="+", type=Path, help="season posts (and reports) saved as text files")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    texts = []
    for path in args.posts:
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            sys.stderr.write(f"yak-verify: cannot read {path}: {error}\n")
            return 2
    if not any(posted_items(text) for text in texts):
        sys.stderr.write("yak-verify: no `fair-dice` lines in these files (are they yak season posts?)\n")
        return 2
    report = verify_posts(texts)
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
    else:
        sys.stdout.write("\n".join(report.lines()) + "\n")
    return 0 if report.ok else 1


def run() -> None:
    sys.exit(main())
