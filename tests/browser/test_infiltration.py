"""An Infiltration round played in a real browser, the orders entered by clicking.

Ines signs up, creates an Infiltration game, joins it, seats five computer players and
starts it; her seat's link leads to her seat page, which for Infiltration is the facility
map, the phase's order form with its live countdown, her private log and the public
thread. She chooses her class (a Red has nothing to choose and just confirms), the host
processes the phase from the game page; she clicks a room on the map to move there and
saves, the phase is processed; she votes NO LYNCH and saves, sees her vote in the public
tally, the phase is processed and the public thread shows the turn's votes. The page
fits a phone's 390 px.

A terminal used by clicking: Ines (a Green Sneaker by the game's setup, so Alert Mode
never closes her terminal) walks to a History room and fills its Room field from the map;
the page checks the form as she edits it (the platform's check as you type) and shows the
engine's message beside the row it is about before she saves.

And the talk: Jack posts in the public thread (its form on top, over the newest turn) and
sees his post there; Ines, the Red by the game's setup, posts in the Red channel beside
the thread, which Jack's page never shows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect
from sqlalchemy import select

from spyhouse.service import records
from spyhouse.store.db import make_engine, session_factory
from spyhouse.store.tables import Game, SeatRow
from tests.browser.conftest import (
    TIMEOUT_MS,
    VIEWPORT,
    LiveServer,
    Visitor,
    keep_for_readme,
    needs_chromium,
)
from tests.browser.test_kingdoms import sign_up, wait_page

pytestmark = needs_chromium
#: The platform's check-as-you-type summary of a sheet the rules accept (app.js).
ACCEPTED = "These orders would be accepted."
PHONE = {"width": 390, "height": 844}


def process(visitor: Visitor, game_id: int, phase: str, host: Visitor | None = None) -> None:
    """Process the phase from the game page (as ``host``, by default the visitor); wait
    until the visitor's seat page shows ``phase``."""
    page = visitor.page
    host = host or visitor
    host.goto(f"/games/{game_id}")
    wait_page(host, host.page.get_by_role("button", name="Process the phase now"))
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        visitor.goto(f"/games/{game_id}/seat")
        if phase in page.locator("#inf-phase").inner_text() or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    expect(page.locator("#inf-phase")).to_contain_text(phase)


def new_game(visitor: Visitor, bots: int, *, join: bool = True) -> int:
    """Create an Infiltration game from the form, join it (unless not ``join``), seat
    ``bots`` computer players. Its phases have deadlines of their own, so the form's
    script disables the schedule and says why; nothing of it is posted."""
    page = visitor.page
    visitor.goto("/games/new")
    schedule = page.locator('#schedule-fields input[name="schedule"]').first
    expect(schedule).to_be_enabled()
    expect(page.locator("#schedule-note")).to_be_hidden()
    page.locator('select[name="game"]').select_option("infiltration")
    expect(schedule).to_be_disabled()
    expect(page.locator("#schedule-note")).to_contain_text("its own deadline")
    page.get_by_label("Title").fill("Night shift")
    wait_page(visitor, page.get_by_role("button", name=re.compile("Create")))
    game_id = int(re.findall(r"/games/(\d+)", page.url)[0])
    if join:
        join_game(visitor, game_id)
    add_bots(visitor, bots)
    return game_id


def join_game(visitor: Visitor, game_id: int) -> None:
    visitor.goto(f"/games/{game_id}")
    visitor.page.locator('input[name="name"]').fill(visitor.name.capitalize())
    wait_page(visitor, visitor.page.get_by_role("button", name="Join", exact=True))


def add_bots(visitor: Visitor, bots: int) -> None:
    """Seat ``bots`` computer players from the game page the host is on."""
    page = visitor.page
    for strategy in ("operative", "vigilante", "operative", "vigilante", "operative")[:bots]:
        page.get_by_label("Computer player").select_option(strategy)
        wait_page(visitor, page.get_by_role("button", name="Add a computer player"))


#: The innermost elements that reach past the right edge of the screen (to name the culprit).
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
  .filter((el) => ![...el.children].some(
    (c) => c.getBoundingClientRect().right > window.innerWidth + 0.5))
  .slice(0, 5).map((el) => el.tagName + "." + el.className + " " +
    Math.round(el.getBoundingClientRect().right) + " " + (el.textContent || "").slice(0, 60))"""


def test_an_infiltration_round_by_clicking(new_visitor: Callable[[str], Visitor]) -> None:
    ines = new_visitor("ines")
    page = ines.page
    sign_up(ines, "ines")

    game_id = new_game(ines, bots=5)
    wait_page(ines, page.get_by_role("button", name="Start the game"))

    page.get_by_role("link", name="Your orders", exact=True).click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/seat$"))
    ines.seen()
    expect(page.locator("#inf-map")).to_be_visible()
    expect(page.locator("#inf-phase")).to_contain_text("Class selection")
    expect(page.locator(".deadline .countdown")).to_contain_text(re.compile(r"^in \d+ (d|h|min|s)"))
    expect(page.locator("#private-log")).to_contain_text("You are")
    ines.shot("infiltration-class")

    # class selection: a Green picks Hacker; a Red confirms
    hacker = page.locator('input[name="class"][value="Hacker"]')
    if hacker.count():
        hacker.check()
    wait_page(ines, page.get_by_role("button", name="Save orders"))
    expect(page.get_by_role("status")).to_contain_text("Your orders are saved")
    process(ines, game_id, "Movement phase")

    # movement: click a room on the map
    here = page.locator("td.inf-here").get_attribute("data-room")
    target = "D-4" if here != "D-4" else "E-5"
    page.locator(f'#inf-map td[data-room="{target}"]').click()
    expect(page.locator("#inf-move")).to_have_value(target)
    expect(page.locator(f"#room-{target}")).to_have_class(re.compile("inf-picked"))
    ines.shot("infiltration-movement")
    wait_page(ines, page.get_by_role("button", name="Save orders"))
    expect(page.get_by_role("status")).to_contain_text("Your orders are saved")
    process(ines, game_id, "Decision phase")
    expect(page.locator("td.inf-here")).to_have_attribute("data-room", re.compile(r"[A-H]-\d"))
    expect(page.locator("#inf-arrival")).to_be_visible()

    # decision: vote NO LYNCH; the public tally shows it
    page.locator("#inf-vote").select_option("NO LYNCH")
    wait_page(ines, page.get_by_role("button", name="Save orders"))
    expect(page.locator("#vote-tally")).to_contain_text("Ines → NO LYNCH")
    shot = ines.shot("infiltration-decision")
    keep_for_readme(shot, "infiltration.png")
    page.set_viewport_size(PHONE)  # a phone: the map and the form fit its width
    ines.shot("infiltration-phone")
    wide = page.evaluate(WIDER_THAN_THE_SCREEN)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    page.set_viewport_size(VIEWPORT)
    process(ines, game_id, "Turn 2")
    expect(page.locator("#public-thread")).to_contain_text("Totals:")
    ines.shot("infiltration-turn-2")


def _setup_and_map(server: LiveServer, game_id: int, setup: dict[str, Any] | None
                   ) -> dict[str, Any]:
    """Write ``setup`` (§15.3) into the game's options before the start, or, once it has
    started, read the facility from the host snapshot (the test plays the moderator)."""
    engine = make_engine(server.settings.database_url)
    try:
        with session_factory(engine)() as db:
            game = db.get(Game, game_id)
            assert game is not None
            if setup is not None:
                game.options = {**game.options, "setup": setup}
                db.commit()
                return {}
            return records.snapshot(db, game_id, game.entry, records.HOST_KEY)
    finally:
        engine.dispose()


def _seats(server: LiveServer, game_id: int) -> list[str]:
    engine = make_engine(server.settings.database_url)
    try:
        with session_factory(engine)() as db:
            return list(db.scalars(select(SeatRow.seat_id).where(SeatRow.game_id == game_id)
                                   .order_by(SeatRow.position)))
    finally:
        engine.dispose()


def test_a_terminal_room_picked_on_the_map_and_checked_live(
        new_visitor: Callable[[str], Visitor], live_server: LiveServer) -> None:
    hugo = new_visitor("hugo")  # hosts, holds no seat: the moderator
    sign_up(hugo, "hugo")
    game_id = new_game(hugo, bots=0, join=False)
    ines = new_visitor("ines")
    page = ines.page
    sign_up(ines, "ines")
    join_game(ines, game_id)
    hugo.goto(f"/games/{game_id}")
    add_bots(hugo, 5)
    me, red, *greens = _seats(live_server, game_id)
    classes = {me: "Sneaker", **{seat: "Warrior" for seat in greens}}
    _setup_and_map(live_server, game_id, {"reds": [red], "classes": classes})
    wait_page(hugo, hugo.page.get_by_role("button", name="Start the game"))
    host = _setup_and_map(live_server, game_id, None)
    history = next(r["room"] for r in host["rooms"] if r["feature"] == "History")

    # movement: the map fills the move, and the page checks the form at once
    ines.goto(f"/games/{game_id}/seat")
    expect(page.locator("#inf-phase")).to_contain_text("Movement phase")
    form = page.locator("#inf-form")
    page.locator(f'#inf-map td[data-room="{history}"]').click()
    expect(page.locator("#inf-move")).to_have_value(history)
    expect(form).to_have_attribute("data-checked", "ok")
    expect(page.locator("#inf-check")).to_contain_text(ACCEPTED)
    page.locator('input[name="code"]').fill("12")
    expect(form).to_have_attribute("data-checked", "refused")
    code = page.locator('[data-place="code"]')
    expect(code).to_have_class(re.compile("has-error"))
    expect(code.locator(".check-message")).to_have_text(
        "A door code is exactly four digits (0000–9999).")
    page.locator('input[name="code"]').fill("")
    expect(page.locator("#inf-check")).to_contain_text(ACCEPTED)
    expect(code.locator(".check-message")).to_have_count(0)
    wait_page(ines, page.get_by_role("button", name="Save orders"))
    process(ines, game_id, "Decision phase", host=hugo)
    expect(page.locator("td.inf-here")).to_have_attribute("data-room", history)

    # decision: a click on the map fills the History terminal's Room field, not the move
    room = page.locator("#inf-terminal-room")
    expect(room).to_be_visible()
    target = "A-1" if history != "A-1" else "B-2"
    page.locator(f'#inf-map td[data-room="{target}"]').click()
    expect(room).to_have_value(target)
    expect(page.locator("#inf-terminal-action")).to_have_value("USE")
    expect(page.locator(f"#room-{target}")).to_have_class(re.compile("inf-picked"))
    expect(page.locator("#inf-check")).to_contain_text(ACCEPTED)
    room.fill("Z-9")
    terminal = page.locator('[data-place="terminal"]')
    expect(terminal.locator(".check-message")).to_have_text(
        "'Z-9' is not a room. Rooms are A-1 to H-8.")
    page.locator(f'#inf-map td[data-room="{target}"]').click()
    expect(room).to_have_value(target)
    expect(terminal.locator(".check-message")).to_have_count(0)
    page.get_by_label("READY (needs a vote)").check()
    expect(page.locator('[data-place="ready"] .check-message')).to_have_text(
        "Cast a vote before declaring READY.")
    shot = ines.shot("infiltration-terminal-check")
    keep_for_readme(shot, "infiltration-check.png")
    page.locator("#inf-vote").select_option("NO LYNCH")
    expect(page.locator("#inf-check")).to_contain_text(ACCEPTED)
    expect(form.locator(".check-message")).to_have_count(0)
    wait_page(ines, page.get_by_role("button", name="Save orders"))
    expect(page.get_by_role("status")).to_contain_text("Your orders are saved")
    expect(page.locator("#inf-terminal-room")).to_have_value(target)

    # the moderator's view: the unseated host sees the whole facility; Ines, who plays, not
    hugo.goto(f"/games/{game_id}")
    hugo.page.get_by_role("link", name=re.compile("Host's view")).click()
    hugo.page.wait_for_url(re.compile(rf"/games/{game_id}/host$"))
    hugo.seen()
    expect(hugo.page.locator("#inf-host-map td[data-room]")).to_have_count(64)
    expect(hugo.page.locator(f"#host-room-{history}")).to_contain_text("Ines")
    expect(hugo.page.locator(f'#host-room-{history} .inf-player[title^="Ines:"]')).to_have_class(
        re.compile("inf-team-green"))
    expect(hugo.page.locator(f"#host-seat-{red}")).to_contain_text("Red")
    shot = hugo.shot("infiltration-host")
    keep_for_readme(shot, "infiltration-host.png")
    response = ines.goto(f"/games/{game_id}/host")
    assert response is not None and response.status == 404
    expect(page.locator("main")).to_contain_text("opens to the players when the game is over")


RED_WORDS = "Jack trusts me. I go for the General's room next turn."


def post(visitor: Visitor, box: str, label: str, words: str) -> None:
    """Type ``words`` in the form of channel ``box`` and post it (back on the page)."""
    page = visitor.page
    form = page.locator(f"#chat-{box} form")
    form.locator("textarea").fill(words)
    wait_page(visitor, form.get_by_role("button", name=label))
    page.wait_for_url(re.compile(rf"#chat-{box}$"))


def test_the_public_thread_and_the_red_channel(
        new_visitor: Callable[[str], Visitor], live_server: LiveServer) -> None:
    ines = new_visitor("ines")
    sign_up(ines, "ines")
    game_id = new_game(ines, bots=0)
    jack = new_visitor("jack")
    sign_up(jack, "jack")
    join_game(jack, game_id)
    ines.goto(f"/games/{game_id}")
    add_bots(ines, 4)
    me, him, *_bots = _seats(live_server, game_id)
    _setup_and_map(live_server, game_id, {"reds": [me]})
    wait_page(ines, ines.page.get_by_role("button", name="Start the game"))

    # Jack (Green) posts in the public thread: the form sits on top, over the newest turn
    jack.goto(f"/games/{game_id}/seat")
    page = jack.page
    expect(page.locator("#chat-red")).to_have_count(0)
    form_first = page.locator("#chat-public").evaluate(
        "el => Boolean(el.compareDocumentPosition(document.getElementById("
        "'public-thread-turns')) & Node.DOCUMENT_POSITION_FOLLOWING)")
    assert form_first, "the post form comes before the thread's turns"
    post(jack, "public", "Post to the thread", "Hello all. I start in the east wing.")
    thread = page.locator("#public-thread-turns")
    expect(thread).to_contain_text("Jack: Hello all. I start in the east wing.")
    expect(thread.locator("li.inf-ev-post")).to_have_count(1)

    # Ines (the Red) reads it, and posts in the Red channel beside the thread
    ines.goto(f"/games/{game_id}/seat")
    page = ines.page
    expect(page.locator("#public-thread-turns")).to_contain_text("Jack: Hello all.")
    red = page.locator("#chat-red")
    expect(red).to_be_visible()
    expect(red).to_contain_text("No messages yet.")
    post(ines, "red", "Post to the Reds", RED_WORDS)
    expect(red.locator(".chat-post")).to_contain_text(RED_WORDS)
    expect(red.locator(".chat-author")).to_have_text("Ines")
    post(ines, "public", "Post to the thread", "Same here. All quiet in the west.")
    expect(page.locator("#public-thread-turns li.inf-ev-post")).to_have_count(2)
    ines.seen()
    shot = ines.album.next_path("ines", "thread")
    box = page.locator(".inf-talk").evaluate(  # in page coordinates, with a margin
        "el => { const r = el.getBoundingClientRect(); return {x: r.left - 16,"
        " y: r.top + window.scrollY - 16, width: r.width + 32, height: r.height + 32}; }")
    page.screenshot(path=str(shot), full_page=True, clip=box)
    keep_for_readme(shot, "infiltration-thread.png")

    # Jack's page: both posts in the thread, never the Red channel nor its words
    jack.goto(f"/games/{game_id}/seat")
    expect(jack.page.locator("#public-thread-turns")).to_contain_text("Ines: Same here.")
    expect(jack.page.locator("#chat-red")).to_have_count(0)
    expect(jack.page.locator("#chat-private")).to_be_visible()
    assert all("General's room next turn" not in html for _path, html in jack.pages)
    assert him != me
