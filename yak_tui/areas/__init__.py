"""yak_tui.areas."""
