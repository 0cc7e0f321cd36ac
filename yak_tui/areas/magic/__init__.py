"""yak_tui.areas.magic."""
