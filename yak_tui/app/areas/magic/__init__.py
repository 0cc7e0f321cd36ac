"""yak_tui.app.areas.magic."""
