"""A stored report as forum text: BBCode (SMF, phpBB), Markdown (Discourse) and Discord's Markdown cut
into messages. Every word of a report is plain text in the save; only here is markup added, and every
text is escaped first, so a name or a reason holding `[url=…]`, `[/list]`, `*`, `_` or a backtick
reads as those characters and never opens a tag, a link or a list.
"""

from __future__ import annotations

import re
from typing import Any

DISCORD_LIMIT = 2000  # characters in one Discord message

_WHITESPACE = re.compile(r"\s+")
# Escaped wherever they stand: emphasis, code, links, images, HTML and autolinks, Discord's
# strikethrough and spoilers, a heading's closing #s. A backslash first, so the ones added are not escaped again.
_MD_ENTITY = re.compile(r"&(?=#?\w+;)")
# At the start of a line (a list item's text, a heading, the narrative): what would open a block.
_MD_LINE_START = re.compile(r"^(\s*)([-+=]|(\d+)([.)]))")


def _one_line(text: str) -> str:
    """Any run of whitespace (a newline in a name) as one space: a line item stays one line."""
    return _WHITESPACE.sub(" ", str(text)).strip()


def escape_bbcode(text: str) -> str:
    """Text a BBCode parser shows as it is: every `[` is followed by an empty `[i][/i]`, so it can
    never start a tag (SMF and phpBB alike; the reader sees the bracket)."""
    return _one_line(text).replace("[", "[[i][/i]")


def escape_markdown(text: str) -> str:
    """Text a CommonMark (or Discord) parser shows as it is: the characters that make emphasis,
    code, links or HTML are backslash-escaped, and so is what would open a block at its start."""
    # One pass over the characters (a table, not a regular expression: `yak report` escapes every
    # line of every recipient's report); each special character once, so a backslash is not doubled.
    line = " ".join(str(text).split()).translate(_MD_ESCAPES)  # as `_one_line`: str.split's whitespace is \s
    if "&" in line:
        line = _MD_ENTITY.sub(r"\\&", line)
    if line and (line[0] in "-+=" or line[0].isdigit()):  # \d is a subset of isdigit: the regex decides

        def _block(match: re.Match[str]) -> str:
            if match.group(3) is not None:  # "1." or "1)": an ordered list
                return f"{match.group(1)}{match.group(3)}\\{match.group(4)}"
            return f"{match.group(1)}\\{match.group(2)}"

        return _MD_LINE_START.sub(_block, line, count=1)
    return line


_MD_ESCAPES = str.maketrans({char: "\\" + char for char in "\\`*_[]<>~|#"})


def _discord_safe(text: str) -> str:
    """Discord pings `@everyone` and `@here` even escaped: a zero-width space keeps them words."""
    return re.sub(r"@(everyone|here)\b", "@\u200b\\1", text)


def render_bbcode(report: dict[str, Any]) -> str:
    lines = [f"[size=150][b]{escape_bbcode(report['heading'])}[/b][/size]"]
    if report.get("narrative"):
        lines += ["", *_paragraphs(report["narrative"], escape_bbcode)]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        lines += ["", f"[b]{escape_bbcode(section['title'])}[/b]"]
        if section.get("kind") == "code":  # ids and numbers only: nothing in it is markup
            lines += ["[code]", *(str(item["text"]) for item in items), "[/code]"]
            continue
        lines.append("[list]")
        for item in items:
            lines.append(f"[*]{escape_bbcode(item['text'])}")
            lines += [f"[i]{escape_bbcode(detail)}[/i]" for detail in item.get("details", [])]
        lines.append("[/list]")
    if report.get("footer"):
        lines += ["", *(f"[size=85]{escape_bbcode(line)}[/size]" for line in report["footer"])]
    return "\n".join(lines) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    lines = [f"# {escape_markdown(report['heading'])}"]
    if report.get("narrative"):
        lines += ["", *_paragraphs(report["narrative"], escape_markdown)]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        lines += ["", f"## {escape_markdown(section['title'])}", ""]
        if section.get("kind") == "code":
            lines += ["```text", *(str(item["text"]) for item in items), "```"]
            continue
        for item in items:
            lines.append(f"- {escape_markdown(item['text'])}")
            lines += [f"  - *{escape_markdown(detail)}*" for detail in item.get("details", [])]
    if report.get("footer"):
        lines += ["", *(f"*{escape_markdown(line)}*" for line in report["footer"])]
    return "\n".join(lines) + "\n"


def _paragraphs(text: str, escape: Any) -> list[str]:
    """The GM's narrative: his paragraphs (blank lines between them) kept, each escaped."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", str(text).strip()):
        if paragraph.strip():
            if out:
                out.append("")
            out.append(escape(paragraph))
    return out


def render_discord(report: dict[str, Any], limit: int = DISCORD_LIMIT) -> list[str]:
    """The Markdown post as Discord messages of at most `limit` characters, cut between lines only; a
    code block cut in two is closed at the end of one message and opened again in the next."""
    return split_messages(_discord_safe(render_markdown(report)), limit)


def split_messages(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    messages: list[str] = []
    current: list[str] = []
    size = 0
    fence: str | None = None  # the opening line of the code block we are in, if any
    for raw in text.rstrip("\n").split("\n"):
        line = raw if len(raw) <= limit - 8 else raw[: limit - 9] + "…"  # one line longer than a message
        closing = 4 if fence else 0  # "\n```" to close a block cut here
        if current and size + len(line) + 1 + closing > limit:
            if fence:
                current.append("```")
            messages.append("\n".join(current).strip("\n"))
            current, size = ([fence], len(fence) + 1) if fence else ([], 0)
        if line.startswith("```"):
            fence = None if fence else line
        if current or line.strip():  # a message never starts with a blank line
            current.append(line)
            size += len(line) + 1
    if current:
        messages.append("\n".join(current).strip("\n"))
    return [message for message in messages if message.strip()]


__all__ = [
    "DISCORD_LIMIT",
    "escape_bbcode",
    "escape_markdown",
    "render_bbcode",
    "render_discord",
    "render_markdown",
    "split_messages",
]
