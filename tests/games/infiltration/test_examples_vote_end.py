"""Spec §17 A26–A32, A34, A41, A43: the lynch vote, NO REDS LEFT, phantoms, the Greens'
win, the Reds' win, draws, and the phases in the record (§7, §12, §15.2)."""

from __future__ import annotations

from typing import Any

import pytest

from spyhouse.core.record import step
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.infiltration.orders import InfiltrationOrderError
from spyhouse.games.infiltration.ruleset import Infiltration
from tests.games.infiltration.scenario import Scenario


def _kill(game: Scenario, *names: str) -> None:
    """Mark players dead where they stand (a death from an earlier turn)."""
    for name in names:
        game.player(name).alive = False


def _greens(game: Scenario) -> list[str]:
    return [p.seat for p in game.state.players if not p.is_red]


def test_a26_unanimous_no_reds_left_with_none_left() -> None:
    """A26: both Reds dead, the 5 living Greens vote NO REDS LEFT: Greens win at R1; no
    lynch, combat or terminals happen."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"], rooms={"Ann": "A-1", "Bob": "A-1"})
    _kill(game, "Rex", "Roy")
    game.move()
    orders: dict[str, Any] = {n: {"vote": "NO REDS LEFT"} for n in ("Bob", "Cat", "Dan", "Eve")}
    orders["Ann"] = {"vote": "NO REDS LEFT", "kill": ["Bob"]}
    game.decide(orders, fill=False)
    assert game.state.result == {"result": "greens", "reason": "no_reds_left_vote", "turn": 1,
                                 "winners": _greens(game)}
    assert game.dead() == ["Rex", "Roy"]
    assert [e["kind"] for e in game.state.public_log if e["turn"] == 1][-2:] == ["votes", "end"]
    assert game.public("end")[-1]["text"] == "Greens win."
    assert game.events("Bob", "combat") == []
    assert Infiltration().awaiting(game.state) == frozenset()


def test_a27_unanimous_no_reds_left_with_a_red_left() -> None:
    """A27: Roy is dead, Rex alive; all 6 living players, Rex included, vote NO REDS LEFT:
    Reds win."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"])
    _kill(game, "Roy")
    game.move()
    game.decide({p: {"vote": "NO REDS LEFT"} for p in ("Ann", "Bob", "Cat", "Dan", "Eve",
                                                       "Rex")}, fill=False)
    result = game.state.result
    assert result is not None and result["result"] == "reds"
    assert result["reason"] == "no_reds_left_vote"
    assert result["winners"] == [game.seat("Rex"), game.seat("Roy")]


def test_a28_no_reds_left_majority_is_no_lynch() -> None:
    """A28: 5 of 6 vote NO REDS LEFT and 1 votes Bob: NO LYNCH 5000, Bob 1000: no lynch."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"])
    _kill(game, "Roy")
    game.move()
    orders = {p: {"vote": "NO REDS LEFT"} for p in ("Ann", "Bob", "Cat", "Dan", "Rex")}
    orders["Eve"] = {"vote": "Bob"}
    game.decide(orders, fill=False)
    votes = game.public("votes")[-1]
    assert votes["totals"] == [[game.seat("Bob"), 1000], ["NO LYNCH", 5000]]
    assert votes["text"].endswith("Totals: Bob 1, NO LYNCH 5.")
    assert game.public("lynch")[-1]["text"] == "No lynch."
    assert game.state.result is None


@pytest.mark.parametrize("phantom", [False, True], ids=["tie", "phantom-breaks-tie"])
def test_a29_ties_and_phantoms(phantom: bool) -> None:
    """A29: Ann 3 votes, Bob 3 → a tie, no lynch; with one phantom Bob has 3001 → lynched."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"])
    _kill(game, "Roy")
    if phantom:
        game.player("Bob").phantoms = 1
    game.move()
    orders = {p: {"vote": "Ann"} for p in ("Bob", "Cat", "Dan")}
    orders.update({p: {"vote": "Bob"} for p in ("Ann", "Eve", "Rex")})
    game.decide(orders, fill=False)
    lynch = game.public("lynch")[-1]
    if phantom:
        assert lynch["text"] == "Bob was lynched."
        assert game.public("votes")[-1]["text"].endswith("Totals: Ann 3, Bob 3.001, NO LYNCH 0.")
        assert game.player("Bob").death.cause == "lynch"
    else:
        assert lynch["text"] == "No lynch."
        assert game.dead() == ["Roy"]


def test_a30_phantom_removal() -> None:
    """A30: Gus never votes: 1 phantom after turn 1 (1 point from turn 2), 2 after turn 2
    (1001 points from turn 3), and at R1 of turn 3 a third removes him before combat."""
    game = Scenario(["Ann", "Bob", "Cat", "Gus"], options={"phantom_limit": 3})
    expected_points = {1: 0, 2: 1, 3: 1001}
    for turn in (1, 2, 3):
        game.park()
        game.move()
        game.decide({n: {"vote": "NO LYNCH"} for n in game.names if n != "Gus"}, fill=False)
        votes = game.public("votes")[-1]
        points = dict(map(tuple, votes["totals"]))  # type: ignore[arg-type]
        assert points.get(game.seat("Gus"), 0) == expected_points[turn]
        assert f"Gus receives phantom vote {turn}." in game.public_texts(turn)
    assert game.public("removed")[-1]["text"] == "Gus was removed for inactivity."
    assert game.player("Gus").death.cause == "removed"
    assert game.player("Gus").death.step == "R1"


_WIN_MAP = {"H-8": "GHOST room", "B-2": "General's room", "E-5": "Weapons Lab",
            "C-1": "Power generator", "F-3": "Power generator"}


def _win_setup(dan_to: str, rex_to: str | None) -> Scenario:
    """A31/A32: Ann and Bob fetch Stingers, Cat reads the code, then four Greens go in."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan"], features=_WIN_MAP,
                    rooms={"Ann": "A-1", "Bob": "A-2", "Cat": "A-3", "Dan": "A-4"})
    game.turn()
    game.turn({"Ann": "E-5", "Bob": "E-5", "Cat": "B-2"})
    assert game.player("Ann").stinger and game.player("Bob").stinger
    assert game.events("Cat", "arrival")[-1]["text"] == "General's room — The code is 4071."
    game.turn()
    moves: dict[str, Any] = {"Ann": ("H-8", "4071"), "Bob": "H-8", "Cat": "C-1",
                             "Dan": dan_to}
    if rex_to is not None:
        moves["Rex"] = rex_to
    game.turn(moves)
    return game


def test_a31_full_green_win() -> None:
    """A31: on turn 4 Ann (with the code) and Bob enter H-8 with Stingers while Cat and Dan
    man C-1 and F-3: the Greens win at R6."""
    game = _win_setup("F-3", None)
    assert game.player("Bob").room == "H-8"
    assert game.state.result == {"result": "greens", "reason": "ghost_destroyed", "turn": 4,
                                 "winners": _greens(game)}
    assert game.public("end")[-1]["step"] == "R6"


def test_a32_failed_win_with_a_red_at_a_generator() -> None:
    """A32: as A31, but Dan goes elsewhere and Rex stands alone in F-3: only C-1 is manned
    by a Green, and the game goes on without a word why."""
    game = _win_setup("D-4", "F-3")
    assert game.state.result is None
    assert game.state.phase.value == "movement" and game.state.turn == 5
    assert game.public("end") == []


@pytest.mark.parametrize("rex_dies", [False, True], ids=["reds-win", "draw"])
def test_a34_red_win_and_draw(rex_dies: bool) -> None:
    """A34: 4 living Greens and Rex; a Green is lynched: Reds win (too_few_greens). If Rex
    then dies in combat the same turn: Greens 3, Reds 0 → a draw with no winners."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"], rooms={"Ann": "A-1", "Rex": "A-1"})
    _kill(game, "Roy", "Eve")
    game.move()
    orders: dict[str, Any] = {n: {"vote": "Dan"} for n in ("Ann", "Bob", "Cat", "Rex")}
    if rex_dies:
        orders["Ann"] = {"vote": "Dan", "kill": ["Rex"]}
    game.decide(orders)
    result = game.state.result
    assert result is not None and result["reason"] == "too_few_greens"
    if rex_dies:
        assert result["result"] == "draw" and result["winners"] == []
        assert game.public("end")[-1]["text"] == "Draw."
    else:
        assert result["result"] == "reds"
        assert result["winners"] == [game.seat("Rex"), game.seat("Roy")]


def test_a41_phases_in_the_record() -> None:
    """A41: 7 seats, choose mode, Rex and Roy Red: the class phase awaits all 7 (Reds too);
    Rex's {} is accepted and a class refused (P1); turns[1] is Movement 1, turns[2] Decision
    1; Cat's null there means no vote, no attack, no terminal and a phantom."""
    rules = Infiltration()
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Rex", "Roy"]
    seats = [Seat(f"s{i}", name) for i, name in enumerate(names, start=1)]
    rng = Rng(41)
    state = rules.setup(seats, {"setup": {"reds": ["s6", "s7"]}}, rng)
    assert state.phase.value == "class"
    assert rules.awaiting(state) == frozenset(s.id for s in seats)
    assert rules.dump_orders(rules.parse_orders(state, "s6", {})) == {}
    with pytest.raises(InfiltrationOrderError) as info:
        rules.parse_orders(state, "s6", {"class": "Warrior"})
    assert info.value.code == "P1"
    class_orders = {s.id: ({} if s.id in ("s6", "s7") else {"class": "Hacker"}) for s in seats}
    state = step(rules, rng, state, class_orders, 1)
    assert state.phase.value == "movement" and state.turn == 1
    assert rules.view(state, "s1")["me"]["class"] == "Hacker"
    state = step(rules, rng, state, {s.id: {} for s in seats}, 2)
    assert state.phase.value == "decision"
    assert rules.awaiting(state) == frozenset(s.id for s in seats)
    decision: dict[str, Any] = {s.id: {"vote": "NO LYNCH"} for s in seats}
    decision["s3"] = None
    state = step(rules, rng, state, decision, 3)
    votes = [e for e in state.public_log if e["kind"] == "votes"][-1]
    assert "Cat → no vote" in votes["text"]
    assert [e["text"] for e in state.public_log if e["kind"] == "phantom"] == [
        "Cat receives phantom vote 1."]
    assert state.player("s3").phantoms == 1
    assert not any(e["kind"] == "terminal" for e in state.private_logs["s3"])


def test_a43_public_votes() -> None:
    """A43: the vote is the declared public order field; only the final vote counts; READY
    without a vote is refused with B3."""
    assert Infiltration.public_order_fields == frozenset({"vote"})
    game = Scenario(["Ann", "Bob", "Cat", "Dan"])
    game.move()
    first = game.parse("Ann", {"vote": "Bob"})
    final = game.parse("Ann", {"vote": "Cat", "ready": True})
    assert first.vote == game.seat("Bob") and final.vote == game.seat("Cat")
    with pytest.raises(InfiltrationOrderError) as info:
        game.parse("Ann", {"ready": True})
    assert (info.value.code, str(info.value)) == ("B3", "Cast a vote before declaring READY.")
    game.decide({"Ann": {"vote": "Cat", "ready": True}})
    votes = game.public("votes")[-1]
    assert [game.seat("Ann"), game.seat("Cat")] in votes["votes"]
    assert votes["text"].startswith("Ann → Cat; ")
