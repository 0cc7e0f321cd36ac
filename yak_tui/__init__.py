"""yak_tui: run a You Are King campaign from a terminal."""

from yak_tui.codecache import keep_dataclass_methods

__version__ = "0.1.0"

keep_dataclass_methods()  # before any class of yak is made (issue 30)
