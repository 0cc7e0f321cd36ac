"""yak_tui.app.screens."""
