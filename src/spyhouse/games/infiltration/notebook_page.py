"""The player's notebook page: what a seat can deduce from its own past views alone.

The deductions are the bots' (``notebook.Notebook``, one engine for bots and players):
the seat's views after record entries 0..N are fed to it in order, and the page shows
the roles this seat knows (its own, its fellow Reds, Seer answers, the end's reveal),
who it knows was where and when (its arrivals, Superlocator and History answers, corpses),
the terminals it used and what they answered, the rooms whose feature it knows, and the
code of the GHOST room's door if it has read it. Nothing here reads anything but views.

What a terminal was asked (a History's room, a Validity statement, Map data's rooms) is
in the seat's orders, not in its reports: those answers are listed as the terminal gave
them, and the engine weighs only what the reports alone support.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.games.infiltration.notebook import Notebook


@dataclass(frozen=True, slots=True)
class RoleLine:
    """A player's team as this seat knows it, and how."""

    handle: str
    team: str
    how: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """Where this seat knows a player was: (turn, room) pairs, oldest first."""

    handle: str
    places: tuple[tuple[int, str], ...]
    dead_in: str | None = None

    @property
    def text(self) -> str:
        return "; ".join(f"turn {turn}: {room}" for turn, room in self.places)


@dataclass(frozen=True, slots=True)
class TerminalLine:
    """One terminal this seat used, and its answer as the terminal gave it."""

    turn: int
    room: str
    terminal: str
    lines: tuple[str, ...]
    #: what this seat knows of that terminal's hack state ("hacked", "not hacked", "")
    hacked: str = ""


@dataclass(frozen=True, slots=True)
class NotebookPage:
    """The notebook page's data."""

    seat: str
    handle: str
    team: str
    turn: int
    roles: tuple[RoleLine, ...]
    whereabouts: tuple[Whereabouts, ...]
    terminals: tuple[TerminalLine, ...]
    #: room -> feature, as seen on arrival or read from Map data checked against a known room
    rooms: tuple[tuple[str, str, str], ...]
    code: str | None
    bad_codes: tuple[str, ...]
    door_open: bool
    psychic: tuple[tuple[int, int], ...]


def _roles(book: Notebook, reveal: Sequence[tuple[str, str]],
           seer: Mapping[str, list[str]]) -> list[RoleLine]:
    """Own team, fellow Reds, Seer answers (read as the engine reads them), the end."""
    how: dict[str, list[str]] = {}
    team: dict[str, str] = {}
    me = book.seat
    team[me] = book.team
    how[me] = ["your own team"]
    if book.team == "red":
        for seat in book.reds:
            if seat != me:
                team[seat] = "red"
                how.setdefault(seat, []).append("a fellow Red, told at the start")
    for seat, colour in book.colour.items():
        if seat in team and team[seat] == "red" and seat in book.reds:
            continue
        team[seat] = colour.lower()
        how.setdefault(seat, []).extend(seer.get(seat, []))
    for seat, revealed in reveal:
        team[seat] = revealed
        how.setdefault(seat, []).append("revealed at the end of the game")
    order = {seat: index for index, seat in enumerate(book.names)}
    return [RoleLine(book.names.get(seat, seat), team[seat], tuple(how.get(seat, ())))
            for seat in sorted(team, key=lambda s: (order.get(s, len(order)), s))]


def _whereabouts(book: Notebook, own: list[tuple[int, str]]) -> list[Whereabouts]:
    rows = [Whereabouts(book.names.get(book.seat, book.seat) + " (you)", tuple(own))]
    for seat in book.names:
        if seat == book.seat:
            continue
        places = tuple(sorted(set(book.sightings.get(seat, ()))))
        dead_in = book.corpse_room.get(seat)
        if places or dead_in:
            rows.append(Whereabouts(book.names[seat], places, dead_in))
    return rows


def _hack_text(book: Notebook, room: str, turn: int) -> str:
    known = book.hack_state.get(room)
    if known is None or known[0] != turn:
        return ""
    return "hacked" if known[1] else "not hacked"


@dataclass(slots=True)
class Notes:
    """What the notebook has read so far: the engine, and the lines it keeps as read."""

    book: Notebook = field(default_factory=Notebook)
    own: list[tuple[int, str]] = field(default_factory=list)
    terminals: list[TerminalLine] = field(default_factory=list)
    seer: dict[str, list[str]] = field(default_factory=dict)
    handle: str = ""
    turn: int = 0
    #: the end's reveal (every seat's team), once the views hold it
    reveal: tuple[tuple[str, str], ...] = ()
    read: int = 0


def read(notes: Notes | None, views: Sequence[Mapping[str, Any]]) -> Notes:
    """``notes`` (``None``: nothing read yet) with the seat's next ``views`` read, in order:
    new notes; the given ones are left as they were (a page may keep them for the next
    phase, so a new phase costs one view, not all of them)."""
    notes = Notes() if notes is None else copy.deepcopy(notes)
    book = notes.book
    for view in views:
        seen = book.private_seen
        book.update(view)
        notes.read += 1
        for item in view["private_log"][seen:]:
            if item.get("kind") == "arrival":
                notes.own.append((int(item["turn"]), str(item["room"])))
            elif item.get("kind") == "terminal":
                notes.terminals.append(_terminal(book, item))
                if item.get("terminal") == "Seer":
                    _seer_lines(book, notes.seer, item)
        me = view.get("me") or {}
        notes.handle = str(me.get("handle", book.seat))
        notes.turn = int(view.get("turn", 0))
        reveal = (view.get("result") or {}).get("reveal") or {}
        notes.reveal = tuple((str(row.get("seat")), str(row["team"]))
                             for row in reveal.get("seats") or () if row.get("team"))
    return notes


def _terminal(book: Notebook, item: Mapping[str, Any]) -> TerminalLine:
    room, turn = str(item["room"]), int(item["turn"])
    return TerminalLine(turn, room, str(item["terminal"]),
                        tuple(str(x) for x in item.get("lines") or ()),
                        _hack_text(book, room, turn))


def _seer_lines(book: Notebook, seer: dict[str, list[str]], item: Mapping[str, Any]) -> None:
    for line in item.get("lines") or ():
        handle = str(line).split(" ", 1)[0].casefold()
        if handle in book.handles:
            seer.setdefault(book.handles[handle], []).append(
                f"turn {item['turn']}, Seer in {item['room']}: {line}")


def page(notes: Notes) -> NotebookPage | None:
    """The page's data from ``notes`` (``None`` when no view was read)."""
    if not notes.read:
        return None
    book = notes.book
    rooms = [(room, feature, "seen") for room, feature in book.seen.items()]
    rooms += [(room, feature, "Map data, checked") for room, feature in book.mapped.items()
              if room not in book.seen]
    return NotebookPage(
        seat=book.seat, handle=notes.handle, team=book.team, turn=notes.turn,
        roles=tuple(_roles(book, notes.reveal, notes.seer)),
        whereabouts=tuple(_whereabouts(book, notes.own)),
        terminals=tuple(notes.terminals),
        rooms=tuple(sorted(rooms)), code=book.code, bad_codes=tuple(sorted(book.bad_codes)),
        door_open=book.door_open, psychic=tuple(book.psychic))


def notebook(views: Sequence[Mapping[str, Any]]) -> NotebookPage | None:
    """The notebook of the seat whose views ``views`` are (after entries 0..N, in order);
    ``None`` when there is no view."""
    return page(read(None, views))


__all__ = ["NotebookPage", "Notes", "RoleLine", "TerminalLine", "Whereabouts", "notebook", "page",
           "read"]
