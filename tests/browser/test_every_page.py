"""Every page of every game, any screen, any input (issue 14 item 6).

For each game, one live server holds a running game (started, one entry played) and a
finished one, each with a person (alice) beside computer players, a host who holds no
seat (hank), a logged-in spectator (olga) and a visitor who is not logged in. Every page
the platform serves is visited by those who may read it, on a desktop and on a 390×844
phone; the pages come from the app's own GET routes, so a new page is scanned without
being named here (a route whose parameters cannot be filled must be listed in
``NOT_PAGES`` with the reason). Each page must have no critical or serious axe-core
violation, and on the phone no sideways scrolling and no control under 32 px tall. The
order form of each game is then filled and saved by the keyboard alone.

With ``SPYHOUSE_UPDATE_SCREENSHOTS=1`` each game's seat page on the phone is kept as
``docs/screenshots/phone-<game>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.settings import Settings
from tests.browser.accessibility import axe_scan, overflowing, small_targets, too_wide
from tests.browser.conftest import PASSWORD, Visitor, keep_for_readme, needs_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = needs_chromium

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}

#: GET routes that are not pages a person reads, with why.
NOT_PAGES = {
    "/healthz": "plain text for probes",
    "/games/{game_id}/state": "the seat page's data as JSON",
    "/games/{game_id}/record.json": "a download",
    "/games/{game_id}/events": "a server-sent events stream",
    "/games/{game_id}/live": "the live pages' polling fallback (JSON)",
    "/api/v1/openapi.json": "the API's schema",
    "/api/v1/docs": "Swagger's own page",
    "/api/v1/docs/oauth2-redirect": "Swagger's own page",
}
#: Who reads a page (the default: alice, a player); "anon" is not logged in.
READERS: dict[str, tuple[str, ...]] = {
    "/": ("anon",),
    "/signup": ("anon",),
    "/login": ("anon",),
    "/reset": ("anon",),
    "/reset/{token}": ("anon",),
    "/rules": ("anon",),
    "/rules/{game}": ("anon",),
    "/archive": ("anon",),
    "/games/{game_id}": ("alice", "hank", "olga", "anon"),
    "/games/{game_id}/host": ("hank",),
    "/games/{game_id}/host/{entry}": ("hank",),
    "/games/{game_id}/replay": ("alice", "olga"),
    "/games/{game_id}/replay/{entry}": ("alice", "hank", "anon"),
}
#: Where the phone screenshot of a seat page starts, where not at the top (Spy vs Spy's
#: order form comes after its status lines).
PHONE_SHOT_AT = {"spyvsspy": "#spy-1"}
#: Extra query strings a page is also read with (every perspective of a replay).
QUERIES = {"/games/{game_id}/replay/{entry}": ("", "?as=s1", "?as=host", "?as=public")}
#: Pages that no game changes: read in the first game's test only (a made-up token shows
#: the reset and unsubscribe pages' answer to a bad link).
PLATFORM_ONLY = re.compile(
    r"^/(|signup|login|reset|reset/\{token\}|unsubscribe/\{token\}|account|account/mail|mail"
    r"|archive|import|rules)$")


@dataclass(frozen=True, slots=True)
class Games:
    running: int
    finished: int
    last: int
    paths: list[str]


def set_up(database_url: str, game: str) -> Games:
    """A finished ``game`` (alice, hank, olga signed up) and a running one of the same
    people, played through the service layer with a fake clock that starts now; the
    app's GET routes."""
    from spyhouse.service import games
    from spyhouse.store.db import make_engine, transaction
    from spyhouse.web.app import create_app
    from tests.browser.test_replay import finished_game
    from tests.platform.test_conformance_routes import Table, _user, app_routes, play_one_entry

    finished, last = finished_game(database_url, game)
    clock = FakeClock(datetime.now(UTC))
    engine = make_engine(database_url)
    try:
        app = create_app(Settings(database_url=database_url, base_url="http://testserver",
                                  demo=False), clock, engine=engine)
        plugin = registry.plugin(game)
        strategies = plugin.bots.strategies if plugin.bots else ()
        now = clock.now()
        with transaction(app.state.web.factory) as db:
            hank, alice = _user(db, "hank"), _user(db, "alice")
            row = games.create_game(db, hank, game=game, title="Every page", options={},
                                    schedule={"interval_hours": 24}, max_seats=None,
                                    now=now, seed=20261202)
            games.join_game(db, alice, row.id, name="AliceToo", player="alice",
                            show_email=False, now=now)
            for index in range(max(row.min_seats, 2) - 1):
                games.add_bot(db, hank, row.id, strategy=strategies[index % len(strategies)],
                              now=now)
            running = row.id
        with transaction(app.state.web.factory) as db:
            games.start_game(db, _user(db, "hank"), running, clock.now())
        from spyhouse.core import bots
        bot = bots.make_bot(game, strategies[0], "s1", 20261202)
        play_one_entry(app, clock, Table(game, running, "", 0, tuple(strategies)), bot)
        paths = sorted({route.path for route in app_routes(app) if route.method == "GET"})
    finally:
        engine.dispose()
    return Games(running, finished, last, paths)


def log_in(visitor: Visitor, username: str) -> None:
    page = visitor.page
    visitor.goto("/login")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def visits(games: Games, game: str, *, platform: bool) -> list[tuple[str, str]]:
    """(reader, URL) of every page of the app for this game's two games; the pages that no
    game changes (``PLATFORM_ONLY``) only where ``platform``."""
    found: list[tuple[str, str]] = []
    for path in games.paths:
        if path in NOT_PAGES or path.startswith("/api/"):
            continue
        if not platform and PLATFORM_ONLY.match(path):
            continue
        readers = READERS.get(path, ("alice",))
        game_ids = [games.running] if "{game_id}" not in path else [games.running,
                                                                      games.finished]
        for game_id in game_ids:
            entry = "1" if game_id == games.running else str(games.last)
            url = (path.replace("{game_id}", str(game_id)).replace("{entry}", entry)
                   .replace("{game}", game).replace("{token}", "made-up-token"))
            assert "{" not in url, f"{path}: a page whose parameters the test cannot fill; " \
                                   "read it in test_every_page.py or list it in NOT_PAGES"
            for query in QUERIES.get(path, ("",)):
                found += [(reader, url + query) for reader in readers]
    found.append(("alice", "/no-such-page"))  # the error page
    return found


def check_page(page: Page, url: str, *, phone: bool) -> list[str]:
    """The page's problems, each line prefixed with where it was seen."""
    where = f"{'phone' if phone else 'desktop'} {url}"
    response = page.goto(url)
    page.wait_for_load_state()
    if response is None or "text/html" not in response.headers.get("content-type", ""):
        return []  # not a page (the error page before browsers got HTML ones)
    problems = [f"{where}: axe {line}" for line in axe_scan(page)]
    if phone:
        wide = too_wide(page)
        if wide:
            problems.append(f"{where}: {wide} px wider than the screen: "
                            + ", ".join(overflowing(page)))
        problems += [f"{where}: small target {line}" for line in small_targets(page)]
    return problems


def tab_to(page: Page, selector: str, *, limit: int = 300) -> None:
    """Press Tab (from where the focus is) until the element matching ``selector`` has it."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _spyvsspy_by_keys(page: Page) -> None:
    """Spy 1 TRAINs in region A: the task by typing its name in the list, the region by
    the arrow keys in the radio group (from "–", the last, round to A)."""
    tab_to(page, 'select[name="spy-1-task"]')
    page.keyboard.type("TRAIN")
    tab_to(page, 'input[name="spy-1-region"]')
    page.keyboard.press("ArrowRight")
    assert page.locator('input[name="spy-1-region"][value="A"]').is_checked()
    assert page.locator('select[name="spy-1-task"]').input_value() == "TRAIN"


def _kingdoms_by_keys(page: Page) -> None:
    """Row 1 FINDs k3's spy: the action typed in its list, Tab past the disabled FROM,
    the country typed in TO."""
    tab_to(page, 'select[name="row-1-action"]')
    page.keyboard.type("FIND")
    page.keyboard.press("Tab")
    tab_to(page, 'select[name="row-1-to"]')
    page.keyboard.type("k3")
    assert page.locator('select[name="row-1-to"]').input_value() == "k3"


def _infiltration_by_keys(page: Page) -> None:
    """Whatever the phase asks: a vote typed in its list, a move by the arrow key, or a
    class by the arrow keys in its radio group."""
    if page.locator("#inf-vote").count():
        tab_to(page, "#inf-vote")
        page.keyboard.type("NO LYNCH")
        assert page.locator("#inf-vote").input_value() == "NO LYNCH"
    elif page.locator("#inf-move").count():
        tab_to(page, "#inf-move")
        page.keyboard.press("ArrowDown")
        assert page.locator("#inf-move").input_value() != ""
    else:
        tab_to(page, 'input[name="class"]')
        page.keyboard.press("ArrowDown")
        assert page.locator('input[name="class"]:checked').count() == 1


#: Each game's order form filled by the keyboard alone (Spy or Lie's board is played by
#: keys in test_spyorlie.py's ``test_placements_by_keyboard_alone``).
BY_KEYS: dict[str, Callable[[Page], None]] = {
    "spyvsspy": _spyvsspy_by_keys,
    "kingdoms": _kingdoms_by_keys,
    "infiltration": _infiltration_by_keys,
}


def save_by_keys(visitor: Visitor, game: str, game_id: int) -> None:
    """The seat page's order form filled, then Tab to "Save orders" and Enter: saved."""
    from playwright.sync_api import expect

    page = visitor.page
    page.set_viewport_size(DESKTOP)
    visitor.goto(f"/games/{game_id}/seat")
    BY_KEYS[game](page)
    tab_to(page, 'form[action$="/orders"] button[type="submit"]')
    with page.expect_navigation():
        page.keyboard.press("Enter")
    visitor.seen()
    expect(page.get_by_role("status").filter(has_text="Your orders are saved")).to_have_count(1)


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_every_page_any_screen(game: str, database_url: str,
                               request: pytest.FixtureRequest) -> None:
    pytest.importorskip("axe_playwright_python")
    # the games are played before the live server (and its worker, on the real clock)
    # starts, so the two never process the same game's entries at once
    games = set_up(database_url, game)
    request.getfixturevalue("live_server")
    new_visitor: Callable[[str], Visitor] = request.getfixturevalue("new_visitor")
    people = {name: new_visitor(name) for name in ("alice", "hank", "olga", "anon")}
    for name in ("alice", "hank", "olga"):
        log_in(people[name], name)
    first = game == sorted(registry.names())[0]
    problems: list[str] = []
    for reader, url in visits(games, game, platform=first):
        page = people[reader].page
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            problems += [f"{reader} {line}" for line in
                         check_page(page, url, phone=viewport is PHONE)]
    alice = people["alice"]
    if game in BY_KEYS:
        save_by_keys(alice, game, games.running)
    alice.page.set_viewport_size(PHONE)
    alice.goto(f"/games/{games.running}/seat")
    if game in PHONE_SHOT_AT:
        alice.page.locator(PHONE_SHOT_AT[game]).evaluate(
            "(el) => { el.scrollIntoView({block: 'start'}); window.scrollBy(0, -8); }")
    keep_for_readme(alice.shot(f"{game}-phone-seat", full_page=False), f"phone-{game}.png")
    assert problems == [], "\n".join(problems)
