"""Acceptance examples AE-01 … AE-08, AE-25, AE-35 … AE-40 (spec §17)."""

from __future__ import annotations

import random

import pytest

from spyhouse.core.errors import IllegalOrderError
from spyhouse.games.spyorlie.game import ko_violation
from spyhouse.games.spyorlie.model import Colour, Face, Mode, Move
from spyhouse.games.spyorlie.rules import Key, Position
from tests.games.spyorlie.fixture import brief, cyber, position, spy
from tests.games.spyorlie.helpers import RULES, new_game, random_game, with_position


def cells_of(p: Position) -> list[tuple[int, int]]:
    return sorted({m.cell for m in p.legal_moves()})


def test_ae_01_first_move() -> None:
    p = Position.start(4)
    assert p.legal_moves() == [Move(f, (0, 0), o, Mode.PLAIN, None)
                               for f in (Face.S, Face.M, Face.C) for o in (0, 1)]
    p.play(Move(Face.S, (0, 0), 0, Mode.PLAIN, None))
    assert cells_of(p) == [(-1, 1), (0, -1), (1, 0)]


def test_ae_02_preferred_rotation() -> None:
    p = Position.start(4)
    p.play(Move(Face.S, (0, 0), 1, Mode.PLAIN, None))
    assert cells_of(p) == [(-1, 0), (0, 1), (1, -1)]
    assert all((q - r) % 3 != 1 for q, r in cells_of(p))  # class 1 is dead


def test_ae_03_centre_required() -> None:
    with pytest.raises(IllegalOrderError) as refused:
        RULES.parse_orders(new_game(), "s1", {"face": "S", "cell": [1, 0], "orientation": 0})
    assert refused.value.messages == ("The first card must be placed in the centre, [0, 0].",)


def test_ae_04_marked_edges_and_auto_rotation() -> None:
    p = position("(0,0)=Bs", radius=4, to_move="R", turns=(1, 0))
    p.set_first_orientation(0)
    state = with_position(new_game(), p)
    with pytest.raises(IllegalOrderError) as refused:
        RULES.parse_orders(state, "s2", {"face": "S", "cell": [1, -1]})
    assert refused.value.messages == ("Cell [1, -1] is not on an open marked edge.",)
    order = RULES.parse_orders(state, "s2", {"face": "S", "cell": [1, 0]})
    assert order.move.orientation == 1
    p.play(order.move)
    assert cells_of(p) == [(-1, 1), (0, -1), (1, 1), (2, -1)]


def test_ae_05_dead_cells_are_never_used() -> None:
    """Over 1 000 random games: no legal move ever uses a cell of the dead class 2 - o₁."""
    for seed in range(1, 1001):
        for before, move, _ in random_game(seed):
            o1 = before.o1 if before.o1 >= 0 else move.orientation
            dead = 2 - o1
            assert all((m.cell[0] - m.cell[1]) % 3 != dead for m in before.legal_moves())
            assert (move.cell[0] - move.cell[1]) % 3 != dead


def test_ae_06_re_entry() -> None:
    p = position("(0,-1)=B!s (0,0)=Bs (1,0)=Bs", radius=3, to_move="R", turns=(2, 1))
    assert cells_of(p) == [(-1, -1), (-1, 1), (1, -2), (1, 1), (2, -1)]
    assert brief(p.apply(spy((1, -2)))) == ["place S (1,-2) R"]


def test_ae_07_cyber_window() -> None:
    def cyber_moves(to_move: str, turns: tuple[int, int]) -> list[tuple[object, object]]:
        p = position("(0,0)=Rs (1,0)=Bs", radius=4, to_move=to_move, turns=turns)
        return [(m.cell, m.target) for m in p.legal_moves() if m.mode == Mode.CYBER]

    assert cyber_moves("B", (4, 4)) == []
    assert cyber_moves("R", (5, 4)) == []
    assert cyber_moves("B", (5, 5)) == [((-1, 1), (0, 0)), ((0, -1), (0, 0))]
    assert cyber_moves("R", (6, 5)) == [((1, 1), (1, 0)), ((2, -1), (1, 0))]


def test_ae_08_what_may_be_accused_or_attacked() -> None:
    p = position("(0,0)=Bs (1,0)=R!s (2,-1)=RX", radius=4, to_move="B", turns=(5, 5))
    at = [(m.face.name, m.mode.name, m.target) for m in p.legal_moves() if m.cell == (1, 1)]
    assert at == [("S", "PLAIN", None), ("M", "PLAIN", None), ("C", "PLAIN", None),
                  ("X", "CYBER", (1, 0))]


def test_ae_25_immune_catcher_vs_cyber_attack() -> None:
    p = position("(0,0)=Bs (1,0)=Rm (2,-1)=Rs", radius=4, to_move="B", turns=(5, 5))
    p.apply(Move(Face.C, (1, 1), 0, Mode.ACCUSE, (1, 0)))
    assert (p.to_move, p.turns_taken) == (Colour.RED, (6, 5))
    attacks = [(m.cell, m.target) for m in p.legal_moves() if m.mode == Mode.CYBER]
    assert attacks == [((-1, 1), (0, 0)), ((0, -1), (0, 0))]
    state = with_position(new_game(), p)
    for cell in ([2, 1], [0, 2]):
        with pytest.raises(IllegalOrderError) as refused:
            RULES.parse_orders(state, "s2", {"face": "X", "cell": cell, "target": [1, 1]})
        assert refused.value.messages == ("Target [1, 1] is a protected Mole Catcher.",)
    p.play(spy((-1, 1)))
    p.play(spy((0, -1)))
    assert p.immune_cell() is None
    attacks = [(m.cell, m.target) for m in p.legal_moves() if m.mode == Mode.CYBER]
    assert ((0, 2), (1, 1)) in attacks and ((2, 1), (1, 1)) in attacks


def test_ae_35_ko_never_refuses_and_each_placement_adds_one_card() -> None:
    """(a) 1 000 random games (N=4): KO2 never fires, each placement adds one card."""
    for seed in range(1, 1001):
        rnd = random.Random(seed)
        p = Position.start(4)
        keys: list[Key] = []
        while not p.over:
            moves = p.legal_moves()
            if moves:
                before = p.ncards
                p.apply(moves[rnd.randrange(len(moves))])  # KO3's assertion would raise
                assert p.ncards == before + 1
                assert len(keys) < 2 or p.key() != keys[-2]
            else:
                p.apply_pass()
            keys.append(p.key())


def test_ae_35_ko_predicate_reports_a_repeat() -> None:
    """(b) a synthetic history whose key two turns back equals the candidate's result."""
    p = position("(0,0)=Bs (1,0)=Rs", radius=4, to_move="B", turns=(1, 1))
    move = spy((-1, 1))
    after = p.copy()
    after.apply(move)
    assert ko_violation(p, move, after.key())
    assert not ko_violation(p, move, p.key())
    assert not ko_violation(p, move, None)


AE36 = ("(-2,0)=R!s (-2,1)=R!s (-1,-1)=Bs (-1,1)=Rs (-1,2)=Bs (0,-1)=Rs (0,0)=Bs (0,2)=Bs "
        "(1,-2)=Bs (1,0)=Rs (1,1)=Bs (2,-2)=B!s (2,-1)=B!s")


def test_ae_36_forced_pass() -> None:
    p = position(AE36, radius=2, to_move="R", turns=(7, 6),
                 hands={"B": {"S": 2}, "R": {"S": 2, "X": 1}})
    assert p.legal_moves() == [] and not p.has_placement()
    assert brief(p.apply_pass()) == ["pass R"]
    eleven = position("(0,0)=Bs (1,0)=Rs (2,-1)=Bs (2,-2)=Rs", radius=2, to_move="B",
                      turns=(2, 2))
    assert eleven.legal_moves() and eleven.has_placement()


def test_ae_37_two_passes_end_the_game_draw() -> None:
    p = position(AE36, radius=2, to_move="R", turns=(7, 6),
                 hands={"B": {"S": 2}, "R": {"S": 2, "X": 1}})
    assert brief(p.apply_pass()) == ["pass R"]
    assert not p.over
    assert brief(p.apply_pass()) == ["pass B", "end DRAW 2-2"]
    assert p.over and p.result == "DRAW"
    q = position(AE36.replace("(-2,1)=R!s", "(-2,1)=Rs"), radius=2, to_move="R", turns=(7, 6),
                 hands={"B": {"S": 2}, "R": {"S": 2, "X": 1}})
    q.settle()
    assert q.over and q.result == "BLUE_WIN" and q.points() == (2, 1)


def test_ae_38_last_card() -> None:
    p = position(AE36.replace(" (1,1)=Bs", ""), radius=2, to_move="R", turns=(7, 6),
                 hands={"B": {}, "R": {"S": 1}})
    assert brief(p.play(spy((1, 1)))) == [
        "place S (1,1) R",
        "chain w1 S (0,2)->R by (1,1)",
        "chain w2 S (-1,2)->R by (0,2)",
        "self w0 S (1,1)->B by none",
        "self w1 S (1,0)->B by (1,1)",
        "end DRAW 4-4",
    ]
    assert p.over and p.points() == (4, 4)


def test_ae_39_empty_hand() -> None:
    p = position(AE36.replace(" (1,1)=Bs", ""), radius=2, to_move="B", turns=(6, 6),
                 hands={"B": {}, "R": {"S": 1}})
    assert p.legal_moves() == []
    state = with_position(new_game(), p)
    assert RULES.awaiting(state) == frozenset({"s1"})  # a fixture before any resolve
    assert brief(p.settle()) == ["pass B"]
    assert not p.over
    assert p.legal_moves() == [spy((1, 1))]


def test_ae_40_determinism() -> None:
    fixture = "(-1,-1)=Bs (1,1)=Bs (0,-1)=Rs (1,-2)=Rs (1,0)=Rs (2,-2)=Rs (2,-1)=Rs"
    a = position(fixture, radius=2, to_move="B", turns=(4, 4))
    b = position(fixture, radius=2, to_move="B", turns=(4, 4))
    assert a.state_tuple() == b.state_tuple()
    assert a.apply(spy((0, 0))) == b.apply(spy((0, 0)))
    assert a.state_tuple() == b.state_tuple() and a.key() == b.key()


def test_ae_40_random_games_repeat_exactly() -> None:
    again = [random_game(seed) for seed in range(1, 21)]
    assert [[(m, e) for _, m, e in game] for game in again] == \
        [[(m, e) for _, m, e in game] for game in (random_game(s) for s in range(1, 21))]


def test_cyber_face_x_cannot_be_first() -> None:
    assert all(m.face != Face.X for m in Position.start(3).legal_moves())
    assert cyber((1, 1), (1, 0)).mode == Mode.CYBER
