"""The player's notebook page: what a seat can deduce from its own past views alone.

The deductions are the bots' (``notebook.Notebook``, one engine for bots and players):
the seat's views after record entries 0..N are fed to it in order, and the page shows,
for each surviving rival brotherhood, the leader names and base regions still possible,
with the evidence lines (HUNT, FOLLOW, SEARCH results and the own declarations' outcomes)
in the words of the reports. Nothing here reads anything but the views given.

A game of a thousand brotherhoods has a thousand candidate names per rival at first:
a rival's names are listed only when few are left (``NAMES_SHOWN``), else counted, so
the page stays small and quick (a mask's size is one ``bit_count``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.games.spyvsspy.model import REGION_INFO, Region
from spyhouse.games.spyvsspy.notebook import (
    _FOLLOW,
    _HUNT_BASE,
    _HUNT_LEADER,
    _SEARCH_FOUND,
    ALL_REGIONS,
    LETTERS,
    Notebook,
    RivalNotes,
)
from spyhouse.games.spyvsspy.text import format_task

#: The most candidate leader names listed for one rival; beyond, the page gives a count.
NAMES_SHOWN = 12
#: The most brotherhoods a sighting names as the leader's possible owners.
OWNERS_SHOWN = 5
#: The tasks whose results are evidence about rivals (§6 T6, T7, T9).
EVIDENCE_TASKS = frozenset({"HUNT", "FOLLOW", "SEARCH"})
#: The engine's own readings of a result that names a brotherhood (group ``y``).
_NAMING = (_HUNT_BASE, _HUNT_LEADER, _FOLLOW, _SEARCH_FOUND)
#: Above this many rivals the page gives no best guess (it weighs every rival per name).
GUESS_RIVALS = 100


def region_label(letter: Any) -> str:
    """"D Docks" for "D" (``pages`` imports this module, so it keeps its own)."""
    text = str(letter or "")
    return f"{text} {REGION_INFO[Region(text)].name}" if text in Region.__members__ else text


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> brotherhood name, from a view's public directory."""
    return {str(row.get("seat")): str(row.get("name"))
            for row in view.get("directory") or () if isinstance(row, Mapping)}


@dataclass(frozen=True, slots=True)
class Evidence:
    """One report line the notebook read: "Turn 3: spy #4 SEARCH D: base of Bravo …"."""

    turn: int
    spy: int
    task: str
    result: str
    #: seat ids of the rivals the line names (its result or its order)
    about: tuple[str, ...] = ()
    #: the leader a sighting is about (listed under a rival only while he may be its own)
    leader: str = ""

    @property
    def line(self) -> str:
        if not self.spy:  # a sighting in the Brotherhood Report, no spy's result
            return f"Turn {self.turn}: {self.result}"
        return f"Turn {self.turn}: spy #{self.spy} {self.task}: {self.result}"


@dataclass(frozen=True, slots=True)
class RivalRow:
    """One rival brotherhood as the notebook stands."""

    seat: str
    name: str
    covertness: int
    #: candidate leader names, sorted, when at most ``NAMES_SHOWN`` are left (else empty)
    leaders: tuple[str, ...]
    leader_count: int
    #: candidate base regions ("D Docks"), in region order
    bases: tuple[str, ...]
    #: the proven (leader, base) pair, when both are
    certain: tuple[str, str] | None
    #: the likeliest (leader, base) as the bots judge it, with its probability
    guess: tuple[str, str] | None
    confidence: float
    evidence: tuple[Evidence, ...] = ()

    @property
    def leaders_text(self) -> str:
        if self.leader_count == 1 and self.leaders:
            return self.leaders[0]
        if self.leaders:
            return ", ".join(self.leaders)
        return f"any of {self.leader_count} names"

    @property
    def bases_text(self) -> str:
        return "anywhere (A–I)" if len(self.bases) == len(LETTERS) else ", ".join(self.bases)


@dataclass(frozen=True, slots=True)
class NotebookPage:
    """The notebook page's data: the rivals, the evidence read, how many contradictions."""

    seat: str
    turn: int
    #: the rivals this seat knows anything about, in bid order
    rivals: tuple[RivalRow, ...]
    #: the names of the rivals it knows nothing about yet (any leader, any base)
    unknown: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    contradictions: int = 0
    certain_count: int = 0
    declarations: tuple[str, ...] = field(default_factory=tuple)


def _evidence(view: Mapping[str, Any], names: Mapping[str, str],
              seat_of: Mapping[str, str]) -> list[Evidence]:
    """The lines of one view's spy results the notebook reads as evidence."""
    turn = int(view.get("turn", 0))
    out = []
    for spy in view.get("spies") or ():
        task, result = spy.get("task"), spy.get("result")
        if (spy.get("killed") or not isinstance(task, Mapping) or not isinstance(result, str)
                or task.get("task") not in EVIDENCE_TASKS):
            continue
        about = {str(task["brotherhood"])} if task.get("brotherhood") else set()
        for pattern in _NAMING:
            match = pattern.match(result)
            if match and match.groupdict().get("y") in seat_of:
                about.add(seat_of[match["y"]])
        out.append(Evidence(turn, int(spy.get("number", 0)), format_task(task, names), result,
                            tuple(sorted(about))))
    return out


def _sightings(view: Mapping[str, Any], names: Mapping[str, str]) -> list[Evidence]:
    """The leaders the Brotherhood Report ticks in an observed column where nobody was
    disguised (§8.2 item 6; spy2 has no DISGUISE): each leads one of the brotherhoods
    counted there, as the engine reads it (``Notebook._leader_ticks``)."""
    table = view.get("table")
    if not isinstance(table, Mapping) or "spies" not in view:
        return []
    columns = [str(c) for c in table.get("columns") or ()]
    observed: set[str] = set()
    disguise: Mapping[str, Any] = {}
    counted: list[Mapping[str, Any]] = []
    ticked: list[Mapping[str, Any]] = []
    for row in table.get("rows") or ():
        kind, cells = row.get("kind"), row.get("cells") or {}
        if kind == "task":
            observed |= {c for c in columns if isinstance(cells.get(c), int)}
            if row.get("label") == "DISGUISE":
                disguise = cells
        elif kind == "brotherhood":
            counted.append(row)
        elif kind == "leader" and "✓" in cells.values():
            ticked.append(row)
    clean = [c for c in columns if c in observed and disguise.get(c, 0) == 0]
    if not clean or not ticked:
        return []
    owners = {c: [str(row.get("seat")) for row in counted
                  if isinstance((row.get("cells") or {}).get(c), int) and row["cells"][c] > 0]
              for c in clean}
    turn = int(view.get("turn", 0))
    out = []
    for row in ticked:
        for column in clean:
            if (row.get("cells") or {}).get(column) != "✓" or not owners[column]:
                continue
            seats = owners[column]
            shown = ", ".join(names.get(seat, seat) for seat in seats[:OWNERS_SHOWN])
            more = f" and {len(seats) - OWNERS_SHOWN} more" if len(seats) > OWNERS_SHOWN else ""
            which = "one of " if len(seats) > 1 else ""
            text = (f"{row.get('label')} was seen in {region_label(column)}, where no spy was "
                    f"disguised: he leads {which}{shown}{more}")
            out.append(Evidence(turn, 0, "", text,
                                tuple(seats) if len(seats) <= OWNERS_SHOWN else (),
                                str(row.get("label"))))
    return out


def _declarations(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    turn = int(view.get("turn", 0))
    lines = []
    for line in view.get("declarations") or ():
        seat = str(line.get("brotherhood"))
        lines.append(f"Turn {turn}: you declared {names.get(seat, seat)}: "
                     f"{line.get('leader')} in {region_label(line.get('region'))}: "
                     f"{line.get('outcome')}")
    return lines


def _row(book: Notebook, notes: RivalNotes, evidence: Sequence[Evidence], guess_ok: bool
         ) -> RivalRow:
    count = notes.leaders.bit_count() if notes.leaders >= 0 else 0
    leaders: tuple[str, ...] = ()
    if 0 < count <= NAMES_SHOWN:
        leaders = tuple(book.candidates(notes.seat)[0])
    certain = book.certain_of(notes)
    guess = book.best_guess(notes.seat) if guess_ok and not certain and count else None
    return RivalRow(
        seat=notes.seat, name=notes.name, covertness=notes.covertness,
        leaders=leaders, leader_count=count,
        bases=tuple(region_label(letter) for letter in LETTERS
                    if notes.bases >> LETTERS.index(letter) & 1),
        certain=None if certain is None else (certain[0], region_label(certain[1])),
        guess=None if guess is None else (guess[0], region_label(guess[1])),
        confidence=1.0 if certain else book.confidence_of(notes),
        evidence=tuple(evidence))


@dataclass(slots=True)
class Notes:
    """What the notebook has read so far: the engine, and the evidence lines it read."""

    book: Notebook = field(default_factory=Notebook)
    evidence: list[Evidence] = field(default_factory=list)
    declared: list[str] = field(default_factory=list)
    seat: str | None = None
    #: how many leader names the latest view listed (a rival with fewer is narrowed)
    pool: int = 0


def read(notes: Notes | None, views: Sequence[Mapping[str, Any]]) -> Notes:
    """``notes`` (``None``: nothing read yet) with the seat's next ``views`` read, in order:
    new notes; the given ones are left as they were (a page may keep them for the next
    turn, so a new turn costs one view, not all of them)."""
    notes = Notes() if notes is None else copy.deepcopy(notes)
    book = notes.book
    for view in views:
        if view.get("seat") is None:
            continue
        seat = notes.seat = str(view["seat"])
        before = book.turn
        book.update(view)
        if book.turn == before:  # a turn already read
            continue
        if "leaders" in view:
            notes.pool = len(view.get("leaders") or ())
        names = seat_names(view)
        seat_of = {name: s for s, name in names.items() if s != seat}
        notes.evidence.extend(_evidence(view, names, seat_of))
        notes.evidence.extend(_sightings(view, names))
        notes.declared.extend(_declarations(view, names))
    return notes


def page(notes: Notes) -> NotebookPage | None:
    """The page's data from ``notes`` (``None`` before the seat has a view)."""
    if notes.seat is None:
        return None
    book = notes.book
    by_rival: dict[str, list[Evidence]] = {}
    for line in notes.evidence:
        index = book.leader_index(line.leader) if line.leader else None
        for rival in line.about:
            held = book.notes(rival)
            if index is not None and held is not None and not held.leaders >> index & 1:
                continue  # a sighting of a leader this rival no longer may have
            by_rival.setdefault(rival, []).append(line)
    notes_all = book.rival_notes()
    guess_ok = len(notes_all) <= GUESS_RIVALS
    rivals = tuple(_row(book, rival, by_rival.get(rival.seat, ()), guess_ok)
                   for rival in notes_all
                   if rival.leaders.bit_count() < notes.pool or rival.bases != ALL_REGIONS
                   or rival.seat in by_rival)
    shown = {row.seat for row in rivals}
    unknown = tuple(rival.name for rival in notes_all if rival.seat not in shown)
    return NotebookPage(seat=notes.seat, turn=book.turn, rivals=rivals, unknown=unknown,
                        evidence=tuple(notes.evidence), contradictions=book.contradictions,
                        certain_count=sum(1 for r in rivals if r.certain is not None),
                        declarations=tuple(notes.declared))


def notebook(views: Sequence[Mapping[str, Any]]) -> NotebookPage | None:
    """The notebook of the seat whose views ``views`` are (after entries 0..N, in order);
    ``None`` before the seat has any view."""
    return page(read(None, views))


__all__ = ["NAMES_SHOWN", "Evidence", "NotebookPage", "Notes", "RivalRow", "notebook", "page",
           "read"]
