"""The player's notebook page (``infiltration/notebook_page.py``, issue 14 item 7): what a
seat knows from its own views (roles, who was where, terminals, the code), and that it
depends on nothing that seat cannot know.

The worked examples use the §17 harness (``scenario.Scenario``: Rex and Roy are Red, the
code is 4071); the views are collected after every phase, as the store keeps them.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.games.infiltration.model import Klass, State
from spyhouse.games.infiltration.notebook_page import NotebookPage, RoleLine, notebook
from tests.games.infiltration.botplay import RULES
from tests.games.infiltration.botplay import play as bot_game
from tests.games.infiltration.scenario import Scenario


def _use(**keys: object) -> dict[str, object]:
    return {"terminal": {"action": "USE", **keys}}


class Diary:
    """A scenario and one player's views after the set-up and after every phase."""

    def __init__(self, game: Scenario, name: str) -> None:
        self.game, self.name = game, name
        self.views = [game.view(name)]

    def move(self, orders: dict[str, Any] | None = None) -> None:
        self.game.move(orders)
        self.views.append(self.game.view(self.name))

    def decide(self, orders: dict[str, Any] | None = None) -> None:
        self.game.decide(orders)
        self.views.append(self.game.view(self.name))

    def page(self) -> NotebookPage:
        page = notebook(self.views)
        assert page is not None
        return page


def _role(page: NotebookPage, handle: str) -> RoleLine:
    found = [role for role in page.roles if role.handle == handle]
    assert found, f"no role known for {handle}"
    return found[0]


def test_a_seer_answer_reveals_a_role() -> None:
    diary = Diary(Scenario(["Ann", "Gil"], rooms={"Gil": "B-7", "Ann": "A-2"},
                           features={"B-7": "Seer"}), "Gil")
    assert [role.handle for role in diary.page().roles] == ["Gil"]  # only its own team
    diary.move()
    diary.decide({"Gil": _use(player="Rex")})
    page = diary.page()
    rex = _role(page, "Rex")
    assert rex.team == "red" and rex.how == ("turn 1, Seer in B-7: Rex is RED",)
    assert _role(page, "Gil").how == ("your own team",)
    assert [(t.turn, t.room, t.terminal, t.lines) for t in page.terminals] == [
        (1, "B-7", "Seer", ("Rex is RED",))]


def test_a_red_knows_the_other_reds() -> None:
    diary = Diary(Scenario(["Ann"]), "Rex")
    page = diary.page()
    assert page.team == "red"
    assert _role(page, "Roy").how == ("a fellow Red, told at the start",)
    assert {role.handle for role in page.roles} == {"Rex", "Roy"}


def test_the_code_learned_in_the_generals_room() -> None:
    diary = Diary(Scenario(["Cat"], rooms={"Cat": "B-1"}, features={"B-2": "General's room"}),
                  "Cat")
    assert diary.page().code is None
    diary.move({"Cat": "B-2"})
    page = diary.page()
    assert page.code == "4071"
    assert ("B-2", "General's room", "seen") in page.rooms
    assert page.whereabouts[0].handle == "Cat (you)"
    assert (1, "B-2") in page.whereabouts[0].places


def test_a_rejected_code_is_ruled_out_and_the_ghost_room_found() -> None:
    diary = Diary(Scenario(["Ann", "Bob", "Cat"], rooms={"Ann": "A-1"},
                           features={"H-8": "GHOST room"}, npcs={"Guard-H": "H-1"}), "Ann")
    diary.move({"Ann": ("H-8", "1234")})
    page = diary.page()
    assert page.code is None and page.bad_codes == ("1234",)
    assert ("H-8", "GHOST room", "seen") in page.rooms


def test_who_was_where_from_an_arrival() -> None:
    diary = Diary(Scenario(["Ann", "Bob"], rooms={"Ann": "A-1", "Bob": "C-3"}), "Ann")
    diary.move({"Ann": "C-3"})
    page = diary.page()
    bob = [w for w in page.whereabouts if w.handle == "Bob"]
    assert bob and bob[0].places == ((1, "C-3"),)


# ---------------------------------------------------------------- what the seat cannot know


def _hide_differently(state: State, seat: str, data: st.DataObject) -> State:
    """A copy of ``state`` changed only where ``seat`` cannot look: the other players'
    private logs wiped, their classes changed, and (for a Green) which of two other players
    is Red; before the end only (the end reveals every team and class)."""
    other = copy.deepcopy(state)
    if RULES.outcome(state) is not None:
        return other
    mine = other.player(seat)
    others = [p for p in other.players if p.seat != seat]
    for player in others:
        if data.draw(st.booleans(), label=f"wipe {player.seat}"):
            other.private_logs[player.seat] = []
        if player.klass is not None and data.draw(st.booleans(), label=f"class {player.seat}"):
            player.klass = data.draw(st.sampled_from([Klass.WARRIOR, Klass.HACKER]))
    if not mine.is_red and len(others) >= 2:
        first, second = data.draw(st.permutations(others))[:2]
        first.team, second.team = second.team, first.team
    return other


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(6, 9), data=st.data())
def test_the_notebook_ignores_what_the_seat_cannot_know(
        seed: int, players: int, data: st.DataObject) -> None:
    """Two games differing only in what seat s1 cannot see give s1 equal views, and so the
    same notebook, read as the store hands the views back (JSON)."""
    game = bot_game(seed, players, {"pace": "fast"}, limit=24)
    seat = "s1"
    views = [RULES.view(state, seat) for state in game.states]
    changed = [RULES.view(_hide_differently(state, seat, data), seat) for state in game.states]
    assert changed == views  # the change is invisible to the seat
    stored = [json.loads(json.dumps(view)) for view in changed]
    assert notebook(stored) == notebook(views)
