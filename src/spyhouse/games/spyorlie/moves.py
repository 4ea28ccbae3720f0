"""Legal moves (spec §5): placement legality P1–P8, passing P9, canonical order §5.4.

Generated directly in canonical order: cells ascend by index (= axial order); in a cell
S, M, C PLAIN, then C ACCUSE by target, then X CYBER by target; the first card lists
orientation 0 before 1 for each face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyhouse.games.spyorlie.model import CYBER_AFTER_TURNS, Face, Mode, Move

if TYPE_CHECKING:
    from spyhouse.games.spyorlie.rules import Position

_PLAIN_FACES = (Face.S, Face.M, Face.C)
_S, _M, _C, _X = Face.S, Face.M, Face.C, Face.X
_PLAIN, _ACCUSE, _CYBER = Mode.PLAIN, Mode.ACCUSE, Mode.CYBER


def first_moves(p: Position) -> list[Move]:
    """P2: the first card at (0, 0), any of S, M, C held, orientation 0 or 1."""
    base = 4 * p.to_move_i
    return [Move(f, (0, 0), o, _PLAIN, None) for f in _PLAIN_FACES if p.hands[base + f] > 0
            for o in (0, 1)]


def window_open(p: Position) -> bool:
    return p.turns[0] >= CYBER_AFTER_TURNS and p.turns[1] >= CYBER_AFTER_TURNS


def open_cells(p: Position) -> list[int]:
    """P3: empty live cells behind at least one card's marked edge (G13), ascending."""
    own = p.own
    links = p.links
    return [i for i in p.board.live[p.o1] if own[i] < 0 and any(own[n] >= 0 for n in links[i])]


def legal_moves(p: Position) -> list[Move]:
    """Every legal placement in canonical order (§5.4); ``[]`` when only PASS is legal."""
    if p.over:
        return []
    if p.ncards == 0:
        return first_moves(p)
    x = p.to_move_i
    y = 1 - x
    base = 4 * x
    hands = p.hands
    n_s, n_m, n_c, n_x = hands[base], hands[base + 1], hands[base + 2], hands[base + 3]
    cyber = n_x > 0 and window_open(p)
    own, point, rev = p.own, p.point, p.rev
    links = p.links
    cells = p.board.cells
    orient = p.board.orient[p.o1]
    immune = p.immune_index()
    out: list[Move] = []
    append = out.append
    for i in p.board.live[p.o1]:
        if own[i] >= 0:
            continue
        touching = links[i]
        for n in touching:
            if own[n] >= 0:
                break
        else:
            continue
        cell = cells[i]
        o = orient[i]
        if n_s:
            append(Move(_S, cell, o, _PLAIN, None))
        if n_m:
            append(Move(_M, cell, o, _PLAIN, None))
        if n_c:
            append(Move(_C, cell, o, _PLAIN, None))
            for n in touching:  # P4
                if own[n] == y and not point[n] and not rev[n]:
                    append(Move(_C, cell, o, _ACCUSE, cells[n]))
        if cyber:
            for n in touching:  # P5
                if own[n] == y and n != immune:
                    append(Move(_X, cell, o, _CYBER, cells[n]))
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
    cyber = hands[base + 3] > 0 and window_open(p)
    if not plain and not cyber:
        return False
    own = p.own
    links = p.links
    y = 1 - p.to_move_i
    immune = p.immune_index()
    for i in p.board.live[p.o1]:
        if own[i] >= 0:
            continue
        touching = links[i]
        occupied = False
        for n in touching:
            if own[n] >= 0:
                occupied = True
                if not plain and own[n] == y and n != immune:
                    return True
        if occupied and plain:
            return True
    return False
