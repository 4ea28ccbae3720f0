"""Property tests (hypothesis): random legal games, copy/undo, Ko, the derived facts of §3.3."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.errors import OrderError
from spyhouse.games.spyorlie.board import DIRECTIONS, board, is_marked
from spyhouse.games.spyorlie.model import FULL_HAND, Face, Mode, Pass
from spyhouse.games.spyorlie.rules import Position
from tests.games.spyorlie.helpers import RULES, new_game, random_game, with_position

SEEDS = st.integers(min_value=0, max_value=10**9)
RADII = st.sampled_from([2, 3, 4])


def check_invariants(p: Position) -> None:
    """§3.3 and §4 invariants of any reachable position."""
    b = p.board
    assert p.has_placement() == bool(p.legal_moves())  # P9
    occupied = [i for i in range(len(b.cells)) if p.own[i] >= 0]
    assert len(occupied) == p.ncards
    placed = {0: Counter[int](), 1: Counter[int]()}
    for i in occupied:
        placed[p.placer[i]][p.face[i]] += 1
        if not p.point[i]:
            assert p.own[i] == p.placer[i]  # §4.1: AGENT ⇒ owner = placer
        else:
            assert p.rev[i]  # D8: a card that changed owner is revealed
        if p.ann[i]:
            assert p.face[i] == Face.C and p.rev[i]
        if p.face[i] == Face.X:
            assert p.rev[i]
    for colour in (0, 1):  # each colour's 20 cards: on the board or in hand
        for face in Face:
            assert placed[colour][face] + p.hands[4 * colour + face] == FULL_HAND[face]
    if p.o1 < 0:
        assert not occupied
        return
    dead = 2 - p.o1
    for i in occupied:
        cell = b.cells[i]
        k = (cell[0] - cell[1]) % 3
        assert k != dead  # G11
        o = p.orientation_of(i)
        assert o == (p.o1 if k == 0 else 1 - p.o1)  # G11
        for d in range(6):
            j = b.nbr[i][d]
            if j >= 0 and p.own[j] >= 0:
                assert p.orientation_of(j) != o  # G9
                assert is_marked(o, d) and is_marked(p.orientation_of(j), (d + 3) % 6)  # G12
    for i in occupied:  # G10: no three mutually touching occupied cells
        for j in b.adjacent[i]:
            for k2 in b.adjacent[j]:
                if p.own[j] >= 0 and p.own[k2] >= 0 and k2 in b.adjacent[i]:
                    raise AssertionError("three mutually touching cards")
    points = p.points()
    assert points == (sum(1 for i in occupied if p.point[i] and p.own[i] == 0),
                      sum(1 for i in occupied if p.point[i] and p.own[i] == 1))


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_random_games_never_raise_end_and_score_flags(seed: int, radius: int) -> None:
    game = random_game(seed, radius)
    last, move, events = game[-1]
    end = last.copy()
    end.play(move)
    check_invariants(end)
    assert end.over and end.legal_moves() == []
    assert end.pass_streak >= 2 or not any(end.hands)  # E1
    blue, red = end.points()
    assert end.result == ("BLUE_WIN" if blue > red else "RED_WIN" if red > blue else "DRAW")
    assert events[-1].to_json()["type"] == "end"
    assert events[-1].to_json()["points"] == {"BLUE": blue, "RED": red}
    for before, _, _ in game:
        check_invariants(before)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_copy_and_undo_restore_the_position_exactly(seed: int, radius: int) -> None:
    rnd = random.Random(seed)
    for before, _, _ in random_game(seed, radius)[:: 3]:
        state, key = before.state_tuple(), before.key()
        moves = before.legal_moves()
        for move in rnd.sample(moves, min(6, len(moves))):
            twin = before.copy()
            twin.apply(move)
            assert before.state_tuple() == state  # the copy is independent
            before.apply(move)
            assert before.state_tuple() == twin.state_tuple()
            assert before.key() == twin.key() and before.search_key() == twin.search_key()
            before.undo()
            assert before.state_tuple() == state and before.key() == key
        if not moves:
            before.apply_pass()
            before.undo()
            assert before.state_tuple() == state


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_play_is_undone_turn_by_turn(seed: int, radius: int) -> None:
    """``play`` may make several turns (forced passes); one ``undo`` per turn takes them back."""
    p = Position.start(radius)
    history = {0: p.state_tuple()}
    rnd = random.Random(seed)
    while not p.over:
        moves = p.legal_moves()
        p.play(moves[rnd.randrange(len(moves))])
        history[p.ply] = p.state_tuple()
    for ply in range(p.ply, 0, -1):
        if ply in history:
            assert p.state_tuple() == history[ply]
        p.undo()
    assert p.state_tuple() == history[0]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_ko_no_move_restores_an_earlier_position(seed: int, radius: int) -> None:
    """G16/KO2: keys never repeat, in particular never the key two turns back."""
    p = Position.start(radius)
    keys = [p.key()]
    rnd = random.Random(seed)
    while not p.over:
        moves = p.legal_moves()
        if moves:
            p.apply(moves[rnd.randrange(len(moves))])
            assert p.key() not in keys
        else:
            p.apply_pass()
        keys.append(p.key())
    assert len(keys) == p.ply + 1


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, radius=RADII)
def test_parse_orders_accepts_exactly_the_legal_moves(seed: int, radius: int) -> None:
    """DF9's checks and §5's legal list agree on random candidates."""
    rnd = random.Random(seed)
    for before, _, _ in random_game(seed, radius)[:: 4]:
        state = with_position(new_game({"radius": radius}), before)
        seat = state.seats[before.to_move_i]
        legal_moves = before.legal_moves()
        for move in legal_moves:
            assert RULES.parse_orders(state, seat, move.to_json()).move == move
        cells = list(before.board.cells)
        for _ in range(40):
            cell = rnd.choice(cells)
            face = rnd.choice(list(Face))
            mode = rnd.choice(list(Mode))
            q, r = cell
            d = DIRECTIONS[rnd.randrange(6)]
            target = None if mode == Mode.PLAIN else [q + d[0], r + d[1]]
            orientation = rnd.randrange(2) if before.ncards == 0 else None
            data = {"face": face.name, "cell": [q, r], "mode": mode.name, "target": target,
                    "orientation": orientation}
            try:
                move = RULES.parse_orders(state, seat, data).move
            except OrderError:
                assert not any(m.cell == cell and m.face == face and m.mode == mode and
                               (m.target is None or list(m.target) == target) and
                               (orientation is None or m.orientation == orientation)
                               for m in legal_moves)
            else:
                assert move in legal_moves


def test_g12_live_cells_per_radius() -> None:
    table = {2: (19, 7, 6), 3: (37, 13, 12), 4: (61, 19, 21), 5: (91, 31, 30),
             6: (127, 43, 42)}
    for radius, (cells, class0, class_l) in table.items():
        b = board(radius)
        assert len(b.cells) == cells
        for o1 in (0, 1):
            live = b.live[o1]
            assert sum(1 for i in live if b.cls[i] == 0) == class0
            assert sum(1 for i in live if b.cls[i] != 0) == class_l
            seen, stack = {b.centre}, [b.centre]  # every live cell reachable from (0, 0)
            while stack:
                for n in b.links[o1][stack.pop()]:
                    if n not in seen:
                        seen.add(n)
                        stack.append(n)
            assert seen == set(live)
            assert all(len(b.links[o1][i]) <= 3 for i in live)


def test_g12_radius_4_degrees() -> None:
    b = board(4)
    for o1 in (0, 1):
        degrees = Counter(len(b.links[o1][i]) for i in b.live[o1])
        assert degrees == Counter({3: 25, 2: 12, 1: 3})


def test_g13_g14_open_cells_take_every_plain_card_and_only_the_first_has_a_choice() -> None:
    for seed in range(1, 41):
        for before, _, _ in random_game(seed):
            moves = before.legal_moves()
            by_cell: dict[tuple[int, int], set[tuple[Face, int]]] = {}
            for m in moves:
                if m.mode == Mode.PLAIN:
                    by_cell.setdefault(m.cell, set()).add((m.face, m.orientation))
            hand = before.hand(before.to_move_i)
            for cell, kinds in by_cell.items():
                faces = {f for f, _ in kinds}
                assert faces == {f for f in (Face.S, Face.M, Face.C) if hand[f]}
                orientations = {o for _, o in kinds}
                assert len(orientations) == (2 if before.ncards == 0 else 1), cell


def test_g15_without_passes_radius_4_fills_the_board() -> None:
    for seed in range(1, 101):
        game = random_game(seed)
        passes = sum(1 for _, _, events in game for ev in events if isinstance(ev, Pass))
        last, move, _ = game[-1]
        end = last.copy()
        end.play(move)
        if passes == 0:
            assert end.ncards == 40 and not any(end.hands)
            assert not any(end.own[i] < 0 for i in end.board.live[end.o1])
