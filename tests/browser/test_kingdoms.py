"""A Kingdoms turn played in a real browser, the orders entered by clicking.

Kim signs up, creates a Kingdoms game, joins it, seats two computer players and starts
it; her seat's link leads to the platform's seat page (``/games/{id}/seat``: the map and
the four-box order list). She picks SPY and clicks two areas on the map (recruit in a01,
move to a02), picks FIND and the country k3, picks MOVE and clicks a02 then a09: the row
is checked in place (the platform's ``/check``) and the engine's message appears beside
it; she re-arms TO and clicks a08, picks 1 army, saves: a draft, which the page says
waits for "Play the turn now". The turn is processed from the game page ("Process the
turn now") and she reads the report of turn 1 (results, observations, the FIND drawn on
the map) and the setup page. A refused save shows the first message at once and, checked
on load, every failing row's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Locator, expect

from tests.browser.conftest import (
    PASSWORD,
    TIMEOUT_MS,
    Visitor,
    keep_for_readme,
    needs_chromium,
)

pytestmark = needs_chromium


def wait_page(visitor: Visitor, click: Locator) -> None:
    with visitor.page.expect_navigation():
        click.click()
    visitor.seen()


def sign_up(visitor: Visitor, username: str) -> None:
    page = visitor.page
    visitor.goto("/signup")
    page.get_by_label("User name").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    wait_page(visitor, page.get_by_role("button", name="Sign up", exact=True))
    expect(page).to_have_url(re.compile(r"/lobby"))


def test_a_kingdoms_turn_by_clicking(new_visitor: Callable[[str], Visitor]) -> None:
    kim = new_visitor("kim")
    page = kim.page
    sign_up(kim, "kim")

    # a Kingdoms game with two computer players
    game_id = start_kingdoms(kim, "The Six Realms", interval_hours="48")

    # the platform's "Your orders" link leads to the seat page, the Kingdoms map on it
    page.get_by_role("link", name="Your orders", exact=True).click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/seat$"))
    kim.seen()
    expect(page.locator("#km-map")).to_be_visible()
    kim.shot("kingdoms-start")

    def area(aid: str) -> None:
        page.locator(f'#km-map g.km-land[data-area="{aid}"]').click()

    def row(n: int, field: str) -> Locator:
        return page.locator(f'select[name="row-{n}-{field}"]')

    # row 1: SPY, recruit in a01 and move to a02, by two clicks on the map
    row(1, "action").select_option("SPY")
    expect(page.locator("#km-pick")).to_contain_text("row 1 (where / from)")
    area("a01")
    expect(page.locator("#km-pick")).to_contain_text("row 1 (to)")
    area("a02")
    expect(row(1, "from")).to_have_value("a01")
    expect(row(1, "to")).to_have_value("a02")

    # row 2: FIND k3's spy (TO offers the countries only)
    row(2, "action").select_option("FIND")
    expect(page.locator('select[name="row-2-to"] optgroup[data-kind="area"]')).to_be_disabled()
    expect(row(2, "extra")).to_be_disabled()
    row(2, "to").select_option("k3")

    # row 3: MOVE from a02 to a09 (not adjacent): the message appears beside the row
    row(3, "action").select_option("MOVE")
    area("a02")
    area("a09")
    message = page.locator("#row-3-msg")
    expect(message).to_have_text("action 3: MOVE: a09 is not adjacent to a02")
    expect(page.locator("#row-1-msg")).to_have_text("")
    kim.shot("kingdoms-row-error")
    row(3, "to").focus()
    area("a08")
    row(3, "extra").select_option("1")
    expect(row(3, "to")).to_have_value("a08")
    expect(message).to_have_text("")
    expect(page.locator("#km-form")).to_have_attribute("data-checked", "ok")
    expect(page.locator("#km-form .check-status")).to_contain_text("would be accepted")
    expect(page.locator("#km-plan line")).to_have_count(2)  # rows 1 and 3 drawn as arrows
    kim.shot("kingdoms-orders")
    wait_page(kim, page.get_by_role("button", name="Save orders"))
    expect(page.get_by_role("status")).to_contain_text("Your orders are saved")
    expect(row(3, "to")).to_have_value("a08")
    # against the computer a draft waits for the button
    expect(page.locator("#km-closes")).to_contain_text("Saving keeps a draft")
    expect(page.get_by_role("button", name="Play the turn now")).to_be_visible()

    # the host processes the turn from the platform's game page
    kim.goto(f"/games/{game_id}")
    wait_page(kim, page.get_by_role("button", name="Process the turn now"))
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        kim.goto(f"/games/{game_id}/seat")
        if "Report of turn 1" in page.content() or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    report = page.locator("#report")
    expect(report).to_contain_text("Report of turn 1")
    expect(report).to_contain_text(
        "recruited spy in a01 (2 BP); moved spy a01 → a02 (land, 0 BP)")
    expect(report).to_contain_text("captured a08")
    expect(report).to_contain_text("a08 Greyholm: neutral → k1")
    expect(report.locator("table.km-results tr.km-done")).to_have_count(3)
    find = report.locator("table.km-results tr", has_text="FIND")
    expect(find).to_contain_text(re.compile(r"k3's spy is in a\d\d|k3 has no spy"))
    expect(page.locator('#area-a08 .km-armies-n')).to_have_text("1")
    expect(page.locator('#area-a02 .km-own-agent[data-type="SPY"]')).to_have_count(1)
    expect(page.get_by_role("heading", name="Orders for turn 2")).to_be_visible()
    shot = kim.shot("kingdoms-report")
    keep_for_readme(shot, "kingdoms.png")

    # past turns: the setup
    wait_page(kim, page.locator("nav.km-turns").get_by_role("link", name="setup"))
    expect(page.locator("#report")).to_contain_text("Setup: no turn played yet")
    expect(page.locator('#area-a08 .km-armies-n')).to_have_count(0)
    kim.shot("kingdoms-setup")


def test_a_refused_kingdoms_list_shows_every_rows_message(
        new_visitor: Callable[[str], Visitor]) -> None:
    """Saving a list with two bad rows: nothing is saved, the refusal's own message is
    beside its row at once, and the check on load puts the other one beside its row."""
    kim = new_visitor("kim")
    page = kim.page
    sign_up(kim, "kim")
    game_id = start_kingdoms(kim, "Refusals")
    kim.goto(f"/games/{game_id}/seat")
    page.locator('select[name="row-1-action"]').select_option("MOVE")
    page.locator('select[name="row-1-from"]').select_option("a01")
    page.locator('select[name="row-1-to"]').select_option("a03")
    page.locator('select[name="row-2-action"]').select_option("KILL")
    page.locator('select[name="row-2-from"]').select_option("a01")
    # submit at once, before the page's own check could stop anybody
    with page.expect_navigation():
        page.locator("#km-form").evaluate("form => form.submit()")
    expect(page.locator("#km-refused")).to_contain_text("Nothing was saved")
    expect(page.locator("#row-1-msg")).to_have_text("action 1: MOVE: a03 is not adjacent to a01")
    expect(page.locator("#row-2-msg")).to_contain_text("action 2: KILL:")
    expect(page.locator("#km-form")).to_have_attribute("data-checked", "refused")
    page.set_viewport_size({"width": 390, "height": 844})
    kim.shot("kingdoms-refused-phone")

def start_kingdoms(kim: Visitor, title: str, *, interval_hours: str | None = None) -> int:
    """Create, join (as Arden Court) and start a Kingdoms game against two computer
    countries through the lobby's pages; the game's id."""
    page = kim.page
    kim.goto("/games/new")
    page.locator('select[name="game"]').select_option("kingdoms")
    page.get_by_label("Title").fill(title)
    if interval_hours is not None:
        page.locator('input[name="schedule"][value="interval"]').check()
        page.locator('input[name="interval_hours"]').fill(interval_hours)
    wait_page(kim, page.get_by_role("button", name=re.compile("Create")))
    game_id = int(re.findall(r"/games/(\d+)", page.url)[0])
    page.get_by_label("Name of your court").fill("Arden Court")
    wait_page(kim, page.get_by_role("button", name="Join", exact=True))
    for strategy in ("steward", "warlord"):
        page.get_by_label("Computer player").select_option(strategy)
        wait_page(kim, page.get_by_role("button", name="Add a computer player"))
    wait_page(kim, page.get_by_role("button", name="Start the game"))
    return game_id
