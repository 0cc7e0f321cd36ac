"""The magic area\'s screens, panels and dialogs."""
