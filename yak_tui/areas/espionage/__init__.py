"""yak_tui.areas.espionage."""
