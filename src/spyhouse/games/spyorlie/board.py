"""Geometry of the hex board (spec §3): axial cells, directions, classes, neighbour tables.

Cells of a radius-N board are numbered 0…n-1 in axial order (G3), so comparing or
sorting cell *indices* is the axial order; the hot path works on indices only.
Boards are immutable and cached per radius.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

Cell = tuple[int, int]

#: G2: direction d -> (dq, dr); the opposite direction is (d + 3) % 6.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

MIN_RADIUS = 2
MAX_RADIUS = 8


def nb(cell: Cell, d: int) -> Cell:
    """G2: the neighbour of ``cell`` in direction ``d``."""
    dq, dr = DIRECTIONS[d]
    return (cell[0] + dq, cell[1] + dr)


def cell_class(cell: Cell) -> int:
    """G8: k(c) = (q - r) mod 3."""
    return (cell[0] - cell[1]) % 3


def is_marked(orientation: int, d: int) -> bool:
    """G6: edge d of a card of this orientation is marked iff d mod 2 = orientation."""
    return d % 2 == orientation


def live_class(first_orientation: int) -> int:
    """G11: the live class L = 1 + o₁ besides class 0."""
    return 1 + first_orientation


def dead_class(first_orientation: int) -> int:
    """G11: the dead class D = 2 - o₁."""
    return 2 - first_orientation


def orientation_at(cell: Cell, first_orientation: int) -> int:
    """G11: the orientation every card on a live cell has (o₁ on class 0, 1 - o₁ on class L)."""
    return first_orientation if cell_class(cell) == 0 else 1 - first_orientation


@dataclass(frozen=True, slots=True)
class Board:
    """The tables of one radius. Index order = axial order (G3)."""

    radius: int
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    #: nbr[i][d]: index of nb(cells[i], d), or -1 when off-board (G4).
    nbr: tuple[tuple[int, ...], ...]
    #: adjacent[i]: on-board neighbour indices in ascending (axial) order.
    adjacent: tuple[tuple[int, ...], ...]
    cls: tuple[int, ...]
    centre: int
    #: For o₁ in (0, 1): per cell, the on-board neighbours behind its marked edges when the
    #: cell is live (G11 fixes its orientation), ascending; empty for dead cells. On a live
    #: board these are exactly the cells a card can touch (G12).
    links: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    #: For o₁ in (0, 1): the live cells (ascending) and each cell's orientation (-1 = dead).
    live: tuple[tuple[int, ...], tuple[int, ...]]
    orient: tuple[tuple[int, ...], tuple[int, ...]]

    def on_board(self, cell: Cell) -> bool:
        return cell in self.index

    def idx(self, cell: Cell) -> int:
        return self.index[cell]

    def touching(self, a: Cell, b: Cell) -> bool:
        """G2: adjacent cells."""
        dq, dr = b[0] - a[0], b[1] - a[1]
        return (dq, dr) in DIRECTIONS


def _in_radius(cell: Cell, radius: int) -> bool:
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= radius


@cache
def board(radius: int) -> Board:
    """The board of ``radius`` (2 ≤ N ≤ 8, G5), built once per process."""
    if not MIN_RADIUS <= radius <= MAX_RADIUS:
        raise ValueError(f"radius must be {MIN_RADIUS}…{MAX_RADIUS}, not {radius}")
    cells = tuple(sorted((q, r) for q in range(-radius, radius + 1)
                         for r in range(-radius, radius + 1) if _in_radius((q, r), radius)))
    index = {cell: i for i, cell in enumerate(cells)}
    nbr = tuple(tuple(index.get(nb(cell, d), -1) for d in range(6)) for cell in cells)
    adjacent = tuple(tuple(sorted(n for n in row if n >= 0)) for row in nbr)
    cls = tuple(cell_class(cell) for cell in cells)
    links_by_o1: list[tuple[tuple[int, ...], ...]] = []
    live_by_o1: list[tuple[int, ...]] = []
    orient_by_o1: list[tuple[int, ...]] = []
    for o1 in (0, 1):
        dead = dead_class(o1)
        orient = tuple(-1 if k == dead else (o1 if k == 0 else 1 - o1) for k in cls)
        links = tuple(
            () if orient[i] < 0 else tuple(sorted(
                nbr[i][d] for d in range(6) if is_marked(orient[i], d) and nbr[i][d] >= 0))
            for i in range(len(cells)))
        links_by_o1.append(links)
        live_by_o1.append(tuple(i for i in range(len(cells)) if orient[i] >= 0))
        orient_by_o1.append(orient)
    return Board(
        radius=radius, cells=cells, index=index, nbr=nbr, adjacent=adjacent, cls=cls,
        centre=index[(0, 0)],
        links=(links_by_o1[0], links_by_o1[1]),
        live=(live_by_o1[0], live_by_o1[1]),
        orient=(orient_by_o1[0], orient_by_o1[1]),
    )
