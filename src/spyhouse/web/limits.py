"""Request bodies are read in full, with a size cap and a time limit, before a request
takes an admission slot; and the uvicorn settings of ``spyhouse serve``.

``BodyLimitMiddleware`` is the outermost of the app's own middlewares (``create_app``
adds it last). Without it, a client that sent the headers of a ``POST`` and then
trickled (or withheld) the body held one of ``AdmissionMiddleware``'s slots while the
CSRF check's ``await request.form()`` or FastAPI's body parsing waited: sixteen such
sockets stopped the whole site. Here the waiting costs the sender only: a coroutine
awaiting its own connection, holding no admission slot, no thread and no database
connection, and at most ``max_bytes`` of memory.

- No body (no ``Content-Length``, or ``0``, and no ``Transfer-Encoding``): passed
  straight through, untouched.
- ``Content-Length`` above ``max_bytes``: 413 at once, without reading (so no
  ``100 Continue`` is sent); a chunked body that grows past it: 413 as soon as it does.
- The whole body not in within ``timeout_s`` of the headers, or a gap longer than
  ``idle_s`` between two chunks: 408.
- The client going away while its body is read: nothing is answered, the app never
  runs.

Refusals are short (JSON ``{"detail": ...}`` under ``/api/``, plain text elsewhere) and
carry ``Connection: close``, so uvicorn closes the socket after them. A body read in
full is replayed to the app: its first ``receive()`` gets the whole body as one
``http.request`` message, later calls go to the server's own ``receive`` (which answers
``http.disconnect`` when the client leaves or the response is done), as ASGI requires.

uvicorn itself has no timeout for the request line and headers (its keep-alive timer
is reset by every byte): a socket that trickles headers holds a file descriptor and
at most ``H11_MAX_INCOMPLETE_EVENT_SIZE`` bytes, but no slot, since the app is not
called before the headers are complete. ``UVICORN_OPTIONS`` bounds what it can;
docs/security.md says what is left to a reverse proxy.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Final

import anyio
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spyhouse.core.record import MAX_BYTES as RECORD_MAX_BYTES

#: The largest request line plus headers uvicorn's h11 parser buffers (larger: 400).
#: uvicorn's default, stated here so that it is part of the configuration: a session
#: cookie, a CSRF cookie and a browser's headers take well under 4 KiB.
H11_MAX_INCOMPLETE_EVENT_SIZE: Final = 16 * 1024

#: The uvicorn options of ``spyhouse serve`` (``uvicorn.run(app, ..., **UVICORN_OPTIONS)``)
#: and of the slow-body tests.
#:
#: - ``http="h11"``: the pure-Python parser, whose header-size limit is the one above;
#:   with ``auto`` uvicorn would switch to httptools whenever it happened to be installed.
#: - ``timeout_keep_alive=5``: an idle kept-alive connection is closed after 5 s.
#: - ``limit_concurrency=1000``: past 1000 open connections (or running requests) new
#:   requests get an immediate 503 instead of queueing without bound; it caps what the
#:   server can hold in memory (each request at most ``Settings.body_max_bytes`` of
#:   body) and stays below the common 1024 open-file limit, where ``accept`` would
#:   start failing. It is far above ``AdmissionMiddleware``'s 16 slots: connections
#:   waiting for their bodies or headers hold no slot, and 200 of them leave room.
UVICORN_OPTIONS: Final[Mapping[str, Any]] = {
    "http": "h11",
    "h11_max_incomplete_event_size": H11_MAX_INCOMPLETE_EVENT_SIZE,
    "timeout_keep_alive": 5,
    "limit_concurrency": 1000,
}


#: Paths whose bodies may be larger than ``Settings.body_max_bytes``: the record upload
#: (``POST /import``) takes a record of up to ``core.record.MAX_BYTES`` and the form's
#: other fields, so that its handler, not this cap, refuses a larger file, with the
#: message on the form.
UPLOADS: Final[Mapping[str, int]] = {"/import": RECORD_MAX_BYTES + 64 * 1024}


class _Refused(Exception):
    """The body cannot be accepted: answer ``status`` with ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Gone(Exception):
    """The client disconnected before its body was complete."""


class BodyLimitMiddleware:
    """Reads each request body in full (at most ``max_bytes``, within ``timeout_s``, no
    gap over ``idle_s``) before the inner app sees the request; see the module."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, timeout_s: float,
                 idle_s: float, uploads: Mapping[str, int] = UPLOADS) -> None:
        if max_bytes < 0 or timeout_s <= 0 or idle_s <= 0:
            raise ValueError("body limits must be positive")
        self.app = app
        self.max_bytes = max_bytes
        #: path -> its own cap (``UPLOADS``), never below ``max_bytes``
        self.uploads = {path: max(cap, max_bytes) for path, cap in uploads.items()}
        self.timeout_s = timeout_s
        self.idle_s = idle_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.uploads.get(str(scope.get("path", "")), self.max_bytes)
        try:
            if not self._has_body(scope, cap):
                await self.app(scope, receive, send)
                return
            body = await self._read(receive, cap)
        except _Refused as refused:
            await _refusal(scope, refused)(scope, receive, send)
            return
        except _Gone:
            return
        await self.app(scope, _replay(body, receive), send)

    def _has_body(self, scope: Scope, cap: int) -> bool:
        """Whether the request has a body; ``_Refused`` when its declared length is over
        the cap. (uvicorn's parser has already refused malformed framing headers.)"""
        length: int | None = None
        chunked = False
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    raise _Refused(400, "Malformed Content-Length.") from None
            elif name == b"transfer-encoding":
                chunked = True
        if length is not None and length > cap:
            raise _Refused(413, self._too_large(cap))
        return chunked or bool(length)

    async def _read(self, receive: Receive, cap: int) -> bytes:
        deadline = time.monotonic() + self.timeout_s
        body = bytearray()
        while True:
            wait = min(self.idle_s, deadline - time.monotonic())
            message: Message | None = None
            if wait > 0:
                with anyio.move_on_after(wait):
                    message = await receive()
            if message is None:
                raise _Refused(408, "The request body did not arrive in time.")
            if message["type"] == "http.disconnect":
                raise _Gone
            body += message.get("body", b"")
            if len(body) > cap:
                raise _Refused(413, self._too_large(cap))
            if not message.get("more_body", False):
                return bytes(body)

    def _too_large(self, cap: int) -> str:
        return f"The request body is too large (at most {cap} bytes)."


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` whose first message is the whole body; then the server's own."""
    pending = True

    async def replay() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _refusal(scope: Scope, refused: _Refused) -> Response:
    headers = {"connection": "close", "x-content-type-options": "nosniff"}
    if str(scope.get("path", "")).startswith("/api/"):
        return JSONResponse({"detail": refused.message}, refused.status, headers=headers)
    return PlainTextResponse(refused.message, refused.status, headers=headers)


__all__ = ["H11_MAX_INCOMPLETE_EVENT_SIZE", "UVICORN_OPTIONS", "BodyLimitMiddleware"]
