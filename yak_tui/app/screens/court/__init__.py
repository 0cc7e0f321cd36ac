"""The court area\'s screens, panels and dialogs."""
