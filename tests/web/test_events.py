"""Live pages (``web/pages_events.py``, ``service/live.py``): a game's event stream under a
real uvicorn, read with an HTTP client as a browser's ``EventSource`` would.

The stream tells a seat the entry the worker resolved (with the seat's own notice line),
never another seat's private post, a spectator only public events; a private game's
stream is 404 to outsiders; two app instances on one database both hear what neither of
them did (events come from the database). The polling fallback answers the same."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import SystemClock
from spyhouse.service import channels
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, session_factory
from spyhouse.store.tables import Game
from spyhouse.web import pages_events
from spyhouse.web.app import create_app
from spyhouse.web.deps import SESSION_COOKIE
from spyhouse.worker import run_once
from tests.livegames import LiveGame, close_turn, seat, start_game
from tests.serving import Running, uvicorn_thread
from tests.web.helpers import NullMailer

WAIT_S = 10.0


@pytest.fixture(autouse=True)
def quick_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polls every 0.1 s and a ping every second (a read never idles long)."""
    monkeypatch.setattr(pages_events, "POLL_S", 0.1)
    monkeypatch.setattr(pages_events, "PING_S", 1)


@pytest.fixture
def live_settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, base_url="http://testserver", demo=False,
                    smtp_host=None)


@pytest.fixture
def live_factory(live_settings: Settings, engine: Engine) -> sessionmaker[Session]:
    factory = session_factory(engine)
    factory.configure(info={"settings": live_settings})
    return factory


@pytest.fixture
def served(live_settings: Settings, engine: Engine) -> Iterator[Running]:
    app: FastAPI = create_app(live_settings, SystemClock(), engine=engine)
    with uvicorn_thread(app, name="spyhouse-events-test") as running:
        yield running


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Listener:
    """One stream read in a thread: its events as ``(event, data, id)``."""

    response: httpx2.Response
    events: queue.Queue[tuple[str, dict[str, Any], str]] = field(default_factory=queue.Queue)
    stop: threading.Event = field(default_factory=threading.Event)

    def read(self) -> None:
        kind, data, ident = "message", "", ""
        try:
            for line in self.response.iter_lines():
                if self.stop.is_set():
                    return
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data += line[5:].strip()
                elif line.startswith("id:"):
                    ident = line[3:].strip()
                elif not line:
                    if data:
                        self.events.put((kind, json.loads(data), ident))
                    kind, data = "message", ""
        except httpx2.HTTPError:
            return

    def next(self, kind: str, timeout: float = WAIT_S) -> dict[str, Any]:
        """The next event of ``kind`` (others are skipped)."""
        ends = time.monotonic() + timeout
        while True:
            left = ends - time.monotonic()
            assert left > 0, f"no {kind} event within {timeout} s"
            try:
                got, data, _ = self.events.get(timeout=left)
            except queue.Empty:
                raise AssertionError(f"no {kind} event within {timeout} s") from None
            if got == kind:
                return data

    def drain(self, wait: float = 0.6) -> list[tuple[str, dict[str, Any]]]:
        """Every event that arrives within ``wait`` seconds."""
        time.sleep(wait)
        found = []
        while not self.events.empty():
            kind, data, _ = self.events.get_nowait()
            found.append((kind, data))
        return found


@pytest.fixture
def listen() -> Iterator[Callable[..., Listener]]:
    opened: list[tuple[httpx2.Client, Any, Listener, threading.Thread]] = []

    def open_stream(url: str, game_id: int, token: str | None, *,
                    headers: dict[str, str] | None = None, entry: int | None = None
                    ) -> Listener:
        cookies = {SESSION_COOKIE: token} if token else {}
        client = httpx2.Client(base_url=url, cookies=cookies,
                               timeout=httpx2.Timeout(5.0, read=5.0))
        query = f"?entry={entry}" if entry is not None else ""
        context = client.stream("GET", f"/games/{game_id}/events{query}",
                                headers=headers or {})
        response = context.__enter__()
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        listener = Listener(response)
        thread = threading.Thread(target=listener.read, daemon=True)
        thread.start()
        opened.append((client, context, listener, thread))
        first = listener.next("deadline")
        assert set(first) == {"entry", "deadline", "status"}
        return listener

    yield open_stream
    for client, context, listener, thread in opened:
        listener.stop.set()
        thread.join(timeout=5)
        context.__exit__(None, None, None)
        client.close()


def resolve(factory: sessionmaker[Session], settings: Settings, game: LiveGame) -> None:
    """The host closes the turn and the worker resolves it."""
    close_turn(factory, settings, game.id, now())
    assert run_once(factory, SystemClock(), settings, NullMailer()) >= 1
    with factory() as db:
        row = db.get(Game, game.id)
        assert row is not None and row.entry >= 1


@pytest.mark.parametrize("kind", ["spyvsspy", "kingdoms", "infiltration", "spyorlie"])
def test_the_stream_tells_the_seat_its_resolved_entry(
        kind: str, served: Running, live_factory: sessionmaker[Session],
        live_settings: Settings, listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, kind, now())
    stream = listen(served.url, game.id, game.tokens[1], entry=0)
    resolve(live_factory, live_settings, game)
    told = stream.next("entry")
    assert told["entry"] == 1
    assert told["line"].endswith(".") and " 1 processed" in told["line"]
    assert told["links"] == {"report": f"/games/{game.id}/report",
                             "orders": f"/games/{game.id}/seat"}
    assert told["status"] == "running"


def test_a_page_made_before_the_entry_hears_it_at_once(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "spyvsspy", now())
    resolve(live_factory, live_settings, game)
    stream = listen(served.url, game.id, game.tokens[0], entry=0)  # a page made at entry 0
    assert stream.next("entry")["entry"] == 1


def test_last_event_id_resumes_where_the_browser_was(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "spyvsspy", now())
    resolve(live_factory, live_settings, game)
    stream = listen(served.url, game.id, game.tokens[0], headers={"Last-Event-ID": "0.0"})
    assert stream.next("entry")["entry"] == 1
    quiet = listen(served.url, game.id, game.tokens[0], headers={"Last-Event-ID": "1.0"})
    assert [kind for kind, _ in quiet.drain()] == []


def test_a_deadline_change_is_told(served: Running, live_factory: sessionmaker[Session],
                                   live_settings: Settings,
                                   listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "kingdoms", now())
    stream = listen(served.url, game.id, game.tokens[1])
    close_turn(live_factory, live_settings, game.id, now())  # the deadline becomes now
    told = stream.next("deadline")
    with live_factory() as db:
        row = db.get(Game, game.id)
        assert row is not None and row.deadline is not None
        assert told["deadline"] == row.deadline.isoformat()


def _infiltration_posts(factory: sessionmaker[Session], game: LiveGame) -> None:
    """s1 writes to s3 privately, then in the public thread, then to s2 privately."""
    with factory() as db:
        row = db.get(Game, game.id)
        assert row is not None
        author = seat(db, game.id, "s1")
        channels.post(db, row, author, "private", "meet me at the lab", to_seat="s3",
                      now=now())
        channels.post(db, row, author, "public", "hello all", now=now())
        channels.post(db, row, author, "private", "and you", to_seat="s2", now=now())
        db.commit()


def test_a_seat_never_hears_another_seats_private_post(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "infiltration", now())
    author = listen(served.url, game.id, game.tokens[0])
    other = listen(served.url, game.id, game.tokens[1])
    _infiltration_posts(live_factory, game)
    heard = [data for kind, data in other.drain(1.0) if kind == "post"]
    assert [(p["channel"], p["private"]) for p in heard] == [("public", False),
                                                              ("private", True)]
    assert all(set(p) == {"id", "entry", "channel", "author", "private"} for p in heard)
    assert [kind for kind, _ in author.drain(0.2)] == []  # its own posts are no news


def test_a_spectator_hears_public_events_only(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "infiltration", now())
    watcher = listen(served.url, game.id, None)  # anonymous, a public game
    outsider = listen(served.url, game.id, game.outsider)
    _infiltration_posts(live_factory, game)
    resolve(live_factory, live_settings, game)
    for stream in (watcher, outsider):
        heard = stream.drain(1.0)
        assert [data["channel"] for kind, data in heard if kind == "post"] == ["public"]
        entries = [data for kind, data in heard if kind == "entry"]
        assert len(entries) == 1
        assert entries[0]["line"] == "Phase 1 processed."  # no seat's words
        assert entries[0]["links"] == {"page": f"/games/{game.id}"}


def test_a_private_games_stream_is_404_to_outsiders(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener]) -> None:
    game = start_game(live_factory, live_settings, "spyvsspy", now(), public=False)
    for token in (None, game.outsider):
        cookies = {SESSION_COOKIE: token} if token else {}
        with httpx2.Client(base_url=served.url, cookies=cookies, timeout=5) as client:
            assert client.get(f"/games/{game.id}/events").status_code == 404
            assert client.get(f"/games/{game.id}/live").status_code == 404
            assert client.get("/games/999999/events").status_code == 404
    listen(served.url, game.id, game.tokens[0])  # its players still hear it


def test_two_app_instances_on_one_database(
        database_url: str, live_settings: Settings, live_factory: sessionmaker[Session],
        listen: Callable[..., Listener]) -> None:
    """Neither server resolves the turn or posts: both hear it from the database."""
    engines = [make_engine(database_url) for _ in range(2)]
    try:
        apps = [create_app(live_settings, SystemClock(), engine=e) for e in engines]
        with uvicorn_thread(apps[0], name="one") as one, \
                uvicorn_thread(apps[1], name="two") as two:
            game = start_game(live_factory, live_settings, "infiltration", now())
            streams = [listen(one.url, game.id, game.tokens[1]),
                       listen(two.url, game.id, game.tokens[1])]
            _infiltration_posts(live_factory, game)
            resolve(live_factory, live_settings, game)
            for stream in streams:
                heard = stream.drain(1.5)
                assert [d["channel"] for k, d in heard if k == "post"] == ["public",
                                                                            "private"]
                assert [d["entry"] for k, d in heard if k == "entry"] == [1]
    finally:
        for e in engines:
            e.dispose()


def test_past_the_open_streams_bound_it_answers_503(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener], monkeypatch: pytest.MonkeyPatch) -> None:
    game = start_game(live_factory, live_settings, "spyvsspy", now())
    monkeypatch.setattr(pages_events, "MAX_STREAMS", 1)
    listen(served.url, game.id, game.tokens[0])
    cookies = {SESSION_COOKIE: game.tokens[1]}
    with httpx2.Client(base_url=served.url, cookies=cookies, timeout=5) as client:
        refused = client.get(f"/games/{game.id}/events")
        assert refused.status_code == 503
        # the fallback still answers, and other pages are not held up by the stream
        assert client.get(f"/games/{game.id}/live").status_code == 200
        assert client.get("/healthz").status_code == 200


def test_streams_hold_no_admission_slot_and_no_connection(
        served: Running, live_factory: sessionmaker[Session], live_settings: Settings,
        listen: Callable[..., Listener], engine: Engine) -> None:
    """More open streams than the gate admits: pages still answer at once, and between
    their polls the streams hold no pooled connection."""
    from spyhouse.web.app import ADMITTED

    game = start_game(live_factory, live_settings, "spyvsspy", now())
    for _ in range(ADMITTED + 2):
        listen(served.url, game.id, game.tokens[0])
    held = []
    for _ in range(10):
        held.append(engine.pool.checkedout())  # type: ignore[attr-defined]
        time.sleep(0.03)
    assert min(held) == 0 and max(held) <= pages_events.POLL_THREADS
    cookies = {SESSION_COOKIE: game.tokens[0]}
    with httpx2.Client(base_url=served.url, cookies=cookies, timeout=5) as client:
        assert client.get(f"/games/{game.id}/seat").status_code == 200


def test_the_polling_fallback(served: Running, live_factory: sessionmaker[Session],
                              live_settings: Settings) -> None:
    game = start_game(live_factory, live_settings, "spyvsspy", now())
    cookies = {SESSION_COOKIE: game.tokens[0]}
    with httpx2.Client(base_url=served.url, cookies=cookies, timeout=5) as client:
        first = client.get(f"/games/{game.id}/live").json()
        assert first["events"] == [] and first["state"]["entry"] == 0
        resolve(live_factory, live_settings, game)
        cursor = first["cursor"]
        later = client.get(f"/games/{game.id}/live",
                           params={"entry": cursor["entry"], "post": cursor["post"]}).json()
        assert [e["type"] for e in later["events"]] == ["entry"]
        assert later["events"][0]["data"]["links"]["orders"] == f"/games/{game.id}/seat"
        assert later["cursor"]["entry"] == 1
