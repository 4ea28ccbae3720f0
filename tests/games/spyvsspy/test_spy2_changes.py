"""The option ``spy2_changes``: each Spy 2 change of §9 alone in a classic game.

Each change behaves as its spec example does in the spy2 variant (E61–E64), and
the other rules stay classic; all five together play exactly as variant "spy2".
"""

from __future__ import annotations

from typing import Any

import pytest

from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import SPY2_CHANGES, State, view_changes
from spyhouse.games.spyvsspy.setup import parse_options
from spyhouse.sim.simulate import simulate
from tests.games.spyvsspy.fixture import (
    DISGUISED,
    FIXTURE_SEATS,
    RULES,
    SPY2_TASK_ROWS,
    TASK_ROWS,
    labels,
    play,
    refusal,
    seen,
)


def with_changes(*changes: str) -> State:
    """The §10 fixture, classic with ``changes`` switched on."""
    options = {
        "variant": "classic",
        "spy2_changes": list(changes),
        "setup": {"bases": {sid: base for sid, _, _, base in FIXTURE_SEATS},
                  "leaders": {sid: leader for sid, _, leader, _ in FIXTURE_SEATS}},
    }
    players = [Seat(sid, name, f"Player of {name}", f"{sid}@example.org")
               for sid, name, _, _ in FIXTURE_SEATS]
    return RULES.setup(players, options, ScriptedRng(7))


def _b(state: State, seat: str) -> Any:
    b = state.by_seat(seat)
    assert b is not None
    return b


# ---------------------------------------------------------------- the option


@pytest.mark.parametrize(("value", "message"), [
    ("search", "spy2_changes must be a list of names among: tasks, search, declarations, "
               "sightings, guard"),
    (["search", 3], "spy2_changes must be a list"),
    (["fakes"], "spy2_changes: unknown change 'fakes' (known: tasks, search, declarations, "
                "sightings, guard)"),
    (["guard", "guard"], "spy2_changes: guard is given twice"),
])
def test_bad_option_is_refused(value: Any, message: str) -> None:
    with pytest.raises(OptionsError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        parse_options({"spy2_changes": value})


def test_option_only_in_classic() -> None:
    with pytest.raises(OptionsError, match="classic variant only"):
        parse_options({"variant": "spy2", "spy2_changes": ["search"]})
    assert parse_options({"variant": "spy2", "spy2_changes": []}).changes == set(SPY2_CHANGES)
    assert parse_options({"spy2_changes": None}).changes == frozenset()


def test_option_in_views_only_when_set() -> None:
    """A classic game's options JSON is unchanged; a subset is listed in spec order."""
    assert "spy2_changes" not in parse_options({}).to_json(with_setup=False)
    options = parse_options({"spy2_changes": ["guard", "tasks"]})
    assert options.to_json(with_setup=False)["spy2_changes"] == ["tasks", "guard"]
    view = RULES.view(with_changes("guard", "tasks"), "s1")
    assert view["variant"] == "classic"
    assert view_changes(view) == {"tasks", "guard"}


# ---------------------------------------------------------------- one change each


def test_declarations_alone_e61() -> None:
    """E61 in classic with only ``declarations``: the price and fees, no Lives; HIDE stays."""
    state = with_changes("declarations")
    t = play(state, {"s1": {5: ("HIDE", "C")}},
             declare={"s1": [("s2", "Mr Orange", "I")], "s2": [("s3", "Mr Green", "D")]})
    assert t.gp("s1") == 10
    assert t.gp("s2") == 25
    assert not _b(t.after, "s3").surviving
    assert t.after.price == 10
    assert t.outcomes("s2") == ["correct: paid 15 gp; you receive 20 gp"]
    assert "life" not in t.view("s2")["me"]
    assert t.view("s1")["price"] == 10
    assert t.result("s1", 5) == "hid in C Cathedral"
    assert DISGUISED in labels(t.view("s1"))


def test_search_alone_e62() -> None:
    """E62 with only ``search``: the findability threshold; the rest is classic."""
    state = with_changes("search")
    state.turn = 2
    _b(state, "s2").covertness = 6
    _b(state, "s3").covertness = 7
    t = play(state, {"s1": {4: ("SEARCH", "D"), 2: ("SEARCH", "D")}})
    assert t.result("s1", 4) == "no base found; bases here: 2"
    assert t.result("s1", 2) == "base of Bravo reported here; bases here: 2"
    assert "life" in t.view("s1")["me"] and "price" not in t.view("s1")


def test_search_alone_ignores_fakes() -> None:
    """§9.2 has no fakes: with ``search`` alone a FAKE is still planted (and counted in the
    FAKE row) but the search reports only real bases (E37 in classic returns Delta, 3)."""
    state = with_changes("search")
    t = play(state, {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D")}})
    assert t.result("s4", 5) == "planted a fake base in D Docks"
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"


def test_guard_alone_e63() -> None:
    """E63 with only ``guard``: a guarded spy defends with twice its skill."""
    alpha = {7: ("WORK", "D"), 9: ("GUARD", "D")}
    t = play(with_changes("guard"), {"s1": alpha, "s2": {4: ("HUNT", "D")}})
    assert t.result("s1", 9) == "guarded spy #7"
    assert t.result("s2", 4) == "found no one to hunt"
    t = play(with_changes("guard"), {"s1": alpha, "s2": {2: ("HUNT", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s1", 7) == "killed by a hunter of Bravo"
    assert t.news == ["Bravo killed a spy of Alpha"]


def test_guard_off_is_classic_e14() -> None:
    """Without ``guard`` the same hunter of skill 3 finds the guarded spy immune."""
    alpha = {7: ("WORK", "D"), 9: ("GUARD", "D")}
    t = play(with_changes("search"), {"s1": alpha, "s2": {2: ("HUNT", "D")}})
    assert t.result("s2", 2) == "found no one to hunt"


def test_sightings_alone_e64() -> None:
    """E64 with only ``sightings``: the tick needs skills summing above the leader's; the
    report keeps the classic rows."""
    orders = {"s2": {1: ("WORK", "E")}, "s1": {4: ("WORK", "E"), 7: ("WORK", "E")}}
    t = play(with_changes("sightings"), orders)
    view = t.view("s1")
    assert labels(view) == ["Bravo", "Charlie", "Delta", DISGUISED, *TASK_ROWS,
                            "Mr Green", "Mr Grey", "Mr Orange"]
    assert seen(view, "E") == {"Bravo": 1, "WORK": 1}
    orders["s1"][2] = ("WORK", "E")
    assert seen(play(with_changes("sightings"), orders).view("s1"), "E") == {
        "Bravo": 1, "WORK": 1, "Mr Orange": "✓"}


def test_tasks_alone() -> None:
    """Only ``tasks``: HIDE, DISGUISE, FOLLOW, FAKE refused (V2), the spy2 report rows, and
    the classic Life and no price; leader ticks stay classic (E46)."""
    state = with_changes("tasks")
    assert refusal(state, "s1", {"spies": {"5": {"task": "FAKE", "region": "D"}}}) == (
        "spy 5: FAKE is not used in this game",)
    t = play(state, {"s2": {1: ("WORK", "E")}, "s1": {7: ("WORK", "E")}})
    view = t.view("s1")
    assert labels(view) == ["Bravo", "Charlie", "Delta", *SPY2_TASK_ROWS,
                            "Mr Green", "Mr Grey", "Mr Orange"]
    assert seen(view, "E") == {"Bravo": 1, "WORK": 1, "Mr Orange": "✓"}
    assert "life" in view["me"] and "price" not in view


# ---------------------------------------------------------------- all of them


def test_all_changes_play_as_spy2() -> None:
    """Bot games under every change and under variant "spy2" are the same game: the same
    sheets, and views equal but for ``variant`` and ``options``."""
    spy2 = simulate("spyvsspy", players=5, turns=12, seed=3, options={"variant": "spy2"})
    every = simulate("spyvsspy", players=5, turns=12, seed=3,
                     options={"spy2_changes": list(SPY2_CHANGES)})
    assert spy2.record.turns == every.record.turns

    def bare(view: dict[str, Any]) -> dict[str, Any]:
        """The view without ``variant``, ``options`` (and the host's per-seat reports)."""
        return {k: v for k, v in view.items() if k not in ("variant", "options", "seats")}

    for seat in (None, "s1", "s2", "s3", "s4", "s5"):
        assert bare(RULES.view(spy2.final_state, seat)) == bare(
            RULES.view(every.final_state, seat))
