"""yak_tui.areas.court."""
