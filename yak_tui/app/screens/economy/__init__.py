"""The economy area\'s screens, panels and dialogs."""
