"""FastAPI dependencies: the database transaction, the current user, CSRF, seat authorization.

Each concern has exactly one dependency and handlers only declare it:

- ``Db``: one transaction per request (commit when the handler returns, roll back
  when it raises), ended before the response is sent.
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
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Path, Request
from fastapi.templating import Jinja2Templates
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import Clock
from spyhouse.service import accounts, play
from spyhouse.service.errors import Conflict, NotFound
from spyhouse.settings import Settings
from spyhouse.store.db import transaction
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


class LoginRequired(Exception):
    """An anonymous visitor asked for a page that needs a log-in (redirected)."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


def web(request: Request) -> WebContext:
    context: WebContext = request.app.state.web
    return context


Web = Annotated[WebContext, Depends(web)]


def get_db(context: Web) -> Iterator[Session]:
    with transaction(context.factory) as db:
        yield db


Db = Annotated[Session, Depends(get_db, scope="function")]


def now(context: Web) -> datetime:
    return context.clock.now()


Now = Annotated[datetime, Depends(now)]


def client_address(request: Request) -> str:
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
    request.state.viewer = (Viewer(session.user.id, session.user.username, session.csrf_token)
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


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization:
        raise HTTPException(401, "an API token is needed (Authorization: Bearer TOKEN)",
                            headers={"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "use Authorization: Bearer TOKEN",
                            headers={"WWW-Authenticate": "Bearer"})
    return token.strip()


def token_seat(game_id: GameId, db: Db, when: Now,
               token: Annotated[str, Depends(bearer_token)]) -> SeatRow:
    """The seat of the API token, which must be a seat of ``game_id`` (else 404)."""
    seat = play.seat_of_token(db, token, when)
    if seat.game_id != game_id:
        raise NotFound("no such game for this token")
    return seat


TokenSeat = Annotated[SeatRow, Depends(token_seat)]


def any_token_seat(db: Db, when: Now,
                   token: Annotated[str, Depends(bearer_token)]) -> SeatRow:
    """The seat of the API token, whatever its game (``GET /api/v1/seat``)."""
    return play.seat_of_token(db, token, when)


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

