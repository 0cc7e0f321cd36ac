"""yak_tui.kernel."""
