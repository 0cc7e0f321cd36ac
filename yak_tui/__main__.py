"""`python -m yak_tui`: the same as the `yak` command (used by `yak serve` for each session)."""

from yak_tui.cli import run

if __name__ == "__main__":
    run()
