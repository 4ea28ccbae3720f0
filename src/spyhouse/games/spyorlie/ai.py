"""Spy or Lie's computer opponents: Operative, Spymaster and the Random baseline (spec §15).

A computer player is the function ``choose(view, difficulty, stream, budget)``: its only
game input is the seat's view (DF5, exactly what a human in that seat sees, own hand
included); it never receives the state, the record or the seed (OBS2, OBS3 a). Its only
randomness is the core ``Stream`` it is given, which the bots key by the position's ply,
so a decision replays.

Design (D38: any fair, reproducible opponent meeting the targets of §15.6):

- **Determinization (AI1, AI2).** A world is a full ``Position`` consistent with the
  view: the list L = [S]·pool.S + [M]·pool.M + [C]·pool.C is shuffled with the core
  stream's ``ordering`` (built on ``getrandbits``) and dealt over the opponent's
  face-down agents in axial order, the rest plus the pool's Cyber Attacks form its hand
  (D35: uniform over consistent assignments). The worlds are drawn first, in order.
- **Search in each world (perfect-information Monte Carlo).** Every candidate move is
  valued in every world by a depth-limited negamax with alpha-beta and a transposition
  table (keyed by ``Position.search_key``), and exactly to the end of the game once few
  live cells are empty (the last placements decide most points: the final card traps
  every group around it). Deeper levels of a world run only within a node budget; an
  unfinished level is dropped and the last finished one counts. A move's value is the
  mean over the worlds; the best mean wins, ties go to the earlier move in canonical
  order (§5.4).
- **What a world may not reveal.** Inside the tree (below the root) nobody announces a
  Catcher: in a world the hidden faces are known, so a searched accusation would always
  be right. At the root an accusation is valued across the sampled worlds, i.e. by how
  likely its target is to be a Mole. A Catcher played PLAIN while a Spy is in hand is
  left out everywhere: the Catcher behaves exactly like a Spy (K1) and a held Catcher can
  do all a Spy can, so that move is never better.
- **Evaluation** (``Weights``, from the side to move's point of view, replacing AI's E):
  10 per point of lead, a group with one liberty cell (F4) is worth losing when its
  owner is not to move (the mover can close it), less when its owner moves first, two
  liberties a little; a group's stake counts agents 1, point cards 2 (a recapture swings
  both scores) and own active Moles -½ (a captured Mole reverses its captor); Moles and
  Cyber Attacks kept in hand are worth a few points (a last card that is a Mole gives up
  one card instead of its whole group). Finished games score ±1000 plus the margin.
  The leaves of one node differ from it by one move, so a node with several leaves
  records its groups once (``GroupTable``) and each leaf floods again only the groups
  its move touched (``evaluate_after``: the same value, to the last bit, for weights
  that are multiples of 1/1024).

Difficulties (AI7): **Operative** searches one ply (its move, then the evaluation) in 16
worlds, exactly when at most 6 live cells are empty; **Spymaster** searches its move and
every reply (two plies, the evaluation after the reply) in 8 worlds, exactly when at
most 8 are empty, within a node budget per world. **Random** (AI8) plays
``stream.choice`` of the canonical legal list.

AI6: with ``time_cap`` set, a decision that has run that long (wall clock) stops after
the world being searched and plays the best move over the worlds finished so far (the
search of the interrupted world is abandoned, unless it is the first, whose last
finished level counts); the decision is marked ``budget_cut``. ``time_cap=None`` turns
the cap off, and then a decision depends only on the view, the stream and the budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from spyhouse.core.rng import Stream
from spyhouse.games.spyorlie import observe
from spyhouse.games.spyorlie.model import Face, Mode, Move
from spyhouse.games.spyorlie.moves import search_moves
from spyhouse.games.spyorlie.rules import Position

OPERATIVE = "operative"
SPYMASTER = "spymaster"
RANDOM = "random"
DIFFICULTIES = (OPERATIVE, SPYMASTER, RANDOM)

#: AI6: the default wall-clock cap of one decision, in seconds.
DEFAULT_TIME_CAP = 0.95
#: A finished game is worth this much (plus the margin) to its winner.
WIN = 1000.0

_PLAIN = Mode.PLAIN
_C = Face.C
_MOLE = int(Face.M)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights (spec §15.2 as tuned; see docs/spyorlie.md)."""

    lead: float = 10.0          # per point of lead (points_P - points_O)
    atari_threat: float = 8.0   # one liberty, owner not to move: per unit of stake
    atari_own: float = 3.0      # one liberty, owner to move
    two_threat: float = 1.5     # two liberties, owner not to move
    two_own: float = 1.0        # two liberties, owner to move
    point_stake: float = 2.0    # stake of a point card in a threatened group (agent: 1)
    mole_stake: float = -0.5    # stake of an active Mole in a threatened group
    mole_in_hand: float = 4.0   # per Mole kept in hand (own minus opponent's)
    cyber_in_hand: float = 3.0  # per Cyber Attack kept in hand (own minus opponent's)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one decision may search (AI5). Counts only: a decision is reproducible."""

    worlds: int         # sampled worlds (AI2)
    depth: int          # plies searched before the evaluation (1 = the move alone)
    nodes: int          # node budget of one world's levels deeper than one ply
    endgame: int        # solve to the end once at most this many live cells are empty
    candidates: int     # how many of the best moves are solved to the end
    exact_nodes: int    # node budget of one world's solution to the end

    def __post_init__(self) -> None:
        if min(self.worlds, self.depth, self.candidates) < 1 or \
                min(self.nodes, self.endgame, self.exact_nodes) < 0:
            raise ValueError(f"invalid budget {self}")


#: AI5 as tuned (D36 replaced; docs/spyorlie.md "Computer opponents").
BUDGETS: dict[str, Budget] = {
    OPERATIVE: Budget(worlds=16, depth=1, nodes=0, endgame=6, candidates=4,
                      exact_nodes=400),
    SPYMASTER: Budget(worlds=8, depth=2, nodes=2500, endgame=8, candidates=4,
                      exact_nodes=1000),
}
DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True, slots=True)
class Decision:
    """A chosen move and how it was found."""

    move: Move
    difficulty: str
    budget_cut: bool = False
    worlds: int = 0
    nodes: int = 0
    values: tuple[float, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """The DF2 move with the ``ai`` note the platform records for computer moves."""
        data = self.move.to_json()
        data["ai"] = {"difficulty": self.difficulty, "budget_cut": self.budget_cut}
        return data


class _OutOfNodes(Exception):
    """A world's node budget ran out inside a deeper level."""


class _OutOfTime(Exception):
    """AI6: the decision reached its wall-clock cap."""


# ---------------------------------------------------------------- determinization


def sample_world(view: Mapping[str, Any], stream: Stream) -> Position:
    """AI2: one world consistent with ``view``, drawn with ``stream``."""
    faces = stream.ordering(observe.pool_list(view))
    return observe.determinize(view, faces)


def sample_worlds(view: Mapping[str, Any], stream: Stream, count: int) -> list[Position]:
    """``count`` worlds, drawn in order (RND2: all shuffles before any search)."""
    return [sample_world(view, stream) for _ in range(count)]


# ---------------------------------------------------------------- evaluation


def evaluate(p: Position, side: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The value of ``p`` for ``side`` (normally the side to move); see the module doc.

    One pass over the live cells, one flood fill per group (``_flood``): it runs at
    every leaf of the search (``evaluate_after`` when the parent's groups are known).
    """
    if p.over:
        return _final(p, side)
    own, point = p.own, p.point
    mover = p.to_move_i
    immune = p.immune_index()
    pts = [0, 0]
    mark = [-1] * len(own)
    value = 0.0
    live = p.board.live[p.o1] if p.o1 >= 0 else ()
    for i in live:
        colour = own[i]
        if colour < 0:
            continue
        if point[i]:
            pts[colour] += 1
        if mark[i] >= 0:
            continue
        liberties, stake, _ = _flood(p, i, mark, 0, immune, w)
        count = len(liberties)
        if count == 0 or count > 2 or stake <= 0.0:
            continue
        value += _risk(colour, count, stake, mover, side, w)
    return _total(p, side, value, pts, w)


def _flood(p: Position, start: int, mark: list[int], tag: int, immune: int,
           w: Weights) -> tuple[set[int], float, list[int]]:
    """The group of ``start`` (cells marked ``tag``; unmarked cells hold -1): its
    liberty cells (F4), its stake and its cells. A card with no free edge adds no
    liberty, so only cards with one look for empty cells."""
    own, point, face, links = p.own, p.point, p.face, p.links
    free = p.free_edges()
    colour = own[start]
    point_stake, mole_stake = w.point_stake, w.mole_stake
    mark[start] = tag
    stack = [start]
    cells = [start]
    liberties: set[int] = set()
    stake = 0.0
    while stack:
        x = stack.pop()
        if x != immune:
            if point[x]:
                stake += point_stake
            elif face[x] == _MOLE:
                stake += mole_stake
            else:
                stake += 1.0
        if free[x]:
            for y in links[x]:
                o = own[y]
                if o < 0:
                    liberties.add(y)
                elif o == colour and mark[y] < 0:
                    mark[y] = tag
                    stack.append(y)
                    cells.append(y)
        else:
            for y in links[x]:
                if own[y] == colour and mark[y] < 0:
                    mark[y] = tag
                    stack.append(y)
                    cells.append(y)
    return liberties, stake, cells


def _risk(colour: int, count: int, stake: float, mover: int, side: int, w: Weights) -> float:
    """A group's term of the evaluation (one or two liberties, stake > 0)."""
    if count == 1:
        risk = w.atari_own if colour == mover else w.atari_threat
    else:
        risk = w.two_own if colour == mover else w.two_threat
    return -risk * stake if colour == side else risk * stake


def _total(p: Position, side: int, value: float, pts: list[int], w: Weights) -> float:
    lead = pts[side] - pts[1 - side]
    hands = p.hands
    mine, theirs = 4 * side, 4 - 4 * side
    return (value + w.lead * lead
            + w.mole_in_hand * (hands[mine + 1] - hands[theirs + 1])
            + w.cyber_in_hand * (hands[mine + 3] - hands[theirs + 3]))


@cache
def exact_sums(w: Weights) -> bool:
    """Whether every weight is a small multiple of 1/1024: then the evaluation's sums are
    exact in any order, and ``evaluate_after`` equals ``evaluate`` to the last bit."""
    values = (w.lead, w.atari_threat, w.atari_own, w.two_threat, w.two_own, w.point_stake,
              w.mole_stake, w.mole_in_hand, w.cyber_in_hand)
    return all((v * 1024).is_integer() and abs(v) < 2 ** 20 for v in values)


class GroupTable:
    """The groups (F1) of one position, kept to value its children: a child differs
    only in the groups that hold or touch a cell changed since (the placed card, the
    flipped ones) or an immune Catcher, so only those are flooded again."""

    __slots__ = ("cells", "colours", "gid", "immune", "liberties", "mark", "own", "point",
                 "pts", "stakes", "terms")

    def __init__(self, p: Position, w: Weights) -> None:
        own, point = p.own, p.point
        self.mark = p.turns_recorded()
        self.immune = p.immune_index()
        self.own = own[:]
        self.point = point[:]
        gid = [-1] * len(own)
        self.gid = gid
        self.cells: list[list[int]] = []
        self.colours: list[int] = []
        self.liberties: list[set[int]] = []
        self.stakes: list[float] = []
        #: (group, colour, liberty count, stake) of the groups that can score.
        self.terms: list[tuple[int, int, int, float]] = []
        pts = [0, 0]
        live = p.board.live[p.o1] if p.o1 >= 0 else ()
        for i in live:
            colour = own[i]
            if colour < 0:
                continue
            if point[i]:
                pts[colour] += 1
            if gid[i] >= 0:
                continue
            group = len(self.cells)
            liberties, stake, cells = _flood(p, i, gid, group, self.immune, w)
            self.cells.append(cells)
            self.colours.append(colour)
            self.liberties.append(liberties)
            self.stakes.append(stake)
            count = len(liberties)
            if 0 < count <= 2 and stake > 0.0:
                self.terms.append((group, colour, count, stake))
        self.pts = pts


def evaluate_after(p: Position, table: GroupTable, side: int,
                   w: Weights = DEFAULT_WEIGHTS) -> float:
    """``evaluate(p, side, w)`` for a position played on from the one ``table`` describes
    (weights with ``exact_sums``)."""
    if p.over:
        return _final(p, side)
    changed = p.changed_since(table.mark)
    immune = p.immune_index()
    if len(changed) == 1 and immune < 0 and table.immune < 0:
        c = next(iter(changed))
        if not p.point[c]:  # still the placer's agent (not taken by a self-surround)
            return _after_placement(p, table, c, side, w)
    gid = table.gid
    links = p.links
    dirty: set[int] = set()
    for x in (*changed, table.immune, immune):
        if x < 0:
            continue
        g = gid[x]
        if g >= 0:
            dirty.add(g)
        for n in links[x]:
            g = gid[n]
            if g >= 0:
                dirty.add(g)
    mover = p.to_move_i
    value = 0.0
    for group, colour, count, stake in table.terms:
        if group not in dirty:
            value += _risk(colour, count, stake, mover, side, w)
    own, point = p.own, p.point
    mark = [-1] * len(own)
    starts = list(changed)
    for g in dirty:
        starts.extend(table.cells[g])
    for i in starts:
        colour = own[i]
        if colour < 0 or mark[i] >= 0:
            continue
        liberties, stake, _ = _flood(p, i, mark, 0, immune, w)
        count = len(liberties)
        if 0 < count <= 2 and stake > 0.0:
            value += _risk(colour, count, stake, mover, side, w)
    pts = table.pts[:]
    own_before, point_before = table.own, table.point
    for x in changed:
        if point_before[x]:
            pts[own_before[x]] -= 1
        if point[x]:
            pts[own[x]] += 1
    return _total(p, side, value, pts, w)


def _after_placement(p: Position, table: GroupTable, c: int, side: int, w: Weights) -> float:
    """``evaluate_after`` when one card was placed at ``c`` and nothing else changed (no
    capture, the card still its placer's agent, no immune Catcher either side): the
    enemy groups touching ``c`` lose that liberty, the friendly ones merge with the card;
    every other group is as it was."""
    own, links = p.own, p.links
    gid, colours, stakes, all_liberties = table.gid, table.colours, table.stakes, table.liberties
    colour = own[c]
    mover = p.to_move_i
    merged: set[int] = set()
    stake = w.mole_stake if p.face[c] == _MOLE else 1.0
    liberties: set[int] = set()
    for n in links[c]:
        g = gid[n]
        if g < 0:
            liberties.add(n)
        elif colours[g] == colour:
            merged.add(g)
    value = 0.0
    touched: set[int] = set(merged)
    for n in links[c]:
        g = gid[n]
        if g >= 0 and g not in touched:
            touched.add(g)
            count = len(all_liberties[g]) - 1  # c was one of its liberties
            if 0 < count <= 2 and stakes[g] > 0.0:
                value += _risk(colours[g], count, stakes[g], mover, side, w)
    for g in merged:
        liberties |= all_liberties[g]
        stake += stakes[g]
    liberties.discard(c)
    count = len(liberties)
    if 0 < count <= 2 and stake > 0.0:
        value += _risk(colour, count, stake, mover, side, w)
    for group, group_colour, group_count, group_stake in table.terms:
        if group not in touched:
            value += _risk(group_colour, group_count, group_stake, mover, side, w)
    return _total(p, side, value, table.pts, w)


def _final(p: Position, side: int) -> float:
    blue, red = p.points()
    lead = blue - red if side == 0 else red - blue
    return (WIN if lead > 0 else -WIN if lead < 0 else 0.0) + lead


def empty_live_cells(p: Position) -> int:
    """Live cells still empty (G12); the whole live board before the first card."""
    if p.o1 < 0:
        return len(p.board.live[0])
    own = p.own
    return sum(1 for i in p.board.live[p.o1] if own[i] < 0)


def root_moves(legal: Sequence[Move], hand_spies: int) -> list[Move]:
    """The candidates: the legal list less Catchers placed PLAIN while a Spy is held."""
    if hand_spies <= 0:
        return list(legal)
    return [m for m in legal if not (m.face == _C and m.mode == _PLAIN)]


def _inner_moves(p: Position) -> list[Move]:
    """Moves searched below the root: no accusation, no PLAIN Catcher while a Spy is held."""
    return search_moves(p)


# ---------------------------------------------------------------- search


class _Search:
    """Negamax with alpha-beta and a transposition table in one world.

    ``negamax`` values positions with the evaluation after ``depth`` plies; ``solve``
    plays to the end of the game and returns only its result for the side to move
    (+1 win, 0 draw, -1 loss), which prunes far more than exact margins would.
    """

    def __init__(self, weights: Weights, deadline: Callable[[], bool] | None) -> None:
        self.weights = weights
        self.node_limit = -1  # -1: unlimited
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[Any, tuple[int, float, int, Move | None]] = {}
        #: Leaves valued from their parent's groups (``evaluate_after``)?
        self.incremental = exact_sums(weights)
        self.solved: dict[Any, tuple[int, int, Move | None]] = {}

    def _count(self) -> None:
        self.nodes += 1
        if 0 <= self.node_limit < self.nodes:
            raise _OutOfNodes
        if self.deadline is not None and self.nodes & 127 == 0 and self.deadline():
            raise _OutOfTime

    def negamax(self, p: Position, depth: int, alpha: float, beta: float,
                parent: GroupTable | None = None) -> float:
        """The value of ``p`` for the side to move, searched ``depth`` more plies
        (``parent``: the groups of the position ``p`` was played from, if known)."""
        self._count()
        side = p.to_move_i
        if p.over:
            return _final(p, side)
        if depth <= 0:
            if parent is not None:
                return evaluate_after(p, parent, side, self.weights)
            return evaluate(p, side, self.weights)
        key = p.search_key()
        entry = self.table.get(key)
        first: Move | None = None
        if entry is not None:
            stored_depth, stored, flag, first = entry
            if stored_depth >= depth and (
                    flag == 0 or (flag > 0 and stored >= beta) or (flag < 0 and stored <= alpha)):
                return stored
        start_alpha = alpha
        best = -float("inf")
        best_move: Move | None = None
        ply = p.ply
        table: GroupTable | None = None
        for index, move in enumerate(_ordered(_inner_moves(p), first)):
            if index == 1 and depth == 1 and self.incremental:  # worth it from 2 leaves
                table = GroupTable(p, self.weights)
            p.advance(move)
            try:
                if p.over:
                    value = _final(p, side)
                elif p.to_move_i == side:  # the opponent had to pass
                    value = self.negamax(p, depth - 1, alpha, beta, table)
                else:
                    value = -self.negamax(p, depth - 1, -beta, -alpha, table)
            finally:
                while p.ply > ply:
                    p.undo()
            if value > best:
                best = value
                best_move = move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        flag = 1 if best >= beta else -1 if best <= start_alpha else 0
        self.table[key] = (depth, best, flag, best_move)
        return best

    def solve(self, p: Position, alpha: int, beta: int) -> int:
        """The game's result for the side to move with best play by both (in this world)."""
        self._count()
        side = p.to_move_i
        if p.over:
            return _result(p, side)
        key = p.search_key()
        entry = self.solved.get(key)
        first: Move | None = None
        if entry is not None:
            stored, flag, first = entry
            if flag == 0 or (flag > 0 and stored >= beta) or (flag < 0 and stored <= alpha):
                return stored
        start_alpha = alpha
        best = -2
        best_move: Move | None = None
        ply = p.ply
        for move in _ordered(_inner_moves(p), first):
            p.advance(move)
            try:
                if p.over:
                    value = _result(p, side)
                elif p.to_move_i == side:
                    value = self.solve(p, alpha, beta)
                else:
                    value = -self.solve(p, -beta, -alpha)
            finally:
                while p.ply > ply:
                    p.undo()
            if value > best:
                best = value
                best_move = move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        flag = 1 if best >= beta else -1 if best <= start_alpha else 0
        self.solved[key] = (best, flag, best_move)
        return best

    def _after(self, world: Position, side: int, move: Move,
               value: Callable[[Position], float]) -> float:
        """``value`` of the position after ``move`` (and forced passes), for ``side``."""
        ply = world.ply
        world.advance(move)
        try:
            result = value(world)
            return result if world.to_move_i == side else -result
        finally:
            while world.ply > ply:
                world.undo()

    def level(self, world: Position, side: int, moves: Sequence[Move],
              depth: int) -> list[float]:
        """Each root move's value for ``side`` with ``depth`` plies in all."""
        inf = float("inf")
        table = GroupTable(world, self.weights) if depth == 1 and self.incremental else None
        return [self._after(world, side, move,
                            lambda p: self.negamax(p, depth - 1, -inf, inf, table))
                for move in moves]

    def results(self, world: Position, side: int, moves: Sequence[Move]) -> list[float]:
        """Each root move's game result for ``side`` (+1, 0, -1) with best play."""
        return [self._after(world, side, move, lambda p: float(self.solve(p, -1, 1)))
                for move in moves]


def _ordered(moves: list[Move], first: Move | None) -> list[Move]:
    """``moves`` with the transposition table's best move first."""
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    return moves


def _result(p: Position, side: int) -> int:
    blue, red = p.points()
    lead = blue - red if side == 0 else red - blue
    return (lead > 0) - (lead < 0)


@dataclass(slots=True)
class SearchReport:
    """What ``search`` found: each move's value and how much was searched."""

    values: list[float]
    worlds: int = 0
    nodes: int = 0
    cut: bool = False
    exact: tuple[int, ...] = ()  # indices of the moves solved to the end


def _heuristic_phase(worlds: Sequence[Position], side: int, moves: Sequence[Move],
                     budget: Budget, weights: Weights, deadline: Callable[[], bool] | None,
                     report: SearchReport) -> list[_Search]:
    """Every move in every world: one ply, then deeper levels within the node budget."""
    totals = [0.0] * len(moves)
    engines: list[_Search] = []
    for world in worlds:
        engine = _Search(weights, deadline)
        values: list[float] | None = None
        try:
            values = engine.level(world, side, moves, 1)
            engine.node_limit = engine.nodes + budget.nodes
            for depth in range(2, budget.depth + 1):
                try:
                    values = engine.level(world, side, moves, depth)
                except _OutOfNodes:
                    break
        except _OutOfTime:
            report.cut = True
            report.nodes += engine.nodes
            if values is None or engines:  # abandon this world (unless it is the first)
                break
        report.nodes += engine.nodes
        for index, value in enumerate(values):
            totals[index] += value
        engines.append(engine)
        if report.cut:
            break
        if deadline is not None and len(engines) < len(worlds) and deadline():
            report.cut = True
            break
    report.worlds = len(engines)
    if engines:
        report.values = [total / len(engines) for total in totals]
    return engines


def _exact_phase(worlds: Sequence[Position], engines: Sequence[_Search], side: int,
                 moves: Sequence[Move], budget: Budget,
                 deadline: Callable[[], bool] | None, report: SearchReport) -> None:
    """The best ``budget.candidates`` moves solved to the end in every searched world.

    A candidate's value becomes its mean result x ``WIN`` plus its heuristic value (the
    tie-break among moves that win, draw or lose alike); the other moves drop below every
    candidate. A world whose solution runs out of nodes counts as unknown (0).
    """
    order = sorted(range(len(moves)), key=lambda k: (-report.values[k], k))
    chosen = sorted(order[:budget.candidates])
    candidates = [moves[k] for k in chosen]
    totals = [0.0] * len(candidates)
    solved = 0
    for world, engine in zip(worlds, engines, strict=False):
        engine.node_limit = engine.nodes + budget.exact_nodes
        before = engine.nodes
        try:
            results = engine.results(world, side, candidates)
        except _OutOfNodes:
            results = [0.0] * len(candidates)
        except _OutOfTime:
            report.cut = True
            report.nodes += engine.nodes - before
            break
        report.nodes += engine.nodes - before
        for index, value in enumerate(results):
            totals[index] += value
        solved += 1
        if deadline is not None and solved < len(engines) and deadline():
            report.cut = True
            break
    if solved == 0:
        return
    values = list(report.values)
    for index, k in enumerate(chosen):
        values[k] = report.values[k] + WIN * totals[index] / solved
    low = min(values[k] for k in chosen)
    for rank, k in enumerate(order[budget.candidates:]):
        values[k] = low - 1.0 - rank
    report.values = values
    report.exact = tuple(chosen)


def search(view: Mapping[str, Any], moves: Sequence[Move], stream: Stream, budget: Budget,
           *, weights: Weights = DEFAULT_WEIGHTS,
           deadline: Callable[[], bool] | None = None) -> SearchReport:
    """Mean value of each move over ``budget.worlds`` sampled worlds (see the module doc)."""
    side = int(observe.my_colour(view))
    worlds = sample_worlds(view, stream, budget.worlds)
    for world in worlds:  # the search's own positions: keys kept up to date as it plays
        world.track_key()
    report = SearchReport([0.0] * len(moves))
    engines = _heuristic_phase(worlds, side, moves, budget, weights, deadline, report)
    if engines and not report.cut and empty_live_cells(worlds[0]) <= budget.endgame:
        _exact_phase(worlds, engines, side, moves, budget, deadline, report)
    return report


def choose(view: Mapping[str, Any], difficulty: str, stream: Stream,
           budget: Budget | None = None, *, weights: Weights = DEFAULT_WEIGHTS,
           time_cap: float | None = None,
           clock: Callable[[], float] = time.perf_counter) -> Decision:
    """The computer's move for the seat of ``view`` (which must be awaited).

    ``budget`` defaults to the difficulty's ``BUDGETS`` entry; ``time_cap`` (seconds,
    ``None`` = off) is AI6's safety cap read from ``clock``.
    """
    legal = observe.legal_moves(view)
    if not legal:
        raise ValueError("the view awaits no move from this seat")
    if difficulty == RANDOM:
        return Decision(stream.choice(legal), RANDOM)
    if difficulty not in BUDGETS:
        raise ValueError(f"unknown difficulty {difficulty!r}; known: {', '.join(DIFFICULTIES)}")
    chosen_budget = budget if budget is not None else BUDGETS[difficulty]
    moves = root_moves(legal, observe.own_hand(view)[Face.S])
    if len(moves) == 1:
        return Decision(moves[0], difficulty)
    deadline: Callable[[], bool] | None = None
    if time_cap is not None:
        stop = clock() + time_cap

        def deadline() -> bool:
            return clock() >= stop

    report = search(view, moves, stream, chosen_budget, weights=weights, deadline=deadline)
    best = max(range(len(moves)), key=lambda k: (report.values[k], -k))
    return Decision(moves[best], difficulty, report.cut, report.worlds, report.nodes,
                    tuple(report.values))
