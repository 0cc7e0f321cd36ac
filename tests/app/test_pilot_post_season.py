"""The GM's "Post the season" on the Reports screen (P, or the palette): the preview `yak post
--dry-run` gives, then Post sends it (issue 31). A seat has no such action."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
from app_helpers import make_app, on_top, settle, wait_for
from pytest_httpserver import HTTPServer
from test_pilot_reports import close_a_season, open_reports
from textual.widgets import Button, Static
from werkzeug import Request, Response

from yak_tui.app.shell.reports import PostSeasonScreen
from yak_tui.deliver.channels import write_channels

TOKEN = "APPTOKEN5551234"


def preview(app: object) -> str:
    return str(app.screen.query_one("#post-preview", Static).render())  # type: ignore[attr-defined]


async def test_the_gm_previews_then_posts_the_season(save_path: Path, httpserver: HTTPServer) -> None:
    posted: list[dict[str, object]] = []

    def answer(request: Request) -> Response:
        body = request.form.get("payload_json") if request.form else request.get_data()
        posted.append(orjson.loads(body or b"{}"))
        return Response(orjson.dumps({"id": str(len(posted)), "channel_id": "9"}), 200, content_type="application/json")

    httpserver.expect_request(re.compile(r"^/api/webhooks/.*"), method="POST").respond_with_handler(answer)
    close_a_season(save_path)
    hook = httpserver.url_for(f"/api/webhooks/1/{TOKEN}")
    write_channels(save_path, {"channels": {"forum": {"kind": "discord", "webhook": hook}}, "logins": {}})
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_reports(pilot, app)
        await pilot.press("P")
        await wait_for(pilot, lambda: on_top(app, PostSeasonScreen), what="the post dialog")
        await wait_for(pilot, lambda: "would post" in preview(app), what="the preview")
        assert "public -> forum (http://localhost" in preview(app) and TOKEN not in preview(app)
        assert posted == []  # a preview sends nothing
        await wait_for(pilot, lambda: not app.screen.query_one("#post", Button).disabled, what="Post enabled")
        app.screen.query_one("#post", Button).press()
        await wait_for(pilot, lambda: "public -> forum" in preview(app) and ": posted" in preview(app), what="posted")
        assert posted and all(p.get("allowed_mentions") == {"parse": []} for p in posted)


async def test_a_seat_has_no_post_action(save_path: Path) -> None:
    close_a_season(save_path)
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        await pilot.press("P")
        await settle(pilot)
        assert not on_top(app, PostSeasonScreen)
        assert all(e.title != "Post the season" for e in screen.palette_entries())
