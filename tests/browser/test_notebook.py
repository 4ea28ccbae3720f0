"""The player's notebook (issue 14 item 7) in a browser: reached from the seat page of a
Spy vs Spy and an Infiltration game against the computer, after some turns; it fits a
390 px phone, axe finds nothing critical or serious, and it is screenshotted
(``docs/screenshots/notebook-<game>.png``) for a person to look at."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

import pytest

from spyhouse.core import registry
from tests.browser.conftest import Visitor, keep_for_readme, needs_chromium
from tests.browser.test_platform_pages import PHONE, fits
from tests.browser.test_spyvsspy_turn import click_and_wait, sign_up

pytestmark = needs_chromium


def _quick_game(visitor: Visitor, game: str) -> int:
    label = registry.plugin(game).quick.label  # type: ignore[union-attr]
    visitor.goto("/lobby")
    click_and_wait(visitor, visitor.page.get_by_role("button", name=label, exact=True))
    visitor.page.wait_for_url(re.compile(r"/games/\d+/seat"))
    return int(visitor.page.url.split("/games/")[1].split("/")[0])


def _spy_vs_spy_turns(visitor: Visitor, game_id: int, turns: int) -> None:
    """Final orders of HUNTs and SEARCHes, posted as the seat page's form posts them."""
    for turn in range(1, turns + 1):
        visitor.goto(f"/games/{game_id}/seat")
        token = visitor.page.locator("input[name=csrf_token]").first.get_attribute("value")
        form: dict[str, str | float | bool] = {"csrf_token": token or "", "ready": "1",
                                               "entry": str(turn)}
        for n in range(1, 10):
            form[f"spy-{n}-task"] = ("WORK", "HUNT", "SEARCH")[n % 3] if n > 1 else "WORK"
            form[f"spy-{n}-region"] = "ABCDEFGHI"[(n + turn) % 9]
        answer = visitor.page.request.post(f"/games/{game_id}/orders", form=form)
        if "the game is over" in answer.text():
            return
        assert answer.ok, answer.text()[:300]


def _state(visitor: Visitor, game_id: int) -> dict[str, Any]:
    answer = visitor.page.request.get(f"/games/{game_id}/state")
    assert answer.ok
    state: dict[str, Any] = answer.json()["state"]
    return state


def _infiltration_order(view: dict[str, Any], step: int) -> dict[str, str]:
    """A plain order for the phase: a class, a room to explore, NO LYNCH and the room's
    terminal used when it asks for nothing or for a player."""
    choices = view.get("choices") or {}
    if view["phase"] == "class":
        return {"class": "Hacker"}
    if view["phase"] == "movement":
        rooms = choices.get("rooms") or []
        return {"move": rooms[(step * 19) % len(rooms)]} if rooms else {}
    order = {"vote": "NO LYNCH"}
    terminal = choices.get("terminal") or {}
    keys = terminal.get("keys")
    others = [p["handle"] for p in view["players"] if p["seat"] != view["me"]["seat"]]
    if (terminal.get("type") and not view.get("alert") and keys is not None
            and set(keys) <= {"player"} and others):
        order["terminal-action"] = "USE"
        if keys:
            order["terminal-player"] = others[step % len(others)]
    return order


def _infiltration_phases(visitor: Visitor, game_id: int, phases: int) -> None:
    """Orders for ``phases`` phases, each marked READY, waiting for the worker to close it."""
    visitor.goto(f"/games/{game_id}/seat")
    token = visitor.page.locator("input[name=csrf_token]").first.get_attribute("value")
    for step in range(phases):
        state = _state(visitor, game_id)
        if state["game"]["status"] != "running" or not state["view"].get("awaited", True):
            return
        form: dict[str, str | float | bool] = {
            "csrf_token": token or "", "ready": "1",
            "entry": str(state["game"]["open_entry"]), **_infiltration_order(state["view"], step)}
        answer = visitor.page.request.post(f"/games/{game_id}/orders", form=form)
        if not answer.ok and "terminal-action" in form:  # a terminal the rules refuse now
            form = {k: v for k, v in form.items() if not k.startswith("terminal-")}
            answer = visitor.page.request.post(f"/games/{game_id}/orders", form=form)
        if not answer.ok:  # e.g. a room locked this phase: the notebook shows what there is
            return
        for _ in range(100):  # the worker closes the phase once every player is READY
            if _state(visitor, game_id)["game"]["entry"] > state["game"]["entry"]:
                break
            visitor.page.wait_for_timeout(100)
        else:
            return  # a phase that waits for its deadline: the notebook shows what there is


def _blocking(visitor: Visitor) -> list[str]:
    """axe's critical and serious violations (when the scan's helper is at hand)."""
    try:
        accessibility = importlib.import_module("tests.browser.accessibility")
    except ImportError:
        return []
    lines: list[str] = accessibility.axe_scan(visitor.page)
    return lines


@pytest.mark.parametrize("game", ["spyvsspy", "infiltration"])
def test_the_notebook_page(new_visitor: Callable[[str], Visitor], game: str) -> None:
    pytest.importorskip("playwright.sync_api")
    ann = new_visitor("ann")
    sign_up(ann, "ann")
    game_id = _quick_game(ann, game)
    if game == "spyvsspy":
        _spy_vs_spy_turns(ann, game_id, 3)
    else:
        _infiltration_phases(ann, game_id, 4)
    ann.goto(f"/games/{game_id}/seat")
    click_and_wait(ann, ann.page.locator("#notebook-link"))
    ann.page.wait_for_url(re.compile(rf"/games/{game_id}/notebook$"))
    heading = ann.page.get_by_role("heading", level=1)
    assert heading.inner_text().startswith("Notebook of ")
    keep_for_readme(ann.shot(f"notebook-{game}"), f"notebook-{game}.png")
    assert _blocking(ann) == []
    ann.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    ann.shot(f"notebook-{game}-phone")
    assert fits(ann) == 0
