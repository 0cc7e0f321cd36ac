"""yak_tui.app.areas."""
