"""An Infiltration round played in a real browser, the orders entered by clicking.

Ines signs up, creates an Infiltration game, joins it, seats five computer players and
starts it; her seat's link leads to the Infiltration page (the facility map, the phase's
order form, her private log and the public thread). She chooses her class (a Red has
nothing to choose and just confirms), the host processes the phase from the game page;
she clicks a room on the map to move there and saves, the phase is processed; she
votes NO LYNCH and saves, sees her vote in the public tally, the phase is processed and
the public thread shows the turn's votes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS, Visitor, keep_for_readme, needs_chromium
from tests.browser.test_kingdoms import sign_up, wait_page

pytestmark = needs_chromium


def process(visitor: Visitor, game_id: int, phase: str) -> None:
    """Process the phase from the game page; wait until the seat page shows ``phase``."""
    page = visitor.page
    visitor.goto(f"/games/{game_id}")
    wait_page(visitor, page.get_by_role("button", name="Process the turn now"))
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        visitor.goto(f"/infiltration/games/{game_id}")
        if phase in page.locator("#inf-phase").inner_text() or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    expect(page.locator("#inf-phase")).to_contain_text(phase)


def test_an_infiltration_round_by_clicking(new_visitor: Callable[[str], Visitor]) -> None:
    ines = new_visitor("ines")
    page = ines.page
    sign_up(ines, "ines")

    ines.goto("/games/new")
    page.locator('select[name="game"]').select_option("infiltration")
    page.get_by_label("Title").fill("Night shift")
    page.locator('input[name="schedule"][value="interval"]').check()
    page.locator('input[name="interval_hours"]').fill("48")
    wait_page(ines, page.get_by_role("button", name=re.compile("Create")))
    game_id = int(re.findall(r"/games/(\d+)", page.url)[0])
    page.locator('input[name="name"]').fill("Ines")
    wait_page(ines, page.get_by_role("button", name="Join", exact=True))
    for strategy in ("operative", "vigilante", "operative", "vigilante", "operative"):
        page.get_by_label("Computer player").select_option(strategy)
        wait_page(ines, page.get_by_role("button", name="Add a computer player"))
    wait_page(ines, page.get_by_role("button", name="Start the game"))

    page.get_by_role("link", name="Orders", exact=True).click()
    page.wait_for_url(re.compile(rf"/infiltration/games/{game_id}$"))
    ines.seen()
    expect(page.locator("#inf-map")).to_be_visible()
    expect(page.locator("#inf-phase")).to_contain_text("Class selection")
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
    process(ines, game_id, "Turn 2")
    expect(page.locator("#public-thread")).to_contain_text("Totals:")
    ines.shot("infiltration-turn-2")
