"""The replay stepper in a real browser: a finished game of each type (its own computer
players beside one person, played to the end through the service layer on the live
server's database), stepped through by a logged-out reader with the arrow keys, the
perspective switched with the keyboard alone, on a desktop and a 390 px phone (no
sideways scrolling, every form control labelled). With ``SPYHOUSE_UPDATE_SCREENSHOTS=1``
the screenshots ``docs/screenshots/replay-<game>.png`` and ``replay-phone.png`` are kept."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.settings import Settings
from tests.browser.conftest import LiveServer, Visitor, keep_for_readme, needs_chromium

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = needs_chromium

PHONE: ViewportSize = {"width": 390, "height": 844}
#: The game whose phone screenshot the docs keep.
PHONE_SHOT = "spyorlie"
#: The perspective of a game's screenshot in the docs where not the host's (Spy vs Spy's
#: host page is its text of the whole game; a brotherhood's report is its table).
DOCS_PERSPECTIVE = {"spyvsspy": "s1"}
#: Every form control on the page without a label (an empty list: all are labelled).
UNLABELLED = """() => [...document.querySelectorAll(
    'select, textarea, input:not([type=hidden])')]
  .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                  && !el.getAttribute('aria-labelledby'))
  .map((el) => el.outerHTML.slice(0, 80))"""


def finished_game(database_url: str, game: str) -> tuple[int, int]:
    """A finished ``game`` on the live server's database: its id and last entry. Played with
    a fake clock that starts now, so every deadline lies ahead of the live worker's."""
    from spyhouse.store.db import make_engine
    from spyhouse.web.app import create_app
    from tests.platform.test_conformance_routes import _status, play_one_entry
    from tests.web.test_replay import _started, _to_the_end

    clock = FakeClock(datetime.now(UTC))
    engine = make_engine(database_url)
    try:
        app = create_app(Settings(database_url=database_url, base_url="http://testserver",
                                  demo=False), clock, engine=engine)
        played, bot = _started(app, clock, game)
        play_one_entry(app, clock, played.table, bot)
        _to_the_end(app, clock, played, bot)
        status, last = _status(app.state.web.factory, played.game_id)
        assert status == "over"
        return played.game_id, last
    finally:
        engine.dispose()


def position(visitor: Visitor) -> str:
    return visitor.page.locator("#replay-position").inner_text()


def press_and_wait(visitor: Visitor, key: str, url: re.Pattern[str]) -> None:
    with visitor.page.expect_navigation():
        visitor.page.keyboard.press(key)
    visitor.page.wait_for_url(url)
    visitor.seen()


def too_wide(visitor: Visitor) -> int:
    width = int(visitor.page.evaluate("document.documentElement.scrollWidth"))
    return max(0, width - int(visitor.page.viewport_size["width"]))  # type: ignore[index]


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_step_through_a_finished_game_by_keyboard(
        game: str, database_url: str, live_server: LiveServer,
        new_visitor: Callable[[str], Visitor]) -> None:
    from playwright.sync_api import expect

    game_id, last = finished_game(database_url, game)
    assert last >= 3, "a game of a few entries at least"
    reader = new_visitor("reader")
    page = reader.page
    reader.goto(f"/games/{game_id}/replay")
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/replay/0$"))
    expect(page.locator("#replay-position")).to_contain_text("Set-up")
    expect(page.locator("#replay-prev")).to_have_attribute("aria-disabled", "true")

    # the arrow keys step; an arrow in a form control is the control's own
    press_and_wait(reader, "ArrowRight", re.compile(r"/replay/1\?as=host$"))
    expect(page.locator("#replay-position")).to_contain_text(f" 1 of {last}")
    press_and_wait(reader, "ArrowRight", re.compile(r"/replay/2\?as=host$"))
    press_and_wait(reader, "ArrowLeft", re.compile(r"/replay/1\?as=host$"))
    press_and_wait(reader, "ArrowRight", re.compile(r"/replay/2\?as=host$"))
    expect(page.locator("#replay-why")).to_be_visible()
    assert reader.page.evaluate(UNLABELLED) == []
    shown = DOCS_PERSPECTIVE.get(game, "host")
    if shown != "host":
        reader.goto(f"/games/{game_id}/replay/2?as={shown}")
    shot = reader.shot(f"{game}-{shown}", full_page=False)
    keep_for_readme(shot, f"replay-{game}.png")
    if shown != "host":
        reader.goto(f"/games/{game_id}/replay/2?as=host")

    # the perspective, by keyboard alone: the chooser, a key, then the Show button
    chooser = page.locator("#replay-as")
    chooser.focus()
    first_choice = chooser.input_value()
    page.keyboard.press("ArrowDown")
    chosen = chooser.input_value()
    assert chosen != first_choice, "ArrowDown moves the chooser, not the replay"
    assert re.search(r"/replay/2\?as=host$", page.url), "the arrow stayed in the select"
    page.keyboard.press("Tab")
    expect(page.locator("#replay-show")).to_be_focused()
    press_and_wait(reader, "Enter", re.compile(rf"/replay/2\?as={re.escape(chosen)}$"))
    expect(page.locator("#replay-view")).to_have_attribute("data-perspective", chosen)
    press_and_wait(reader, "ArrowRight", re.compile(rf"/replay/3\?as={re.escape(chosen)}$"))

    # the last entry: the result, no next step
    reader.goto(f"/games/{game_id}/replay/{last}?as=s1")
    expect(page.locator("#replay-result")).to_be_visible()
    expect(page.locator("#replay-next")).to_have_attribute("aria-disabled", "true")
    reader.shot(f"{game}-last")

    # a phone: nothing wider than the screen, every perspective's page
    page.set_viewport_size(PHONE)
    wide = []
    for perspective in ("host", "public", "s1"):
        reader.goto(f"/games/{game_id}/replay/2?as={perspective}")
        wide.append((perspective, too_wide(reader)))
    assert [(p, px) for p, px in wide if px] == [], wide
    reader.goto(f"/games/{game_id}/replay/2?as=host")
    shot = reader.shot(f"{game}-phone", full_page=False)
    if game == PHONE_SHOT:
        keep_for_readme(shot, "replay-phone.png")
