"""``create_app(settings)``: the FastAPI application, built on demand (no import-time globals).

Pages (server-rendered Jinja2) live in ``pages_*`` routers, the JSON API in
``api``; ``deps`` holds the one dependency per concern (transaction, user,
CSRF, seat). With ``start_worker=True`` an in-process thread runs the worker
(``spyhouse.worker.run_once``) every ``settings.worker_interval_s`` seconds.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.engine import Engine
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spyhouse.clock import Clock, SystemClock
from spyhouse.core import registry
from spyhouse.service.errors import ServiceError
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, session_factory
from spyhouse.web import (
    api,
    api_archive,
    pages_account,
    pages_archive,
    pages_channels,
    pages_events,
    pages_games,
    pages_mail,
    pages_notebook,
    pages_replay,
    pages_rules,
    pages_seat,
)
from spyhouse.web.deps import CSRF_COOKIE, LoginRequired, WebContext
from spyhouse.web.limits import BodyLimitMiddleware
from spyhouse.web.render import error_status, make_templates, render
from spyhouse.web.worker_thread import WorkerThread

HERE = Path(__file__).resolve().parent
_NOT_PAGES = ("/api/", "/static/", "/healthz")
#: Requests inside the app at once, and the threads they may use: see AdmissionMiddleware.
ADMITTED = 16
THREADS = 64


#: Headers on every page: no framing, no sniffing, own scripts and styles only, and no
#: caching (every page is one user's).
PAGE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
)


class AdmissionMiddleware:
    """At most ``limit`` requests inside the application at once; the rest wait, holding no
    thread and no database connection.

    Sync handlers and their dependencies hop between threads of AnyIO's pool, and a
    request that holds SQLite's write lock must get a thread back to commit. With more
    requests in flight than threads, every thread could be waiting on that lock while
    the request holding it waits for a thread: a deadlock that only the busy timeout
    breaks (measured: more than 40 concurrent order submissions). Admitting fewer
    requests than there are threads and pooled connections rules it out.
    """

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._gate: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        # a game's live stream (``pages_events``) lasts minutes and holds no thread or
        # connection between its polls: it is bounded per process there, not here
        if (scope["type"] != "http" or path == "/healthz" or path.startswith("/static/")
                or pages_events.STREAM_PATH.match(path)):
            await self.app(scope, receive, send)
            return
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.limit)
        async with self._gate:
            await self.app(scope, receive, send)


class PageMiddleware:
    """For pages (not the API, static files or ``/healthz``): the security headers, and a
    pre-session CSRF cookie for every browser (double submit for log-in and sign-up).

    Pure ASGI, so the API, static files and ``/healthz`` pay nothing for it.
    """

    def __init__(self, app: ASGIApp, *, secure: bool) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or path.startswith(_NOT_PAGES):
            await self.app(scope, receive, send)
            return
        cookies: SimpleCookie = SimpleCookie()
        for name, value in scope.get("headers") or ():
            if name == b"cookie":
                try:
                    cookies.load(value.decode("latin-1"))
                except Exception:  # a malformed cookie header: treat as none
                    cookies = SimpleCookie()
        state: dict[str, Any] = scope.setdefault("state", {})
        existing = cookies.get(CSRF_COOKIE)
        extra = list(PAGE_HEADERS)
        if existing is not None and existing.value:
            state["anon_csrf"] = existing.value
        else:
            token = secrets.token_urlsafe(32)
            state["anon_csrf"] = token
            cookie = f"{CSRF_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"
            if self.secure:
                cookie += "; Secure"
            extra.append((b"set-cookie", cookie.encode("latin-1")))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*(message.get("headers") or []), *extra]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: HSTS, sent on every response when ``settings.cookie_secure`` (the site is HTTPS only).
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class HstsMiddleware:
    """``Strict-Transport-Security`` on every response (pages, API, static, ``/healthz``):
    a browser that has seen the site once never asks for it over plain HTTP again, so the
    ``Secure`` session cookie is never offered to a network attacker's HTTP redirect."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_hsts(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*(message.get("headers") or []), HSTS]}
            await send(message)

        await self.app(scope, receive, send_with_hsts)


def _wants_json(request: Request) -> bool:
    """JSON for the API and for a script that asks only for JSON (``fetch`` with
    ``Accept: application/json``); an HTML page for a browser everywhere else."""
    if request.url.path.startswith("/api/"):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def _page_headers(headers: dict[str, str] | None = None) -> dict[str, str]:
    """The pages' security headers, for an answer made outside ``PageMiddleware`` (a 500
    is answered by Starlette's outermost middleware)."""
    return {**{name.decode(): value.decode() for name, value in PAGE_HEADERS},
            **(headers or {})}


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, exc: LoginRequired) -> Response:
        from urllib.parse import quote

        return RedirectResponse(f"/login?next={quote(exc.next_path, safe='/')}", 303)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        status = error_status(exc)
        if _wants_json(request):
            body: dict[str, Any] = {"detail": exc.message}
            messages = getattr(exc, "messages", None)
            if messages:
                body["messages"] = list(messages)
            fields = getattr(exc, "fields", None)
            if fields:
                body["fields"] = fields
            return JSONResponse(body, status)
        return render(request, "error.html", {"status": status, "message": exc.message},
                      status=status)

    # Starlette's class: the router's own 404 and 405 are handled here too, not only ours.
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 405:  # the methods of every route of the path, not the first
            exc.headers = {**(exc.headers or {}), "Allow": _allowed_methods(request)}
        if _wants_json(request):
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        message = exc.detail if isinstance(exc.detail, str) else "Request refused."
        if exc.status_code == 404 and exc.detail == "Not Found":
            message = "There is no such page."
        return render(request, "error.html", {"status": exc.status_code, "message": message},
                      status=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        """A bug: a page for a browser (the layout, no details), JSON for the API; the
        exception is still raised to the server's log."""
        if _wants_json(request):
            return JSONResponse({"detail": "Internal Server Error"}, 500)
        try:
            return render(request, "error.html",
                          {"status": 500, "message": "Something went wrong on our side; "
                           "nothing you did caused it. Please try again in a moment."},
                          status=500, headers=_page_headers())
        except Exception:  # the page itself failed: the plainest answer
            return PlainTextResponse("Internal Server Error", 500, headers=_page_headers())

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        if _wants_json(request):
            return JSONResponse({"detail": "invalid request", "errors": _plain(exc.errors())},
                                422)
        return render(request, "error.html",
                      {"status": 422, "message": "The form was incomplete or malformed."},
                      status=422)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def _allowed_methods(request: Request) -> str:
    """``Allow`` of a 405: Starlette names only the first route matching the path (GET of
    ``/orders``, which also takes PUT); this names the methods of all of them."""
    scope = {"type": "http", "path": request.scope["path"],
             "root_path": request.scope.get("root_path", ""), "headers": []}
    return ", ".join(method for method in _METHODS if any(
        route.matches({**scope, "method": method})[0] is Match.FULL
        for route in request.app.router.routes))


def _plain(errors: Any) -> Any:
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in errors]


def create_app(settings: Settings, clock: Clock | None = None, *, start_worker: bool = False,
               engine: Engine | None = None) -> FastAPI:
    """The web application for ``settings`` (the database must already be migrated)."""
    clock = clock or SystemClock()
    engine = engine or make_engine(settings.database_url)
    factory = session_factory(engine)
    factory.configure(info={"settings": settings})  # services read db.info["settings"]
    plugins = registry.plugins()
    templates: Jinja2Templates = make_templates(
        HERE / "templates", *(plugin.templates for plugin in plugins if plugin.templates))
    worker = WorkerThread(factory, clock, settings) if start_worker else None

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, THREADS)
        if worker is not None:
            worker.start()
        try:
            yield
        finally:
            if worker is not None:
                worker.stop()

    app = FastAPI(
        title="spyhouse",
        summary="Play-by-web host for hidden-information spy games",
        version="1",
        openapi_url="/api/v1/openapi.json",
        docs_url="/api/v1/docs",
        swagger_ui_oauth2_redirect_url="/api/v1/docs/oauth2-redirect",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.web = WebContext(settings=settings, clock=clock, factory=factory,
                               templates=templates)
    app.state.worker = worker

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> PlainTextResponse:
        return PlainTextResponse("ok")

    for plugin in plugins:  # before "/static", which would otherwise answer their paths
        if plugin.static is not None:
            app.mount(f"/static/{plugin.name}", StaticFiles(directory=plugin.static),
                      name=f"static-{plugin.name}")
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # the API first: a request is matched against the routers in order, and no page's
    # path starts with /api/, so an API call is not tried against every page's route
    app.include_router(api.router)
    app.include_router(api_archive.router)
    app.include_router(pages_account.router)
    app.include_router(pages_mail.router)
    app.include_router(pages_mail.one_click)  # no CSRF check: RFC 8058's one-click POST
    app.include_router(pages_games.router)
    app.include_router(pages_seat.router)
    app.include_router(pages_notebook.router)
    app.include_router(pages_channels.router)
    app.include_router(pages_events.router)
    app.include_router(pages_archive.router)
    app.include_router(pages_replay.router)
    app.include_router(pages_rules.router)
    _install_error_handlers(app)
    app.add_middleware(PageMiddleware, secure=settings.cookie_secure)
    app.add_middleware(AdmissionMiddleware, limit=ADMITTED)
    # after the gate (so it runs before it): bodies are read in full, within their
    # limits, holding no admission slot
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.body_max_bytes,
                       timeout_s=settings.body_timeout_s, idle_s=settings.body_idle_s)
    if settings.cookie_secure:  # added last: the outermost, so every answer carries it
        app.add_middleware(HstsMiddleware)
    return app


__all__ = ["create_app"]
