"""FastAPI dependencies: the database transaction, the current user, CSRF, seat authorization.

Each concern has exactly one dependency and handlers only declare it:

- ``Db``: one transaction per request (commit when the handler returns, roll back
  when it raises), ended before the response is sent. Under ``OneThreadRoute`` (the
  JSON API) a plain ``def`` handler and the end of its transaction run in one call of
  one worker thread (see there); elsewhere the dependency ends it in a worker thread.
- ``CurrentUser`` / ``MaybeUser``: the user of the session cookie (pages redirect
  anonymous visitors to the log-in page).
- ``check_csrf``: installed on every page router; refuses (403) any POST whose
  form lacks the session's CSRF token (before log-in: the pre-session cookie's).
- ``UserSeat`` / ``TokenSeat``: the seat the caller holds in the game of the URL,
  through ``service.play.seat_of_user`` / ``seat_of_token`` and nowhere else.
- ``ClientAddress``: the client's address (the log-in limit's key), as uvicorn's
  trusted-proxy setting resolved it.
- ``HostAccess``: who may read a game's host (moderator) page, and whether as the
  moderator (``host_access``).
- ``ReplayAccess``: which perspectives of a game's replay a reader may step through,
  and up to which entry (``replay_access``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hmac
import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import Depends, Header, HTTPException, Path, Request
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import Clock
from spyhouse.service import accounts, play
from spyhouse.service.errors import Conflict, NotFound
from spyhouse.settings import Settings
from spyhouse.store.db import finish
from spyhouse.store.tables import Game, SeatRow, User, WebSession

#: The largest id a row can have (SQLite's and PostgreSQL's BIGINT): a larger path id is
#: refused as malformed (422) before any query, never an overflow inside the database.
MAX_ID = 2**63 - 1
GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="the game's id")]
RowId = Annotated[int, Path(ge=1, le=MAX_ID)]
EntryNo = Annotated[int, Path(ge=0, le=MAX_ID, description="a record entry (0 = set-up)")]

SESSION_COOKIE = "spyhouse_session"
CSRF_COOKIE = "spyhouse_csrf"
CSRF_FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True, slots=True)
class WebContext:
    """What every request needs, held on ``app.state.web`` (no import-time globals)."""

    settings: Settings
    clock: Clock
    factory: sessionmaker[Session]
    templates: Jinja2Templates


@dataclass(frozen=True, slots=True)
class Viewer:
    """The logged-in user as pages show them: plain values that outlive the transaction
    (an error page is rendered after the rollback)."""

    id: int
    username: str
    csrf_token: str
    #: the account's time zone (an IANA name); ``None``: the browser's (``web/times.py``)
    time_zone: str | None = None


class LoginRequired(Exception):
    """An anonymous visitor asked for a page that needs a log-in (redirected)."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


# The dependencies that do no I/O are ``async def``: FastAPI runs a plain ``def``
# dependency in a worker thread, and each such hop costs a thread switch and the
# interpreter lock twice (measured: most of an order's time under load was hops). Those
# on every request read the context from the request, not through ``Web``: FastAPI
# solves a dependency's own dependencies again each time it is named, cached or not.


def _context(request: Request) -> WebContext:
    context: WebContext = request.app.state.web
    return context


async def web(request: Request) -> WebContext:
    return _context(request)


Web = Annotated[WebContext, Depends(web)]

#: The request's session, for ``OneThreadRoute`` to end in the handler's own thread.
_request_db: ContextVar[Session | None] = ContextVar("spyhouse_request_db", default=None)


def _end(session: Session, *, commit: bool) -> None:
    """End ``session``'s transaction, if one is open (``store.db.finish``)."""
    if session.in_transaction():
        finish(session, commit=commit)


async def get_db(request: Request) -> AsyncIterator[Session]:
    """One session and transaction per request: committed when the handler returns,
    rolled back when it raises (the ``store.db.transaction`` rule), and closed before
    the response is sent. Making the session does no I/O; ending a transaction that is
    still open here takes a worker thread (under ``OneThreadRoute`` the handler's thread
    has ended it already)."""
    session = _context(request).factory()
    token = _request_db.set(session)
    try:
        yield session
    except BaseException:
        if session.in_transaction():
            await anyio.to_thread.run_sync(functools.partial(_end, session, commit=False))
        raise
    else:
        if session.in_transaction():
            await anyio.to_thread.run_sync(functools.partial(_end, session, commit=True))
    finally:
        session.close()  # no I/O: the transaction has ended, its connection is back
        _request_db.reset(token)


Db = Annotated[Session, Depends(get_db, scope="function")]


class InThread:
    """A dependency's answer that is worked out in the handler's own worker thread, just
    before the handler runs (``OneThreadRoute``): for a dependency that reads the
    database (the API token's seat), so that it costs no thread hop of its own and no
    blocking I/O on the event loop. Its refusals are raised there as the handler's."""

    __slots__ = ("_work",)

    def __init__(self, work: Callable[[], Any]) -> None:
        self._work = work

    def __call__(self) -> Any:
        return self._work()


def in_thread(dependency: Callable[..., Any]) -> Callable[..., Any]:
    """Mark an ``async`` dependency that answers ``InThread``: only ``OneThreadRoute``
    handlers (plain ``def``) may declare it, which its ``__init__`` checks."""
    dependency.spyhouse_in_thread = True  # type: ignore[attr-defined]
    return dependency


def _run_and_end(endpoint: Callable[..., Any], values: dict[str, Any],
                 session: Session | None) -> Any:
    try:
        values = {name: value() if isinstance(value, InThread) else value
                  for name, value in values.items()}
        result = endpoint(**values)
    except BaseException:
        if session is not None:
            _end(session, commit=False)
        raise
    if session is not None:
        _end(session, commit=True)
    return result


#: The API handlers' worker threads: the event loop's own executor machinery, lighter
#: per call than AnyIO's ``to_thread`` (measured: about 0.3 ms of CPU less an order).
#: As many as AnyIO's pool (``app.THREADS``); the admission gate keeps fewer requests in.
_THREADS = concurrent.futures.ThreadPoolExecutor(64, thread_name_prefix="spyhouse-api")


def _in_one_thread(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint`` (a plain ``def``) as a coroutine that runs it and then ends the
    request's transaction in one call of one worker thread."""

    @functools.wraps(endpoint)
    async def handler(**values: Any) -> Any:
        future = asyncio.get_running_loop().run_in_executor(
            _THREADS, functools.partial(_run_and_end, endpoint, values, _request_db.get()))
        # as AnyIO's ``to_thread.run_sync``: a cancelled request still waits for its
        # thread, so the session is never closed under a handler still using it
        with anyio.CancelScope(shield=True):
            return await future

    return handler


class OneThreadRoute(APIRoute):
    """A route whose plain ``def`` handler runs in one worker-thread call together with
    the end of the request's transaction (``Db``): commit when it returns, roll back when
    it raises, as ``get_db`` would, but without the two thread hops FastAPI puts between
    them (back to the event loop to validate the response model in another thread, then
    to a third for the dependency's commit). A handler that writes (``submit_orders``)
    holds its game's lock until that commit, so the hops were inside every writer's
    critical section: under load they, not the database, set the pace of a game's
    orders. The response model is then validated on the event loop (the handler is a
    coroutine to FastAPI); its OpenAPI document is unchanged (``functools.wraps``)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        plain = not (inspect.iscoroutinefunction(endpoint)
                     or inspect.isgeneratorfunction(endpoint)
                     or inspect.isasyncgenfunction(endpoint))
        if plain:
            endpoint = _in_one_thread(endpoint)
        super().__init__(path, endpoint, **kwargs)
        if not plain and any(getattr(call, "spyhouse_in_thread", False)
                             for call in _calls(self.dependant)):
            raise TypeError(f"{path}: an in-thread dependency needs a plain def handler")


def _calls(dependant: Any) -> Iterator[Any]:
    """Every dependency callable under ``dependant`` (FastAPI's ``Dependant`` tree)."""
    for sub in dependant.dependencies:
        yield sub.call
        yield from _calls(sub)


async def now(request: Request) -> datetime:
    return _context(request).clock.now()


Now = Annotated[datetime, Depends(now)]


async def client_address(request: Request) -> str:
    """The client's address, the one place the application reads it: the TCP peer, or,
    when that peer is a proxy named in ``settings.forwarded_allow_ips``, the address it
    forwarded (uvicorn's ``ProxyHeadersMiddleware`` decides that before the app runs;
    ``spyhouse serve`` trusts no proxy by default)."""
    return request.client.host if request.client else "unknown"


ClientAddress = Annotated[str, Depends(client_address)]


def web_session(request: Request, db: Db, when: Now) -> WebSession | None:
    """The live session of the cookie (also kept on ``request.state`` for templates)."""
    token = request.cookies.get(SESSION_COOKIE, "")
    session = accounts.session_for(db, token, when) if token else None
    request.state.viewer = (Viewer(session.user.id, session.user.username, session.csrf_token,
                                   session.user.time_zone)
                            if session is not None else None)
    return session


MaybeSession = Annotated[WebSession | None, Depends(web_session)]


def maybe_user(session: MaybeSession) -> User | None:
    return session.user if session is not None else None


MaybeUser = Annotated[User | None, Depends(maybe_user)]


def current_user(request: Request, session: MaybeSession) -> User:
    if session is None:
        path = request.url.path
        if request.url.query and request.method in SAFE_METHODS:
            path += "?" + request.url.query
        raise LoginRequired(path if request.method in SAFE_METHODS else "/lobby")
    return session.user


CurrentUser = Annotated[User, Depends(current_user)]


def expected_csrf(request: Request) -> str:
    """The CSRF token forms must carry: the session's, or before log-in the cookie's."""
    viewer: Viewer | None = getattr(request.state, "viewer", None)
    if viewer is not None:
        return viewer.csrf_token
    return str(getattr(request.state, "anon_csrf", "") or request.cookies.get(CSRF_COOKIE, ""))


async def check_csrf(request: Request, session: MaybeSession) -> None:
    """Refuse (403) an unsafe request whose form does not carry the expected CSRF token."""
    if request.method in SAFE_METHODS:
        return
    form = await request.form()
    given = form.get(CSRF_FIELD)
    expected = session.csrf_token if session is not None else request.cookies.get(
        CSRF_COOKIE, "")
    if not isinstance(given, str) or not expected or not hmac.compare_digest(
            given.encode(), expected.encode()):
        raise HTTPException(403, "This form has expired or did not come from this site "
                                 "(missing or wrong CSRF token). Reload the page and try again.")


async def form_fields(request: Request) -> dict[str, str]:
    """The submitted form as plain strings (files are ignored)."""
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


FormFields = Annotated[dict[str, str], Depends(form_fields)]


def user_seat(game_id: GameId, user: CurrentUser, db: Db) -> SeatRow:
    """The seat the logged-in user holds in ``game_id`` (``NotFound`` -> 404 otherwise)."""
    return play.seat_of_user(db, user, game_id)


UserSeat = Annotated[SeatRow, Depends(user_seat)]


async def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization:
        raise HTTPException(401, "an API token is needed (Authorization: Bearer TOKEN)",
                            headers={"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "use Authorization: Bearer TOKEN",
                            headers={"WWW-Authenticate": "Bearer"})
    return token.strip()


def _seat_in_game(db: Session, token: str, when: datetime, game_id: int) -> SeatRow:
    seat = play.seat_of_token(db, token, when)
    if seat.game_id != game_id:
        raise NotFound("no such game for this token")
    return seat


@in_thread
async def token_seat(game_id: GameId, db: Db, when: Now,
                     token: Annotated[str, Depends(bearer_token)]) -> InThread:
    """The seat of the API token, which must be a seat of ``game_id`` (else 404); read
    in the handler's thread (``InThread``)."""
    return InThread(functools.partial(_seat_in_game, db, token, when, game_id))


TokenSeat = Annotated[SeatRow, Depends(token_seat)]


@in_thread
async def any_token_seat(db: Db, when: Now,
                         token: Annotated[str, Depends(bearer_token)]) -> InThread:
    """The seat of the API token, whatever its game (``GET /api/v1/seat``)."""
    return InThread(functools.partial(play.seat_of_token, db, token, when))


AnyTokenSeat = Annotated[SeatRow, Depends(any_token_seat)]


@dataclass(frozen=True, slots=True)
class HostPass:
    """Who may read a game's host page, and how much: ``moderator`` is the host holding no
    seat, the one reader who also sees the players' closed channels."""

    game: Game
    moderator: bool


HOST_CLOSED = "You play in this game, so the host's view is closed to you until it ends."
PLAYERS_WAIT = "The host's view opens to the players when the game is over."


def host_access(game_id: GameId, user: CurrentUser, db: Db) -> HostPass:
    """The one rule for the host (moderator) page: while the game runs, its host, if the
    host holds no seat (a playing host must not see every secret); once it is over, the
    host and every seat holder (the reveal). Anybody else gets the seat routes' 404, so
    the answer does not tell whether the game exists."""
    game = db.get(Game, game_id)
    seated = game is not None and db.scalar(
        select(SeatRow.id).where(SeatRow.game_id == game_id,
                                 SeatRow.user_id == user.id)) is not None
    is_host = game is not None and game.host_id == user.id
    if game is None or not (is_host or seated):
        raise NotFound("you hold no seat in this game")
    if game.status == "open":
        raise Conflict("the game has not started yet")
    if game.status != "over" and seated:
        raise NotFound(HOST_CLOSED if is_host else PLAYERS_WAIT)
    return HostPass(game, moderator=is_host and not seated)


HostAccess = Annotated[HostPass, Depends(host_access)]


def started_game(seat: SeatRow) -> Game:
    """The seat's game, once it has started (before, there is nothing to show)."""
    game: Game = seat.game_row
    if game.status == "open":
        raise Conflict("the game has not started yet")
    return game


#: The replay's perspectives beside a seat id: the public view and the host view.
REPLAY_PUBLIC = "public"
REPLAY_HOST = "host"


@dataclass(frozen=True, slots=True)
class ReplayPass:
    """What a reader may step through in a game's replay: the perspectives (``seats``,
    whether ``host``; the public view always) and the entries ``0..upto``. ``own_seat``
    is the reader's seat, if any (the default perspective). The resolution's explanations
    are shown exactly when the host view is (``explain``): they are made from it."""

    game: Game
    seats: tuple[str, ...]
    host: bool
    own_seat: str | None
    upto: int

    @property
    def explain(self) -> bool:
        return self.host

    def may_read(self, perspective: str) -> bool:
        return (perspective == REPLAY_PUBLIC or (perspective == REPLAY_HOST and self.host)
                or perspective in self.seats)


REPLAY_CLOSED = "there is no such replay of this game"


def replay_access(game_id: GameId, user: MaybeUser, db: Db) -> ReplayPass:
    """The one rule of the replay. Anyone who may read the game (a public game: anyone,
    logged in or not; a private one: its host and seat holders) reads its public view.
    After the end they read everything: every seat's view and the host view, every entry.
    While it runs, a seat holder also reads their own seat's entries, and the host who
    holds no seat the host view (as ``host_access``). Everything else is the seat routes'
    404, so the answer does not tell whether the game or a perspective exists."""
    game = db.get(Game, game_id)
    if game is None or game.status == "open":
        raise NotFound(REPLAY_CLOSED)
    rows = db.execute(select(SeatRow.seat_id, SeatRow.user_id)
                      .where(SeatRow.game_id == game_id)
                      .order_by(SeatRow.position)).all()
    own = next((seat_id for seat_id, holder in rows
                if user is not None and holder == user.id), None)
    is_host = user is not None and game.host_id == user.id
    if not (game.public or is_host or own is not None):
        raise NotFound(REPLAY_CLOSED)
    if game.status == "over":
        return ReplayPass(game, tuple(seat_id for seat_id, _ in rows), host=True,
                          own_seat=own, upto=game.entry)
    return ReplayPass(game, (own,) if own is not None else (), host=is_host and own is None,
                      own_seat=own, upto=game.entry)


ReplayAccess = Annotated[ReplayPass, Depends(replay_access)]
