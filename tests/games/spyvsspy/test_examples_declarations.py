"""Spec §10 E49–E58: declarations (§5.4, §6 S1), game over (S2, S5) and the news (§8.1)."""

from __future__ import annotations

import json

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import RULES, labels, play, seen

WRONG = "eliminated: at least one of your declarations was incorrect"
ALPHA_OUT = ("Alpha eliminated by an incorrect declaration; "
             "its leader was Mr Pink, its base B Beltram")


def _b(state: State, seat: str):  # type: ignore[no-untyped-def]
    b = state.by_seat(seat)
    assert b is not None
    return b


def _status(t_view: dict, seat: str) -> tuple[str, object]:  # type: ignore[type-arg]
    row = next(r for r in t_view["directory"] if r["seat"] == seat)
    return row["status"], row["eliminated"]


def test_e49_declaration_correct(game: State) -> None:
    """E49: Alpha declares (Bravo, Mr Orange, D), which is right; Bravo has 30 gp. Bravo is
    eliminated in D2 before anything moves: its HUNT in E never happens (Charlie#7 works on
    unharmed) and its spies appear in no count. Alpha receives Bravo's 30 gp and a Life;
    Mr Orange leaves every leader list; the news announces Bravo's secrets."""
    _b(game, "s2").gp = 30
    t = play(game, {"s2": {2: ("HUNT", "E")}, "s3": {7: ("WORK", "E")}},
             declare={"s1": [("s2", "Mr Orange", "D")]},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.gp("s1") == 50
    assert _b(t.after, "s1").life == 1
    alpha = t.view("s1")
    assert alpha["me"]["life"] == 1
    assert t.outcomes("s1") == ["correct: you receive 30 gp and a Life"]
    assert t.news == ["Bravo eliminated: correctly declared by Alpha; "
                      "its leader was Mr Orange, its base D Docks"]
    assert _status(alpha, "s2") == ("eliminated", {"turn": 1, "phase": "D2"})
    assert not _b(t.after, "s2").surviving
    assert t.result("s3", 7) == "earned 3 gp"
    assert t.spy("s3", 7)["killed"] is False
    assert seen(t.view("s3"), "E") == {}
    for seat in ("s1", "s3", "s4"):
        view = t.view(seat)
        assert "Mr Orange" not in view["leaders"]
        assert "Bravo" not in labels(view) and "Mr Orange" not in labels(view)
    assert t.view("s3")["leaders"] == ["Mr Grey", "Mr Pink"]
    assert "me" not in t.view("s2")
    assert RULES.awaiting(t.after) == frozenset({"s1", "s3", "s4"})


def test_e50_declaration_incorrect_no_life(game: State) -> None:
    """E50 (FAQ trading lies): Alpha, with no Life, declares (Bravo, Mr Orange, I), the base
    being a rival's lie. Alpha is eliminated in D1 and told only that a declaration was
    incorrect; the news names Alpha alone; Bravo is untouched."""
    t = play(game, declare={"s1": [("s2", "Mr Orange", "I")]})
    assert t.outcomes("s1") == [WRONG]
    assert t.news == [ALPHA_OUT]
    assert _status(t.view("s2"), "s1") == ("eliminated", {"turn": 1, "phase": "D1"})
    assert _b(t.after, "s2").surviving
    assert t.gp("s2") == 20
    assert not any("Bravo" in line for line in t.news)
    assert "me" not in t.view("s1")


def test_e51_declaration_incorrect_with_life(game: State) -> None:
    """E51: Alpha, holding a Life, declares wrongly: the Life covers it. Alpha survives with
    life 0; only Alpha is told "incorrect, a Life was used"; there is no news."""
    _b(game, "s1").life = 1
    t = play(game, declare={"s1": [("s2", "Mr Orange", "I")]})
    assert _b(t.after, "s1").surviving
    assert _b(t.after, "s1").life == 0
    assert t.view("s1")["me"]["life"] == 0
    assert t.outcomes("s1") == ["incorrect, a Life was used"]
    assert t.news == []
    for seat in ("s2", "s3", "s4"):
        view = t.view(seat)
        assert view["declarations"] == []
        assert "Life" not in json.dumps(view)


def test_e52_incorrect_first_voids_correct(game: State) -> None:
    """E52: Alpha (no Life) declares Bravo correctly and Charlie incorrectly. Incorrect ones
    are processed first: Alpha falls in D1 and its correct declaration is void, so Bravo
    survives. Both declarations read the same outcome."""
    t = play(game, declare={"s1": [("s2", "Mr Orange", "D"), ("s3", "Mr Green", "A")]})
    assert not _b(t.after, "s1").surviving
    assert _b(t.after, "s2").surviving and _b(t.after, "s3").surviving
    assert t.outcomes("s1") == [WRONG, WRONG]
    assert t.news == [ALPHA_OUT]
    assert _status(t.view("s2"), "s1") == ("eliminated", {"turn": 1, "phase": "D1"})


def test_e53_life_covers_one(game: State) -> None:
    """E53: Alpha with one Life declares Bravo and Charlie, both wrongly: a Life covers only
    one incorrect declaration, so Alpha is eliminated in D1."""
    _b(game, "s1").life = 1
    t = play(game, declare={"s1": [("s2", "Mr Orange", "I"), ("s3", "Mr Green", "A")]})
    assert not _b(t.after, "s1").surviving
    assert t.outcomes("s1") == [WRONG, WRONG]
    assert t.news == [ALPHA_OUT]


def test_e54_shared_wipe(game: State) -> None:
    """E54: Alpha and Charlie both declare Bravo correctly; Bravo has 31 gp. Bravo is
    eliminated; each declarer gets ⌊31 / 2⌋ = 15 gp and a Life; 1 gp is lost."""
    _b(game, "s2").gp = 31
    declaration = [("s2", "Mr Orange", "D")]
    t = play(game, declare={"s1": declaration, "s3": declaration})
    assert t.gp("s1") == 35 and t.gp("s3") == 35
    assert _b(t.after, "s1").life == 1 and _b(t.after, "s3").life == 1
    assert t.outcomes("s1") == ["correct: you receive 15 gp and a Life"]
    assert t.outcomes("s3") == ["correct: you receive 15 gp and a Life"]
    assert t.news == ["Bravo eliminated: correctly declared by Alpha, Charlie; "
                      "its leader was Mr Orange, its base D Docks"]


def test_e55_life_cap(game: State) -> None:
    """E55: Alpha, already holding a Life, declares Bravo and Charlie correctly: 20 + 20 gp,
    and Lives are capped at one."""
    _b(game, "s1").life = 1
    t = play(game, declare={"s1": [("s2", "Mr Orange", "D"), ("s3", "Mr Green", "D")]})
    assert t.gp("s1") == 60
    assert _b(t.after, "s1").life == 1
    assert t.outcomes("s1") == ["correct: you receive 20 gp and a Life"] * 2
    assert t.news == [
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks",
        "Charlie eliminated: correctly declared by Alpha; "
        "its leader was Mr Green, its base D Docks",
    ]


def test_e56_target_self_eliminated(game: State) -> None:
    """E56: Bravo (no Life) declares Charlie wrongly while Alpha declares Bravo correctly;
    Bravo has 12 gp. Bravo falls in D1, yet Alpha's declaration stays valid: +12 gp and a
    Life. Charlie is untouched. One news line gives both causes."""
    _b(game, "s2").gp = 12
    t = play(game, declare={"s2": [("s3", "Mr Green", "A")], "s1": [("s2", "Mr Orange", "D")]})
    assert _status(t.view("s1"), "s2") == ("eliminated", {"turn": 1, "phase": "D1"})
    assert t.gp("s1") == 32
    assert _b(t.after, "s1").life == 1
    assert t.outcomes("s1") == ["correct: you receive 12 gp and a Life"]
    assert t.outcomes("s2") == [WRONG]
    assert _b(t.after, "s3").surviving
    assert t.news == ["Bravo eliminated by an incorrect declaration and correctly declared by "
                      "Alpha; its leader was Mr Orange, its base D Docks"]


def test_e57_mutual_elimination(game: State) -> None:
    """E57 (FAQ aim): Delta falls in turn 1 (a wrong declaration). In turn 2 Alpha declares
    Bravo correctly and Bravo declares Alpha correctly: both fall in D2, Charlie is the only
    survivor and wins at once, no task is run and no share is paid. Standings: Charlie 1st,
    Alpha and Bravo joint 2nd, Delta (out earlier) 4th."""
    t1 = play(game, declare={"s4": [("s1", "Mr Pink", "A")]})
    assert _status(t1.view("s1"), "s4") == ("eliminated", {"turn": 1, "phase": "D1"})
    t = play(t1.after, {"s3": {2: ("WORK", "H")}},
             declare={"s1": [("s2", "Mr Orange", "D")], "s2": [("s1", "Mr Pink", "B")]})
    assert t.after.turn == 2
    assert t.news == [
        "Alpha eliminated: correctly declared by Bravo; its leader was Mr Pink, its base B Beltram",
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks",
        "game over: Charlie wins",
    ]
    assert t.outcomes("s1") == ["correct, but you were eliminated too"]
    assert t.outcomes("s2") == ["correct, but you were eliminated too"]
    assert _b(t.after, "s3").gp == _b(t1.after, "s3").gp  # no WORK ran
    assert _b(t.after, "s1").gp <= _b(t1.after, "s1").gp
    assert _b(t.after, "s2").gp <= _b(t1.after, "s2").gp
    outcome = RULES.outcome(t.after)
    assert outcome is not None
    assert tuple(outcome.winners) == ("s3",)
    assert tuple(map(tuple, outcome.standings)) == (("s3", 1), ("s1", 2), ("s2", 2), ("s4", 4))
    over = t.view("s3")["game_over"]
    assert over["winners"] == ["s3"]
    assert over["standings"] == [{"seat": "s3", "place": 1}, {"seat": "s1", "place": 2},
                                 {"seat": "s2", "place": 2}, {"seat": "s4", "place": 4}]
    assert RULES.awaiting(t.after) == frozenset()


def test_e58_last_two_joint_winners(game: State) -> None:
    """E58 (FAQ two players left): Charlie and Delta fall in turn 1; in turn 2 Alpha and Bravo
    declare each other correctly. Nobody survives: both fell in D2, so they are joint
    winners. The final report reveals every leader and base, and the game seed."""
    t1 = play(game, declare={"s3": [("s1", "Mr Pink", "A")], "s4": [("s1", "Mr Pink", "A")]})
    assert t1.view("s1")["game_over"] is None
    t = play(t1.after, declare={"s1": [("s2", "Mr Orange", "D")], "s2": [("s1", "Mr Pink", "B")]})
    assert t.news == [
        "Alpha eliminated: correctly declared by Bravo; its leader was Mr Pink, its base B Beltram",
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks",
        "game over: Alpha, Bravo are joint winners",
    ]
    outcome = RULES.outcome(t.after)
    assert outcome is not None
    assert tuple(outcome.winners) == ("s1", "s2")
    assert tuple(map(tuple, outcome.standings)) == (("s1", 1), ("s2", 1), ("s3", 3), ("s4", 3))
    over = t.view("s1")["game_over"]
    assert over["winners"] == ["s1", "s2"]
    assert over["secrets"] == {"s1": {"leader": "Mr Pink", "base": "B"},
                               "s2": {"leader": "Mr Orange", "base": "D"},
                               "s3": {"leader": "Mr Green", "base": "D"},
                               "s4": {"leader": "Mr Grey", "base": "I"}}
    assert over["seed"] == game.seed == 7
