"""yak_tui.app.areas.espionage."""
