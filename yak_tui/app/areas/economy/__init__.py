"""yak_tui.app.areas.economy."""
