"""yak_tui.areas.warfare."""
