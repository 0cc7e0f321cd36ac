"""yak_tui.areas.nobles."""
