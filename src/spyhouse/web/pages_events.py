"""Live pages: a game's server-sent events stream, and the JSON its polling fallback reads.

- ``GET /games/{id}/events``: ``text/event-stream`` (sse-starlette) of the events the
  reader may see (``service.live``: a seat its own, the host the moderator's, anyone
  else, for a public game only, the public ones; a private game is 404 to outsiders).
  Events: ``deadline`` (first, with the game's entry, deadline and status: the page
  syncs its countdown), ``entry`` (an entry was resolved: the seat's notice line and
  links), ``status``, ``post`` (ids only, never a text). Each event's id is the cursor
  (``entry.post``); a reconnecting browser sends it back as ``Last-Event-ID`` and hears
  what it missed. ``?entry=N``: the entry the page was made at.
- ``GET /games/{id}/live?entry=N&post=P``: the same events as JSON, for a browser without
  ``EventSource`` or whose stream was refused.

The stream polls the database (``live.poll``, one cheap query) every ``POLL_S`` in a
worker thread of its own small limiter, each poll in a short session of its own: no
transaction or connection is held between polls, so a writer never waits on a stream,
and events resolved by another server process or the worker are heard. It holds no
admission slot (``app.AdmissionMiddleware`` lets ``STREAM_PATH`` through, like
``/healthz``); at most ``MAX_STREAMS`` are open per process, past which it answers 503
and the page polls instead. A stream ends after ``STREAM_S`` (the browser reconnects
after ``RETRY_MS``) or when the client goes away; comments every ``PING_S`` keep proxies
from closing it.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Final

import anyio
import anyio.to_thread
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from sqlalchemy.orm import Session, sessionmaker
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Receive, Scope, Send

from spyhouse.service import live
from spyhouse.service.errors import NotFound
from spyhouse.web.deps import MAX_ID, Db, GameId, MaybeUser

router = APIRouter(include_in_schema=False)

#: The stream's path: ``AdmissionMiddleware`` lets it through without a slot.
STREAM_PATH: Final = re.compile(r"^/games/\d+/events$")
#: Open streams per process; past it a stream is refused (503) and the page polls.
MAX_STREAMS = 200
#: How long one stream lasts before the browser reconnects (seconds).
STREAM_S = 600.0
#: How often a stream looks at the database (seconds).
POLL_S = 0.5
#: Comments to keep proxies from closing an idle stream (seconds).
PING_S = 15
#: How long a browser waits before reconnecting (ms), sent as ``retry:``.
RETRY_MS = 2000
#: Polls running at once in this process: each takes a thread and a pooled connection
#: for about a millisecond; a few keep them from crowding out requests that write.
POLL_THREADS = 4


class Streams:
    """This process's open streams and the limiter of their polls' threads."""

    def __init__(self) -> None:
        self.open = 0
        self.limiter = anyio.CapacityLimiter(POLL_THREADS)


def _streams(request: Request) -> Streams:
    found: Streams | None = getattr(request.app.state, "live_streams", None)
    if found is None:
        found = Streams()
        request.app.state.live_streams = found
    return found


def live_reader(game_id: GameId, user: MaybeUser, db: Db) -> live.Reader:
    """Who reads this game's events (``live.reader_of``: 404 for a private game's
    outsiders)."""
    return live.reader_of(db, game_id, user.id if user is not None else None)


LiveReader = Annotated[live.Reader, Depends(live_reader)]
EntryQuery = Annotated[int | None, Query(ge=0, le=MAX_ID)]


def _in_session(factory: sessionmaker[Session], work: Any, *args: Any) -> Any:
    """``work(db, *args)`` in a short read-only session of its own."""
    with factory() as db:
        try:
            return work(db, *args)
        finally:
            db.rollback()


def _event(event: live.LiveEvent, cursor: live.Cursor) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps(event.data, separators=(",", ":")),
                           event=event.kind, id=cursor.token)


class _Stream(EventSourceResponse):
    """The response that gives its stream's place back however it ends."""

    def __init__(self, streams: Streams, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._streams = streams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._streams.open -= 1


@router.get("/games/{game_id}/events")
async def events(request: Request, reader: LiveReader, entry: EntryQuery = None,
                 last_event_id: Annotated[str | None, Header()] = None) -> Response:
    streams = _streams(request)
    if streams.open >= MAX_STREAMS:
        return PlainTextResponse("Too many live pages open: poll instead.", 503,
                                 headers={"Retry-After": "30"})
    factory: sessionmaker[Session] = request.app.state.web.factory
    told = live.Cursor.parse(last_event_id)
    start_entry, start_post = told if told is not None else (entry, None)

    async def run(work: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(
            functools.partial(_in_session, factory, work, *args), limiter=streams.limiter)

    async def stream() -> AsyncIterator[ServerSentEvent]:
        ends = time.monotonic() + STREAM_S
        cursor: live.Cursor = await run(functools.partial(
            live.start, entry=start_entry, post=start_post), reader)
        yield ServerSentEvent(data=json.dumps(live.state(cursor)), event="deadline",
                              id=cursor.token, retry=RETRY_MS)
        while time.monotonic() < ends:
            await anyio.sleep(POLL_S)
            try:
                cursor, found = await run(live.poll, reader, cursor)
            except NotFound:
                return
            for item in found:
                yield _event(item, cursor)

    streams.open += 1
    return _Stream(streams, stream(), ping=PING_S, send_timeout=30)


@router.get("/games/{game_id}/live")
def live_json(db: Db, reader: LiveReader, entry: EntryQuery = None,
              post: Annotated[int | None, Query(ge=0, le=MAX_ID)] = None) -> JSONResponse:
    """The polling fallback: the entries and posts since ``entry``/``post`` (the answer's
    ``cursor`` is the next call's), and the game's entry, deadline and status (``state``:
    the page syncs its countdown from it)."""
    cursor = live.start(db, reader, entry=entry, post=post)
    cursor, found = live.poll(db, reader, cursor)
    return JSONResponse({"cursor": {"entry": cursor.entry, "post": cursor.post},
                         "state": live.state(cursor),
                         "events": [{"type": e.kind, "data": e.data} for e in found]})


__all__ = ["MAX_STREAMS", "STREAM_PATH", "router"]
