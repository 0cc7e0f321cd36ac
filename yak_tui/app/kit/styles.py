"""Where the shared styles live: every dialog loads `DIALOGS_TCSS`, every rule screen `RULES_TCSS`."""

from pathlib import Path

KIT_DIR = Path(__file__).parent
DIALOGS_TCSS = KIT_DIR / "dialogs.tcss"
RULES_TCSS = KIT_DIR / "rules.tcss"
