"""The JSON API under ``/api/v1`` (OpenAPI document: ``/api/v1/openapi.json``).

A bot or a script plays a seat exactly as a human does: a per-seat API token
(``Authorization: Bearer TOKEN``, made on the seat's tokens page) goes through
``service.play.seat_of_token``; the token's seat must belong to the game of the
URL (else 404). Views are the seat's own (spec §8.5) without ``secrets``, orders
go through the same ``submit_orders`` as the order form, and refused orders
answer 422 with the rules' messages, one per failing order.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from pydantic import BaseModel, Field

from spyhouse.service import channels, games, play
from spyhouse.service.channels import ChannelPost
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web.deps import AnyTokenSeat, Db, EntryNo, GameId, Now, OneThreadRoute, TokenSeat
from spyhouse.web.pages_games import schedule_text

#: Each handler and the end of its transaction run in one worker-thread call
#: (``deps.OneThreadRoute``).
router = APIRouter(prefix="/api/v1", tags=["play"], route_class=OneThreadRoute)


class FieldError(BaseModel):
    loc: list[str | int] = Field(description="where: e.g. [\"path\", \"game_id\"] or "
                                             "[\"body\", \"ready\"]")
    msg: str


class ErrorOut(BaseModel):
    """Every refusal of the API, whatever its status (the error handlers of web/app.py)."""

    detail: str = Field(description="what went wrong, written for the player")
    messages: list[str] | None = Field(
        default=None, description="refused orders: one message per failing order, "
                                  "e.g. \"spy 4: unknown region Z\"")
    fields: dict[str, list[str]] | None = Field(
        default=None, description="a refused field (e.g. a post's body): its messages")
    errors: list[FieldError] | None = Field(
        default=None, description="a malformed request (a path, query, header or body "
                                  "value of the wrong type or range): each problem")


class SeatOut(BaseModel):
    game_id: int
    game: str = Field(description="the game's id, as `spyhouse games` lists them")
    seat: str = Field(description="the seat id in the game, e.g. s2")
    name: str
    status: str = Field(description="the game's status: open, running, paused or over")


class SeatPublic(BaseModel):
    seat: str
    name: str
    player: str
    bot: bool


class GameOut(BaseModel):
    id: int
    game: str
    title: str
    status: str
    entry: int = Field(description="record entries resolved so far (0 before turn 1)")
    deadline: datetime | None = Field(description="when the open turn closes (UTC); null "
                                                  "when it closes once all orders are in")
    schedule: str
    seats: list[SeatPublic]
    public: dict[str, Any] | None = Field(description="the public view once started")
    tally: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="the public order fields of the open entry (e.g. a public vote): "
                    "field -> {seat: its value in that seat's accepted orders}")


class ViewOut(BaseModel):
    game_id: int
    seat: str
    entry: int
    status: str
    deadline: datetime | None
    awaited: bool = Field(default=False, description="the game awaits this seat's orders now")
    view: dict[str, Any] = Field(description="the seat's view (spec §8.5), without secrets")


class OrdersOut(BaseModel):
    entry: int = Field(description="the record entry these orders are for")
    orders: Any = Field(description="the accepted order sheet, or null when none was sent")
    ready: bool = Field(description="marked final: the turn may close early when all are")
    warnings: list[str]


#: A JSON value, but not null (the API takes no "no orders": leave the turn alone instead).
NOT_NULL: dict[str, Any] = {"not": {"type": "null"}}


class OrdersIn(BaseModel):
    orders: Any = Field(description="the game's order JSON (each game's spec and docs/); "
                                    "not null", json_schema_extra=NOT_NULL)
    ready: bool = False


class ReadyIn(BaseModel):
    ready: bool = True


#: Every status a route answers besides its success, each with the one error body
#: (``ErrorOut``): schemathesis checks in tests/web/test_api_fuzz.py that nothing else comes.
REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "no API token"},
    403: {"model": ErrorOut, "description": "unknown or revoked token"},
    404: {"model": ErrorOut, "description": "no such game for this token"},
    422: {"model": ErrorOut, "description": "a malformed path, query or header value "
                                            "(`errors` says which)"},
}
#: Routes with a JSON body: also a body that cannot be read, or too big or too slow
#: (``web/limits.py``, before the route runs).
BODY_REFUSALS: dict[int | str, dict[str, Any]] = {
    **REFUSALS,
    400: {"model": ErrorOut, "description": "the body could not be read (not UTF-8, or a "
                                            "malformed Content-Length)"},
    408: {"model": ErrorOut, "description": "the body did not arrive in time"},
    413: {"model": ErrorOut, "description": "the body is too large"},
    422: {"model": ErrorOut, "description": "a malformed request: not JSON, a missing or "
                                            "mistyped field (`errors` says which)"},
}
ORDER_REFUSALS: dict[int | str, dict[str, Any]] = {
    **BODY_REFUSALS,
    409: {"model": ErrorOut, "description": "the turn is closed, or the game is not running"},
    422: {"model": ErrorOut, "description": "the rules refused the orders (`messages`), or a "
                                            "malformed request (`errors`); nothing saved"},
}


def _seat_out(seat: SeatRow) -> SeatOut:
    game = seat.game_row
    return SeatOut(game_id=game.id, game=game.game, seat=seat.seat_id, name=seat.name,
                   status=game.status)


def _orders_out(state: Any) -> OrdersOut:
    return OrdersOut(entry=state.entry, orders=state.data, ready=state.ready,
                     warnings=list(state.warnings))


def _game_out(db: Db, game: Game) -> GameOut:
    public = play.public_view(db, game.id) if game.status != "open" else None
    return GameOut(
        id=game.id, game=game.game, title=game.title, status=game.status, entry=game.entry,
        deadline=game.deadline, schedule=schedule_text(game),
        seats=[SeatPublic(seat=s.seat_id, name=s.name, player=s.player, bot=s.bot is not None)
               for s in game.seats],
        public=public, tally=play.public_tally(db, game))


@router.get("/seat", response_model=SeatOut, responses=REFUSALS,
            summary="The seat and game of this API token")
def token_seat_info(seat: AnyTokenSeat) -> SeatOut:
    return _seat_out(seat)


@router.get("/games/{game_id}", response_model=GameOut, responses=REFUSALS,
            summary="The game: status, deadline, seats and public view")
def game_info(game_id: GameId, db: Db, seat: TokenSeat) -> GameOut:
    return _game_out(db, games.get_game(db, seat.game_id))


@router.get("/games/{game_id}/view", response_model=ViewOut, responses=REFUSALS,
            summary="My current view (the report after the last resolved entry)")
def my_view(game_id: GameId, db: Db, seat: TokenSeat) -> ViewOut:
    game = seat.game_row
    return ViewOut(game_id=game.id, seat=seat.seat_id, entry=game.entry, status=game.status,
                   deadline=game.deadline, awaited=play.may_order(game, seat),
                   view=play.current_view(db, seat))


@router.get("/games/{game_id}/reports/{entry}", response_model=ViewOut, responses=REFUSALS,
            summary="My report after record entry N (0 = setup)")
def my_report(game_id: GameId, entry: EntryNo, db: Db, seat: TokenSeat) -> ViewOut:
    game = seat.game_row
    return ViewOut(game_id=game.id, seat=seat.seat_id, entry=entry, status=game.status,
                   deadline=game.deadline, view=play.report(db, seat, entry))


@router.get("/games/{game_id}/orders", response_model=OrdersOut, responses=REFUSALS,
            summary="My accepted orders for the open turn")
def get_orders(game_id: GameId, db: Db, seat: TokenSeat) -> OrdersOut:
    return _orders_out(play.get_orders(db, seat))


@router.put("/games/{game_id}/orders", response_model=OrdersOut, responses=ORDER_REFUSALS,
            summary="Replace my orders for the open turn (idempotent with Idempotency-Key)")
def put_orders(game_id: GameId, body: OrdersIn, db: Db, seat: TokenSeat, when: Now,
               idempotency_key: Annotated[str | None, Header(max_length=80)] = None
               ) -> OrdersOut:
    state = play.submit_orders(db, seat, body.orders, now=when, ready=body.ready,
                               request_key=idempotency_key)
    return _orders_out(state)


@router.post("/games/{game_id}/ready", response_model=OrdersOut, responses=ORDER_REFUSALS,
             summary="Mark my orders final (or not): the turn may close early")
def set_ready(game_id: GameId, body: ReadyIn, db: Db, seat: TokenSeat, when: Now) -> OrdersOut:
    return _orders_out(play.set_ready(db, seat, body.ready, now=when))


# ---------------------------------------------------------------- platform channels


class PostOut(BaseModel):
    id: int = Field(description="increasing: pass the last one seen as ?after= to poll")
    entry: int = Field(description="record entries resolved when it was posted")
    channel: str = Field(description="public, red or private")
    author: str = Field(description="the author's handle")
    author_seat: str
    to: str | None = Field(description="a private message's addressee (handle)")
    to_seat: str | None
    body: str
    at: datetime


class PostsOut(BaseModel):
    channels: dict[str, str] = Field(
        description="what this seat may do in each channel now: post or read (from the "
                    "view's channels; empty when the game has none)")
    posts: list[PostOut] = Field(description="the posts this seat may read, oldest first")
    recipients: dict[str, str] = Field(
        default_factory=dict,
        description="seat id -> handle of every seat this seat may send a private message "
                    "to now (the seat page's choice)")
    note: str | None = Field(
        default=None, description="why this seat has no channels, in the game's words "
                                  "(a gunboat game: \"No press in this game (gunboat).\"; "
                                  "a game against the computer)")


class PostIn(BaseModel):
    # The schema says what the service takes (service/channels.py): a known channel, a
    # text with something to show once trimmed (control characters dropped), at most
    # MAX_CHARS long; the service itself refuses the rest with its own words (422).
    channel: str = Field(description="public, red or private",
                         json_schema_extra={"enum": list(channels.CHANNELS)})
    body: str = Field(description=f"1 to {channels.MAX_CHARS} characters once trimmed",
                      json_schema_extra={"minLength": 1, "maxLength": channels.MAX_CHARS,
                                         "pattern": r"[^\s\x00-\x1f\x7f\x85]"})
    to: str | None = Field(default=None, description="a private message's addressee (seat id)")


POST_REFUSALS: dict[int | str, dict[str, Any]] = {
    **BODY_REFUSALS,
    403: {"model": ErrorOut, "description": "unknown or revoked token, or this seat may not "
                                            "post there (e.g. dead players only read; a "
                                            "gunboat game has no press)"},
    409: {"model": ErrorOut, "description": "the game has not started or is over"},
    422: {"model": ErrorOut, "description": "unknown channel, empty or too long text, or a bad "
                                            "addressee (`fields`), or a malformed request "
                                            "(`errors`); nothing posted"},
}


def _post_out(post: ChannelPost) -> PostOut:
    return PostOut(id=post.id, entry=post.entry, channel=post.channel, author=post.author,
                   author_seat=post.author_seat, to=post.to, to_seat=post.to_seat,
                   body=post.body, at=post.at)


@router.get("/games/{game_id}/posts", response_model=PostsOut, responses=REFUSALS,
            summary="The channel posts this seat may read (public thread, Red channel, "
                    "its private messages)")
def get_posts(game_id: GameId, db: Db, seat: TokenSeat,
              after: Annotated[int, Query(ge=0, description="only posts with a larger id")] = 0
              ) -> PostsOut:
    seen = channels.seat_channels(db, seat.game_row, seat.seat_id, after=after)
    return PostsOut(channels=seen.rights, posts=[_post_out(p) for p in seen.posts],
                    recipients=dict(seen.recipients),
                    note=None if seen.rights else channels.no_press(seat.game_row))


@router.post("/games/{game_id}/posts", response_model=PostOut, status_code=201,
             responses=POST_REFUSALS, summary="Post in a channel this seat may post in")
def create_post(game_id: GameId, body: PostIn, db: Db, seat: TokenSeat, when: Now) -> PostOut:
    return _post_out(channels.post(db, seat.game_row, seat, body.channel, body.body,
                                   to_seat=body.to, now=when))
