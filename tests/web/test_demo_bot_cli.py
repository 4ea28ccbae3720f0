"""The demo of ``make run``, ``spyhouse serve`` (without the network), the in-process
worker thread, and ``spyhouse bot`` playing a seat through the API of a live app."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse import cli
from spyhouse.clock import FakeClock
from spyhouse.service import demo, play
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, session_factory, transaction
from spyhouse.store.tables import Game, OrderDraft, SeatRow, User
from spyhouse.web.app import create_app
from spyhouse.web.client import ApiClient, play_seat
from spyhouse.web.limits import UVICORN_OPTIONS
from tests.web.helpers import Browser, run_worker, work_orders
from tests.web.test_api import make_token


class ViaTestClient(httpx2.BaseTransport):
    """An httpx transport that hands every request to a ``TestClient`` (the live app)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        answer = self.client.request(request.method, str(request.url),
                                     headers=dict(request.headers), content=request.read())
        return httpx2.Response(answer.status_code, headers=answer.headers,
                              content=answer.content)


def test_demo_is_idempotent(factory: sessionmaker[Session], clock: FakeClock) -> None:
    with transaction(factory) as db:
        first = demo.ensure_demo(db, clock.now()).id
    with transaction(factory) as db:
        second = demo.ensure_demo(db, clock.now()).id
    assert first == second
    with factory() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 1
        assert db.scalar(select(func.count()).select_from(User)) == 1
        game = db.get(Game, first)
        assert game is not None and game.status == "running"
        assert game.schedule == "all_submitted"
        seats = sorted(game.seats, key=lambda s: s.position)
        assert [s.bot for s in seats] == [None, "economist", "hunter", "shadow", "hunter"]
        assert seats[0].user is not None and seats[0].user.username == "demo"


def test_demo_user_plays_a_turn_within_a_worker_pass(anon: Browser, app: FastAPI,
                                                     clock: FakeClock,
                                                     factory: sessionmaker[Session]) -> None:
    with transaction(factory) as db:
        game_id = demo.ensure_demo(db, clock.now()).id
    assert anon.log_in(demo.DEMO_USERNAME, demo.DEMO_PASSWORD).status_code == 303
    page = anon.get(f"/games/{game_id}/seat").text
    assert 'id="orders"' in page
    assert anon.post(f"/games/{game_id}/orders", work_orders()).status_code == 303
    run_worker(app, clock)  # a saved draft waits for its player
    assert "report after turn 1" not in anon.get(f"/games/{game_id}/report").text
    assert anon.post(f"/games/{game_id}/ready", {"ready": "1"}).status_code == 303
    report = anon.get(f"/games/{game_id}/report").text
    assert "report after turn 1" in report and '<td class="unseen">?</td>' in report


def test_serve_migrates_creates_the_demo_and_runs_uvicorn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    url = f"sqlite:///{tmp_path / 'served.db'}"
    seen: dict[str, Any] = {}

    def fake_run(app: FastAPI, **kwargs: Any) -> None:
        seen["app"], seen["kwargs"] = app, kwargs

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.delenv("SPYHOUSE_BASE_URL", raising=False)
    monkeypatch.delenv("SPYHOUSE_DEMO", raising=False)
    for _ in range(2):  # the second run finds the database and the demo in place
        out = io.StringIO()
        monkeypatch.setattr("sys.stdout", out)
        assert cli.main(["serve", "--db", url, "--port", "8123"]) == 0
        assert "demo: log in as demo / demo-password" in out.getvalue()
    assert seen["kwargs"] == {"host": "127.0.0.1", "port": 8123, "log_level": "info",
                              "proxy_headers": False, "forwarded_allow_ips": None,
                              **UVICORN_OPTIONS}
    assert seen["app"].state.worker is not None
    assert seen["app"].state.web.settings.base_url == "http://127.0.0.1:8123"
    engine = make_engine(url)
    with session_factory(engine)() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 1
    engine.dispose()


def test_in_process_worker_thread(settings: Settings, clock: FakeClock) -> None:
    fast = settings.with_(worker_interval_s=0.02)
    app = create_app(fast, clock, start_worker=True)
    with TestClient(app, follow_redirects=False) as client:
        browser = Browser(client)
        browser.sign_up("walt")
        location = browser.post("/games/quick").headers["location"]
        game_id = int(location.split("/")[2])
        browser.post(f"/games/{game_id}/orders", work_orders())  # a draft: the worker waits
        with app.state.web.factory() as db:
            db.execute(update(OrderDraft).values(ready=True))  # final, as the API's bots give
            db.commit()
        factory = app.state.web.factory
        for _ in range(250):
            with factory() as db:
                game = db.get(Game, game_id)
                if game is not None and game.entry == 1:
                    break
            time.sleep(0.02)
        else:
            raise AssertionError("the worker thread did not process the turn")
    assert app.state.worker._thread is None  # stopped with the app


def _bot_game(alice: Browser, app: FastAPI, clock: FakeClock, seed: int = 20261130
              ) -> tuple[int, str]:
    """Alice against four bots, with a fixed seed so that the game goes the same way."""
    factory: sessionmaker[Session] = app.state.web.factory
    with transaction(factory) as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        game_id = demo.quick_game(db, user, now=clock.now(), seed=seed).id
    return game_id, make_token(alice, game_id)


def _seat(factory: sessionmaker[Session], game_id: int) -> SeatRow:
    with factory() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == "s1"))
        assert seat is not None
        db.expunge(seat)
        return seat


def test_bot_plays_a_turn_once(alice: Browser, app: FastAPI, clock: FakeClock,
                               factory: sessionmaker[Session]) -> None:
    game_id, token = _bot_game(alice, app, clock)
    api = ApiClient.connect("http://testserver", token, transport=ViaTestClient(TestClient(app)))
    lines: list[str] = []
    assert play_seat(api, "economist", once=True, seed=7, say=lines.append) == 1
    assert "orders sent for record entry 1" in lines[-1]
    with factory() as db:
        state = play.get_orders(db, _seat(factory, game_id))
    assert state.ready is True and state.data is not None
    # nothing new to do: a second run sends nothing
    assert play_seat(api, "economist", once=True, seed=7, say=lines.append) == 0


def test_bot_waits_for_the_start(alice: Browser, bob: Browser, app: FastAPI) -> None:
    game_id = alice.create_game()
    alice.join(game_id, "Alpha")
    bob.join(game_id, "Bravo")
    token = make_token(alice, game_id)
    api = ApiClient.connect("http://testserver", token, transport=ViaTestClient(TestClient(app)))
    lines: list[str] = []

    def sleep(_seconds: float) -> None:
        if len(lines) == 2:  # the host starts the game while the bot waits
            alice.start(game_id)

    assert play_seat(api, "economist", seed=1, say=lines.append, sleep=sleep,
                     max_polls=3) == 1
    assert lines[1] == "waiting for the host to start the game"
    assert "orders sent for record entry 1" in lines[-1]


def test_bot_keeps_playing_turn_after_turn(alice: Browser, app: FastAPI, clock: FakeClock,
                                           factory: sessionmaker[Session]) -> None:
    game_id, token = _bot_game(alice, app, clock)
    api = ApiClient.connect("http://testserver", token, transport=ViaTestClient(TestClient(app)))
    def sleep(_seconds: float) -> None:
        run_worker(app, clock)

    sent = play_seat(api, "hunter", seed=3, say=lambda _line: None, sleep=sleep, max_polls=3)
    assert sent == 3  # turns 1 and 2 processed between polls, turn 3's orders are in
    run_worker(app, clock)
    with factory() as db:
        assert db.get(Game, game_id).entry == 3  # type: ignore[union-attr]


def test_spyhouse_bot_command(alice: Browser, app: FastAPI, clock: FakeClock,
                              monkeypatch: pytest.MonkeyPatch,
                              factory: sessionmaker[Session]) -> None:
    game_id, token = _bot_game(alice, app, clock)
    live = ViaTestClient(TestClient(app))
    connect = ApiClient.connect

    def connect_live(url: str, token: str, **_: Any) -> ApiClient:
        return connect(url, token, transport=live)

    monkeypatch.setattr(ApiClient, "connect", staticmethod(connect_live))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["bot", "--url", "http://testserver", "--token", token,
                     "--strategy", "shadow", "--once"]) == 0
    assert "orders sent for record entry 1" in out.getvalue()
    with factory() as db:
        assert play.get_orders(db, _seat(factory, game_id)).data is not None
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert cli.main(["bot", "--url", "http://testserver", "--token", "shs_wrong",
                     "--strategy", "shadow", "--once"]) == 1
    assert "HTTP 403" in err.getvalue()
    assert cli.main(["bot", "--url", "http://testserver", "--token", token,
                     "--strategy", "nobody", "--once"]) == 1
    assert "unknown spyvsspy bot" in err.getvalue()


def test_bot_ends_a_kingdoms_game_and_counts_entries(alice: Browser, app: FastAPI,
                                                     clock: FakeClock,
                                                     factory: sessionmaker[Session]) -> None:
    """``spyhouse bot`` stops at the end of any game (the API's status), not only at Spy vs
    Spy's end markers, and names record entries, not a game's own turn count (issue 10)."""
    with transaction(factory) as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        game_id = demo.quick_game(db, user, now=clock.now(), seed=4,
                                  offer=demo.offer_for("kingdoms")).id
    token = make_token(alice, game_id)
    api = ApiClient.connect("http://testserver", token, transport=ViaTestClient(TestClient(app)))
    lines: list[str] = []

    def sleep(_seconds: float) -> None:
        run_worker(app, clock)

    sent = play_seat(api, "warlord", seed=3, say=lines.append, sleep=sleep, max_polls=200)
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.status == "over"
    assert lines[-1] == f"game over after record entry {game.entry}"
    assert sent == game.entry  # one sheet per turn, every turn
    assert lines[1] == "orders sent for record entry 1"
