"""The rules on the site (issue 14 item 4): ``/rules`` and ``/rules/{game}`` for anyone, each
game's page written from its spec, linked from every seat page, the create form and the
lobby, and each order choice's one-line rule beside it on the order forms."""

from __future__ import annotations

import re

import pytest

from spyhouse.core import registry
from spyhouse.games.infiltration.guide import TERMINAL_HELP
from spyhouse.games.spyvsspy.model import TASKS
from tests.web.helpers import Browser, started_game, work_orders

GAMES = registry.names()


def _text(html: str) -> str:
    """The page with every run of white space one space (a template wraps its lines)."""
    return " ".join(html.replace("&#39;", "'").split())


def _headings(html: str) -> list[str]:
    return re.findall(r"<h1[^>]*>(.*?)</h1>", html, re.S)


def _anchors_resolve(html: str) -> None:
    """Every in-page link of the contents goes to an id on the page."""
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets and targets <= ids, targets - ids


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_rules_page_anyone_can_read(anon: Browser, game: str) -> None:
    plugin = registry.plugin(game)
    assert plugin.rules is not None
    page = anon.get(f"/rules/{game}")
    assert page.status_code == 200
    title = plugin.ruleset().spec.title
    assert _headings(page.text) == [f"Rules of {title}"]
    assert 'class="rules-contents"' in page.text
    _anchors_resolve(page.text)


def test_the_index_links_every_game(anon: Browser) -> None:
    page = anon.get("/rules")
    assert page.status_code == 200 and "<h1>" in page.text
    for game in GAMES:
        assert f'href="/rules/{game}"' in page.text


def test_a_logged_in_reader_reads_them_too(alice: Browser) -> None:
    page = alice.get("/rules/kingdoms")
    assert page.status_code == 200 and "alice" in page.text


@pytest.mark.parametrize("path", ["/rules/chess", "/rules/no-such-game", "/rules/SPYVSSPY"])
def test_an_unknown_game_is_404_as_a_page(anon: Browser, path: str) -> None:
    page = anon.get(path)
    assert page.status_code == 404
    assert "text/html" in page.headers["content-type"] and "<h1" in page.text


def test_spy_vs_spy_gives_the_eleven_tasks_in_resolution_order(anon: Browser) -> None:
    html = _text(anon.get("/rules/spyvsspy").text)
    headings = re.findall(r'<h3 id="task-[a-z]+">\d+\. ([A-Z]+)</h3>', html)
    assert headings == [task.value for task in TASKS]
    table = re.findall(r'<th scope="row"><a href="#task-[a-z]+">([A-Z]+)</a></th>', html)
    assert table == [task.value for task in TASKS]
    for term in ("Declarations", "Lives", "Covertness", "Disguised as you", "joint winners",
                 "Spy 2", "eliminated: at least one of your declarations was incorrect"):
        assert term in html, term
    # what each task reports, in the report's own words (spec §8.2)
    for report in ("hid in", "covertness +", "could not afford training", "nobody to guard",
                   "disguised as", "he was not disguised", "found no one to hunt",
                   "planted a fake base", "bases here:", "could not afford a recruit",
                   "earned 8 gp"):
        assert report in html, report


def test_kingdoms_names_the_actions_and_the_spy_chapter(anon: Browser) -> None:
    html = _text(anon.get("/rules/kingdoms").text)
    for term in ("spies", "catchers", "moles", "watchers", "ambush", "battle", "capture"):
        assert term in html.lower(), term
    for action in registry.plugin("kingdoms").rules.order_help:  # type: ignore[union-attr]
        assert f'<th scope="row">{action}</th>' in html


def test_infiltration_says_how_each_team_wins(anon: Browser) -> None:
    html = _text(anon.get("/rules/infiltration").text)
    assert 'id="win-greens">The Greens win' in html and 'id="win-reds">The Reds win' in html
    assert "fewer than 4 Greens are alive" in html
    assert "at least 2 living Greens carrying Stingers are in the GHOST room" in html
    for term in ("Movement phase", "Decision phase", "ALERT MODE", "NO REDS LEFT", "phantom",
                 "Warrior", "Hacker", "Sneaker", "priority"):
        assert term in html, term
    for terminal in TERMINAL_HELP:
        assert f'<th scope="row">{terminal}</th>' in html, terminal


def test_spy_or_lie_renders_the_boards_field_manual(anon: Browser, alice: Browser) -> None:
    rules = anon.get("/rules/spyorlie").text
    for heading in ("Place and surround", "Your agents", "Capture chains", "Finishing the game"):
        assert f">{heading}</h2>" in rules
    board = alice.client.post("/games/quick", data={
        "game": "spyorlie", "csrf_token": alice.csrf()}, follow_redirects=True).text
    assert ">Capture chains</h3>" in board  # the same source, with the board's own headings
    manual = re.search(r"Mole Catcher · 3</dt><dd>(.*?)</dd>", rules, re.S)
    assert manual and manual.group(1) in board


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_page_links_to_its_rules(alice: Browser, game: str) -> None:
    response = alice.post("/games/quick", {"game": game})
    assert response.status_code == 303, response.text
    page = alice.client.get(response.headers["location"], follow_redirects=True)
    assert page.status_code == 200
    assert f'<a href="/rules/{game}" id="rules-link">Rules</a>' in page.text


def test_the_create_form_and_the_lobby_link_the_rules(alice: Browser) -> None:
    form = alice.get("/games/new").text
    lobby = alice.get("/lobby").text
    for game in GAMES:
        assert f'href="/rules/{game}"' in form
        assert f'href="/rules/{game}"' in lobby


def test_a_page_of_no_game_links_the_list_of_rules(anon: Browser) -> None:
    assert '<a href="/rules" id="rules-link">Rules</a>' in anon.get("/login").text


def test_spy_vs_spy_form_shows_each_tasks_rule_beside_it(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    html = alice.get(f"/games/{game_id}/seat").text
    help_lines = registry.plugin("spyvsspy").rules.order_help  # type: ignore[union-attr]
    # without script: the legend lists every task in resolution order with its rule
    legend = re.search(r'<details class="order-legend".*?</details>', html, re.S)
    assert legend
    assert re.findall(r"<dt>([A-Z]+)</dt>", legend.group(0)) == [t.value for t in TASKS]
    for task in TASKS:
        assert f'<dd data-task="{task.value}">{help_lines[task]}</dd>' in _text(html)
    assert 'href="/rules/spyvsspy#tasks"' in html
    # beside each task select, the chosen task's rule (the page's script keeps it so)
    assert 'aria-describedby="spy-1-help"' in html
    assert '<span class="task-help hint" id="spy-1-help"></span>' in html  # no order yet
    assert alice.post(f"/games/{game_id}/orders",
                      {**work_orders(), "entry": "1"}).status_code == 303
    html = _text(alice.get(f"/games/{game_id}/seat").text)
    assert f'id="spy-1-help">{help_lines["WORK"]}</span>' in html


def test_kingdoms_form_shows_each_actions_rule(alice: Browser) -> None:
    response = alice.post("/games/quick", {"game": "kingdoms"})
    html = alice.client.get(response.headers["location"], follow_redirects=True).text
    legend = re.search(r'<details class="order-legend".*?</details>', html, re.S)
    assert legend and "SABOTAGE" in legend.group(0) and "WATCH" in legend.group(0)
    assert 'aria-describedby="row-1-help"' in html and 'id="row-1-help"' in html
    assert 'href="/rules/kingdoms#actions"' in html
