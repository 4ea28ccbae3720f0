"""The engine's incremental bookkeeping equals a recomputation from the cell lists.

``Position`` keeps each cell's free edges, the open cells (P3) and (once asked to) the
packed cells of its key up to date as cards are placed and taken back, generates moves
from a table, and the search values leaves from their parent's groups
(``ai.GroupTable``); after random sequences of moves and undos, each must equal what a
from-scratch computation gives.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie import ai
from spyhouse.games.spyorlie.model import Face, Mode, Move
from spyhouse.games.spyorlie.moves import search_moves
from spyhouse.games.spyorlie.rules import Position
from tests.games.spyorlie.fixture import position
from tests.games.spyorlie.helpers import RULES, new_game, with_position

SEEDS = st.integers(min_value=0, max_value=10**9)
RADII = st.sampled_from([2, 3, 4])


def scratch_free(p: Position) -> list[int]:
    """Per cell: the empty cells behind its marked edges (0 before the first card)."""
    if p.o1 < 0:
        return [0] * len(p.own)
    return [sum(1 for n in p.links[i] if p.own[n] < 0) if i in p.board.live[p.o1] else 0
            for i in range(len(p.own))]


def scratch_open(p: Position) -> list[int]:
    """P3 from the definition: empty live cells touching a card through a marked edge."""
    if p.o1 < 0:
        return []
    return [i for i in p.board.live[p.o1]
            if p.own[i] < 0 and any(p.own[n] >= 0 for n in p.links[i])]


def scratch_legal(p: Position) -> list[Move]:
    """§5.4's canonical list, built from P1–P8 by a scan of every cell."""
    if p.over:
        return []
    x, y = p.to_move_i, 1 - p.to_move_i
    hand = p.hand(x)
    if p.ncards == 0:
        return [Move(f, (0, 0), o, Mode.PLAIN, None) for f in (Face.S, Face.M, Face.C)
                if hand[f] for o in (0, 1)]
    immune = p.immune_index()
    cells = p.board.cells
    out = []
    for i in scratch_open(p):
        o = p.orientation_of(i)
        out += [Move(f, cells[i], o, Mode.PLAIN, None) for f in (Face.S, Face.M, Face.C)
                if hand[f]]
        if hand[Face.C]:
            out += [Move(Face.C, cells[i], o, Mode.ACCUSE, cells[n]) for n in p.links[i]
                    if p.own[n] == y and not p.point[n] and not p.rev[n]]
        if hand[Face.X] and p.cyber_window_open():
            out += [Move(Face.X, cells[i], o, Mode.CYBER, cells[n]) for n in p.links[i]
                    if p.own[n] == y and n != immune]
    return out


def check_bookkeeping(p: Position) -> None:
    if p.codes is not None:
        assert bytes(p.codes) == p.packed()
    assert p.free_edges() == scratch_free(p)
    assert p.open_cells() == scratch_open(p)
    assert (p.free_edges(), p.open_cells()) == p.recount()
    legal = p.legal_moves()
    assert legal == scratch_legal(p)
    assert p.has_placement() == bool(legal)
    spies = p.hands[4 * p.to_move_i] > 0
    assert search_moves(p) == [m for m in legal if m.mode != Mode.ACCUSE and not (
        spies and m.face == Face.C and m.mode == Mode.PLAIN)]


def check_leaves(p: Position) -> None:
    """Every child's value from the parent's groups is the full evaluation's, exactly."""
    table = ai.GroupTable(p, ai.DEFAULT_WEIGHTS)
    ply = p.ply
    for move in p.legal_moves():
        p.advance(move)
        for side in (0, 1):
            assert ai.evaluate_after(p, table, side) == ai.evaluate(p, side)
        while p.ply > ply:
            p.undo()


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, radius=RADII, undo_rate=st.sampled_from([0.0, 0.2, 0.5]))
def test_bookkeeping_equals_recount_after_moves_and_undos(seed: int, radius: int,
                                                          undo_rate: float) -> None:
    rnd = random.Random(seed)
    p = Position.start(radius)
    if rnd.random() < 0.5:
        p.track_key()
    check_bookkeeping(p)
    played = 0
    while not p.over and played < 80:
        if p.turns_recorded() and rnd.random() < undo_rate:
            p.undo()
        else:
            move = rnd.choice(p.legal_moves())
            if rnd.random() < 0.5:
                p.play(move)
            else:
                p.advance(move)
        played += 1
        check_bookkeeping(p)
        if rnd.random() < 0.2:  # a copy carries the bookkeeping; a copy is independent
            twin = p.copy()
            check_bookkeeping(twin)
            if not twin.over:
                twin.advance(rnd.choice(twin.legal_moves()))
                check_bookkeeping(twin)
            check_bookkeeping(p)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_leaf_values_from_parent_groups_equal_full_evaluation(seed: int, radius: int) -> None:
    rnd = random.Random(seed)
    p = Position.start(radius)
    while not p.over:
        if p.ncards:
            check_leaves(p)
        p.advance(rnd.choice(p.legal_moves()))


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_positions_written_directly_are_counted_when_first_used(seed: int) -> None:
    """A world built from a view (cell lists written directly) counts itself lazily."""
    rnd = random.Random(seed)
    state = new_game()
    for _ in range(rnd.randrange(1, 30)):
        p = state.position
        if p.over:
            break
        seat = sorted(RULES.awaiting(state))[0]
        view = RULES.view(state, seat)
        world = ai.sample_world(view, Rng(seed).stream(0, "test"))
        world.track_key()
        check_bookkeeping(world)
        if not world.over:
            world.advance(rnd.choice(world.legal_moves()))
            check_bookkeeping(world)
        move = rnd.choice(p.legal_moves())
        state = RULES.resolve(state, {seat: RULES.parse_orders(state, seat, move.to_json())},
                              Rng(0))


def test_fixture_position_counts_an_immune_catcher_and_point_cards() -> None:
    p = position("(0,0)=Bs (1,0)=RC# (0,-1)=B!s (-1,1)=Rm", radius=3, to_move="B",
                 turns=(6, 5))
    check_bookkeeping(p)
    check_leaves(p)
    assert with_position(new_game({"radius": 3}), p).position is p
