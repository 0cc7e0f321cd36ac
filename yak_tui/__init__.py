"""yak_tui: run a You Are King campaign from a terminal."""

__version__ = "0.1.0"
