"""Groups, free edges and capture chains (spec §6, §7, §12 lines 23–34, CHAIN, SELF_CHAIN).

These functions work on a ``Position``'s cell lists by cell index (index order is the
axial order, G3), inside one turn whose scratch sets live in a ``Turn``. A group is
trapped when none of its cards has a free edge: the position counts each card's free
edges as cards are placed (``Position.free``), so a flood fill can stop at the first
card that has one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyhouse.games.spyorlie.model import Colour, Event, Face, Flip, Reversal

if TYPE_CHECKING:
    from spyhouse.games.spyorlie.rules import Position

MOLE = int(Face.M)


_COLOURS = (Colour.BLUE, Colour.RED)
_FACES = (Face.S, Face.M, Face.C, Face.X)


class Turn:
    """Scratch state of one APPLY (§12 line 3): LOCKED, REVERSED, EV, undo trail.

    ``record=False`` (the search) builds no events: ``events`` stays empty."""

    __slots__ = ("defeater", "events", "locked", "new_immune", "placed", "record", "reversed",
                 "trail")

    def __init__(self, trail: list[tuple[int, int, int, int]], record: bool = True,
                 placed: bool = False) -> None:
        self.locked: set[int] = set()
        self.reversed: set[int] = set()
        self.events: list[Event] = []
        self.record = record
        self.placed = placed
        self.defeater = -1
        self.new_immune = -1
        self.trail = trail


def group_of(p: Position, start: int) -> list[int]:
    """F1/GROUP: the maximal same-owner set connected to ``start`` (unsorted)."""
    own = p.own
    links = p.links
    colour = own[start]
    seen = {start}
    stack = [start]
    out = [start]
    while stack:
        x = stack.pop()
        for n in links[x]:
            if n not in seen and own[n] == colour:
                seen.add(n)
                stack.append(n)
                out.append(n)
    return out


def is_trapped(p: Position, cells: list[int]) -> bool:
    """F3/FREE = 0: no card of the group has a marked edge facing an empty on-board cell."""
    free = p.free_edges()
    return all(not free[x] for x in cells)


def trapped_group(p: Position, start: int, seen: set[int] | None = None) -> list[int] | None:
    """``group_of(p, start)`` if that group is trapped (F3), else ``None``; the flood fill
    stops at the first card with a free edge. ``seen`` (a set of cells, updated) gets every
    card the fill reached: cards of that one group, trapped or not."""
    free = p.free_edges()
    if free[start]:
        return None
    own = p.own
    links = p.links
    colour = own[start]
    visited = {start}
    stack = [start]
    out = [start]
    while stack:
        x = stack.pop()
        for n in links[x]:
            if n not in visited and own[n] == colour:
                if free[n]:
                    if seen is not None:
                        seen.update(visited)
                    return None
                visited.add(n)
                stack.append(n)
                out.append(n)
    if seen is not None:
        seen.update(visited)
    return out


def immune(p: Position, c: int) -> bool:
    """IMMUNE(c): the Catcher protected during the turn now being played, still an agent."""
    return c == p.imm_cell and p.imm_ply == p.ply and not p.point[c]


def flip(p: Position, turn: Turn, c: int, to: int, cause: str, wave: int, by: int,
         group: int) -> None:
    """FLIP(c, P, …): owner := P, status := POINT, revealed, LOCKED, log."""
    turn.trail.append((c, p.own[c], p.point[c], p.rev[c]))
    p.own[c] = to
    p.point[c] = 1
    p.rev[c] = 1
    turn.locked.add(c)
    if turn.record:
        cells = p.board.cells
        turn.events.append(Flip(cells[c], _COLOURS[to], _FACES[p.face[c]], cause, wave,
                                None if by < 0 else cells[by],
                                None if group < 0 else cells[group]))


def reverse(p: Position, turn: Turn, r: int, to: int, wave: int, mole: int) -> None:
    """REVERSE(r, P, w): the Mole's immediate captor becomes the Mole owner's point card."""
    turn.trail.append((r, p.own[r], p.point[r], p.rev[r]))
    p.own[r] = to
    p.point[r] = 1
    p.rev[r] = 1
    turn.locked.add(r)
    turn.reversed.add(r)
    if turn.record:
        cells = p.board.cells
        turn.events.append(Reversal(cells[r], _COLOURS[to], _FACES[p.face[r]], wave,
                                    cells[mole]))


def capture_check(p: Position, turn: Turn, seeds: list[int], x: int, y: int) -> None:
    """§12 lines 23–32 (C1–C3, D10–D12): chains against trapped enemy groups touching a seed."""
    own = p.own
    links = p.links
    free = p.free_edges()
    found: dict[int, list[int]] = {}  # anchor -> its trapped group
    seen: set[int] = set()
    for s in seeds:
        for n in links[s]:
            if own[n] == y and not free[n] and n not in seen:
                group = trapped_group(p, n, seen)  # ``seen`` gets its cards either way
                if group is not None:
                    found[min(group)] = group
    if not found:
        return
    chained = False
    for a in sorted(found):
        if chained:  # D11: a fresh look at the group, which an earlier chain may have changed
            if own[a] != y:
                continue
            fresh = trapped_group(p, a)
            if fresh is None:
                continue
            members = set(fresh)
        else:  # nothing has changed since the group was found
            members = set(found[a])
        attackers = sorted(s for s in seeds if own[s] == x
                           and any(n in members for n in links[s]))
        if attackers:
            chain(p, turn, members, x, y, attackers, "chain", a)
            chained = True


def chain(p: Position, turn: Turn, members: set[int], x: int, y: int, attackers: list[int],
          cause: str, anchor: int) -> None:
    """CHAIN (C4–C10): breadth-first waves through the snapshot ``members``; Moles first."""
    own = p.own
    links = p.links
    face = p.face
    point = p.point
    locked = turn.locked
    defeater = turn.defeater if cause == "chain" else -1
    # IMMUNE(c) cannot change during a turn: the protected Catcher is never taken in it.
    protected = p.immune_index()
    wave = 1
    while attackers:
        found: set[int] = set()
        for a in attackers:
            for n in links[a]:
                if n in members and own[n] == y and n not in locked and n != protected:
                    found.add(n)
        if not found:
            return
        targets = sorted(found)
        out: set[int] = set()
        nxt: list[int] = []
        moles = [t for t in targets if face[t] == MOLE and not point[t]]
        for t in moles:  # phase 1: Moles first (C9, D16)
            r = _resolver(links[t], attackers, out)
            if r < 0:
                continue
            if r == defeater:  # K5: defeated Mole, an ordinary capture
                flip(p, turn, t, x, cause, wave, r, anchor)
                nxt.append(t)
            else:
                flip(p, turn, t, x, cause, wave, r, anchor)
                if r not in turn.reversed and r != protected:
                    reverse(p, turn, r, y, wave, t)
                    out.add(r)
        for t in targets:  # phase 2: everything else
            if face[t] == MOLE and t in moles:
                continue
            r = _resolver(links[t], attackers, out)
            if r < 0:
                continue
            flip(p, turn, t, x, cause, wave, r, anchor)
            nxt.append(t)
        nxt.sort()
        attackers = nxt
        wave += 1


def _resolver(touching: tuple[int, ...], attackers: list[int], out: set[int]) -> int:
    """C7: the first attacker (axial) not reversed this wave that touches the target."""
    for a in attackers:
        if a in touching and a not in out:
            return a
    return -1


def self_chain(p: Position, turn: Turn, c: int, x: int, y: int) -> None:
    """§12 lines 33–34 and SELF_CHAIN (C12, C13, D27): the mover's closed group goes to ``y``."""
    if p.free_edges()[c]:
        return
    group = trapped_group(p, c)
    if group is None:
        return
    own = p.own
    captor = -1
    for n in p.links[c]:  # ascending: the first opponent card touching C (axial)
        if own[n] == y:
            captor = n
            break
    if p.face[c] == MOLE and not p.point[c]:
        flip(p, turn, c, y, "self", 0, captor, c)
        if captor >= 0 and captor not in turn.reversed and not immune(p, captor):
            reverse(p, turn, captor, x, 0, c)
        return
    flip(p, turn, c, y, "self", 0, captor, c)
    chain(p, turn, set(group), y, x, [c], "self", c)
