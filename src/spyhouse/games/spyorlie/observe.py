"""Observation helpers and determinization (spec §14, §15.1 AI1–AI2).

A computer player sees only its seat's view (DF5, plain JSON). These helpers read that
JSON and build full ``Position``s consistent with it, given faces for the opponent's
hidden cards and hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.games.spyorlie.board import Cell
from spyhouse.games.spyorlie.model import Colour, Face, Move
from spyhouse.games.spyorlie.rules import Position

Counts = tuple[int, int, int, int]


def _cell(data: Any) -> Cell:
    return (int(data[0]), int(data[1]))


def _counts(data: Mapping[str, Any]) -> Counts:
    return (int(data["S"]), int(data["M"]), int(data["C"]), int(data["X"]))


def my_colour(view: Mapping[str, Any]) -> Colour:
    return Colour[view["colour"]]


def own_hand(view: Mapping[str, Any]) -> Counts:
    return _counts(view["hand"])


def opponent_hand_size(view: Mapping[str, Any]) -> int:
    return int(view["opponent_hand_size"])


def unknown_pool(view: Mapping[str, Any]) -> Counts:
    """§14.2 as the view states it: the opponent's face-down agents plus its hand."""
    return _counts(view["unknown_pool"])


def opponent_hidden_cells(view: Mapping[str, Any]) -> list[Cell]:
    """AI1's list F: the opponent's face-down agents (face null in the view), axial order."""
    return sorted(_cell(c["cell"]) for c in view["cells"] if c["face"] is None)


def legal_moves(view: Mapping[str, Any]) -> list[Move]:
    """The view's legal moves as ``Move``s, in canonical order (``[]`` unless awaited)."""
    return [Move.from_json(m) for m in view["legal_moves"]]


def position_from_view(view: Mapping[str, Any], hidden_faces: Mapping[Cell, Face],
                       opponent_hand: Sequence[int]) -> Position:
    """A full position consistent with the seat view (AI1): faces the view shows are
    taken as shown, every other face from ``hidden_faces``; the opponent's hand is
    ``opponent_hand`` (S, M, C, X). Raises ``ValueError`` if the counts do not fit the pool.
    Also accepts the host view (all faces shown, ``hands``)."""
    p = Position.start(int(view["radius"]))
    if view["first_orientation"] is not None:
        p.set_first_orientation(int(view["first_orientation"]))
    b = p.board
    ply = int(view["ply"])
    assigned: list[int] = [0, 0, 0, 0]
    for c in view["cells"]:
        cell = _cell(c["cell"])
        i = b.index[cell]
        if c["face"] is not None:
            face = Face[c["face"]]
        else:
            if cell not in hidden_faces:
                raise ValueError(f"no face given for the hidden card at {list(cell)}")
            face = Face(hidden_faces[cell])
            assigned[face] += 1
        p.own[i] = Colour[c["owner"]]
        p.placer[i] = Colour[c["placer"]]
        p.face[i] = int(face)
        p.point[i] = 1 if c["status"] == "POINT" else 0
        p.rev[i] = 1 if c["revealed"] else 0
        p.ann[i] = 1 if c["announced"] else 0
        if c["immune"]:
            p.imm_cell = i
            p.imm_ply = ply
        p.ncards += 1
    if "hands" in view:  # the host view
        for colour in Colour:
            p.hands[4 * colour:4 * colour + 4] = list(_counts(view["hands"][colour.name]))
    else:
        me = my_colour(view)
        p.hands[4 * me:4 * me + 4] = list(own_hand(view))
        other = me.other
        hand = [int(n) for n in opponent_hand]
        pool = unknown_pool(view)
        total = tuple(assigned[f] + hand[f] for f in range(4))
        if total != pool or sum(hand) != opponent_hand_size(view):
            raise ValueError(f"hidden faces {assigned} plus hand {hand} do not make the "
                             f"unknown pool {list(pool)} and hand size "
                             f"{opponent_hand_size(view)}")
        p.hands[4 * other:4 * other + 4] = hand
    p.to_move_i = ply % 2  # BLUE moves at even plies: turns alternate, passes included
    p.ply = ply
    p.turns = [int(view["turns_taken"]["BLUE"]), int(view["turns_taken"]["RED"])]
    p.pass_streak = int(view["pass_streak"])
    p.over = bool(view["over"])
    p.result = view["result"]
    return p


def determinize(view: Mapping[str, Any], faces: Sequence[Face]) -> Position:
    """AI2 in one call: ``faces`` is the shuffled list L; ``faces[i]`` goes to the i-th
    hidden opponent cell (axial order), the rest plus ``pool.X`` Cyber Attacks form the
    opponent's hand."""
    hidden = opponent_hidden_cells(view)
    pool = unknown_pool(view)
    if len(faces) != pool[0] + pool[1] + pool[2]:
        raise ValueError(f"determinize needs {pool[0] + pool[1] + pool[2]} faces, "
                         f"got {len(faces)}")
    assignment = dict(zip(hidden, faces, strict=False))
    hand = [0, 0, 0, pool[3]]
    for face in faces[len(hidden):]:
        hand[face] += 1
    return position_from_view(view, assignment, hand)


def pool_list(view: Mapping[str, Any]) -> list[Face]:
    """AI2's list L before shuffling: [S]·pool.S + [M]·pool.M + [C]·pool.C."""
    pool = unknown_pool(view)
    return [Face.S] * pool[0] + [Face.M] * pool[1] + [Face.C] * pool[2]
