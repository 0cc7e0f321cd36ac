"""The nobles area\'s screens, panels and dialogs."""
