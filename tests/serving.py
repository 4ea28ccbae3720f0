"""The app under a real uvicorn in a thread, on a free loopback port: what the tests that
need real sockets (slow bodies, trusted proxies, the access log, the browser) share."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp


@dataclass(frozen=True, slots=True)
class Running:
    """A started server: its port and base URL."""

    port: int
    url: str


def bound_socket() -> socket.socket:
    """A socket bound to a free loopback port (its URL can be known before the app)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def uvicorn_thread(app: ASGIApp, *, name: str = "spyhouse-test-server",
                   sock: socket.socket | None = None,
                   before_start: Callable[[], Any] | None = None,
                   **options: Any) -> Iterator[Running]:
    """Serve ``app`` with uvicorn (``options`` are ``uvicorn.Config``'s, e.g. those of
    ``spyhouse serve``) on ``sock`` (a fresh ``bound_socket`` by default) until the block
    ends; ``before_start`` runs once uvicorn has set up its logging and before it serves.
    Bounded: it gives up after 15 s to start or to stop."""
    import uvicorn

    sock = sock or bound_socket()
    port: int = sock.getsockname()[1]
    config = uvicorn.Config(app, **{"log_level": "warning", "lifespan": "on", **options})
    server = uvicorn.Server(config)
    if before_start is not None:
        before_start()
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=name,
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    try:
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        yield Running(port, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
