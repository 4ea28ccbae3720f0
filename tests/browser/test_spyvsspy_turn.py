"""A Spy vs Spy turn played in a real browser, every step by clicking.

Ann signs up and creates a game, joins it, Ben signs up and joins too, Ann
seats two computer players and starts the game; both read their secrets on the
local mail page; Ann fills the order form row by row (tasks, regions, a
brotherhood to hunt, a leader to follow; no declarations), is shown each
refused order next to its own row, fixes them and saves; Ben fills his form
with the fill bar; Ann has the turn processed now; both read the turn report
(the Brotherhood Report of the seed's sample sheet). No page but the mail page
ever shows a player's own leader name or the "Your base" line.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import (
    PASSWORD,
    TIMEOUT_MS,
    Visitor,
    keep_for_readme,
    needs_chromium,
)

pytestmark = needs_chromium

REGION_LETTERS = list("ABCDEFGHI")
CLASSIC_TASK_ROWS = ["COVERT", "DISGUISE", "FAKE", "FOLLOW", "GUARD", "HUNT", "RECRUIT",
                     "SEARCH", "TRAIN", "WORK"]
_SECRET_LINE = re.compile(r"Your (leader|base): ([^\n<]+)")


@dataclass(frozen=True, slots=True)
class Secrets:
    leader: str
    base: str  # as the mail writes it: "H Industrial"


def click_and_wait(visitor: Visitor, target: str | Locator, *,
                   status: int | None = 200) -> int:
    """Click a button or link (a locator, or a button's name), wait for the page it leads
    to and record it; returns (and checks) the HTTP status of that page."""
    page = visitor.page
    locator = page.get_by_role("button", name=target, exact=True) if isinstance(
        target, str) else target
    with page.expect_navigation() as navigation:
        locator.click()
    response = navigation.value
    code = response.status if response is not None else 0
    if status is not None:
        assert code == status, f"{page.url}: HTTP {code}"
    visitor.seen()
    return code


def sign_up(visitor: Visitor, username: str) -> None:
    page = visitor.page
    visitor.goto("/signup")
    page.get_by_label("User name").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    visitor.shot("signup")
    click_and_wait(visitor, "Sign up")
    expect(page).to_have_url(re.compile(r"/lobby\?notice=welcome$"))
    expect(page.get_by_role("status")).to_contain_text("Your account is ready")


def read_secrets(visitor: Visitor) -> Secrets:
    """The seat's secrets, from the mail that the game's start put on the mail page."""
    page = visitor.page
    click_and_wait(visitor, page.get_by_role("link", name="Mail", exact=True))
    mail = page.locator("article.mail", has_text="Your secrets")
    expect(mail).to_have_count(1)
    found = dict(_SECRET_LINE.findall(mail.locator("pre").inner_text()))
    assert set(found) == {"leader", "base"}, found
    visitor.shot("secrets-mail")
    return Secrets(leader=found["leader"].strip(), base=found["base"].strip())


def order(page: Page, number: int, task: str, *, region: str | None = None,
          brotherhood: str | None = None, follow_first: bool = False) -> None:
    """Fill spy ``number``'s row by clicking: the task, a region radio, the selects."""
    row = page.locator(f"#spy-{number}")
    row.locator("select.task").select_option(task)
    if region is not None:
        row.locator(f'.region-choice input[value="{region}"]').check()
    if brotherhood is not None:
        row.locator("select.brotherhood").select_option(label=brotherhood)
    if follow_first:
        row.locator("select.follow").select_option(index=1)


def wait_for_report(visitor: Visitor, game_id: int, turn: int) -> None:
    """Reload the report page until the worker has processed ``turn``."""
    page = visitor.page
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        visitor.goto(f"/games/{game_id}/report")
        if f"report after turn {turn}" in page.locator("p.meta").inner_text():
            return
        assert time.monotonic() < deadline, f"turn {turn} was not processed in time"
        page.wait_for_timeout(150)


def assert_brotherhood_report(page: Page, others: list[str], *, seen_in: str,
                              task: str) -> None:
    """The Brotherhood Report of the seed's sample sheet: A-I columns, "?" where the seat
    had no spy, the other brotherhoods, the task rows; ``task`` counted in ``seen_in``."""
    table = page.locator("#brotherhood-report")
    expect(table.locator("caption")).to_have_text("Brotherhood Report")
    headers = table.locator("thead tr").nth(1).locator("th")
    assert headers.all_inner_texts() == REGION_LETTERS
    first_header = table.locator("thead tr").first.locator("th")
    assert first_header.all_inner_texts()[:2] == ["Brotherhood & Task", "Region Spy Report"]
    unseen = table.locator("td.unseen")
    assert unseen.count() > 0
    assert set(unseen.all_inner_texts()) == {"?"}
    brotherhood_rows = table.locator("tr.row-brotherhood th").all_inner_texts()
    assert sorted(brotherhood_rows) == sorted(others)
    assert table.locator("tr.row-task th").all_inner_texts() == CLASSIC_TASK_ROWS
    expect(table.locator("tr.row-disguised th")).to_have_text("Disguised as you")
    # every row has one cell per region: a count, "?" (not seen there) or a tick
    for row in table.locator("tbody tr").all():
        cells = row.locator("td").all_inner_texts()[:9]
        assert all(c == "?" or c == "✓" or c == "" or c.lstrip("-").isdecimal()
                   for c in cells), cells
    # a region where one of the seat's spies was: counts, not "?"
    row = table.locator("tr.row-task", has=page.locator("th", has_text=task))
    cell = row.locator("td").nth(REGION_LETTERS.index(seen_in)).inner_text()
    assert cell.isdecimal(), cell


def assert_no_secrets_shown(visitor: Visitor, secrets: Secrets) -> None:
    """The seat's leader name and base are on its mail page and on no other page it saw."""
    mail_pages = [html for path, html in visitor.pages if path.startswith("/mail")]
    other_pages = [(path, html) for path, html in visitor.pages if not path.startswith("/mail")]
    assert mail_pages and all(secrets.leader in html for html in mail_pages)
    assert any(f"Your base: {secrets.base}" in html for html in mail_pages)
    assert len({path for path, _ in other_pages}) >= 6, [p for p, _ in other_pages]
    for path, html in other_pages:
        assert secrets.leader not in html, f"{visitor.name}'s leader name shown on {path}"
        assert "Your leader:" not in html and "Your base:" not in html, path
        assert f"base: {secrets.base}" not in html, path


def test_a_turn_by_clicking(new_visitor: Callable[[str], Visitor]) -> None:
    ann = new_visitor("ann")
    ben = new_visitor("ben")
    page = ann.page

    # -- sign up; create a game; join it
    sign_up(ann, "ann")
    ann.shot("lobby")
    click_and_wait(ann, page.get_by_role("link", name="Create a game"))
    page.get_by_label("Title").fill("Friday spies")
    page.get_by_label("bases are drawn at random").check()
    page.get_by_label("classic rules").check()
    ann.shot("new-game")
    click_and_wait(ann, "Create the game")
    match = re.search(r"/games/(\d+)\?notice=created$", page.url)
    assert match, page.url
    game_id = int(match.group(1))
    page.get_by_label("Brotherhood name").fill("Gimps")
    click_and_wait(ann, "Join")
    expect(page.get_by_role("status")).to_have_text("You joined the game.")
    ann.shot("joined")

    # -- a second player finds it in the lobby and joins
    sign_up(ben, "ben")
    ben_page = ben.page
    click_and_wait(ben, ben_page.get_by_role("link", name="Friday spies"))
    ben_page.get_by_label("Brotherhood name").fill("Toadies")
    click_and_wait(ben, "Join")
    ben.shot("joined")

    # -- the host seats two computer players and starts the game
    ann.goto(f"/games/{game_id}")
    for strategy in ("hunter", "economist"):
        page.get_by_label("Computer player").select_option(strategy)
        click_and_wait(ann, "Add a computer player")
        expect(page.get_by_role("status")).to_have_text("A computer player took a seat.")
    players = page.locator("section", has=page.get_by_role("heading", name="Brotherhoods"))
    expect(players.locator("tbody tr")).to_have_count(4)
    ann.shot("seats-taken")
    click_and_wait(ann, "Start the game")
    expect(page.locator("strong.status-running")).to_have_text("running")
    expect(page.locator(".countdown").first).to_contain_text(re.compile(r"^in \d+ (d|h|min|s)"))
    ann.shot("started")

    ann_secrets = read_secrets(ann)
    ben_secrets = read_secrets(ben)
    assert ann_secrets.leader != ben_secrets.leader

    # -- Ann's order form, filled by clicking; two orders are refused
    ann.goto(f"/games/{game_id}")
    click_and_wait(ann, page.get_by_role("link", name="Your orders", exact=True))
    expect(page.locator("#spy-1")).to_contain_text("Leader")
    expect(page.locator("tr.spy-row")).to_have_count(9)
    # the page hides nothing a click can't reach: the leader gets no FOLLOW choice
    assert "FOLLOW" not in page.locator("#spy-1 select.task option").all_inner_texts()
    ann.shot("order-form")
    order(page, 1, "WORK", region="H")
    order(page, 2, "HUNT", region="H", brotherhood="Toadies")
    order(page, 3, "WORK")  # no region clicked: refused (WORK needs a region)
    order(page, 4, "FOLLOW")  # no leader picked: refused
    order(page, 5, "TRAIN", region="A")
    order(page, 6, "SEARCH", region="D")
    order(page, 7, "GUARD", region="H")
    # the region radios of a task that takes no region are greyed out
    expect(page.locator('#spy-4 .region-choice input[value="A"]')).to_be_disabled()
    expect(page.locator("#spy-4 select.follow")).to_be_enabled()
    expect(page.locator("#spy-1 select.brotherhood")).to_be_disabled()
    # spies 8 and 9 with the fill bar: WORK in the Docks, into the empty rows
    page.locator(".fill .fill-task").select_option("WORK")
    page.locator(".fill .fill-region").select_option("D")
    page.get_by_role("button", name="into the empty rows").click()
    for n in (8, 9):
        expect(page.locator(f"#spy-{n} select.task")).to_have_value("WORK")
        expect(page.locator(f'#spy-{n} .region-choice input[value="D"]')).to_be_checked()
    expect(page.locator("#spy-3 select.task")).to_have_value("WORK")  # left as it was
    # checked as it is typed (the platform's /check, nothing saved): both faults show
    expect(page.locator("#orders")).to_have_attribute("data-checked", "refused")
    expect(page.locator("#spy-3 .check-message")).to_have_text("spy 3: WORK needs a region")
    expect(page.locator("#spy-4 .check-message")).to_have_text(
        "spy 4: no such leader to follow")
    expect(page.locator("#spy-1 .check-message")).to_have_count(0)

    # refused: redirected to the seat page (post/redirect/get), which shows the refusal
    click_and_wait(ann, "Save orders", status=200)
    assert page.url.endswith(f"/games/{game_id}/seat"), page.url
    expect(page.get_by_role("alert").first).to_contain_text("Nothing was saved")
    expect(page.locator("#spy-3")).to_have_class(re.compile(r"\bhas-error\b"))
    expect(page.locator("#spy-3 .messages .error")).to_have_text("spy 3: WORK needs a region")
    expect(page.locator("#spy-4")).to_have_class(re.compile(r"\bhas-error\b"))
    expect(page.locator("#spy-4 .messages .error")).to_have_text(
        "spy 4: no such leader to follow")
    for n in (1, 2, 5, 6, 7, 8, 9):
        expect(page.locator(f"#spy-{n} .messages .error")).to_have_count(0)
        expect(page.locator(f"#spy-{n}")).not_to_have_class(re.compile(r"\bhas-error\b"))
    # what was clicked is still there
    expect(page.locator("#spy-2 select.task")).to_have_value("HUNT")
    expect(page.locator("#spy-2 select.brotherhood")).to_have_value("s2")
    expect(page.locator('#spy-5 .region-choice input[value="A"]')).to_be_checked()
    shot = ann.shot("order-errors")
    keep_for_readme(shot, "order-errors.png")

    # -- fixed by clicking, then saved
    page.locator('#spy-3 .region-choice input[value="B"]').check()
    page.locator("#spy-4 select.follow").select_option(index=1)
    followed = page.locator("#spy-4 select.follow").input_value()
    assert followed.startswith("Mr ") and followed != ann_secrets.leader
    click_and_wait(ann, "Save orders")
    expect(page.get_by_role("status")).to_contain_text("Your orders are saved")
    expect(page.locator(".messages .error")).to_have_count(0)
    expect(page.locator("#spy-3 select.task")).to_have_value("WORK")
    expect(page.locator('#spy-3 .region-choice input[value="B"]')).to_be_checked()
    expect(page.locator("#spy-4 select.follow")).to_have_value(followed)
    expect(page.locator("#spy-2 select.brotherhood")).to_have_value("s2")
    expect(page.locator("#declaration-1 select").first).to_have_value("")  # none declared
    expect(page.locator(".orders-state")).to_contain_text("saved as a draft")
    shot = ann.shot("orders-saved")
    keep_for_readme(shot, "orders.png")

    # -- Ben: every spy trains in the Academy, with the fill bar
    ben.goto(f"/games/{game_id}/seat")
    ben_page.locator(".fill .fill-task").select_option("TRAIN")
    ben_page.locator(".fill .fill-region").select_option("A")
    ben_page.get_by_role("button", name="into every row").click()
    ben_page.get_by_label("These orders are final").check()
    click_and_wait(ben, "Save orders")
    expect(ben_page.get_by_role("status")).to_contain_text("Your orders are saved")
    expect(ben_page.locator(".orders-state")).to_contain_text("marked final")
    ben.shot("orders-saved")

    # -- the host has the turn processed now; the worker does it
    ann.goto(f"/games/{game_id}")
    click_and_wait(ann, "Process the turn now")
    expect(page.get_by_role("status")).to_have_text("The turn will be processed now.")
    ann.shot("process-now")
    wait_for_report(ann, game_id, 1)
    assert_brotherhood_report(page, ["Toadies", *bot_names(page)], seen_in="H", task="WORK")
    expect(page.locator("section.me h2")).to_have_text("Your brotherhood: Gimps")
    shot = ann.shot("report")
    keep_for_readme(shot, "report.png")

    # the setup report (turn 0), chosen from the list of past reports
    with page.expect_navigation():
        page.get_by_label("Report of turn").select_option("0")
    expect(page.locator("p.meta")).to_contain_text("report after setup (turn 0)")
    ann.shot("report-turn-0")

    wait_for_report(ben, game_id, 1)
    assert_brotherhood_report(ben_page, ["Gimps", *bot_names(ben_page)], seen_in="A",
                              task="TRAIN")
    expect(ben_page.locator("table.spies")).to_contain_text("TRAIN")
    ben.shot("report")
    ben.goto(f"/games/{game_id}/seat")
    expect(ben_page.locator("p.deadline")).to_contain_text("This turn closes")
    ben.shot("turn-2-form")
    ann.goto(f"/games/{game_id}/tokens")
    ann.goto("/lobby")

    # -- the secrets were mailed and never shown on a page. Leader names themselves are
    # public (the others' pages list them); the secret is whose leader it is.
    assert_no_secrets_shown(ann, ann_secrets)
    assert_no_secrets_shown(ben, ben_secrets)
    assert any(ann_secrets.leader in html for _path, html in ben.pages)
    assert any(ben_secrets.leader in html for _path, html in ann.pages)


def bot_names(page: Page) -> list[str]:
    """The brotherhood rows of the report other than the two humans' (the computer's)."""
    rows = page.locator("#brotherhood-report tr.row-brotherhood th").all_inner_texts()
    humans = {"Gimps", "Toadies"}
    bots = [name for name in rows if name not in humans]
    assert len(bots) == 2, rows
    return bots
