"""The move JSON (DF2): parsing with DF9's checks and messages, dumping, no-show default (DF4).

Messages use only the seat's own hand and public facts.
"""

from __future__ import annotations

import json
from typing import Any

from spyhouse.core.errors import IllegalOrderError, OrderSyntaxError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import SeatId
from spyhouse.games.spyorlie import moves
from spyhouse.games.spyorlie.board import Cell
from spyhouse.games.spyorlie.game import (
    DIFFICULTIES,
    AiNote,
    GameState,
    Order,
    ko_violation,
    previous_key,
)
from spyhouse.games.spyorlie.model import Face, Mode, Move

_KEYS = frozenset({"face", "cell", "orientation", "mode", "target", "ai"})
DEFAULT_PURPOSE = "default"


class _Refused(Exception):
    def __init__(self, message: str, syntax: bool) -> None:
        super().__init__(message)
        self.message = message
        self.syntax = syntax


def _syntax(message: str) -> _Refused:
    return _Refused(message, True)


def _illegal(message: str) -> _Refused:
    return _Refused(message, False)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell(value: Any) -> Cell | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(_is_int(v) for v in value):
        return (int(value[0]), int(value[1]))
    return None


def _text(cell: Cell) -> str:
    """{cell} placeholders: a JSON array, e.g. ``[1, -1]``."""
    return json.dumps([cell[0], cell[1]])


def _shape(data: Any) -> tuple[Face, Cell, int | None, Mode, Cell | None, AiNote | None]:
    """V1–V8 (and the ``ai`` note's shape): the move's fields, typed."""
    if not isinstance(data, dict):
        raise _syntax("A move must be a JSON object.")
    if "pass" in data:
        raise _syntax("You cannot pass: a pass is made for you only when you have no legal move.")
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise _syntax(f'Unknown key "{unknown[0]}" in the move.')
    face_name = data.get("face")
    if not isinstance(face_name, str) or face_name not in Face.__members__:
        raise _syntax('face must be one of "S", "M", "C", "X".')
    face = Face[face_name]
    cell = _cell(data.get("cell"))
    if cell is None:
        raise _syntax("cell must be [q, r] with two integers.")
    orientation = data.get("orientation")
    if orientation is not None and not (_is_int(orientation) and orientation in (0, 1)):
        raise _syntax("orientation must be 0, 1 or null.")
    mode_name = data.get("mode")
    if mode_name is None:
        mode = Mode.CYBER if face == Face.X else Mode.PLAIN
    elif isinstance(mode_name, str) and mode_name in Mode.__members__:
        mode = Mode[mode_name]
    else:
        raise _syntax('mode must be "PLAIN", "ACCUSE" or "CYBER".')
    raw_target = data.get("target")
    target = None if raw_target is None else _cell(raw_target)
    if raw_target is not None and target is None:
        raise _syntax("target must be [q, r] with two integers, or null.")
    return face, cell, orientation, mode, target, _ai(data.get("ai"))


def _ai(value: Any) -> AiNote | None:
    """DF2 ``ai`` (platform-written; DF9 is silent, so its one message is ours)."""
    if value is None:
        return None
    if isinstance(value, dict) and set(value) <= {"difficulty", "budget_cut"} and \
            value.get("difficulty") in DIFFICULTIES and \
            isinstance(value.get("budget_cut", False), bool):
        return AiNote(str(value["difficulty"]), bool(value.get("budget_cut", False)))
    raise _syntax('ai must be {"difficulty": "operative", "spymaster" or "random", '
                  '"budget_cut": true or false}.')


def check_move(state: GameState, seat: SeatId, data: Any) -> Order:
    """DF9 in order; raises ``_Refused`` with the first failure's message."""
    face, cell, orientation, mode, target, ai = _shape(data)
    p = state.position
    colour = state.colour_of(seat)
    if p.over:  # V9
        raise _illegal("The game is over.")
    if colour is None or colour != p.to_move:  # V10
        raise _illegal("It is not your turn.")
    if p.hands[4 * colour + face] < 1:  # V11
        raise _illegal(f"You have no {face.title} left in your hand.")
    if face in (Face.S, Face.M) and mode != Mode.PLAIN:  # V12
        raise _illegal(f"A {face.title} can only be placed PLAIN.")
    if face == Face.C and mode == Mode.CYBER:  # V13
        raise _illegal("A Mole Catcher is placed PLAIN or ACCUSE.")
    if face == Face.X and mode != Mode.CYBER:  # V14
        raise _illegal("A Cyber Attack must be placed in CYBER mode.")
    if mode == Mode.PLAIN and target is not None:  # V15
        raise _illegal("A PLAIN placement takes no target.")
    if mode != Mode.PLAIN and target is None:  # V16
        raise _illegal(f"{mode.name} needs a target.")
    if p.ncards == 0:
        return Order(_first_card(face, cell, orientation, mode), ai)
    if mode == Mode.CYBER and not moves.window_open(p):  # V21
        raise _illegal("Cyber Attacks are allowed only after both players have taken five turns.")
    move = _placement(state, face, cell, orientation, mode, target)
    if ko_violation(p, move, previous_key(state)):  # V30
        raise _illegal("This move would restore the position before your opponent's last turn "
                       "(Ko).")
    return Order(move, ai)


def _first_card(face: Face, cell: Cell, orientation: int | None, mode: Mode) -> Move:
    """V17–V20 (P2)."""
    if face == Face.X:
        raise _illegal("The first card cannot be a Cyber Attack.")
    if mode == Mode.ACCUSE:
        raise _illegal("The first card cannot be announced.")
    if cell != (0, 0):
        raise _illegal("The first card must be placed in the centre, [0, 0].")
    if orientation is None:
        raise _illegal("Choose orientation 0 or 1 for the first card.")
    return Move(face, cell, orientation, mode, None)


def _placement(state: GameState, face: Face, cell: Cell, orientation: int | None, mode: Mode,
               target: Cell | None) -> Move:
    """V22–V29 (P3–P5)."""
    p = state.position
    b = p.board
    i = b.index.get(cell, -1)
    if i < 0:  # V22
        raise _illegal(f"Cell {_text(cell)} is off the board.")
    if p.own[i] >= 0:  # V23
        raise _illegal(f"Cell {_text(cell)} is occupied.")
    forced = b.orient[p.o1][i]
    if forced < 0 or not any(p.own[n] >= 0 for n in p.links[i]):  # V24
        raise _illegal(f"Cell {_text(cell)} is not on an open marked edge.")
    if orientation is not None and orientation != forced:  # V25
        raise _illegal(f"The orientation at {_text(cell)} is forced to {forced}.")
    if target is not None:
        if not b.touching(cell, target):  # V26
            raise _illegal(f"Target {_text(target)} does not touch cell {_text(cell)}.")
        t = b.index.get(target, -1)
        enemy = 1 - p.to_move_i
        if mode == Mode.ACCUSE and (t < 0 or p.own[t] != enemy or p.point[t] or p.rev[t]):
            raise _illegal(f"Target {_text(target)} is not a face-down enemy agent.")  # V27
        if mode == Mode.CYBER:
            if t < 0 or p.own[t] != enemy:  # V28
                raise _illegal(f"Target {_text(target)} is not an enemy card.")
            if t == p.immune_index():  # V29
                raise _illegal(f"Target {_text(target)} is a protected Mole Catcher.")
    return Move(face, cell, forced, mode, target)


def parse_orders(state: GameState, seat: SeatId, data: Any) -> Order:
    """DF3 ``parse_orders``: the first DF9 failure raises an ``OrderError`` with its message."""
    try:
        return check_move(state, seat, data)
    except _Refused as refused:
        cls = OrderSyntaxError if refused.syntax else IllegalOrderError
        raise cls(seat, [refused.message]) from None


def default_order(state: GameState, rng: Rng) -> Order:
    """DF4 (D40): a card drawn in proportion to the hand among faces with a PLAIN/CYBER move,
    then one of that face's canonical moves, drawn uniformly; never ACCUSE."""
    p = state.position
    stream = rng.stream(state.entries + 1, DEFAULT_PURPOSE)
    legal = p.legal_moves()
    by_face: dict[Face, list[Move]] = {face: [] for face in Face}
    for move in legal:
        if move.mode != Mode.ACCUSE:
            by_face[move.face].append(move)
    hand = p.hand(p.to_move_i)
    pool = [face for face in Face if by_face[face] for _ in range(hand[face])]
    face = stream.choice(pool)
    return Order(stream.choice(by_face[face]))
