"""Two themes with the same character, one for dark and one for light terminals.

Textual paints its own background, so either reads well anywhere; the app picks the one that
matches the terminal (`COLORFGBG`, or `YAK_THEME=light|dark`) so it does not glare.
"""

from __future__ import annotations

import os

from textual.theme import Theme

YAK_DARK = Theme(
    name="yak-dark",
    primary="#D9A441",
    secondary="#7FA7D9",
    accent="#E07A5F",
    foreground="#E8E4DA",
    background="#16181D",
    surface="#1E2128",
    panel="#282C35",
    success="#7BC47F",
    warning="#E9B949",
    error="#E5645B",
    dark=True,
    variables={
        "footer-key-foreground": "#D9A441",
        "block-cursor-background": "#D9A441",
        "block-cursor-foreground": "#16181D",
        "input-selection-background": "#D9A441 35%",
    },
)

YAK_LIGHT = Theme(
    name="yak-light",
    primary="#8A5A00",
    secondary="#2F5F9E",
    accent="#B0412E",
    foreground="#2A2520",
    background="#F7F3EA",
    surface="#FFFDF8",
    panel="#EAE2D2",
    success="#2E7D32",
    warning="#9A6700",
    error="#B3261E",
    dark=False,
    variables={
        "footer-key-foreground": "#8A5A00",
        "block-cursor-background": "#8A5A00",
        "block-cursor-foreground": "#FFFDF8",
        "input-selection-background": "#8A5A00 30%",
    },
)

THEMES = (YAK_DARK, YAK_LIGHT)


def preferred_theme() -> str:
    """`YAK_THEME`, else the terminal's own background from `COLORFGBG` ("fg;bg"), else dark."""
    wanted = os.environ.get("YAK_THEME", "").lower()
    if wanted in ("light", "dark"):
        return f"yak-{wanted}"
    fgbg = os.environ.get("COLORFGBG", "")
    if fgbg:
        background = fgbg.split(";")[-1]
        if background.isdigit() and int(background) in (7, 15):
            return YAK_LIGHT.name
    return YAK_DARK.name
