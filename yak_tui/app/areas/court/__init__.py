"""yak_tui.app.areas.court."""
