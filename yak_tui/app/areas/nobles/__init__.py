"""yak_tui.app.areas.nobles."""
