"""Spec §10 E01–E08: setup (§4), WORK, TRAIN, COVERT and RECRUIT (§6 T2, T3, T10, T11)."""

from __future__ import annotations

import json

from spyhouse.core.rng import ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import (
    RULES,
    add_spies,
    play,
    refusal,
    seen,
    sheet_json,
)


def _b(state: State, seat: str):  # type: ignore[no-untyped-def]
    b = state.by_seat(seat)
    assert b is not None
    return b


def test_e01_setup_start_state() -> None:
    """E01: Alpha chose base B, Bravo chose none. Leaders come from ``setup-leaders``:
    roll(40)=1 gives Alpha Mr Pink, then roll(39)=1 gives Bravo the first name left,
    Mr Orange; Bravo's base is ``setup-bases`` roll(9)=9, region I. Both start with 20 gp,
    covertness 1, no Life and nine spies of skills 4 3 3 2 2 2 1 1 1 with a blank At.
    Each player's own view carries only its own secrets; no report shows them."""
    rng = ScriptedRng(11, {"setup-leaders": [1, 1], "setup-bases": [9]})
    seats = [Seat("s1", "Alpha", "Ann", "ann@example.org"),
             Seat("s2", "Bravo", "Bob", "bob@example.org")]
    state = RULES.setup(seats, {"base_choice": "choose", "setup": {"bases": {"s1": "B"}}}, rng)

    assert rng.draws == [("setup-leaders@0", 40, 1), ("setup-leaders@0", 39, 1),
                         ("setup-bases@0", 9, 9)]
    assert rng.unused() == {}
    alpha, bravo = _b(state, "s1"), _b(state, "s2")
    assert (alpha.leader, alpha.base.value) == ("Mr Pink", "B")
    assert (bravo.leader, bravo.base.value) == ("Mr Orange", "I")
    assert state.turn == 0
    for b in (alpha, bravo):
        assert (b.gp, b.covertness, b.life) == (20, 1, 0)
        assert [(s.number, s.skill, s.at) for s in b.spies] == [
            (1, 4, None), (2, 3, None), (3, 3, None), (4, 2, None), (5, 2, None),
            (6, 2, None), (7, 1, None), (8, 1, None), (9, 1, None)]

    va, vb = RULES.view(state, "s1"), RULES.view(state, "s2")
    assert va["secrets"] == {"leader": "Mr Pink", "base": "B"}
    assert vb["secrets"] == {"leader": "Mr Orange", "base": "I"}
    assert va["me"]["gp"] == 20 and va["me"]["covertness"] == 1 and va["me"]["life"] == 0
    assert va["me"]["nspies"] == 9
    assert [(s["number"], s["leader"], s["skill"], s["at"], s["task"]) for s in va["spies"]] == [
        (1, True, 4, None, None), (2, False, 3, None, None), (3, False, 3, None, None),
        (4, False, 2, None, None), (5, False, 2, None, None), (6, False, 2, None, None),
        (7, False, 1, None, None), (8, False, 1, None, None), (9, False, 1, None, None)]
    assert va["table"] is None
    assert va["leaders"] == ["Mr Orange"] and vb["leaders"] == ["Mr Pink"]
    # No report shows a leader name outside the seat's own secrets and its leader list.
    for view in (va, vb):
        rest = {k: v for k, v in view.items() if k not in ("secrets", "leaders")}
        text = json.dumps(rest)
        assert "Mr Pink" not in text and "Mr Orange" not in text
        assert all("leader" not in row and "base" not in row for row in view["directory"])


def test_e02_work_industrial(game: State) -> None:
    """E02: Alpha#2 (skill 3) WORKs in H Industrial and earns 3 + 5 = 8 gp
    (the "Task 11 WORK" example)."""
    t = play(game, {"s1": {2: ("WORK", "H")}})
    assert t.gp("s1") == 28
    assert t.result("s1", 2) == "earned 8 gp"
    assert t.spy("s1", 2)["task"] == {"task": "WORK", "region": "H"}
    assert t.spy("s1", 2)["at"] == "H"
    assert _b(t.after, "s1").spy(2).at == "H"  # At: where the spy spent the turn (S4)


def test_e03_train_academy(game: State) -> None:
    """E03: with 30 gp, Alpha#7 (skill 1) TRAINs in A Academy (Train 3): +3 skill for
    2·3² = 18 gp, so #7 ends with skill 4 and Alpha with 12 gp."""
    _b(game, "s1").gp = 30
    t = play(game, {"s1": {7: ("TRAIN", "A")}})
    assert _b(t.after, "s1").spy(7).skill == 4  # type: ignore[union-attr]
    assert t.spy("s1", 7)["skill"] == 4
    assert t.gp("s1") == 12
    assert t.result("s1", 7) == "skill +3 for 18 gp"


def test_e04_train_short_of_money(game: State) -> None:
    """E04: Alpha has 10 gp; #7 and #8 TRAIN A, #9 TRAIN C. Trainers pay in number order:
    #7 can afford +2 (8 gp, short of money, 2 left), #8 +1 (2 gp, short, 0 left) and #9
    "could not afford training" and keeps skill 1."""
    _b(game, "s1").gp = 10
    t = play(game, {"s1": {7: ("TRAIN", "A"), 8: ("TRAIN", "A"), 9: ("TRAIN", "C")}})
    assert t.result("s1", 7) == "skill +2 for 8 gp (short of money)"
    assert t.result("s1", 8) == "skill +1 for 2 gp (short of money)"
    assert t.result("s1", 9) == "could not afford training"
    assert [t.spy("s1", n)["skill"] for n in (7, 8, 9)] == [3, 2, 1]
    assert t.gp("s1") == 0


def test_e05_covert_accumulates(game: State) -> None:
    """E05: Alpha#4 (2) and the leader Alpha#1 (4) do COVERT in E: covertness 1 + 2 + 4 = 7,
    and it stays 7 through a turn without COVERT. The COVERT spies stand in E: Bravo's
    hunter there counts Alpha 2 and COVERT 2 (and ticks Mr Pink), and kills #4, whose
    COVERT points still count (COVERT comes before HUNT)."""
    t = play(game, {"s1": {4: ("COVERT", "E"), 1: ("COVERT", "E")},
                    "s2": {2: ("HUNT", "E")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert _b(t.after, "s1").covertness == 7
    assert t.view("s1")["me"]["covertness"] == 7
    assert t.result("s1", 1) == "covertness +4"
    assert t.result("s1", 4) == "covertness +2; killed by a hunter of Bravo"
    assert t.result("s2", 2) == "killed a spy of Alpha; Alpha's base is in B Beltram"
    assert seen(t.view("s2"), "E") == {"Alpha": 2, "COVERT": 2, "Mr Pink": "✓"}

    t2 = play(t.after, {})
    assert t2.after.turn == 2
    assert _b(t2.after, "s1").covertness == 7
    assert [row["covertness"] for row in t2.view("s2")["directory"]] == [7, 1, 1, 1]


def test_e06_recruit_cost(game: State) -> None:
    """E06: Alpha has 11 spies (#1–#11) and 25 gp; #2 and #3 RECRUIT, #4 (2) WORKs in H;
    ``recruit`` draws 2 then 3. Each recruit costs 11 (the spy count at the start of the
    turn): #12 (skill 2) leaves 14 gp, #13 (skill 3) leaves 3 gp; WORK comes after RECRUIT,
    #4 earns 7: 10 gp. Alpha now has 13 spies, so next turn a recruit costs 13."""
    add_spies(game, "s1", 1, 1)
    _b(game, "s1").gp = 25
    t = play(game, {"s1": {2: ("RECRUIT",), 3: ("RECRUIT",), 4: ("WORK", "H")}},
             script={"recruit": [2, 3]})
    assert t.draws("recruit") == [(3, 2), (3, 3)]
    assert t.result("s1", 2) == "recruited spy #12 (skill 2) for 11 gp"
    assert t.result("s1", 3) == "recruited spy #13 (skill 3) for 11 gp"
    assert t.result("s1", 4) == "earned 7 gp"
    assert t.gp("s1") == 10
    for number, skill in ((12, 2), (13, 3)):
        line = t.spy("s1", number)
        assert (line["skill"], line["at"], line["task"], line["result"], line["killed"]) == (
            skill, None, None, None, False)
    assert t.spy("s1", 2)["at"] == "G"
    assert t.view("s1")["me"]["nspies"] == 13
    assert len(_b(t.after, "s1").spies) == 13

    nxt = t.after
    _b(nxt, "s1").gp = 25
    recruit_two = sheet_json({2: ("RECRUIT",), 3: ("RECRUIT",)})
    assert refusal(nxt, "s1", recruit_two) == ("RECRUIT: 2 recruits cost 26 gp, you have 25 gp",)
    _b(nxt, "s1").gp = 26
    RULES.parse_orders(nxt, "s1", recruit_two)  # 2 × 13 = 26 is affordable


def test_e07_recruit_unaffordable_after_training(game: State) -> None:
    """E07: Alpha (9 spies) has 12 gp; #7 TRAINs in A and #2 RECRUITs (accepted at
    submission: 9 ≤ 12). TRAIN comes first: +2 for 8 gp leaves 4, so the recruit cannot be
    paid: "could not afford a recruit (9 gp)". The recruiter still stands in the Ghetto:
    Bravo's observer there counts Alpha 1 and RECRUIT 1."""
    _b(game, "s1").gp = 12
    t = play(game, {"s1": {7: ("TRAIN", "A"), 2: ("RECRUIT",)}, "s2": {3: ("WORK", "G")}},
             script={"recruit": [1]})
    assert t.result("s1", 7) == "skill +2 for 8 gp (short of money)"
    assert t.result("s1", 2) == "could not afford a recruit (9 gp)"
    assert t.gp("s1") == 4
    assert len(_b(t.after, "s1").spies) == 9
    assert t.draws("recruit") == []
    assert seen(t.view("s2"), "G") == {"Alpha": 1, "RECRUIT": 1}


def test_e08_recruit_refused_at_submission(game: State) -> None:
    """E08: Alpha (9 spies) has 15 gp and orders #2 and #3 to RECRUIT: 2 × 9 = 18 > 15,
    so the whole sheet is refused (V10)."""
    _b(game, "s1").gp = 15
    sheet = sheet_json({2: ("RECRUIT",), 3: ("RECRUIT",)})
    assert refusal(game, "s1", sheet) == ("RECRUIT: 2 recruits cost 18 gp, you have 15 gp",)


def _values(state: State) -> object:
    """Everything a resolution could change in a state, as plain values."""
    return (state.turn, state.price, state.log, state.game_over, [
        (b.seat, b.gp, b.covertness, b.life, b.next_number, b.eliminated, b.leader, b.base,
         [(s.number, s.skill, s.at) for s in b.spies])
        for b in state.brotherhoods])


def test_resolve_leaves_its_input_untouched(game: State) -> None:
    """The Ruleset protocol: ``resolve`` returns a new state and leaves its input as it was."""
    snapshot = _values(game)
    t = play(game, {"s1": {2: ("HUNT", "D"), 3: ("RECRUIT",), 4: ("TRAIN", "A")},
                    "s2": {7: ("WORK", "D")}},
             declare={"s3": [("s4", "Mr Grey", "I")]})
    assert t.after is not game
    assert _values(t.after) != snapshot
    assert _values(game) == snapshot
