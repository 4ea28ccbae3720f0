"""Live pages: what changed in a game since a reader last looked, read from the database.

A page's live stream (``web.pages_events``) and its polling fallback ask ``poll`` every
second or so. Everything comes from the database, never from a process's memory, so a
stream served by one server process hears the turn another process (or the worker)
resolved. ``poll`` is cheap when nothing changed: one query reads the game row's entry,
deadline and status and the game's largest post id; the seat's views are read only when
an entry was resolved, and its readable posts only when a post was made.

Who hears what (``reader_of``): a seat holder hears its own seat's events (the posts
``channels.readable`` lets it read, a line built from its own two views); the host who
holds no seat hears the moderator's posts; anyone else, for a public game only, hears
the public events (the public channel's posts). Events carry ids, entry numbers and the
deadline, never a post's text or anything from another seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.service import channels, play
from spyhouse.service.errors import NotFound
from spyhouse.store.tables import Game, Post, SeatRow

ReaderKind = Literal["seat", "host", "spectator"]
CLOSED = "there is no such game"


@dataclass(frozen=True, slots=True)
class Reader:
    """Whose events a stream carries: a seat (``seat_id``), the host, or a spectator."""

    game_id: int
    kind: ReaderKind
    seat_id: str | None = None


@dataclass(frozen=True, slots=True)
class Cursor:
    """What the reader has been told: the entry, the largest post id, the deadline (ISO)
    and the status. ``token`` is the stream's event id (``Last-Event-ID``)."""

    entry: int
    post: int
    deadline: str | None = None
    status: str = ""

    @property
    def token(self) -> str:
        return f"{self.entry}.{self.post}"

    @staticmethod
    def parse(token: str | None) -> tuple[int, int] | None:
        """``(entry, post)`` of an event id, ``None`` for anything else."""
        entry, dot, post = (token or "").strip().partition(".")
        if not (dot and entry.isdecimal() and post.isdecimal()
                and len(entry) < 12 and len(post) < 19):
            return None
        return int(entry), int(post)


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """One event: ``kind`` is ``entry``, ``deadline``, ``status`` or ``post``."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def reader_of(db: Session, game_id: int, user_id: int | None) -> Reader:
    """The reader ``user_id`` (``None``: anonymous) is in ``game_id``; ``NotFound`` for a
    private game it is no member of, so the answer does not tell whether it exists."""
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(CLOSED)
    if user_id is not None:
        seat_id = db.scalar(select(SeatRow.seat_id).where(SeatRow.game_id == game_id,
                                                          SeatRow.user_id == user_id))
        if seat_id is not None:
            return Reader(game_id, "seat", seat_id)
        if game.host_id == user_id:
            return Reader(game_id, "host")
    if not game.public:
        raise NotFound(CLOSED)
    return Reader(game_id, "spectator")


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def _row(db: Session, game_id: int) -> tuple[int, datetime | None, str, int] | None:
    """The one cheap query: the game's entry, deadline, status and largest post id."""
    latest = (select(func.max(Post.id)).where(Post.game_id == game_id)
              .scalar_subquery())
    row = db.execute(select(Game.entry, Game.deadline, Game.status, latest)
                     .where(Game.id == game_id)).one_or_none()
    if row is None:
        return None
    return int(row[0]), row[1], str(row[2]), int(row[3] or 0)


def start(db: Session, reader: Reader, *, entry: int | None = None,
          post: int | None = None) -> Cursor:
    """The cursor of a new stream: the game as it is now, less what the page already
    showed (``entry``: the entry the page was made at; ``post``: the last post id the
    reader was told about), so that what happened in between is told at once."""
    row = _row(db, reader.game_id)
    if row is None:
        raise NotFound(CLOSED)
    now_entry, deadline, status, latest = row
    return Cursor(entry=now_entry if entry is None else min(entry, now_entry),
                  post=latest if post is None else min(post, latest),
                  deadline=_iso(deadline), status=status)


def state(cursor: Cursor) -> dict[str, Any]:
    """The game's public facts the cursor holds (the deadline event's data)."""
    return {"entry": cursor.entry, "deadline": cursor.deadline, "status": cursor.status}


def poll(db: Session, reader: Reader, cursor: Cursor) -> tuple[Cursor, list[LiveEvent]]:
    """The events since ``cursor`` and the new cursor (``NotFound`` once the game is
    gone)."""
    row = _row(db, reader.game_id)
    if row is None:
        raise NotFound(CLOSED)
    entry, when, status, latest = row
    deadline = _iso(when)
    events: list[LiveEvent] = []
    if entry > cursor.entry:
        events.append(LiveEvent("entry", {
            "entry": entry, "deadline": deadline, "status": status,
            **turn_notice(db, reader, cursor.entry, entry, status)}))
    elif deadline != cursor.deadline or status != cursor.status:
        events.append(LiveEvent("deadline" if status == cursor.status else "status",
                                {"entry": entry, "deadline": deadline, "status": status}))
    if latest > cursor.post:
        events.extend(LiveEvent("post", data) for data in _posts(db, reader, cursor.post))
    return replace(cursor, entry=max(entry, cursor.entry), post=max(latest, cursor.post),
                   deadline=deadline, status=status), events


def _posts(db: Session, reader: Reader, after: int) -> list[dict[str, Any]]:
    """The posts after ``after`` the reader may read, by ``channels``' own rules (a
    seat's own posts left out)."""
    game = db.get(Game, reader.game_id)
    if game is None:
        return []
    if reader.kind == "seat" and reader.seat_id is not None:
        posts = [p for p in channels.readable(db, game, reader.seat_id, after=after)
                 if p.author_seat != reader.seat_id]  # its own posts are no news to it
    else:
        posts = [p for p in channels.moderator_posts(db, game, secret=reader.kind == "host")
                 if p.id > after]
    return [{"id": p.id, "entry": p.entry, "channel": p.channel, "author": p.author,
             "private": p.to_seat is not None} for p in posts]


def turn_notice(db: Session, reader: Reader, before: int, after: int,
                status: str) -> dict[str, Any]:
    """The notice of entries ``before``..``after`` resolved: ``line`` ("Turn 3
    processed: " and the game's words for the seat) and the ``links`` the page offers. A seat's
    line comes from its own two views alone (``GamePages.changes``)."""
    game = db.get(Game, reader.game_id)
    if game is None:
        raise NotFound(CLOSED)
    plugin = registry.plugin(game.game)
    step = plugin.words.turn
    change = ""
    base = f"/games/{game.id}"
    links: dict[str, str]
    if reader.kind == "seat" and reader.seat_id is not None:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id,
                                               SeatRow.seat_id == reader.seat_id))
        if seat is not None:
            try:
                change = plugin.pages.changes(play.report(db, seat, max(0, before)),
                                              play.report(db, seat, after), after)
            except NotFound:
                change = ""
        links = {"report": f"{base}/report", "orders": f"{base}/seat"}
    elif reader.kind == "host":
        links = {"page": f"{base}/host"}
    else:
        links = {"page": base}
    line = f"{step[:1].upper()}{step[1:]} {after} processed"
    line += f": {change.rstrip('.')}." if change else "."
    if status == "over":
        line += " The game is over."
    return {"line": line, "links": links}


__all__ = ["Cursor", "LiveEvent", "Reader", "poll", "reader_of", "start", "state",
           "turn_notice"]
