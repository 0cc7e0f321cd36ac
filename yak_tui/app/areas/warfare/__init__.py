"""yak_tui.app.areas.warfare."""
