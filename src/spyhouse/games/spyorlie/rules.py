"""``Position``: the mutable game position and APPLY (spec §4.2, §10, §11, §12).

Built for search: cells are parallel lists indexed by cell index (axial order), hands
a flat list, one undo frame per turn. The platform's immutable state (``game.py``)
wraps a ``Position`` and never mutates one it has handed out.

Cards never leave the board, so what depends only on which cells are occupied is kept
up to date by placements (and their undo) instead of being recomputed: ``free[i]``, the
empty cells behind cell i's marked edges (a card's free edges, F2), and ``frontier``,
the open cells (P3) in ascending order. Both are built from the cell lists on first use
(a position whose cells were written directly, as ``observe`` and test fixtures do, is
counted when it is first played) and then maintained; ``recount()`` is the from-scratch
reference the property tests compare them with.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from operator import mul
from typing import Any

from spyhouse.games.spyorlie import chains, moves
from spyhouse.games.spyorlie.board import Board, Cell, board
from spyhouse.games.spyorlie.model import (
    CYBER_AFTER_TURNS,
    FULL_HAND,
    Accuse,
    Card,
    Colour,
    End,
    EngineError,
    Event,
    Face,
    Group,
    Mode,
    Move,
    Pass,
    Place,
    Result,
)

Key = tuple[Any, ...]
# (scalars, placed cell, hand index, cell trail) of one turn, for undo
_Frame = tuple[tuple[Any, ...], int, int, list[tuple[int, int, int, int]]]

_COLOURS = (Colour.BLUE, Colour.RED)
_FACES = (Face.S, Face.M, Face.C, Face.X)
_MODES = (Mode.PLAIN, Mode.ACCUSE, Mode.CYBER)
_ACCUSE = int(Mode.ACCUSE)
_CYBER = int(Mode.CYBER)
_X = int(Face.X)
_M = int(Face.M)


class Position:
    """A full game position (all faces known). Not thread-safe; ``copy()`` to branch."""

    __slots__ = ("_undo", "ann", "board", "codes", "face", "free", "frontier", "hands",
                 "imm_cell",
                 "imm_ply", "ko_count", "links", "ncards", "o1", "over", "own", "pass_streak",
                 "placer", "ply", "point", "result", "rev", "table", "to_move_i", "turns")

    board: Board
    links: tuple[tuple[int, ...], ...]
    #: The move table of o₁ (``None`` before the first card).
    table: moves.MoveTable | None
    #: Occupancy bookkeeping (see the module doc); ``None`` until first counted.
    free: list[int] | None
    frontier: list[int] | None
    #: ``packed()`` kept up to date, once ``track_key()`` asked for it.
    codes: bytearray | None

    def __init__(self, radius: int = 4) -> None:
        b = board(radius)
        n = len(b.cells)
        self.board = b
        self.links = b.links[0]  # replaced by the first placement's o₁; no card before it
        self.o1 = -1
        self.own = [-1] * n
        self.placer = [-1] * n
        self.face = [-1] * n
        self.point = [0] * n
        self.rev = [0] * n
        self.ann = [0] * n
        self.hands = list(FULL_HAND + FULL_HAND)
        self.to_move_i = 0
        self.ply = 0
        self.turns = [0, 0]
        self.pass_streak = 0
        self.imm_cell = -1
        self.imm_ply = -1
        self.over = False
        self.result: str | None = None
        self.ncards = 0
        self.ko_count = [-1, -1]
        self.table = None
        self.free = None
        self.frontier = None
        self.codes = None
        self._undo: list[_Frame] = []

    @classmethod
    def start(cls, radius: int = 4) -> Position:
        """Empty board, full hands, BLUE to move, ply 0 (DF3 setup)."""
        return cls(radius)

    def copy(self) -> Position:
        """An independent copy (its undo history starts empty)."""
        new = Position.__new__(Position)
        new.board = self.board
        new.links = self.links
        new.o1 = self.o1
        new.own = self.own[:]
        new.placer = self.placer[:]
        new.face = self.face[:]
        new.point = self.point[:]
        new.rev = self.rev[:]
        new.ann = self.ann[:]
        new.hands = self.hands[:]
        new.to_move_i = self.to_move_i
        new.ply = self.ply
        new.turns = self.turns[:]
        new.pass_streak = self.pass_streak
        new.imm_cell = self.imm_cell
        new.imm_ply = self.imm_ply
        new.over = self.over
        new.result = self.result
        new.ncards = self.ncards
        new.ko_count = self.ko_count[:]
        new.table = self.table
        new.free = None if self.free is None else self.free[:]
        new.frontier = None if self.frontier is None else self.frontier[:]
        new.codes = None
        new._undo = []
        return new

    # ------------------------------------------------------------ reading

    @property
    def radius(self) -> int:
        return self.board.radius

    @property
    def to_move(self) -> Colour:
        return _COLOURS[self.to_move_i]

    @property
    def first_orientation(self) -> int | None:
        return None if self.o1 < 0 else self.o1

    @property
    def turns_taken(self) -> tuple[int, int]:
        return (self.turns[0], self.turns[1])

    def set_first_orientation(self, o1: int) -> None:
        self.o1 = o1
        self.links = self.board.links[o1]
        self.table = moves.move_table(self.board.radius, o1)
        self.free = self.frontier = None

    def move_table(self) -> moves.MoveTable:
        """The table of every move of this board (o₁ must be set)."""
        table = self.table
        if table is None:
            raise EngineError("no move table before the first card")
        return table

    def recount(self) -> tuple[list[int], list[int]]:
        """``free`` and ``frontier`` computed from the cell lists alone (no card: empty)."""
        own = self.own
        free = [0] * len(own)
        if self.o1 < 0:
            return free, []
        links = self.links
        frontier: list[int] = []
        for i in self.board.live[self.o1]:
            row = links[i]
            empty = 0
            for n in row:
                if own[n] < 0:
                    empty += 1
            free[i] = empty
            if own[i] < 0 and empty < len(row):
                frontier.append(i)
        return free, frontier

    def open_cells(self) -> list[int]:
        """P3: the open cells, ascending (the maintained list: do not modify it)."""
        frontier = self.frontier
        if frontier is None:
            self.free, frontier = self.recount()
            self.frontier = frontier
        return frontier

    def free_edges(self) -> list[int]:
        """``free``: per cell, the empty cells behind its marked edges (maintained)."""
        free = self.free
        if free is None:
            free, self.frontier = self.recount()
            self.free = free
        return free

    def points(self) -> tuple[int, int]:
        """E3: POINT cards owned by BLUE, RED."""
        # A point card has an owner (0 or 1) and point = 1; every other cell adds 0 to both.
        total = sum(self.point)
        red = sum(map(mul, self.own, self.point))
        return (total - red, red)

    def hand(self, colour: int) -> tuple[int, int, int, int]:
        h = self.hands
        base = 4 * colour
        return (h[base], h[base + 1], h[base + 2], h[base + 3])

    def hand_size(self, colour: int) -> int:
        base = 4 * colour
        return sum(self.hands[base:base + 4])

    def cyber_window_open(self) -> bool:
        """P6: both players have taken at least five turns."""
        return self.turns[0] >= CYBER_AFTER_TURNS and self.turns[1] >= CYBER_AFTER_TURNS

    def orientation_of(self, i: int) -> int:
        return self.board.orient[self.o1][i]

    def card(self, cell: Cell) -> Card | None:
        i = self.board.index.get(cell, -1)
        if i < 0 or self.own[i] < 0:
            return None
        return Card(Colour(self.own[i]), Colour(self.placer[i]), Face(self.face[i]),
                    bool(self.point[i]), self.orientation_of(i), bool(self.rev[i]),
                    bool(self.ann[i]))

    def cells(self) -> list[Cell]:
        """Occupied cells in axial order."""
        cells = self.board.cells
        return [cells[i] for i, owner in enumerate(self.own) if owner >= 0]

    def immune_index(self) -> int:
        """The index of the Catcher immune during the turn now being played, or -1 (K6)."""
        i = self.imm_cell
        if i >= 0 and self.imm_ply == self.ply and not self.point[i]:
            return i
        return -1

    def immune_cell(self) -> Cell | None:
        i = self.immune_index()
        return None if i < 0 else self.board.cells[i]

    def hidden_cells(self, colour: int) -> list[Cell]:
        """``colour``'s face-down agents in axial order."""
        cells = self.board.cells
        return [cells[i] for i in range(len(cells)) if self.placer[i] == colour
                and self.own[i] == colour and not self.point[i] and not self.rev[i]]

    def unknown_pool(self, observer: int) -> tuple[int, int, int, int]:
        """§14.2: the 20-card set minus the revealed faces placed by ``observer``'s opponent."""
        opponent = 1 - observer
        pool = list(FULL_HAND)
        for i, placer in enumerate(self.placer):
            if placer == opponent and self.rev[i]:
                pool[self.face[i]] -= 1
        return (pool[0], pool[1], pool[2], pool[3])

    def groups(self) -> list[Group]:
        """Every group (F1) with its liberty cells (F4), groups ordered by their anchor."""
        cells = self.board.cells
        seen: set[int] = set()
        out: list[Group] = []
        for i, owner in enumerate(self.own):
            if owner < 0 or i in seen:
                continue
            members = sorted(chains.group_of(self, i))
            seen.update(members)
            libs = sorted({n for x in members for n in self.links[x] if self.own[n] < 0})
            out.append(Group(Colour(owner), tuple(cells[x] for x in members),
                             tuple(cells[n] for n in libs)))
        return out

    def packed(self) -> bytes:
        """Every cell in one byte: 0 = empty, else 1 + owner + 2·placer + 4·face + 16·point
        + 32·revealed + 64·announced (computed from the cell lists)."""
        return bytes([0 if o < 0 else 1 + o + 2 * pl + 4 * f + 16 * pt + 32 * rv + 64 * an
                      for o, pl, f, pt, rv, an in zip(self.own, self.placer, self.face,
                                                      self.point, self.rev, self.ann,
                                                      strict=True)])

    def track_key(self) -> None:
        """Keep ``packed()`` up to date from now on, for a cheaper ``key()`` (a search's own
        world: its cells must then change only through APPLY and undo; ``copy()`` does
        not carry it)."""
        self.codes = bytearray(self.packed())

    def _recode(self, cells: Iterable[int]) -> None:
        codes = self.codes
        if codes is None:
            return
        own, placer, face, point, rev, ann = (self.own, self.placer, self.face, self.point,
                                              self.rev, self.ann)
        for i in cells:
            o = own[i]
            codes[i] = 0 if o < 0 else (1 + o + 2 * placer[i] + 4 * face[i] + 16 * point[i]
                                        + 32 * rev[i] + 64 * ann[i])

    def _recode_turn(self, placed: int, trail: list[tuple[int, int, int, int]]) -> None:
        """``_recode`` of the cells one turn placed (``placed``, -1 for none) or changed."""
        codes = self.codes
        if codes is None:
            return
        own, point, rev = self.own, self.point, self.rev
        if placed >= 0:
            o = own[placed]
            codes[placed] = 0 if o < 0 else (
                1 + o + 2 * self.placer[placed] + 4 * self.face[placed] + 16 * point[placed]
                + 32 * rev[placed] + 64 * self.ann[placed])
        for entry in trail:  # cards whose owner, point or revealed flag changed
            i = entry[0]
            o = own[i]
            codes[i] = 0 if o < 0 else (
                1 + o + 2 * self.placer[i] + 4 * self.face[i] + 16 * point[i] + 32 * rev[i]
                + 64 * self.ann[i])

    def key(self) -> Key:
        """KO1: radius, o₁, side to move, hands, immune cell, every card (packed)."""
        codes = self.codes
        return (self.board.radius, self.o1, self.to_move_i, tuple(self.hands),
                self.immune_index(), self.packed() if codes is None else bytes(codes))

    def search_key(self) -> Key:
        """``key()`` plus pass streak, game over and the Cyber-window counters."""
        return (*self.key(), self.pass_streak, self.over,
                min(self.turns[0], CYBER_AFTER_TURNS), min(self.turns[1], CYBER_AFTER_TURNS))

    def state_tuple(self) -> tuple[Any, ...]:
        """Every field (for tests comparing positions exactly)."""
        return (self.board.radius, self.o1, tuple(self.own), tuple(self.placer),
                tuple(self.face), tuple(self.point), tuple(self.rev), tuple(self.ann),
                tuple(self.hands), self.to_move_i, self.ply, tuple(self.turns),
                self.pass_streak, self.imm_cell, self.imm_ply, self.over, self.result,
                self.ncards, tuple(self.ko_count))

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        """§5.4's canonical list; ``[]`` = PASS is the only legal move (or the game is over)."""
        return moves.generate(self, True)

    def has_placement(self) -> bool:
        return moves.has_placement(self)

    def is_legal(self, move: Move) -> bool:
        return move in moves.legal_moves(self)

    # ------------------------------------------------------------ APPLY (§12)

    def _scalars(self) -> tuple[Any, ...]:
        return (self.to_move_i, self.ply, self.turns[0], self.turns[1], self.pass_streak,
                self.imm_cell, self.imm_ply, self.over, self.result, self.o1, self.ncards,
                self.ko_count[0], self.ko_count[1])

    def apply_pass(self) -> list[Event]:
        """§12 lines 4–5: a PASS turn (legal only when no placement is, P9)."""
        return self._pass(True)

    def _pass(self, record: bool) -> list[Event]:
        if self.over:
            raise EngineError("the game is over")
        trail: list[tuple[int, int, int, int]] = []
        self._undo.append((self._scalars(), -1, -1, trail))
        turn = chains.Turn(trail, record)
        self.pass_streak += 1
        if record:
            turn.events.append(Pass(_COLOURS[self.to_move_i]))
        self._finish(turn)
        return turn.events

    def apply(self, move: Move) -> list[Event]:
        """§12 APPLY for a legal placement (trusted; see ``is_legal``)."""
        return self._apply(move, True)

    def _place(self, c: int) -> None:
        """Occupancy bookkeeping of a card now on the empty cell ``c``."""
        free = self.free
        frontier = self.frontier
        if free is None or frontier is None:  # the first card, or never counted
            self.free, self.frontier = self.recount()
            return
        own = self.own
        degree = self.table.degree  # type: ignore[union-attr]  # set with o₁
        frontier.remove(c)
        for n in self.links[c]:
            left = free[n] - 1
            free[n] = left
            if own[n] < 0 and left == degree[n] - 1:  # n has just become open
                insort(frontier, n)

    def _unplace(self, c: int) -> None:
        """Undo ``_place(c)``: the cell ``c`` is empty again."""
        free = self.free
        frontier = self.frontier
        if free is None or frontier is None:
            return
        if self.ncards == 0:
            self.free = self.frontier = None
            return
        own = self.own
        degree = self.table.degree  # type: ignore[union-attr]  # set with o₁
        for n in self.links[c]:
            free[n] += 1
            if own[n] < 0 and free[n] == degree[n]:  # n is closed again
                frontier.remove(n)
        if free[c] < degree[c]:
            insort(frontier, c)

    def _apply(self, move: Move, record: bool) -> list[Event]:
        if self.over:
            raise EngineError("the game is over")
        x = self.to_move_i
        y = 1 - x
        f = int(move.face)
        mode = int(move.mode)
        b = self.board
        c = b.index[move.cell]
        hand_index = 4 * x + f
        trail: list[tuple[int, int, int, int]] = []
        self._undo.append(((x, self.ply, self.turns[0], self.turns[1], self.pass_streak,
                            self.imm_cell, self.imm_ply, self.over, self.result, self.o1,
                            self.ncards, self.ko_count[0], self.ko_count[1]),
                           c, hand_index, trail))
        turn = chains.Turn(trail, record, True)
        self.pass_streak = 0
        self.hands[hand_index] -= 1
        if self.ncards == 0:
            self.set_first_orientation(move.orientation)
        elif self.free is None:
            self.free, self.frontier = self.recount()
        own = self.own
        own[c] = x
        self.placer[c] = x
        self.face[c] = f
        self.point[c] = 0
        if mode == _ACCUSE:
            self.rev[c] = self.ann[c] = 1
        else:
            self.rev[c] = 1 if f == _X else 0
            self.ann[c] = 0
        self.ncards += 1
        free = self.free
        frontier = self.frontier
        if free is None or frontier is None:  # the first card
            self._place(c)
        else:  # _place inlined: the search's hottest path
            degree = self.table.degree  # type: ignore[union-attr]  # set with o₁
            frontier.remove(c)
            for n in self.links[c]:
                left = free[n] - 1
                free[n] = left
                if own[n] < 0 and left == degree[n] - 1:
                    insort(frontier, n)
        if record:
            turn.events.append(Place(move.cell, _COLOURS[x], _FACES[f], b.orient[self.o1][c],
                                     _MODES[mode], move.target))
        seeds = [c]
        if mode == _ACCUSE:
            t = b.index[move.target]  # type: ignore[index]
            if self.face[t] == _M and not self.point[t]:
                if record:
                    turn.events.append(Accuse(move.cell, b.cells[t], True, Face.M))
                chains.flip(self, turn, t, x, "accusation", 0, c, -1)
                seeds.append(t)
                turn.defeater = c
                turn.new_immune = c
            else:
                turn.trail.append((t, self.own[t], self.point[t], self.rev[t]))
                self.rev[t] = 1
                if record:
                    turn.events.append(Accuse(move.cell, b.cells[t], False,
                                              _FACES[self.face[t]]))
                chains.flip(self, turn, c, y, "catcher_lost", 0, -1, -1)
                if self.codes is not None:
                    self._recode_turn(c, trail)
                self._finish(turn)
                return turn.events
        elif mode == _CYBER:
            t = b.index[move.target]  # type: ignore[index]
            chains.flip(self, turn, t, x, "cyber", 0, c, -1)
            seeds.append(t)
        chains.capture_check(self, turn, seeds, x, y)
        if self.own[c] == x:
            chains.self_chain(self, turn, c, x, y)
        if self.codes is not None:
            self._recode_turn(c, trail)
        self._finish(turn)
        return turn.events

    def _finish(self, turn: chains.Turn) -> None:
        """FINISH (§12 lines 35–39) plus KO3's assertion (D28)."""
        x = self.to_move_i
        if turn.placed and self.ncards == self.ko_count[x]:
            raise EngineError("KO3: a placement repeated a card count; positions cannot repeat")
        self.ko_count[x] = self.ncards
        self.turns[x] += 1
        self.ply += 1
        self.to_move_i = 1 - x
        if turn.new_immune >= 0 and not self.point[turn.new_immune]:
            self.imm_cell = turn.new_immune
            self.imm_ply = self.ply
        elif self.imm_cell >= 0 and self.imm_ply < self.ply:
            self.imm_cell = -1
            self.imm_ply = -1
        h = self.hands
        if self.pass_streak >= 2 or not any(h):
            self.over = True
            blue, red = self.points()
            self.result = (Result.BLUE_WIN if blue > red else
                           Result.RED_WIN if red > blue else Result.DRAW)
            if turn.record:
                turn.events.append(End(self.result, (blue, red)))

    def play(self, move: Move) -> list[Event]:
        """``apply(move)`` then every forced pass (D29, D39): what ``resolve`` does."""
        events = self._apply(move, True)
        while not self.over and not moves.has_placement(self):
            events.extend(self._pass(True))
        return events

    def settle(self) -> list[Event]:
        """Apply forced passes while the game goes on and the side to move cannot place."""
        events: list[Event] = []
        while not self.over and not moves.has_placement(self):
            events.extend(self.apply_pass())
        return events

    def advance(self, move: Move) -> None:
        """``play(move)`` without building events: the search's step (undo as usual)."""
        self._apply(move, False)
        while not self.over and not moves.has_placement(self):
            self._pass(False)

    def turns_recorded(self) -> int:
        """How many turns ``undo`` can take back (a mark for ``changed_since``)."""
        return len(self._undo)

    def changed_since(self, mark: int) -> set[int]:
        """The cells whose card was placed or changed in the turns played after ``mark``
        (a ``turns_recorded()`` value of this position)."""
        out: set[int] = set()
        for _scalars, placed, _hand, trail in self._undo[mark:]:
            if placed >= 0:
                out.add(placed)
            for entry in trail:
                out.add(entry[0])
        return out

    def undo(self) -> None:
        """Take back the last ``apply`` or ``apply_pass`` exactly."""
        if not self._undo:
            raise EngineError("nothing to undo")
        scalars, placed, hand_index, trail = self._undo.pop()
        for i, owner, point, rev in reversed(trail):
            self.own[i] = owner
            self.point[i] = point
            self.rev[i] = rev
        if placed >= 0:
            self.ncards -= 1
            self._unplace(placed)
            self.own[placed] = -1
            self.placer[placed] = -1
            self.face[placed] = -1
            self.point[placed] = 0
            self.rev[placed] = 0
            self.ann[placed] = 0
        if hand_index >= 0:
            self.hands[hand_index] += 1
        if self.codes is not None:
            self._recode_turn(placed, trail)
        (self.to_move_i, self.ply, t0, t1, self.pass_streak, self.imm_cell, self.imm_ply,
         self.over, self.result, o1, self.ncards, k0, k1) = scalars
        self.turns[0] = t0
        self.turns[1] = t1
        self.ko_count[0] = k0
        self.ko_count[1] = k1
        if o1 != self.o1:
            self.o1 = o1
            self.links = self.board.links[0 if o1 < 0 else o1]
            self.table = None if o1 < 0 else moves.move_table(self.board.radius, o1)

    # ------------------------------------------------------------ determinization

    def reassign(self, colour: int, faces: list[Face] | tuple[Face, ...]) -> None:
        """AI2 on a position: ``faces[i]`` to ``colour``'s i-th face-down agent (axial), the
        rest of ``faces`` plus its Cyber Attacks in hand become its hand."""
        hidden = [self.board.index[c] for c in self.hidden_cells(colour)]
        base = 4 * colour
        count = len(hidden) + self.hands[base] + self.hands[base + 1] + self.hands[base + 2]
        if len(faces) != count or any(f == Face.X for f in faces):
            raise ValueError(f"reassign needs {count} faces S, M or C, got {list(faces)}")
        for i, f in zip(hidden, faces, strict=False):
            self.face[i] = int(f)
        self._recode(hidden)
        rest = [0, 0, 0]
        for f in faces[len(hidden):]:
            rest[f] += 1
        self.hands[base:base + 3] = rest
