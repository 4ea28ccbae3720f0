"""Spy or Lie for ``spyhouse.rl``: one move per action, a board of cell planes (docs/rl.md).

Actions (``15 * n + 3`` for a board of ``n`` cells, 918 at radius 4): cell ``i`` in axial
order owns ``15 * i + k`` with ``k`` 0, 1, 2 = S, M, C placed PLAIN; 3-8 = C ACCUSE the
neighbour in direction ``k - 3``; 9-14 = X CYBER the neighbour in direction ``k - 9``
(directions as the rules' G2: E, NE, NW, W, SW, SE). The first card's orientation is 0 in
the centre's PLAIN slots and 1 in the last three actions (S, M, C). Later orientations are
forced by the rules; passes are made by the rules themselves, never chosen.

Observation: ``PLANES`` planes of ``n`` cells, seat-relative, then ``GLOBALS`` numbers, all
in [0, 1]; only what the seat's view shows (the opponent's face-down faces never).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spyhouse.core.ruleset import Ruleset, SeatId
from spyhouse.games.spyorlie.board import DIRECTION_NAMES, DIRECTIONS, board
from spyhouse.games.spyorlie.game import GameState, Order, parse_options
from spyhouse.games.spyorlie.model import (
    CYBER_AFTER_TURNS,
    FULL_HAND,
    HAND_SIZE,
    Face,
    Mode,
    Move,
)
from spyhouse.games.spyorlie.rules import Position

SLOTS = 15
#: the planes, in order (one value per cell each)
PLANE_NAMES = (
    "open",            # empty cell a card may be placed on now (P3, G13)
    "mine_S", "mine_M", "mine_C", "mine_X",  # my uncaptured agents by face
    "mine_point",      # point cards I own
    "theirs_hidden",   # the opponent's face-down agents
    "theirs_S", "theirs_M", "theirs_C", "theirs_X",  # the opponent's agents with faces shown
    "theirs_point",    # point cards the opponent owns
    "placed_by_me",    # every card I placed, whoever owns it now
    "announced",       # announced Mole Catchers (either side)
    "immune",          # the Catcher protected this turn
    "live",            # cells of the live classes (all cells before the first card)
)
PLANES = len(PLANE_NAMES)
GLOBAL_NAMES = ("hand_S", "hand_M", "hand_C", "hand_X", "opponent_hand", "my_turns",
                "their_turns", "cyber_window_open", "my_points", "their_points", "to_move",
                "blue", "first_orientation_0", "first_orientation_1", "pass_streak")
GLOBALS = len(GLOBAL_NAMES)


class SpyOrLieEncoder:
    """The encoding of one board size."""

    submit: int | None = None
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, radius: int) -> None:
        b = board(radius)
        self.board = b
        n = len(b.cells)
        self.cells = n
        self.action_count = SLOTS * n + 3
        self.observation_shape = (PLANES * n + GLOBALS,)
        self.index: dict[Move, int] = {}
        self.json: list[dict[str, Any]] = []
        for i in range(n):
            for k in range(SLOTS):
                self.json.append(self._json(i, k))
        for f in (Face.S, Face.M, Face.C):
            self.json.append({"face": f.name, "cell": [0, 0], "orientation": 1})
        self._index_moves()
        # links[o1]: the n x n matrix of marked-edge contacts, for "open" cells
        self.links = [np.zeros((n, n), dtype=np.float32) for _ in (0, 1)]
        for o1 in (0, 1):
            for i, row in enumerate(b.links[o1]):
                for j in row:
                    self.links[o1][i, j] = 1.0
        self.live = [np.array([o >= 0 for o in b.orient[o1]], dtype=bool) for o1 in (0, 1)]
        #: by o1: the dead cells (always empty) as a number whose bytes are _DEAD there, 0
        #: elsewhere (or-ed onto the packed cells, most significant byte first)
        self.dead = [int.from_bytes(bytes(0 if live else _DEAD for live in self.live[o1]),
                                    "big") for o1 in (0, 1)]
        self.centre = b.centre
        #: touching[o1][i]: (direction, cell index) of each cell behind i's marked edges
        self.touching = [[tuple((d, j) for d, j in enumerate(b.nbr[i]) if j in b.links[o1][i])
                          for i in range(n)] for o1 in (0, 1)]
        #: by o1: the move of each action on a live cell (orientations forced)
        self.moves = [self._moves(o1) for o1 in (0, 1)]
        #: the state the last mask was built for, its legal actions marked 1 and, before
        #: the first card, the rules' own legal moves by action
        self._legal: tuple[GameState | None, bytes, dict[int, Move]] = (
            None, bytes(self.action_count), {})

    def _json(self, i: int, k: int) -> dict[str, Any]:
        b = self.board
        q, r = b.cells[i]
        if k < 3:
            out: dict[str, Any] = {"face": Face(k).name, "cell": [q, r]}
            if i == b.centre:
                out["orientation"] = 0
            return out
        face, mode = ("C", "ACCUSE") if k < 9 else ("X", "CYBER")
        dq, dr = DIRECTIONS[(k - 3) % 6]
        return {"face": face, "cell": [q, r], "mode": mode, "target": [q + dq, r + dr]}

    def _moves(self, o1: int) -> dict[int, Move]:
        """Action -> move on the live cells of first orientation ``o1``."""
        b = self.board
        out: dict[int, Move] = {}
        for i in b.live[o1]:
            cell = b.cells[i]
            orientation = b.orient[o1][i]
            for k in range(SLOTS):
                if k < 3:
                    out[SLOTS * i + k] = Move(Face(k), cell, orientation, Mode.PLAIN, None)
                    continue
                face, mode = (Face.C, Mode.ACCUSE) if k < 9 else (Face.X, Mode.CYBER)
                dq, dr = DIRECTIONS[(k - 3) % 6]
                out[SLOTS * i + k] = Move(face, cell, orientation, mode,
                                          (cell[0] + dq, cell[1] + dr))
        return out

    def _index_moves(self) -> None:
        """Move -> action for every move the rules can list (both first orientations)."""
        b = self.board
        for o1 in (0, 1):
            for i in b.live[o1]:
                cell = b.cells[i]
                o = b.orient[o1][i]
                for f in (Face.S, Face.M, Face.C):
                    self.index[Move(f, cell, o, Mode.PLAIN, None)] = SLOTS * i + f
                for d, (dq, dr) in enumerate(DIRECTIONS):
                    target = (cell[0] + dq, cell[1] + dr)
                    self.index[Move(Face.C, cell, o, Mode.ACCUSE, target)] = SLOTS * i + 3 + d
                    self.index[Move(Face.X, cell, o, Mode.CYBER, target)] = SLOTS * i + 9 + d
        centre = b.cells[b.centre]
        for f in (Face.S, Face.M, Face.C):
            self.index[Move(f, centre, 0, Mode.PLAIN, None)] = SLOTS * b.centre + f
            self.index[Move(f, centre, 1, Mode.PLAIN, None)] = SLOTS * len(b.cells) + f

    # ------------------------------------------------------------ actions

    def mask(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.int8]:
        """The rules' legal moves (P1-P8) as actions: read from the position's open cells
        after the first card, else from the rules' own list."""
        p = state.position
        if sheet or p.over or state.seats[p.to_move_i] != seat:
            return np.zeros(self.action_count, dtype=np.int8)
        if p.o1 >= 0:
            marks = self._marks(p, p.open_cells())
            self._legal = (state, bytes(marks), {})
        else:
            marks = bytearray(self.action_count)
            moves = {}
            for move in p.legal_moves():
                action = self.index[move]
                marks[action] = 1
                moves[action] = move
            self._legal = (state, bytes(marks), moves)
        # kept as bytes apart: the array handed out may be written to
        return np.frombuffer(marks, dtype=np.int8)

    def _marks(self, p: Position, open_cells: Sequence[int]) -> bytearray:
        """The legal actions (1, else 0) of the side to move after the first card: on each
        open cell the faces in hand PLAIN, a Catcher ACCUSING each touching face-down enemy
        agent (P4), a Cyber Attack on each touching enemy card but a protected Catcher
        (P5)."""
        x = p.to_move_i
        y = 1 - x
        hands = p.hands
        n_s, n_m, n_c, n_x = hands[4 * x], hands[4 * x + 1], hands[4 * x + 2], hands[4 * x + 3]
        cyber = n_x > 0 and p.turns[0] >= CYBER_AFTER_TURNS and p.turns[1] >= CYBER_AFTER_TURNS
        own, point, shown = p.own, p.point, p.rev
        immune = p.immune_index()
        touching = self.touching[p.o1]
        out = bytearray(self.action_count)
        for i in open_cells:
            a = SLOTS * i
            if n_s:
                out[a] = 1
            if n_m:
                out[a + 1] = 1
            if n_c:
                out[a + 2] = 1
                for d, j in touching[i]:
                    if own[j] == y and not point[j] and not shown[j]:
                        out[a + 3 + d] = 1
            if cyber:
                for d, j in touching[i]:
                    if own[j] == y and j != immune:
                        out[a + 9 + d] = 1
        return out

    def complete(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> bool:
        return len(sheet) >= 1

    def orders(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        return dict(self.json[sheet[0]])

    def parsed(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> Order | None:
        """The rules' own move for a legal action of the last mask built for ``state``."""
        known, marks, moves = self._legal
        action = sheet[0]
        if known is not state or not marks[action]:
            return None
        if moves:
            return Order(moves[action])
        return Order(self.moves[state.position.o1][action])

    def describe(self, action: int) -> str:
        data = self.json[action]
        text = f"{data['face']} at {data['cell']}"
        if "target" in data:
            k = action % SLOTS
            text += f" {data['mode']} {DIRECTION_NAMES[(k - 3) % 6]} {data['target']}"
        if "orientation" in data:
            text += f" orientation {data['orientation']}"
        return text

    # ------------------------------------------------------------ observations

    def observe(self, state: GameState, seat: SeatId, sheet: Sequence[int]
                ) -> NDArray[np.float32]:
        """Cell-major: ``PLANES`` values for cell 0, then cell 1, …; then ``GLOBALS``.

        The card planes and the live one are one gather from the cells' packed codes
        (``Position.packed``, kept up to date by ``resolve_entry``), the open cells the
        engine's own list; ``observe_whole`` builds the same from the cell lists."""
        p = state.position
        colour = state.colour_of(seat)
        me = 0 if colour is None else int(colour)
        n = self.cells
        codes = p.codes
        packed = p.packed() if codes is None else codes
        marked = bytearray(packed)
        if p.o1 < 0:
            marked[self.centre] = _OPEN
            cells = bytes(marked)
        else:
            for i in p.open_cells():
                marked[i] = _OPEN
            cells = (int.from_bytes(marked, "big") | self.dead[p.o1]).to_bytes(n, "big")
        out = np.empty(PLANES * n + GLOBALS, dtype=np.float32)
        planes = out[:PLANES * n].reshape(n, PLANES)
        _CODE_PLANES[me].take(np.frombuffer(cells, dtype=np.uint8), axis=0, out=planes,
                              mode="clip")
        immune = p.immune_index()
        if immune >= 0:
            planes[immune, 14] = 1.0
        # each point card as 1 (BLUE's) or 2 (RED's), counted
        points = packed.translate(_POINT_OWNER)
        self._globals(out, (points.count(1), points.count(2)), p, me)
        out.flags.writeable = False
        return out

    def observe_whole(self, state: GameState, seat: SeatId) -> NDArray[np.float32]:
        """``observe`` built from the cell lists alone (the reference the tests hold it to)."""
        p = state.position
        colour = state.colour_of(seat)
        me = 0 if colour is None else int(colour)
        out = self._whole(p, me)
        blue, red = _points(p.own, p.point, 0)
        self._globals(out, (blue, red), p, me)
        return out

    def _whole(self, p: Position, me: int) -> NDArray[np.float32]:
        n = self.cells
        own, face, shown, placer, announced, point = np.array(
            (p.own, p.face, p.rev, p.placer, p.ann, p.point), dtype=np.intp)
        out = np.empty(PLANES * n + GLOBALS, dtype=np.float32)
        planes = out[:PLANES * n].reshape(n, PLANES)
        # one gather does the card planes: -1 (no card, no face) indexes each axis's last row
        planes[:] = _CARDS[me][own, point, face, shown, placer, announced]
        if p.o1 < 0:
            planes[self.centre, 0] = 1.0
            planes[:, 15] = 1.0
        else:
            occupied = (own >= 0).astype(np.float32)
            planes[:, 0] = (self.links[p.o1] @ occupied > 0) & (occupied == 0)
            planes[:, 15] = self.live[p.o1]
        immune = p.immune_index()
        if immune >= 0:
            planes[immune, 14] = 1.0
        return out

    def _globals(self, out: NDArray[np.float32], points: tuple[int, int], p: Position,
                 me: int) -> None:
        """The ``GLOBALS`` numbers; ``points`` are (BLUE's, RED's)."""
        n = self.cells
        hands = p.hands
        turns = p.turns
        base = 4 * me
        other = 4 - base
        mine, theirs = points[me], points[1 - me]
        out[PLANES * n:] = (
            hands[base] / _FULL[0], hands[base + 1] / _FULL[1], hands[base + 2] / _FULL[2],
            hands[base + 3] / _FULL[3],
            (hands[other] + hands[other + 1] + hands[other + 2] + hands[other + 3]) / HAND_SIZE,
            min(turns[me], HAND_SIZE) / HAND_SIZE, min(turns[1 - me], HAND_SIZE) / HAND_SIZE,
            turns[0] >= CYBER_AFTER_TURNS and turns[1] >= CYBER_AFTER_TURNS,
            mine / n, theirs / n, not p.over and p.to_move_i == me, me == 0,
            p.o1 == 0, p.o1 == 1, min(p.pass_streak, 2) / 2)


def _points(own: Sequence[int], point: Sequence[int], me: int) -> tuple[int, int]:
    """Point cards owned by ``me`` and by the opponent."""
    mine = theirs = 0
    for owner, is_point in zip(own, point, strict=True):
        if is_point:
            if owner == me:
                mine += 1
            else:
                theirs += 1
    return mine, theirs


def _card_planes(me: int) -> NDArray[np.float32]:
    """The card planes of every cell content seen by colour ``me``, indexed by the rules'
    own values [owner, point, face, revealed, placer, announced] (owner and placer 0, 1
    or -1 for no card; face 0-3 or -1)."""
    table = np.zeros((3, 2, 5, 2, 3, 2, PLANES), dtype=np.float32)
    for owner in (0, 1, -1):
        for point in (0, 1):
            for face in (0, 1, 2, 3, -1):
                for shown in (0, 1):
                    for placer in (0, 1, -1):
                        for announced in (0, 1):
                            row = table[owner, point, face, shown, placer, announced]
                            if owner < 0 or face < 0:
                                continue
                            seen = face if (placer == me or shown) else -1
                            if owner == me:
                                row[5 if point else 1 + face] = 1.0
                            elif point:
                                row[11] = 1.0
                            else:
                                row[6 if seen < 0 else 7 + seen] = 1.0
                            row[12] = placer == me
                            row[13] = announced
    return table


_CARDS = (_card_planes(0), _card_planes(1))
#: packed cell codes (``Position.packed``: 0 = empty, else 1 + the six values' bits), then
#: two of this encoding's own: an open cell (empty) and a dead one (empty, not live)
_CODES = 129
_OPEN = _CODES
_DEAD = _CODES + 1


def _code_planes(me: int) -> NDArray[np.float32]:
    """The planes of a cell by code, as colour ``me`` sees them: ``_CARDS[me]``'s row of a
    packed code's values on a live cell, an open one, a dead one."""
    table = np.zeros((_DEAD + 1, PLANES), dtype=np.float32)
    for code in range(1, _CODES):
        c = code - 1
        owner, placer, face = c & 1, (c >> 1) & 1, (c >> 2) & 3
        point, shown, announced = (c >> 4) & 1, (c >> 5) & 1, (c >> 6) & 1
        table[code] = _CARDS[me][owner, point, face, shown, placer, announced]
    table[:_DEAD, 15] = 1.0
    table[_OPEN, 0] = 1.0
    return table


_CODE_PLANES = (_code_planes(0), _code_planes(1))
_FULL = FULL_HAND
#: ``bytes.translate`` table of packed codes: 1 for BLUE's point cards, 2 for RED's, else 0
_POINT_OWNER = bytes(0 if code == 0 or code > 128 or not (code - 1) >> 4 & 1
                     else 1 + ((code - 1) & 1) for code in range(256))


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> SpyOrLieEncoder:
    """The encoder of a game with these options (the board's radius decides the sizes)."""
    return SpyOrLieEncoder(parse_options(options).radius)


ENCODING = encoding
