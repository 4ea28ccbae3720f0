"""The platform's pages for every game on a 390 px phone: the lobby, each game's one-click
game against the computer, its seat page, game page, report and quick-game page fit the
screen (no sideways scrolling) and are screenshotted for a person to look at."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from spyhouse.core import registry
from tests.browser.conftest import Visitor, needs_chromium
from tests.browser.test_spyvsspy_turn import click_and_wait, sign_up

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}


def fits(visitor: Visitor) -> int:
    """How many pixels the page is wider than the screen (0: it fits)."""
    width = int(visitor.page.evaluate("document.documentElement.scrollWidth"))
    return max(0, width - PHONE["width"])


def test_every_games_pages_fit_a_phone(new_visitor: Callable[[str], Visitor]) -> None:
    pytest.importorskip("playwright.sync_api")
    ann = new_visitor("ann")
    ann.page.set_viewport_size(PHONE)
    sign_up(ann, "ann")
    too_wide: list[tuple[str, int]] = []
    for plugin in registry.plugins():
        if plugin.quick is None:
            continue
        ann.goto("/lobby")
        offer = ann.page.get_by_role("button", name=plugin.quick.label, exact=True)
        if offer.count():
            click_and_wait(ann, offer)
        else:  # an offer with choices has a page of its own
            click_and_wait(ann, ann.page.get_by_role("link", name=plugin.quick.label))
            ann.shot(f"{plugin.name}-quick")
            click_and_wait(ann, ann.page.get_by_role("button", name=re.compile("^Start")))
        ann.page.wait_for_url(re.compile(r"/games/\d+/seat"))
        game_id = int(ann.page.url.split("/games/")[1].split("/")[0])
        ann.shot(f"{plugin.name}-seat")
        ann.page.evaluate("window.scrollTo(0, document.body.scrollHeight / 4)")
        ann.shot(f"{plugin.name}-seat-screen", full_page=False)
        too_wide.append((f"{plugin.name} seat", fits(ann)))
        for page in ("", "/report"):
            ann.goto(f"/games/{game_id}{page}")
            ann.shot(f"{plugin.name}-{page.strip('/') or 'game'}")
            too_wide.append((f"{plugin.name} {page or 'game'}", fits(ann)))
    ann.goto("/lobby")
    ann.shot("lobby")
    too_wide.append(("lobby", fits(ann)))
    ann.goto("/games/new")
    too_wide.append(("create", fits(ann)))
    assert [(page, px) for page, px in too_wide if px > 0] == [], too_wide
