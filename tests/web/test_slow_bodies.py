"""Slow or huge request bodies cost their sender, not the site (issue 11, item 1).

``BodyLimitMiddleware`` (``web/limits.py``) on its own: bodies replayed intact, 413 for
too large, 408 for too slow, nothing for a client that left; through ``create_app``;
and against a real uvicorn on loopback with ``spyhouse serve``'s uvicorn options: 200
sockets that send a ``POST``'s headers and a few body bytes and then stall (or stall in
their headers) do not delay anyone else's health check, page or API call past a second.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from starlette.types import Message, Receive, Scope, Send

from spyhouse.clock import FakeClock
from spyhouse.settings import Settings
from spyhouse.web.app import create_app
from spyhouse.web.limits import UVICORN_OPTIONS, BodyLimitMiddleware
from tests.serving import Running, uvicorn_thread
from tests.web.helpers import Browser, started_game
from tests.web.test_api import WORK_H, make_token

#: Sockets the attacker holds open, and how long anyone else's request may take meanwhile.
ATTACKERS = 200
PROMPT_S = 1.0


def run_alone(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async test body in a thread of its own with a fresh event loop: no other
    test's loop (a test client's, a server's) can be running there."""
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(body())
        except BaseException as exc:  # re-raised in the test's own thread
            failure.append(exc)

    thread = threading.Thread(target=main, name="slow-bodies-unit")
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the async test body did not finish"
    if failure:
        raise failure[0]




# ---------------------------------------------------------------- the middleware alone


class Inner:
    """An ASGI app that reads its whole body, then answers 200 with it and records what
    it received."""

    def __init__(self) -> None:
        self.calls = 0
        self.messages: list[Message] = []
        self.receive: Receive | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.calls += 1
        self.receive = receive
        body = b""
        while True:
            message = await receive()
            self.messages.append(message)
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


def http_scope(path: str = "/login", method: str = "POST",
               headers: list[tuple[bytes, bytes]] | None = None) -> Scope:
    return {"type": "http", "method": method, "path": path, "headers": headers or [],
            "query_string": b"", "http_version": "1.1"}


def scripted(*messages: Message, then: Callable[[], Any] | None = None) -> Receive:
    """A ``receive`` that hands out ``messages``, then waits for ever (or calls ``then``)."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            result: Message = await then()
            return result
        await _forever()
        raise AssertionError("unreachable")

    return receive


async def _forever() -> None:
    import anyio

    await anyio.sleep_forever()


def chunk(body: bytes, more: bool = True) -> Message:
    return {"type": "http.request", "body": body, "more_body": more}


async def call(middleware: BodyLimitMiddleware, scope: Scope,
               receive: Receive) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await middleware(scope, receive, send)
    return sent


def status_of(sent: list[Message]) -> int:
    start = [m for m in sent if m["type"] == "http.response.start"]
    assert len(start) == 1, sent
    status: int = start[0]["status"]
    return status


def header(sent: list[Message], name: bytes) -> bytes | None:
    for key, value in sent[0].get("headers", []):
        if key == name:
            found: bytes = value
            return found
    return None


def body_of(sent: list[Message]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def limited(inner: Inner, *, max_bytes: int = 100, timeout_s: float = 1.0,
            idle_s: float = 0.2) -> BodyLimitMiddleware:
    return BodyLimitMiddleware(inner, max_bytes=max_bytes, timeout_s=timeout_s,
                               idle_s=idle_s)


def test_a_body_in_chunks_is_replayed_whole_then_disconnect_passes_through() -> None:
    run_alone(_a_body_in_chunks_is_replayed_whole_then_disconnect_passes_through)


async def _a_body_in_chunks_is_replayed_whole_then_disconnect_passes_through() -> None:
    inner = Inner()

    async def disconnect() -> Message:
        return {"type": "http.disconnect"}

    receive = scripted(chunk(b"user"), chunk(b"name=al"), chunk(b"ice", more=False),
                       then=disconnect)
    scope = http_scope(headers=[(b"content-length", b"14")])
    sent = await call(limited(inner), scope, receive)
    assert status_of(sent) == 200 and body_of(sent) == b"username=alice"
    assert inner.messages == [{"type": "http.request", "body": b"username=alice",
                               "more_body": False}]
    # after the body, the server's own receive answers (here: the client left)
    assert inner.receive is not None
    assert await inner.receive() == {"type": "http.disconnect"}


def test_a_body_of_exactly_the_cap_is_accepted() -> None:
    run_alone(_a_body_of_exactly_the_cap_is_accepted)


async def _a_body_of_exactly_the_cap_is_accepted() -> None:
    inner = Inner()
    receive = scripted(chunk(b"x" * 100, more=False))
    sent = await call(limited(inner), http_scope(headers=[(b"content-length", b"100")]),
                      receive)
    assert status_of(sent) == 200 and body_of(sent) == b"x" * 100


def test_requests_without_a_body_pass_straight_through() -> None:
    run_alone(_requests_without_a_body_pass_straight_through)


async def _requests_without_a_body_pass_straight_through() -> None:
    inner = Inner()
    receive = scripted(chunk(b"", more=False))
    for headers in ([], [(b"content-length", b"0")]):
        sent = await call(limited(inner), http_scope("/lobby", "GET", headers), receive)
        assert status_of(sent) == 200
        assert inner.receive is receive  # not wrapped, not read ahead
        receive = scripted(chunk(b"", more=False))


def test_a_declared_length_over_the_cap_is_413_without_reading() -> None:
    run_alone(_a_declared_length_over_the_cap_is_413_without_reading)


async def _a_declared_length_over_the_cap_is_413_without_reading() -> None:
    inner = Inner()

    async def never() -> Message:
        raise AssertionError("the body must not be read")

    scope = http_scope(headers=[(b"content-length", b"101")])
    sent = await call(limited(inner), scope, never)
    assert status_of(sent) == 413 and inner.calls == 0
    assert header(sent, b"connection") == b"close"
    assert (header(sent, b"content-type") or b"").startswith(b"text/plain")
    assert b"at most 100 bytes" in body_of(sent)
    api = await call(limited(inner), http_scope("/api/v1/games/1/orders", "PUT",
                                                [(b"content-length", b"5000")]), never)
    assert status_of(api) == 413 and header(api, b"content-type") == b"application/json"
    assert body_of(api).startswith(b'{"detail":"The request body is too large')


def test_a_chunked_body_growing_past_the_cap_is_413() -> None:
    run_alone(_a_chunked_body_growing_past_the_cap_is_413)


async def _a_chunked_body_growing_past_the_cap_is_413() -> None:
    inner = Inner()
    receive = scripted(*(chunk(b"x" * 40) for _ in range(3)), chunk(b"", more=False))
    scope = http_scope(headers=[(b"transfer-encoding", b"chunked")])
    sent = await call(limited(inner), scope, receive)
    assert status_of(sent) == 413 and inner.calls == 0


def test_a_stalled_body_is_408_after_the_gap() -> None:
    run_alone(_a_stalled_body_is_408_after_the_gap)


async def _a_stalled_body_is_408_after_the_gap() -> None:
    inner = Inner()
    receive = scripted(chunk(b"abc"))  # 3 of 100000 bytes, then nothing
    scope = http_scope(headers=[(b"content-length", b"100000")])
    started = time.monotonic()
    sent = await call(limited(inner, max_bytes=200_000, idle_s=0.2), scope, receive)
    took = time.monotonic() - started
    assert status_of(sent) == 408 and inner.calls == 0
    assert header(sent, b"connection") == b"close"
    assert 0.15 < took < 0.8


def test_a_trickled_body_is_408_at_the_total_limit() -> None:
    run_alone(_a_trickled_body_is_408_at_the_total_limit)


async def _a_trickled_body_is_408_at_the_total_limit() -> None:
    import anyio

    inner = Inner()

    async def one_byte() -> Message:
        await anyio.sleep(0.05)  # each gap well inside idle_s
        return chunk(b"x")

    scope = http_scope(headers=[(b"content-length", b"1000")])
    started = time.monotonic()
    sent = await call(limited(inner, max_bytes=2000, timeout_s=0.4, idle_s=0.2), scope,
                      one_byte)
    took = time.monotonic() - started
    assert status_of(sent) == 408 and inner.calls == 0
    assert 0.35 < took < 1.0


def test_a_client_leaving_mid_body_gets_nothing_and_the_app_never_runs() -> None:
    run_alone(_a_client_leaving_mid_body_gets_nothing_and_the_app_never_runs)


async def _a_client_leaving_mid_body_gets_nothing_and_the_app_never_runs() -> None:
    inner = Inner()
    receive = scripted(chunk(b"abc"), {"type": "http.disconnect"})
    scope = http_scope(headers=[(b"content-length", b"10")])
    assert await call(limited(inner), scope, receive) == []
    assert inner.calls == 0


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError):
        BodyLimitMiddleware(Inner(), max_bytes=10, timeout_s=0, idle_s=1)


# ---------------------------------------------------------------- through create_app


def test_the_app_refuses_bodies_over_settings_cap(settings: Settings, clock: FakeClock,
                                                  engine: Engine) -> None:
    app = create_app(settings.with_(body_max_bytes=4096), clock, engine=engine)
    client = TestClient(app, follow_redirects=False)
    page = client.post("/login", content=b"username=" + b"a" * 5000,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert page.status_code == 413 and page.text.startswith("The request body is too large")
    api = client.put("/api/v1/games/1/orders", content=b"[" + b"1," * 3000 + b"1]",
                     headers={"content-type": "application/json"})
    assert api.status_code == 413 and "too large" in api.json()["detail"]
    # a body within the cap reaches the app (here: refused by the CSRF check, 403)
    assert client.post("/login", data={"username": "alice"}).status_code == 403


# ---------------------------------------------------------------- real sockets


@pytest.fixture
def seeded(alice: Browser, bob: Browser) -> tuple[int, str]:
    """A running game and alice's API token for it (made through the TestClient app)."""
    game_id = started_game(alice, bob)
    return game_id, make_token(alice, game_id)


@pytest.fixture
def served(seeded: tuple[int, str], settings: Settings, clock: FakeClock,
           engine: Engine) -> Iterator[Running]:
    """The site on a real socket (``spyhouse serve``'s uvicorn options), with body limits
    short enough for a quick test."""
    fast = settings.with_(body_timeout_s=5.0, body_idle_s=3.0)
    with uvicorn_thread(create_app(fast, clock, engine=engine), name="slow-bodies-server",
                        backlog=1024, **UVICORN_OPTIONS) as running:
        yield running


def open_attackers(port: int, first_bytes: bytes) -> list[socket.socket]:
    sockets: list[socket.socket] = []
    try:
        for _ in range(ATTACKERS):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sockets.append(sock)
            sock.sendall(first_bytes)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def still_silent(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` have received nothing (no answer, not closed)."""
    silent = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            data = sock.recv(1)
        except BlockingIOError:
            silent += 1
        else:
            assert data, "a stalled socket was closed without an answer"
        finally:
            sock.setblocking(True)
    return silent


def timed(send: Callable[[], httpx2.Response]) -> tuple[httpx2.Response, float]:
    started = time.monotonic()
    response = send()
    return response, time.monotonic() - started


def everyone_else_is_served(served: Running, seeded: tuple[int, str]) -> None:
    """A health check, a page, an API read and an API write (a body of its own), each
    answered within ``PROMPT_S``."""
    game_id, token = seeded
    auth = {"Authorization": f"Bearer {token}"}
    with httpx2.Client(base_url=served.url, timeout=5.0) as client:
        checks: list[tuple[str, Callable[[], httpx2.Response], int]] = [
            ("healthz", lambda: client.get("/healthz"), 200),
            ("log-in page", lambda: client.get("/login"), 200),
            ("API read", lambda: client.get("/api/v1/seat", headers=auth), 200),
            ("API write", lambda: client.put(f"/api/v1/games/{game_id}/orders",
                                             json={"orders": WORK_H}, headers=auth), 200),
        ]
        for name, send, status in checks:
            response, took = timed(send)
            assert response.status_code == status, (name, response.text)
            assert took < PROMPT_S, f"{name} took {took:.2f} s"


def test_200_stalled_bodies_do_not_delay_anyone_else(
        served: Running, seeded: tuple[int, str]) -> None:
    head = (b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 100000\r\n\r\nabc")
    sockets = open_attackers(served.port, head)
    try:
        time.sleep(0.2)  # let the server parse every request and start reading its body
        everyone_else_is_served(served, seeded)
        assert still_silent(sockets) == ATTACKERS  # the attack was on all along
        # each stalled body is answered 408 and its socket closed after the gap (3 s)
        deadline = time.monotonic() + 6
        for sock in sockets:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            answer = b""
            while chunk_ := sock.recv(4096):
                answer += chunk_
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]
            assert b"connection: close" in answer.lower()
    finally:
        for sock in sockets:
            sock.close()


def test_200_stalled_headers_do_not_delay_anyone_else(
        served: Running, seeded: tuple[int, str]) -> None:
    sockets = open_attackers(served.port, b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-")
    try:
        time.sleep(0.2)
        everyone_else_is_served(served, seeded)
        assert still_silent(sockets) == ATTACKERS
    finally:
        for sock in sockets:
            sock.close()
    # headers past uvicorn's size limit are refused outright
    with socket.create_connection(("127.0.0.1", served.port), timeout=5) as sock:
        sock.sendall(b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                     + b"a" * (UVICORN_OPTIONS["h11_max_incomplete_event_size"] + 1))
        assert sock.recv(4096).startswith(b"HTTP/1.1 400 ")
