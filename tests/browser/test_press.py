"""Press in a real browser (issue 14 item 3): in Spy vs Spy and Kingdoms, one player
posts in the public thread and sends the other a private message from the seat page's
forms; the other player's open seat page shows both in its boxes within seconds, without
reloading (live.js's "post" event, ``web/static/chat.js`` taking the fresh lists), and
the boxes pass axe, fit 390 px and have 32 px targets."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.web.deps import SESSION_COOKIE
from tests.browser.accessibility import MIN_TARGET_PX, axe_scan, overflowing
from tests.browser.conftest import LiveServer, Visitor, needs_chromium
from tests.livegames import start_game

pytestmark = needs_chromium

#: The stream's poll of the database, the fetch of the page and some slack.
LIVE_MS = 5000


@pytest.mark.parametrize("kind", ["spyvsspy", "kingdoms"])
def test_messages_appear_live_in_the_other_players_boxes(
        kind: str, live_server: LiveServer, live_factory: sessionmaker[Session],
        new_visitor: Callable[[str], Visitor]) -> None:
    game = start_game(live_factory, live_server.settings, kind, datetime.now(UTC), prefix="press")
    first, second = new_visitor("first"), new_visitor("second")
    for visitor, token in zip((first, second), game.tokens, strict=True):
        visitor.page.context.add_cookies([{"name": SESSION_COOKIE, "value": token,
                                           "url": live_server.url}])
        visitor.goto(f"/games/{game.id}/seat")
        expect(visitor.page.locator("#chat-public")).to_be_visible()
    page = second.page
    page.evaluate("window.pressMarker = 'same page'")  # gone if the page were reloaded
    time.sleep(0.5)  # the streams are open

    public = first.page.locator("#chat-public")
    public.get_by_label("Your post (Public thread)").fill("Shall we talk terms?")
    public.get_by_role("button", name="Post to the thread").click()
    expect(page.locator("#chat-public .chat-posts")).to_contain_text(
        "Shall we talk terms?", timeout=LIVE_MS)
    expect(page.locator("#press .chat-live")).to_contain_text("New message from")

    private = first.page.locator("#chat-private")
    private.get_by_label("To").select_option("s2")
    private.get_by_label("Your message (Private messages)").fill("Only for you.")
    private.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-private .chat-posts")).to_contain_text(
        "Only for you.", timeout=LIVE_MS)
    assert page.evaluate("window.pressMarker") == "same page"

    # the boxes themselves: no blocking axe violation, nothing past 390 px, big targets
    page.set_viewport_size({"width": 390, "height": 844})
    for found in (axe_scan(page), overflowing(page)):
        mine = [line for line in found if "chat" in line or "press" in line]
        assert mine == [], mine
    heights = page.evaluate("""() => [...document.querySelectorAll(
        '#press button, #press select, #press textarea')].map(
        (el) => el.getBoundingClientRect().height)""")
    assert heights and min(heights) >= MIN_TARGET_PX, heights
