"""Legal moves (spec §5): placement legality P1–P8, passing P9, canonical order §5.4.

Generated directly in canonical order: cells ascend by index (= axial order); in a cell
S, M, C PLAIN, then C ACCUSE by target, then X CYBER by target; the first card lists
orientation 0 before 1 for each face.

Every ``Move`` a board can ever offer is built once per radius and o₁ (``MoveTable``),
and the position keeps its open cells up to date (``Position.frontier``), so generating
the list is a walk over the open cells that appends ready-made moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from spyhouse.games.spyorlie.board import board
from spyhouse.games.spyorlie.model import CYBER_AFTER_TURNS, Face, Mode, Move

if TYPE_CHECKING:
    from spyhouse.games.spyorlie.rules import Position

_PLAIN_FACES = (Face.S, Face.M, Face.C)
_PLAIN, _ACCUSE, _CYBER = Mode.PLAIN, Mode.ACCUSE, Mode.CYBER

Targeted = tuple[tuple[int, Move], ...]


@dataclass(frozen=True, slots=True)
class MoveTable:
    """Every placement of one radius and o₁, per cell index (empty tuples for dead cells).

    ``plain[i][mask]``: the PLAIN moves at cell i of the faces in ``mask`` (bit 0 = S,
    bit 1 = M, bit 2 = C), in canonical order; ``accuse[i]`` and ``cyber[i]``: (target
    index, move) for each target behind a marked edge of i, ascending.
    """

    plain: tuple[tuple[tuple[Move, ...], ...], ...]
    accuse: tuple[Targeted, ...]
    cyber: tuple[Targeted, ...]
    #: degree[i]: how many marked edges of cell i face an on-board cell (len(links[i])).
    degree: tuple[int, ...]


@cache
def move_table(radius: int, o1: int) -> MoveTable:
    """The table of ``radius`` once the first card fixed ``o1`` (built once per process)."""
    b = board(radius)
    orient = b.orient[o1]
    links = b.links[o1]
    plain: list[tuple[tuple[Move, ...], ...]] = []
    accuse: list[Targeted] = []
    cyber: list[Targeted] = []
    for i, cell in enumerate(b.cells):
        o = orient[i]
        if o < 0:
            plain.append(((),) * 8)
            accuse.append(())
            cyber.append(())
            continue
        plain.append(tuple(
            tuple(Move(f, cell, o, _PLAIN, None) for f in _PLAIN_FACES if mask >> f & 1)
            for mask in range(8)))
        accuse.append(tuple((n, Move(Face.C, cell, o, _ACCUSE, b.cells[n])) for n in links[i]))
        cyber.append(tuple((n, Move(Face.X, cell, o, _CYBER, b.cells[n])) for n in links[i]))
    return MoveTable(tuple(plain), tuple(accuse), tuple(cyber),
                     tuple(len(row) for row in links))


def first_moves(p: Position) -> list[Move]:
    """P2: the first card at (0, 0), any of S, M, C held, orientation 0 or 1."""
    base = 4 * p.to_move_i
    return [Move(f, (0, 0), o, _PLAIN, None) for f in _PLAIN_FACES if p.hands[base + f] > 0
            for o in (0, 1)]


def window_open(p: Position) -> bool:
    return p.turns[0] >= CYBER_AFTER_TURNS and p.turns[1] >= CYBER_AFTER_TURNS


def open_cells(p: Position) -> list[int]:
    """P3: empty live cells behind at least one card's marked edge (G13), ascending."""
    return list(p.open_cells())


def legal_moves(p: Position) -> list[Move]:
    """Every legal placement in canonical order (§5.4); ``[]`` when only PASS is legal."""
    return generate(p, True)


def search_moves(p: Position) -> list[Move]:
    """``legal_moves`` less every accusation and, while a Spy is held, every PLAIN
    Catcher (the moves the computer players search below the root), in the same order."""
    return generate(p, False)


def generate(p: Position, accusations: bool) -> list[Move]:
    """``legal_moves`` (``accusations``) or ``search_moves`` (not)."""
    if p.over:
        return []
    if p.ncards == 0:
        first = first_moves(p)
        if accusations or p.hands[4 * p.to_move_i] == 0:
            return first
        return [m for m in first if m.face != Face.C]
    x = p.to_move_i
    y = 1 - x
    base = 4 * x
    hands = p.hands
    n_s, n_m, n_c = hands[base], hands[base + 1], hands[base + 2]
    if accusations:
        mask = (n_s > 0) | (n_m > 0) << 1 | (n_c > 0) << 2
        accuse = n_c > 0
    else:
        mask = (n_s > 0) | (n_m > 0) << 1 | (n_c > 0 and n_s == 0) << 2
        accuse = False
    cyber = hands[base + 3] > 0 and p.turns[0] >= CYBER_AFTER_TURNS and \
        p.turns[1] >= CYBER_AFTER_TURNS
    table = p.table
    if table is None:
        table = p.move_table()  # raises: no table before the first card
    frontier = p.frontier
    if frontier is None:
        frontier = p.open_cells()
    plain = table.plain
    out: list[Move] = []
    if not accuse and not cyber:
        for i in frontier:
            out += plain[i][mask]
        return out
    own, point, rev = p.own, p.point, p.rev
    immune = p.immune_index()
    accuse_table, cyber_table = table.accuse, table.cyber
    append = out.append
    for i in frontier:
        out += plain[i][mask]
        if accuse:  # P4
            for n, move in accuse_table[i]:
                if own[n] == y and not point[n] and not rev[n]:
                    append(move)
        if cyber:  # P5
            for n, move in cyber_table[i]:
                if own[n] == y and n != immune:
                    append(move)
    return out


def has_placement(p: Position) -> bool:
    """Whether any placement is legal (else PASS is, P9)."""
    if p.over:
        return False
    base = 4 * p.to_move_i
    hands = p.hands
    plain = hands[base] + hands[base + 1] + hands[base + 2] > 0
    if p.ncards == 0:
        return plain
    frontier = p.open_cells()
    if plain:
        return bool(frontier)
    if hands[base + 3] <= 0 or not window_open(p):
        return False
    own = p.own
    links = p.links
    y = 1 - p.to_move_i
    immune = p.immune_index()
    for i in frontier:
        for n in links[i]:
            if own[n] == y and n != immune:
                return True
    return False
