"""Spy or Lie in a real browser: a whole game against the computer by clicking, and
placements by keyboard alone.

Ann signs up, opens "Play Spy or Lie against the computer" from the lobby (the
platform's quick page, ``/play/spyorlie``), picks the smallest board and starts; on the
board (the seat page, ``/games/{id}/seat``) she then plays every move with the mouse:
a card from her hand, a highlighted space (and a highlighted target for an announced
Mole Catcher or a Cyber Attack), with R for the first card's rotation, a cancelled
choice (Escape), a look at her own face-down card, and a switch of the computer's
difficulty, until the OPERATION COMPLETE dialog reports the result and every card on the
board turns face up; its NEW OPERATION button clears the board. Kim places cards with
Tab, the arrow keys and Enter only; Lee taps on a phone, on a board no wider than it.
Screenshots of each step land in the test's ``tmp_path``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import (
    PASSWORD,
    TIMEOUT_MS,
    Album,
    LiveServer,
    Visitor,
    keep_for_readme,
    needs_chromium,
)

pytestmark = needs_chromium

MAX_MOVES = 20  # a radius-2 board holds 13 cards: BLUE places at most 7


@pytest.fixture(autouse=True)
def quick_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small thinking budget for the computer (the server runs in this process; the
    bots read ``BUDGETS`` when they are made)."""
    from spyhouse.games.spyorlie import ai

    small = ai.Budget(worlds=4, depth=1, nodes=0, endgame=4, candidates=1, exact_nodes=50)
    for difficulty in (ai.OPERATIVE, ai.SPYMASTER):
        monkeypatch.setitem(ai.BUDGETS, difficulty, small)


def sign_up(visitor: Visitor, username: str) -> None:
    page = visitor.page
    visitor.goto("/signup")
    page.get_by_label("User name").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/lobby"))


BOARD_URL = re.compile(r"/games/(\d+)/seat(\?.*)?$")


def board_id(page: Page) -> int:
    """The game id of the board now shown (``/games/{id}/seat``)."""
    found = BOARD_URL.search(page.url)
    assert found, page.url
    return int(found.group(1))


def new_operation(visitor: Visitor, *, sector: str) -> int:
    """From the lobby: the quick page, a board size (SECTOR NN has radius NN - 1), the
    start button; returns the game id."""
    page = visitor.page
    with page.expect_navigation():
        page.get_by_role("link", name="Play Spy or Lie against the computer").click()
    start = page.get_by_role("button", name=re.compile("Start"))
    expect(start).to_be_visible()
    page.get_by_label(re.compile(rf"Radius {int(sector) - 1}\b")).check()
    visitor.shot("quick-page")
    with page.expect_navigation():
        start.click()
    expect(page).to_have_url(BOARD_URL)
    return board_id(page)


def page_state(page: Page, game_id: int) -> dict[str, Any]:
    """The page's data as its script reads it (same session cookie)."""
    response = page.request.get(f"/games/{game_id}/state")
    assert response.ok
    state: dict[str, Any] = response.json()["state"]
    return state


def wait_for_my_move_or_end(page: Page) -> bool:
    """True when it is the player's move, False when the operation is complete."""
    page.wait_for_function(
        "() => document.querySelector('#sol-dlg-over[open]') !== null || "
        "document.getElementById('sol-turn').textContent === 'YOUR MOVE'")
    return page.locator("#sol-dlg-over[open]").count() == 0


def hand_card(page: Page, face: str) -> Any:
    return page.locator(f'.sol-handcard[data-face="{face}"]')


def available(page: Page, face: str) -> bool:
    return hand_card(page, face).get_attribute("aria-disabled") != "true"


def log_length(page: Page) -> int:
    return page.locator("#sol-log > li").count()


def click_cell(page: Page, cls: str) -> None:
    cells = page.locator(f"#sol-board .sol-cell.{cls}")
    expect(cells.first).to_be_visible()
    cells.first.click()


def cell_at(state: dict[str, Any], q: int, r: int) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in state["view"]["cells"] if c["cell"] == [q, r])
    return found


def inspect_own_card(visitor: Visitor) -> bool:
    """Hovering one's own face-down card shows its face, and only then (UI-11); False
    when no card of mine is face-down now."""
    page = visitor.page
    mine = page.locator("#sol-board .sol-cell.sol-own-hidden").first
    if not page.locator("#sol-board .sol-cell.sol-own-hidden").count():
        return False
    secret = mine.locator(".sol-secret")
    page.mouse.move(0, 0)
    expect(secret).to_have_css("opacity", "0")
    mine.hover()
    expect(secret).to_have_css("opacity", "1")
    expect(secret).to_have_text(re.compile(r"^[SMC]$"))
    visitor.shot("inspect-own-card")
    page.mouse.move(0, 0)
    return True


def play_one(visitor: Visitor, move_number: int, seen: set[str]) -> None:
    """One move by mouse: a card, a highlighted space, maybe a target."""
    page = visitor.page
    before = log_length(page)
    faces = [face for face in ("X", "C", "S", "M") if available(page, face)]
    assert faces, "a card must be playable when it is my move"
    face = faces[0]
    if face == "C" and "announce" in seen and "S" in faces:
        face = "S"
    hand_card(page, face).click()
    expect(hand_card(page, face)).to_have_attribute("aria-pressed", "true")
    legal = page.locator("#sol-board .sol-cell.sol-legal")
    expect(legal.first).to_be_visible()
    if face == "C":
        announce = page.locator("#sol-announce")
        expect(announce).to_be_visible()
        if announce.get_attribute("aria-disabled") == "false" and "announce" not in seen:
            announce.click()
            expect(announce).to_have_attribute("aria-pressed", "true")
            seen.add("announce")
            visitor.shot(f"move{move_number:02d}-announce")
            click_cell(page, "sol-legal")
            expect(page.locator("#sol-board .sol-cell.sol-target").first).to_be_visible()
            visitor.shot(f"move{move_number:02d}-accuse-target")
            click_cell(page, "sol-target")
            expect(page.locator("#sol-log > li")).not_to_have_count(before)
            return
    if "escape" not in seen:  # Escape backs out without a move (UI-09)
        page.keyboard.press("Escape")
        expect(hand_card(page, face)).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#sol-board .sol-cell.sol-legal")).to_have_count(0)
        seen.add("escape")
        hand_card(page, face).click()
    if face == "X":
        seen.add("cyber")
        visitor.shot(f"move{move_number:02d}-cyber")
        click_cell(page, "sol-legal")
        targets = page.locator("#sol-board .sol-cell.sol-target")
        if targets.count():  # several enemy cards touch: choose one (UI-10)
            visitor.shot(f"move{move_number:02d}-cyber-target")
            targets.first.click()
    else:
        cell = page.locator("#sol-board .sol-cell.sol-legal").first
        cell.hover()  # the preview: the card rotated to fit
        expect(cell.locator(".sol-preview")).to_have_count(1)
        visitor.shot(f"move{move_number:02d}-{face}")
        cell.click()
    expect(page.locator("#sol-log > li")).not_to_have_count(before)


def test_a_whole_operation_by_clicking(new_visitor: Callable[[str], Visitor]) -> None:
    ann = new_visitor("ann")
    page = ann.page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(ann, "ann")
    game_id = new_operation(ann, sector="03")

    strip = page.locator(".sol-strip")
    expect(page.locator("#sol-you")).to_have_text("YOU ARE BLUE")
    expect(strip).to_contain_text("ROUND 01")
    expect(strip).to_contain_text("YOUR MOVE")
    expect(strip).to_contain_text("SECTOR 03")
    expect(page.locator("#sol-hand-count")).to_have_text("20 cards remaining")
    expect(page.locator("#sol-prompt")).to_contain_text("Your first move.")
    expect(page.locator("#sol-prompt")).to_contain_text(
        "Choose a card below, then click the center.")
    expect(page.locator("#sol-panel-RED")).to_contain_text("Operative")
    expect(page.locator("#sol-panel-RED")).to_contain_text("CLASSIFIED")
    expect(page.locator("#sol-panel-BLUE")).to_contain_text("TERRITORY CAPTURED")
    # Cyber Attacks wait for round 6 (UI-04): shown, with the reason
    expect(hand_card(page, "X")).to_have_attribute("aria-disabled", "true")
    expect(hand_card(page, "X")).to_contain_text("five turns")
    ann.shot("board-start")

    # the first card: only the centre is highlighted (UI-06); R flips the preference
    hand_card(page, "S").click()
    expect(page.locator("#sol-board .sol-cell.sol-legal")).to_have_count(1)
    expect(page.locator('#sol-board .sol-cell.sol-legal[data-key="0,0"]')).to_have_count(1)
    expect(page.locator("#sol-rotate")).to_contain_text("Rotation A")
    page.keyboard.press("r")
    expect(page.locator("#sol-rotate")).to_contain_text("Rotation B")
    expect(page.locator("#sol-rotate")).to_have_attribute("aria-pressed", "true")
    ann.shot("first-card-rotation-b")
    page.locator('#sol-board .sol-cell[data-key="0,0"]').click()
    assert wait_for_my_move_or_end(page)
    state = page_state(page, game_id)
    assert state["view"]["ply"] == 2  # my card and the reply
    assert cell_at(state, 0, 0)["orientation"] == 1
    expect(page.locator("#sol-log > li").first).to_contain_text("BLUE places a Spy at [0, 0].")
    expect(page.locator("#sol-board .sol-last")).to_have_count(1)  # the reply, marked

    # the difficulty switch, from the computer's next turn (UI-15, D37)
    page.locator("#sol-difficulty").get_by_label("Spymaster").check()
    expect(page.locator("#sol-pending")).to_contain_text("Spymaster plays from")
    expect(page.locator("#sol-who-RED")).to_have_text("Operative")
    page.locator("#sol-difficulty").get_by_label("Operative").check()
    expect(page.locator("#sol-pending")).to_have_text("")

    seen: set[str] = set()
    moves = 1
    while wait_for_my_move_or_end(page):
        if "inspect" not in seen and inspect_own_card(ann):
            seen.add("inspect")
        moves += 1
        assert moves <= MAX_MOVES, "the operation should be over by now"
        play_one(ann, moves, seen)
    dialog = page.locator("#sol-dlg-over")
    expect(dialog).to_be_visible()
    assert "inspect" in seen, "one of my cards stayed face-down for a turn at least"
    expect(dialog).to_contain_text("OPERATION COMPLETE")
    expect(dialog).to_contain_text("Operation complete.")
    state = page_state(page, game_id)
    view = state["view"]
    assert view["over"] is True
    points = view["points"]
    expect(page.locator("#sol-final")).to_have_text(
        f"BLUE {points['BLUE']} points · RED {points['RED']} points")
    result = {"BLUE_WIN": "You win.", "RED_WIN": "You lose.", "DRAW": "A draw: equal points."}
    expect(page.locator("#sol-result")).to_have_text(result[view["result"]])
    expect(page.locator("#sol-log > li").last).to_contain_text("Operation complete: BLUE")
    expect(page.locator("#sol-turn")).to_have_text("OPERATION COMPLETE")
    # once over, every card is face up: the faces come from the host page, which the
    # platform opens to the players now (the seat's own page data stays its view)
    expect(page.locator("#sol-reveal-note")).to_be_visible()
    cards = len(view["cells"])
    expect(page.locator("#sol-board .sol-card")).to_have_count(cards)
    expect(page.locator("#sol-board .sol-face")).to_have_count(cards)
    expect(page.locator("#sol-board .sol-back")).to_have_count(0)
    ann.shot("operation-complete")
    # the log shows every event of every turn, in order (UI-13)
    assert page.locator("#sol-log > li").count() == len(state["lines"])
    # no hidden face of RED's ever reached the page (UI-19)
    for _path, html in ann.pages:
        found = re.search(r'<script type="application/json" id="sol-state">(.*?)</script>',
                          html, re.S)
        if found:
            for cell in json.loads(found.group(1))["view"]["cells"]:
                if cell["placer"] == "RED" and not cell["revealed"]:
                    assert cell["face"] is None

    # a new operation from the dialog: the board cleared, both hands restored
    with page.expect_navigation():
        page.locator("#sol-over-new").click()
    expect(page).to_have_url(BOARD_URL)
    new_id = board_id(page)
    assert new_id != game_id
    expect(page.locator(".sol-strip")).to_contain_text("ROUND 01")
    expect(page.locator("#sol-hand-count")).to_have_text("20 cards remaining")
    expect(page.locator("#sol-board .sol-card")).to_have_count(0)
    ann.shot("fresh-operation")

    # NEW OPERATION asks first; Cancel changes nothing (UI-16)
    page.locator("#sol-new").click()
    confirm = page.locator("#sol-dlg-new")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Start a fresh game?")
    expect(confirm).to_contain_text("This clears the current board and restores both hands.")
    ann.shot("new-operation-confirm")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    assert board_id(page) == new_id
    assert errors == []


def focused(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => { const e = document.activeElement; "
        "return {key: e.dataset ? e.dataset.key || null : null, "
        "face: e.dataset ? e.dataset.face || null : null}; }")
    return result


def tab_to_card(page: Page, face: str, *, limit: int = 80) -> None:
    for _ in range(limit):
        if focused(page)["face"] == face:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the {face} card")


def test_placements_by_keyboard_alone(new_visitor: Callable[[str], Visitor]) -> None:
    kim = new_visitor("kim")
    page = kim.page
    sign_up(kim, "kim")
    game_id = new_operation(kim, sector="05")
    expect(page.locator(".sol-strip")).to_contain_text("SECTOR 05")

    # Tab to the Spy, Enter: the only legal space, the centre, takes the focus
    tab_to_card(page, "S")
    page.keyboard.press("Enter")
    expect(hand_card(page, "S")).to_have_attribute("aria-pressed", "true")
    assert focused(page)["key"] == "0,0"
    kim.shot("keyboard-spy-chosen")
    # Escape cancels; R sets the preferred rotation
    page.keyboard.press("Escape")
    expect(hand_card(page, "S")).to_have_attribute("aria-pressed", "false")
    assert focused(page)["face"] == "S"  # back on the card
    page.keyboard.press("R")
    expect(page.locator("#sol-rotate")).to_contain_text("Rotation B")
    tab_to_card(page, "S")
    page.keyboard.press("Space")
    assert focused(page)["key"] == "0,0"
    page.keyboard.press("Enter")
    assert wait_for_my_move_or_end(page)
    assert focused(page)["face"] == "S"  # the hand, ready for the next move
    state = page_state(page, game_id)
    assert state["view"]["ply"] == 2
    assert cell_at(state, 0, 0)["orientation"] == 1
    kim.shot("keyboard-first-card")

    # a second Spy: Enter, then the arrow key to the second highlighted space, Enter
    legal = sorted({tuple(m["cell"]) for m in state["view"]["legal_moves"]
                    if m["face"] == "S"})
    assert len(legal) >= 2
    tab_to_card(page, "S")
    page.keyboard.press("Enter")
    assert focused(page)["key"] == "{},{}".format(*legal[0])
    page.keyboard.press("ArrowRight")
    assert focused(page)["key"] == "{},{}".format(*legal[1])
    kim.shot("keyboard-arrow")
    page.keyboard.press("Enter")
    assert wait_for_my_move_or_end(page)
    state = page_state(page, game_id)
    blue = [c["cell"] for c in state["view"]["cells"]
            if c["placer"] == "BLUE"]
    assert [legal[1][0], legal[1][1]] in blue
    assert state["view"]["ply"] == 4
    kim.shot("keyboard-second-card")

    # a few more moves by mouse, then the board as the README shows it: a Spy chosen,
    # the legal spaces highlighted, the preview rotated to fit under the pointer
    seen = {"escape", "announce"}
    for number in range(3, 7):
        assert wait_for_my_move_or_end(page)
        play_one(kim, number, seen)
    assert wait_for_my_move_or_end(page)
    hand_card(page, "S").click()
    page.set_viewport_size({"width": 1280, "height": 1180})
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#sol-board .sol-cell.sol-legal").first.hover()
    keep_for_readme(kim.shot("readme", full_page=False), "spyorlie.png")


def test_touch_taps(chromium: Browser, live_server: LiveServer, album: Album) -> None:
    """A phone: a tap chooses the card and the space; a tap on one's own face-down card
    shows its face, another tap hides it (UI-11, UI-18)."""
    context = chromium.new_context(base_url=live_server.url, viewport={"width": 390,
                                   "height": 844}, has_touch=True, is_mobile=True)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        lee = Visitor("lee", context.new_page(), album)
        page = lee.page
        sign_up(lee, "lee")
        game_id = new_operation(lee, sector="04")
        lee.shot("phone-board")
        # nothing is cut off at 390 px: the page is no wider than the screen
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide"
        logout = page.get_by_role("button", name="Log out")
        expect(logout).to_be_visible()
        box = logout.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        hand_card(page, "M").tap()
        page.locator('#sol-board .sol-cell.sol-legal[data-key="0,0"]').tap()
        assert wait_for_my_move_or_end(page)
        assert cell_at(page_state(page, game_id), 0, 0)["face"] == "M"
        for _ in range(3):  # until a card of mine is face-down (an accusation reveals)
            if page.locator("#sol-board .sol-own-hidden").count():
                break
            hand_card(page, "S").tap()
            page.locator("#sol-board .sol-cell.sol-legal").first.tap()
            assert wait_for_my_move_or_end(page)
        mine = page.locator("#sol-board .sol-cell.sol-own-hidden").first
        key = mine.get_attribute("data-key")
        mine = page.locator(f'#sol-board .sol-cell[data-key="{key}"]')
        face = cell_at(page_state(page, game_id), *map(int, str(key).split(",")))["face"]
        mine.tap()
        expect(mine).to_have_class(re.compile(r"\bsol-peek\b"))
        expect(mine.locator(".sol-secret")).to_have_text(face)
        lee.shot("touch-peek")
        mine.tap()
        expect(mine).not_to_have_class(re.compile(r"\bsol-peek\b"))
    finally:
        context.close()
