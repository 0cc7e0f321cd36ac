"""E-mail: one message per reader, multipart text (the report's Markdown) and HTML, with his map
picture attached, sent through the GM's SMTP channel with the standard library only."""

from __future__ import annotations

import html
import smtplib
import ssl
from collections.abc import Iterable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from yak_tui.deliver.discord import Attachment, DeliveryError
from yak_tui.kernel.season.markup import render_markdown

TIMEOUT = 30.0


def render_html(report: dict[str, Any]) -> str:
    """A stored report as a small HTML page: every word escaped, nothing a reader's client runs."""
    esc = html.escape
    out = [f"<h1>{esc(report['heading'])}</h1>"]
    if report.get("narrative"):
        out += [f"<p>{esc(p.strip())}</p>" for p in str(report["narrative"]).split("\n\n") if p.strip()]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        out.append(f"<h2>{esc(section['title'])}</h2>")
        if section.get("kind") == "code":
            out.append("<pre>" + "\n".join(esc(str(i["text"])) for i in items) + "</pre>")
            continue
        out.append("<ul>")
        for item in items:
            details = "".join(f"<li><em>{esc(d)}</em></li>" for d in item.get("details", []))
            out.append(f"<li>{esc(item['text'])}" + (f"<ul>{details}</ul>" if details else "") + "</li>")
        out.append("</ul>")
    if report.get("footer"):
        out += [f"<p><small>{esc(line)}</small></p>" for line in report["footer"]]
    return '<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n' + "\n".join(out) + "\n</body></html>\n"


def report_message(
    report: dict[str, Any], sender: str, to: str, attachments: Iterable[Attachment] = ()
) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = str(report["heading"])
    message["From"] = sender
    message["To"] = to
    message["Date"] = formatdate(localtime=False)
    domain = sender.rpartition("@")[2] or None
    message["Message-ID"] = make_msgid("yak", domain=domain)
    message.set_content(render_markdown(report))
    message.add_alternative(render_html(report), subtype="html")
    for item in attachments:
        maintype, _, subtype = item.content_type.partition("/")
        message.add_attachment(item.data, maintype=maintype, subtype=subtype, filename=item.filename)
    return message


def text_message(subject: str, text: str, sender: str, to: str) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = to
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid("yak", domain=sender.rpartition("@")[2] or None)
    message.set_content(text)
    return message


def send_mail(channel: dict[str, Any], messages: list[EmailMessage]) -> None:
    """Send every message over one SMTP connection (STARTTLS and login when the channel says so)."""
    if not messages:
        return
    host, port = str(channel["host"]), int(channel["port"])
    try:
        with smtplib.SMTP(host, port, timeout=TIMEOUT) as smtp:
            if channel.get("starttls"):
                smtp.starttls(context=ssl.create_default_context())
            if channel.get("user"):
                smtp.login(str(channel["user"]), str(channel.get("password", "")))
            for message in messages:
                smtp.send_message(message)
    except (OSError, smtplib.SMTPException) as error:
        raise DeliveryError(f"cannot send mail through {host}:{port}: {error}") from None


__all__ = ["render_html", "report_message", "send_mail", "text_message"]
