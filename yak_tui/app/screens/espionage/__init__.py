"""The espionage area\'s screens, panels and dialogs."""
