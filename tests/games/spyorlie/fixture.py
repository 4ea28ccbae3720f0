"""Positions written in the spec's acceptance-example notation (§17), and event briefs.

``(q,r)=Tk``: T = owner B/R; k = s m c (face-down agent), S M (revealed agent), C
(announced Catcher), X (Cyber Attack), !f (point card of T with revealed face f, placed
by the other colour); suffix # = immune during the current turn. o₁ = 0 (G11).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spyhouse.games.spyorlie.board import Cell
from spyhouse.games.spyorlie.model import (
    FULL_HAND,
    Accuse,
    Colour,
    End,
    Event,
    Face,
    Flip,
    Mode,
    Move,
    Pass,
    Place,
    Reversal,
)
from spyhouse.games.spyorlie.rules import Position

_TOKEN = re.compile(r"\((-?\d+),(-?\d+)\)=([BR])(!?)([smcSMCX])(#?)")


def position(text: str, *, radius: int, to_move: str, turns: tuple[int, int],
             hands: dict[str, dict[str, int]] | None = None) -> Position:
    """The fixture position; hands default to the full set minus each colour's placed faces."""
    p = Position.start(radius)
    p.set_first_orientation(0)
    placed = {0: [0, 0, 0, 0], 1: [0, 0, 0, 0]}
    tokens = _TOKEN.findall(text)
    assert len(tokens) == len(text.split()), f"bad fixture {text!r}"
    for q, r, owner_ch, bang, code, hash_ in tokens:
        i = p.board.index[(int(q), int(r))]
        assert p.board.orient[0][i] >= 0, f"({q},{r}) is a dead cell"
        owner = 0 if owner_ch == "B" else 1
        face = Face[code.upper()]
        point = bang == "!"
        placer = 1 - owner if point else owner
        p.own[i] = owner
        p.placer[i] = placer
        p.face[i] = int(face)
        p.point[i] = int(point)
        p.rev[i] = int(point or code.isupper())
        p.ann[i] = int(code == "C" and not point)
        p.ncards += 1
        placed[placer][face] += 1
        if hash_:
            p.imm_cell = i
            p.imm_ply = turns[0] + turns[1]
    for colour in (0, 1):
        counts = [max(0, full - used) for full, used in zip(FULL_HAND, placed[colour],
                                                             strict=True)]
        if hands is not None:
            given = hands["BR"[colour]]
            counts = [given.get(f.name, 0) for f in Face]
        p.hands[4 * colour:4 * colour + 4] = counts
    p.to_move_i = 0 if to_move == "B" else 1
    p.turns = list(turns)
    p.ply = turns[0] + turns[1]
    return p


def cell_text(cell: Cell | None) -> str:
    return "none" if cell is None else f"({cell[0]},{cell[1]})"


def brief(events: Sequence[Event]) -> list[str]:
    """Events in a compact text form close to the spec's notation."""
    out = []
    for ev in events:
        if isinstance(ev, Place):
            out.append(f"place {ev.face.name} {cell_text(ev.cell)} {ev.colour.name[0]}")
        elif isinstance(ev, Accuse):
            out.append(f"accuse {cell_text(ev.target)} {'right' if ev.correct else 'wrong'}"
                       f" {ev.face.name}")
        elif isinstance(ev, Flip):
            out.append(f"{ev.cause} w{ev.wave} {ev.face.name} {cell_text(ev.cell)}->"
                       f"{ev.to.name[0]} by {cell_text(ev.by)}")
        elif isinstance(ev, Reversal):
            out.append(f"rev w{ev.wave} {cell_text(ev.cell)}->{ev.to.name[0]}")
        elif isinstance(ev, Pass):
            out.append(f"pass {ev.colour.name[0]}")
        elif isinstance(ev, End):
            out.append(f"end {ev.result} {ev.points[0]}-{ev.points[1]}")
    return out


def cards(p: Position, cells: Sequence[Cell]) -> str:
    """The cells in fixture notation (owner, face code, point/immune marks)."""
    out = []
    for cell in cells:
        card = p.card(cell)
        if card is None:
            out.append(f"{cell_text(cell)}=.")
            continue
        owner = "B" if card.owner == Colour.BLUE else "R"
        if card.point:
            code = "!" + card.face.name.lower()
        elif card.announced:
            code = "C"
        elif card.face == Face.X:
            code = "X"
        else:
            code = card.face.name if card.revealed else card.face.name.lower()
        mark = "#" if p.immune_cell() == cell else ""
        out.append(f"{cell_text(cell)}={owner}{code}{mark}")
    return " ".join(out)


def spy(cell: Cell, face: Face = Face.S) -> Move:
    """A PLAIN move with the forced orientation of o₁ = 0."""
    return Move(face, cell, orient(cell), Mode.PLAIN, None)


def orient(cell: Cell) -> int:
    return 0 if (cell[0] - cell[1]) % 3 == 0 else 1


def accuse(cell: Cell, target: Cell) -> Move:
    return Move(Face.C, cell, orient(cell), Mode.ACCUSE, target)


def cyber(cell: Cell, target: Cell) -> Move:
    return Move(Face.X, cell, orient(cell), Mode.CYBER, target)
