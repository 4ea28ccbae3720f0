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
from spyhouse.games.spyorlie.board import DIRECTION_NAMES, DIRECTIONS, Cell, board
from spyhouse.games.spyorlie.game import GameState, LogEntry, Order, parse_options
from spyhouse.games.spyorlie.model import (
    CYBER_AFTER_TURNS,
    FULL_HAND,
    HAND_SIZE,
    Accuse,
    Event,
    Face,
    Flip,
    Mode,
    Move,
    Place,
    Reversal,
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
        self.centre = b.centre
        #: touching[o1][i]: (direction, cell index) of each cell behind i's marked edges
        self.touching = [[tuple((d, j) for d, j in enumerate(b.nbr[i]) if j in b.links[o1][i])
                          for i in range(n)] for o1 in (0, 1)]
        #: the state the last mask was built for and its legal moves by action
        self._legal: tuple[GameState | None, list[int], list[Move]] = (None, [], [])
        #: by colour: the last state observed, its card planes and occupied cells
        #: by colour: the last state observed, its observation, the points (mine, theirs)
        #: and the open cells
        self._seen: list[tuple[GameState, NDArray[np.float32], list[int], set[int]] | None] = [
            None, None]

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
        """The rules' legal moves (P1-P8) as actions: read from the observation's open cells
        when this seat has just observed ``state`` (the environment's order), else from
        the rules' own list."""
        out = np.zeros(self.action_count, dtype=np.int8)
        p = state.position
        if sheet or p.over or state.colour_of(seat) != p.to_move:
            return out
        seen = self._seen[p.to_move_i]
        if p.o1 >= 0 and seen is not None and seen[0] is state:
            actions = self._actions(p, seen[3])
            self._legal = (state, actions, [])
        else:
            legal = p.legal_moves()
            actions = [self.index[move] for move in legal]
            self._legal = (state, actions, legal)
        out[actions] = 1
        return out

    def _actions(self, p: Position, open_cells: set[int]) -> list[int]:
        """The legal actions of the side to move after the first card: on each open cell
        the faces in hand PLAIN, a Catcher ACCUSING each touching face-down enemy agent
        (P4), a Cyber Attack on each touching enemy card but a protected Catcher (P5)."""
        x = p.to_move_i
        y = 1 - x
        hands = p.hands
        n_s, n_m, n_c, n_x = hands[4 * x], hands[4 * x + 1], hands[4 * x + 2], hands[4 * x + 3]
        cyber = n_x > 0 and p.turns[0] >= CYBER_AFTER_TURNS and p.turns[1] >= CYBER_AFTER_TURNS
        own, point, shown = p.own, p.point, p.rev
        immune = p.immune_index()
        touching = self.touching[p.o1]
        out: list[int] = []
        append = out.append
        for i in open_cells:
            a = SLOTS * i
            if n_s:
                append(a)
            if n_m:
                append(a + 1)
            if n_c:
                append(a + 2)
                for d, j in touching[i]:
                    if own[j] == y and not point[j] and not shown[j]:
                        append(a + 3 + d)
            if cyber:
                for d, j in touching[i]:
                    if own[j] == y and j != immune:
                        append(a + 9 + d)
        out.sort()
        return out

    def complete(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> bool:
        return len(sheet) >= 1

    def orders(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        return dict(self.json[sheet[0]])

    def parsed(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> Order | None:
        """The rules' own move for a legal action of the last mask built for ``state``."""
        known, actions, legal = self._legal
        action = sheet[0]
        if known is not state or action not in actions:
            return None
        if legal:
            return Order(legal[actions.index(action)])
        p = state.position
        i, k = divmod(action, SLOTS)
        b = self.board
        cell = b.cells[i]
        orientation = b.orient[p.o1][i]
        if k < 3:
            return Order(Move(Face(k), cell, orientation, Mode.PLAIN, None))
        face, mode = (Face.C, Mode.ACCUSE) if k < 9 else (Face.X, Mode.CYBER)
        dq, dr = DIRECTIONS[(k - 3) % 6]
        return Order(Move(face, cell, orientation, mode, (cell[0] + dq, cell[1] + dr)))

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

        Built whole once per game and seat, then kept up to date from the log's events
        (every card the rules change is named by one: placed, accused, flipped, reversed;
        a cell, once filled, never empties), for a step changes a few cells only; a state
        that does not follow the last one this seat saw is built whole."""
        p = state.position
        colour = state.colour_of(seat)
        me = 0 if colour is None else int(colour)
        out: NDArray[np.float32] | None = None
        last = self._seen[me]
        if last is not None:
            before, base, points, open_cells = last
            if before is state:
                return base
            old, new = before.log, state.log
            if (before.position.board is p.board and before.position.o1 == p.o1
                    and len(old) <= len(new) and (not old or new[len(old) - 1] is old[-1])):
                out = base.copy()
                points = points[:]
                open_cells = set(open_cells)
                self._update(out, points, open_cells, p, me, before.position.immune_index(),
                             new[len(old):])
        if out is None:
            out = self._whole(p, me)
            points = list(_points(p.own, p.point, me))
            open_cells = set(np.flatnonzero(out[0:PLANES * self.cells:PLANES]).tolist())
        self._globals(out, points, p, me)
        # read-only: it is also this encoder's starting point for the seat's next one
        out.flags.writeable = False
        self._seen[me] = (state, out, points, open_cells)
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

    def _update(self, out: NDArray[np.float32], points: list[int], open_cells: set[int],
                p: Position, me: int, immune_before: int, entries: Sequence[LogEntry]) -> None:
        """``out`` (the observation of an earlier state of the same game) brought up to
        ``p``'s cards, open cells and protected Catcher; ``points`` (mine, theirs) and
        ``open_cells`` too."""
        planes = out[:PLANES * self.cells].reshape(self.cells, PLANES)
        rows = _ROWS[me]
        index = p.board.index
        links = p.links
        own, point, face, shown, placer, announced = (
            p.own, p.point, p.face, p.rev, p.placer, p.ann)
        changed: set[int] = set()
        for entry in entries:
            for event in entry.events:
                if isinstance(event, Place):
                    # a filled cell: no longer open, its empty neighbours now are
                    i = index[event.cell]
                    changed.add(i)
                    open_cells.discard(i)
                    planes[i, 0] = 0.0
                    for j in links[i]:
                        if own[j] < 0 and j not in open_cells:
                            open_cells.add(j)
                            planes[j, 0] = 1.0
                else:
                    changed.update(index[cell] for cell in _changed(event))
        for i in changed:
            owner = own[i]
            points[0] -= int(planes[i, 5])
            points[1] -= int(planes[i, 11])
            # the row of _CARDS[me][owner, point, face, shown, placer, announced]
            planes[i, 1:14] = rows[(((((owner % 3) * 2 + point[i]) * 5 + face[i] % 5) * 2
                                     + shown[i]) * 3 + placer[i] % 3) * 2 + announced[i]]
            if point[i]:
                points[0 if owner == me else 1] += 1
        immune = p.immune_index()
        if immune != immune_before:
            if immune_before >= 0:
                planes[immune_before, 14] = 0.0
            if immune >= 0:
                planes[immune, 14] = 1.0

    def _globals(self, out: NDArray[np.float32], points: list[int], p: Position, me: int
                 ) -> None:
        n = self.cells
        hands = p.hands
        turns = p.turns
        base = 4 * me
        other = 4 - base
        mine, theirs = points
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


def _changed(event: Event) -> tuple[Cell, ...]:
    """The cells whose card an event changed."""
    if isinstance(event, Place | Flip):
        return (event.cell,)
    if isinstance(event, Accuse):
        return (event.catcher, event.target)
    if isinstance(event, Reversal):
        return (event.cell, event.mole)
    return ()


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
#: the same as rows (the card planes 1-13 only), by the flat index of the six values
_ROWS = tuple(np.ascontiguousarray(table.reshape(-1, PLANES)[:, 1:14]) for table in _CARDS)
_FULL = FULL_HAND


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> SpyOrLieEncoder:
    """The encoder of a game with these options (the board's radius decides the sizes)."""
    return SpyOrLieEncoder(parse_options(options).radius)


ENCODING = encoding
