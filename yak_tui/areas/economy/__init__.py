"""yak_tui.areas.economy."""
