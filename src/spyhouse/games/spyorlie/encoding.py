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
from spyhouse.games.spyorlie.game import GameState, Order, parse_options
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
        #: the state the last mask was built for and its legal moves by action
        self._legal: tuple[GameState | None, list[int], list[Move]] = (None, [], [])
        #: by colour: the last state observed, its card planes and occupied cells
        self._seen: list[tuple[GameState, NDArray[np.float32], NDArray[np.float32]] | None] = [
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
        out = np.zeros(self.action_count, dtype=np.int8)
        p = state.position
        if sheet or p.over or state.colour_of(seat) != p.to_move:
            return out
        index = self.index
        legal = p.legal_moves()
        actions = [index[move] for move in legal]
        out[actions] = 1
        self._legal = (state, actions, legal)
        return out

    def complete(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> bool:
        return len(sheet) >= 1

    def orders(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        return dict(self.json[sheet[0]])

    def parsed(self, state: GameState, seat: SeatId, sheet: Sequence[int]) -> Order | None:
        """The rules' own move for the action, from the last mask built for ``state``."""
        known, actions, legal = self._legal
        if known is not state or sheet[0] not in actions:
            return None
        return Order(legal[actions.index(sheet[0])])

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
        """Cell-major: ``PLANES`` values for cell 0, then cell 1, …; then ``GLOBALS``."""
        p = state.position
        colour = state.colour_of(seat)
        me = 0 if colour is None else int(colour)
        n = self.cells
        cards, occupied = self._cards(state, me)
        out = np.empty(PLANES * n + GLOBALS, dtype=np.float32)
        planes = out[:PLANES * n].reshape(n, PLANES)
        planes[:] = cards
        if p.o1 < 0:
            planes[self.centre, 0] = 1.0
            planes[:, 15] = 1.0
        else:
            planes[:, 0] = (self.links[p.o1] @ occupied > 0) & (occupied == 0)
            planes[:, 15] = self.live[p.o1]
        immune = p.immune_index()
        if immune >= 0:
            planes[immune, 14] = 1.0
        hands = p.hands
        turns = p.turns
        base = 4 * me
        other = 4 - base
        points = (np.count_nonzero(cards[:, 5]), np.count_nonzero(cards[:, 11]))
        out[PLANES * n:] = (
            hands[base] / _FULL[0], hands[base + 1] / _FULL[1], hands[base + 2] / _FULL[2],
            hands[base + 3] / _FULL[3],
            (hands[other] + hands[other + 1] + hands[other + 2] + hands[other + 3]) / HAND_SIZE,
            min(turns[me], HAND_SIZE) / HAND_SIZE, min(turns[1 - me], HAND_SIZE) / HAND_SIZE,
            turns[0] >= CYBER_AFTER_TURNS and turns[1] >= CYBER_AFTER_TURNS,
            points[0] / n, points[1] / n, not p.over and p.to_move_i == me, me == 0,
            p.o1 == 0, p.o1 == 1, min(p.pass_streak, 2) / 2)
        return out


    def _cards(self, state: GameState, me: int
               ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The card planes of every cell as ``me`` sees them, and which cells hold a card.

        Built once per game and then kept up to date from the log's events (every card
        the rules change is named by one: placed, accused, flipped, reversed), for a step
        changes a few cells only; a state that does not follow the last one seen is
        built whole."""
        p = state.position
        table = _CARDS[me]
        last = self._seen[me]
        if last is not None and last[0] is state:
            return last[1], last[2]
        if last is not None and last[0].position.board is p.board:
            old, new = last[0].log, state.log
            if len(old) <= len(new) and (not old or new[len(old) - 1] is old[-1]):
                cards, occupied = last[1].copy(), last[2].copy()
                own, point, face, shown, placer, announced = (
                    p.own, p.point, p.face, p.rev, p.placer, p.ann)
                index = p.board.index
                for entry in new[len(old):]:
                    for event in entry.events:
                        for cell in _changed(event):
                            i = index[cell]
                            cards[i] = table[own[i], point[i], face[i], shown[i], placer[i],
                                             announced[i]]
                            occupied[i] = own[i] >= 0
                self._seen[me] = (state, cards, occupied)
                return cards, occupied
        own_, face_, shown_, placer_, announced_, point_ = np.array(
            (p.own, p.face, p.rev, p.placer, p.ann, p.point), dtype=np.intp)
        # one gather does it: -1 (no card, no face) indexes each axis's last row
        cards = table[own_, point_, face_, shown_, placer_, announced_]
        occupied = (own_ >= 0).astype(np.float32)
        self._seen[me] = (state, cards, occupied)
        return cards, occupied


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
_FULL = FULL_HAND


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> SpyOrLieEncoder:
    """The encoder of a game with these options (the board's radius decides the sizes)."""
    return SpyOrLieEncoder(parse_options(options).radius)


ENCODING = encoding
