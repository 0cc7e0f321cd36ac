"""The warfare area\'s screens, panels and dialogs."""
