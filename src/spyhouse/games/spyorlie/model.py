"""The typed domain of Spy or Lie (spec §2, §4, §5.1, DF2, DF6).

Enums are ``IntEnum`` so they index the engine's tables directly; moves and events
are ``NamedTuple`` (cheap to build, hashable, comparable).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from spyhouse.games.spyorlie.board import Cell


class Colour(IntEnum):
    BLUE = 0
    RED = 1

    @property
    def other(self) -> Colour:
        return Colour(1 - self)


class Face(IntEnum):
    """§2: Spy, Mole, Mole Catcher, Cyber Attack; the value indexes hand counts."""

    S = 0
    M = 1
    C = 2
    X = 3

    @property
    def title(self) -> str:
        return FACE_TITLES[self]


FACE_TITLES = {Face.S: "Spy", Face.M: "Mole", Face.C: "Mole Catcher", Face.X: "Cyber Attack"}


class Mode(IntEnum):
    PLAIN = 0
    ACCUSE = 1
    CYBER = 2


class Result:
    BLUE_WIN = "BLUE_WIN"
    RED_WIN = "RED_WIN"
    DRAW = "DRAW"


#: R-1: each hand is the full 20-card set (S, M, C, X).
FULL_HAND: tuple[int, int, int, int] = (11, 4, 3, 2)
HAND_SIZE = sum(FULL_HAND)
#: P6: both players must have taken this many turns before a Cyber Attack.
CYBER_AFTER_TURNS = 5

FACES = (Face.S, Face.M, Face.C, Face.X)
COLOURS = (Colour.BLUE, Colour.RED)


class EngineError(RuntimeError):
    """An engine invariant broke (e.g. KO3's assertion): a bug, never a player error."""


def cell_json(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


class Move(NamedTuple):
    """A placement (§5.1). ``orientation`` is the card's actual orientation (canonical)."""

    face: Face
    cell: Cell
    orientation: int
    mode: Mode
    target: Cell | None

    def to_json(self) -> dict[str, Any]:
        """The canonical DF2 object (without ``ai``)."""
        return {"face": self.face.name, "cell": cell_json(self.cell),
                "orientation": self.orientation, "mode": self.mode.name,
                "target": cell_json(self.target)}

    @staticmethod
    def from_json(data: Any) -> Move:
        """The trusting inverse of ``to_json`` (``orders.parse_move`` validates)."""
        target = data.get("target")
        return Move(Face[data["face"]], (int(data["cell"][0]), int(data["cell"][1])),
                    int(data["orientation"]), Mode[data.get("mode", "PLAIN")],
                    None if target is None else (int(target[0]), int(target[1])))

    def sort_key(self) -> tuple[Cell, int, int, Cell, int]:
        """§5.4: cell, face, mode, target, orientation."""
        return (self.cell, self.face, self.mode, self.target or (-99, -99), self.orientation)


class Card(NamedTuple):
    """§4.1: one occupied cell."""

    owner: Colour
    placer: Colour
    face: Face
    point: bool
    orientation: int
    revealed: bool
    announced: bool


class Group(NamedTuple):
    """F1/F4: a group, its cells (axial order) and its liberty cells (axial order)."""

    owner: Colour
    cells: tuple[Cell, ...]
    liberties: tuple[Cell, ...]


# ---------------------------------------------------------------- events (DF6)


class Place(NamedTuple):
    cell: Cell
    colour: Colour
    face: Face
    orientation: int
    mode: Mode
    target: Cell | None

    def face_public(self) -> bool:
        """DF6: the face shows to all when it is X or the placement is an announcement."""
        return self.face == Face.X or self.mode == Mode.ACCUSE

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "place", "cell": cell_json(self.cell), "colour": self.colour.name,
                "face": self.face.name if show_face or self.face_public() else None,
                "orientation": self.orientation, "mode": self.mode.name,
                "target": cell_json(self.target)}


class Accuse(NamedTuple):
    catcher: Cell
    target: Cell
    correct: bool
    face: Face

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "accuse", "catcher": cell_json(self.catcher),
                "target": cell_json(self.target), "correct": self.correct,
                "face": self.face.name}


class Flip(NamedTuple):
    cell: Cell
    to: Colour
    face: Face
    cause: str
    wave: int
    by: Cell | None
    group: Cell | None

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "flip", "cell": cell_json(self.cell), "to": self.to.name,
                "face": self.face.name, "cause": self.cause, "wave": self.wave,
                "by": cell_json(self.by), "group": cell_json(self.group)}


class Reversal(NamedTuple):
    cell: Cell
    to: Colour
    face: Face
    wave: int
    mole: Cell

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "reversal", "cell": cell_json(self.cell), "to": self.to.name,
                "face": self.face.name, "wave": self.wave, "mole": cell_json(self.mole)}


class Pass(NamedTuple):
    colour: Colour

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "pass", "colour": self.colour.name}


class End(NamedTuple):
    result: str
    points: tuple[int, int]

    def to_json(self, show_face: bool = True) -> dict[str, Any]:
        return {"type": "end", "result": self.result,
                "points": {"BLUE": self.points[0], "RED": self.points[1]}}


Event = Place | Accuse | Flip | Reversal | Pass | End
