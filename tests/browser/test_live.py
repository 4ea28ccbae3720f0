"""Live pages in a real browser: for each game, two players' browsers (two contexts) on
their seat pages; the host closes the turn, the live server's worker resolves it, and the
second browser shows the turn-processed notice within 2 s of the worker's commit, without
reloading (``web/static/live.js`` on the game's stream, ``web/pages_events.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.store.tables import Game
from spyhouse.web.deps import SESSION_COOKIE
from tests.browser.conftest import LiveServer, Visitor, needs_chromium
from tests.livegames import GAMES, close_turn, start_game

pytestmark = needs_chromium

#: The issue's bound: the notice within 2 s of the worker resolving the entry.
NOTICE_MS = 2000


def log_in(visitor: Visitor, server: LiveServer, token: str) -> None:
    visitor.page.context.add_cookies([{"name": SESSION_COOKIE, "value": token,
                                       "url": server.url}])


def wait_for_entry(live_factory: sessionmaker[Session], game_id: int, entry: int) -> float:
    """When (monotonic) the worker's resolution of ``entry`` was first seen committed."""
    ends = time.monotonic() + 20
    while time.monotonic() < ends:
        with live_factory() as db:
            row = db.get(Game, game_id)
            if row is not None and row.entry >= entry:
                return time.monotonic()
        time.sleep(0.02)
    raise AssertionError(f"the worker did not resolve entry {entry}")


@pytest.mark.parametrize("kind", GAMES)
def test_a_second_browser_sees_the_turn_processed(
        kind: str, live_server: LiveServer, live_factory: sessionmaker[Session],
        new_visitor: Callable[[str], Visitor]) -> None:
    game = start_game(live_factory, live_server.settings, kind, datetime.now(UTC))
    first, second = new_visitor("first"), new_visitor("second")
    for visitor, token in zip((first, second), game.tokens, strict=True):
        log_in(visitor, live_server, token)
        visitor.goto(f"/games/{game.id}/seat")
        expect(visitor.page.locator("#live-notice")).to_be_attached()
        expect(visitor.page.locator("#live-notice")).to_be_empty()
    page = second.page
    page.evaluate("window.liveMarker = 'same page'")  # gone if the page were reloaded
    time.sleep(0.5)  # the streams are open

    close_turn(live_factory, live_server.settings, game.id, datetime.now(UTC))
    resolved = wait_for_entry(live_factory, game.id, 1)
    notice = page.locator("#live-notice")
    expect(notice).to_contain_text(" 1 processed", timeout=NOTICE_MS)
    took = time.monotonic() - resolved
    assert took <= NOTICE_MS / 1000, f"the notice came {took:.2f} s after the worker"
    expect(notice).to_have_attribute("aria-live", "polite")
    expect(notice.get_by_role("link", name="read your report")).to_have_attribute(
        "href", f"/games/{game.id}/report")
    expect(notice.get_by_role("link", name="give your next orders")).to_have_attribute(
        "href", f"/games/{game.id}/seat")
    assert page.evaluate("window.liveMarker") == "same page"
    # the countdown took the next deadline (the host's close had made it "processing…")
    expect(page.locator(".countdown").first).not_to_have_text("processing…")
    second.shot(f"live-{kind}")
    expect(first.page.locator("#live-notice")).to_contain_text(" 1 processed")

    # the link leads to the new form, made at the new entry
    notice.get_by_role("link", name="give your next orders").click()
    page.wait_for_load_state()
    expect(page.locator("#live-notice")).to_have_attribute("data-live-entry", "1")


def test_a_spectator_sees_the_public_notice(
        live_server: LiveServer, live_factory: sessionmaker[Session],
        new_visitor: Callable[[str], Visitor]) -> None:
    """Anyone may watch a public game: the game page hears the entry, without a seat's
    words or links."""
    game = start_game(live_factory, live_server.settings, "kingdoms", datetime.now(UTC),
                      prefix="w")
    watcher = new_visitor("watcher")
    watcher.goto(f"/games/{game.id}")
    expect(watcher.page.locator("#live-notice")).to_be_attached()
    time.sleep(0.5)
    close_turn(live_factory, live_server.settings, game.id, datetime.now(UTC))
    notice = watcher.page.locator("#live-notice")
    expect(notice).to_contain_text("Turn 1 processed.")
    expect(notice.get_by_role("link")).to_have_count(1)
    expect(notice.get_by_role("link", name="see the game as it is now")).to_have_attribute(
        "href", f"/games/{game.id}")


def test_without_event_source_the_page_polls(
        live_server: LiveServer, live_factory: sessionmaker[Session],
        new_visitor: Callable[[str], Visitor]) -> None:
    game = start_game(live_factory, live_server.settings, "spyvsspy", datetime.now(UTC),
                      prefix="p")
    player = new_visitor("poller")
    player.page.add_init_script("delete window.EventSource;")
    asked: list[str] = []
    player.page.on("request", lambda request: asked.append(request.url))
    log_in(player, live_server, game.tokens[1])
    with player.page.expect_request(lambda r: f"/games/{game.id}/live" in r.url):
        player.goto(f"/games/{game.id}/seat")
    close_turn(live_factory, live_server.settings, game.id, datetime.now(UTC))
    wait_for_entry(live_factory, game.id, 1)
    # the next poll (every 10 s) tells it
    expect(player.page.locator("#live-notice")).to_contain_text("Turn 1 processed",
                                                                timeout=15_000)
    assert not [url for url in asked if "/events" in url]


def test_a_countdown_at_zero_says_processing(
        live_server: LiveServer, live_factory: sessionmaker[Session],
        new_visitor: Callable[[str], Visitor]) -> None:
    """The browser's clock runs past the deadline (the server's does not): the countdown
    and the notice say "processing…" until the entry's notice comes."""
    game = start_game(live_factory, live_server.settings, "infiltration", datetime.now(UTC),
                      prefix="c")
    player = new_visitor("clock")
    log_in(player, live_server, game.tokens[0])
    player.page.clock.install()
    player.goto(f"/games/{game.id}/seat")
    notice = player.page.locator("#live-notice")
    expect(notice).to_be_empty()
    player.page.clock.fast_forward(96 * 3600 * 1000)
    expect(notice).to_have_text("The deadline has passed: processing…")
    expect(player.page.locator(".countdown").first).to_have_text("processing…")
