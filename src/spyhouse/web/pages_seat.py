"""A seat's pages, once for every game: the seat page (orders, check, ready), past reports,
the board's live state, the host page, the computer's strategy, API tokens.

Every seat route takes ``UserSeat`` (the seat the logged-in user holds in the game of the
URL, ``service.play.seat_of_user``), so another user gets 404 and never the data; the
host page takes ``HostAccess`` (``deps.host_access``). A game supplies only its plugin's
pure page builders (``core.plugin.GamePages``) and templates:

- ``GET  /games/{id}/seat``: the game's ``seat_template`` with the platform's context
  (``seat_context``) plus ``pages.seat(view, facts)``;
- ``POST /games/{id}/orders``: ``pages.sheet_from_fields`` -> ``play.submit_orders``
  (fields ``entry``, ``request_key``, ``ready``); refused: nothing saved, 303 to the seat
  page, which shows the form again once with the messages beside their rows
  (``facts.refused``; the form rides in ``web/flash.py``'s signed cookie, so a reload
  posts nothing).
  With ``Accept: application/json`` the answer is JSON (``{"ok", "state"}`` or
  ``{"ok": false, "error", "messages", "state"}``) for a board page's script. Final
  orders in a game on the ``all_submitted`` schedule are processed at once (a game
  against the computer answers within the request);
- ``POST /games/{id}/check``: the same form judged as saving would judge it, nothing
  saved: ``{"ok", "messages", "places"}`` (``pages.place``: message -> form place);
- ``POST /games/{id}/ready``: mark the saved orders final (``ready`` = 1) or not (0);
- ``POST /games/{id}/play``: a game against the computer only: mark the saved orders
  final now, so the turn is played at once;
- ``GET  /games/{id}/report`` and ``/report/{entry}``: the seat's view after an entry;
- ``GET  /games/{id}/state``: the seat page's data as JSON (a live board's script);
- ``POST /games/{id}/computer``: the computer players' strategy from their next turn;
- ``POST /games/{id}/rematch``: a fresh game against the computer with the same options;
- ``GET  /games/{id}/host`` and ``/host/{entry}``: the host (moderator) page.

Pages are built from the seat's own view without the keys its rules only mail.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.core.errors import OrderError
from spyhouse.core.plugin import GamePlugin, GameWords, Refusal, SeatFacts
from spyhouse.service import channels, games, play, quick
from spyhouse.service.errors import Conflict, Invalid, OrdersRefused, ServiceError
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web import flash
from spyhouse.web.deps import (
    CurrentUser,
    Db,
    EntryNo,
    FormFields,
    HostAccess,
    HostPass,
    Now,
    RowId,
    UserSeat,
    check_csrf,
    started_game,
)
from spyhouse.web.pages_channels import (
    REFUSED_POST,
    TITLES,
    ChannelBox,
    Chat,
    chat_context,
    show_refused_post,
)
from spyhouse.web.pages_games import schedule_text
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {
    "saved": "Your orders are saved as a draft. You can change them until the deadline; "
             "mark them final when they are.",
    "ready": "Your orders are saved and marked final.",
    "unready": "Your orders are no longer marked final.",
    "played": "Your orders are final and the {turn} has been played.",
    "secrets": "Your secrets were sent again, to your own e-mail address only.",
    "revoked": "The token was revoked.",
    "quick": "Your game against the computer has started. Give your orders!",
    "computer": "The computer's strategy is changed from its next turn.",
}
NOTHING_SAVED = "Nothing was saved: your previous orders stay in force."


def _notice(request: Request, words: GameWords | None = None) -> str | None:
    """The notice the URL names, in the game's words."""
    text = NOTICES.get(request.query_params.get("notice", ""))
    return None if text is None else text.format(turn=(words or GameWords()).turn)


def _entry(fields: Mapping[str, str]) -> int | None:
    entry = fields.get("entry", "")
    return int(entry) if entry.isdecimal() else None


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def plugin_of(game: Game) -> GamePlugin:
    return registry.plugin(game.game)


def against_computer(seats: list[SeatRow], seat: SeatRow) -> bool:
    """Whether every other seat is a computer player (a game against the computer)."""
    return all(other.bot is not None for other in seats if other.id != seat.id)


def names_of(seats: list[SeatRow]) -> dict[str, str]:
    return {row.seat_id: row.name for row in seats}


# ---------------------------------------------------------------- the seat page


def seat_facts(db: Session, seat: SeatRow, seats: list[SeatRow], *,
               refused: Refusal | None = None) -> tuple[SeatFacts, play.OrdersState | None]:
    """The platform's facts about the seat's page (``core.plugin.SeatFacts``)."""
    game = seat.game_row
    can = play.may_order(game, seat)
    orders = play.get_orders(db, seat) if can else None
    facts = SeatFacts(
        game_id=game.id, seat_id=seat.seat_id, entry=game.entry, status=game.status,
        can_order=can, orders=orders.data if orders else None,
        ready=bool(orders and orders.ready),
        warnings=tuple(orders.warnings) if orders else (), refused=refused,
        tally=play.public_tally(db, game), names=names_of(seats))
    return facts, orders


def _chat(db: Session, game: Game, seat: SeatRow, plugin: GamePlugin, view: Mapping[str, Any],
          upto: int) -> Chat | None:
    """The seat's channels, for games whose views have any or that declare press (a
    gunboat game's Chat has no boxes, only its note)."""
    if not view.get("channels") and plugin.press is None:
        return None
    key = plugin.pages.thread_key
    return chat_context(db, game, seat, events=view.get(key) or [] if key else None,
                        thread_key=key, upto=upto,
                        view=view if upto == game.entry else None)  # current: read once


def seat_context(request: Request, db: Session, seat: SeatRow, *,
                 refused: Refusal | None = None) -> dict[str, Any]:
    """Everything a seat page's template reads: the platform's part, then the game's."""
    game = started_game(seat)
    plugin = plugin_of(game)
    view = play.current_view(db, seat)
    seats = games.seats_of(db, game.id)
    facts, orders = seat_facts(db, seat, seats, refused=refused)
    return {
        "game": game, "seat": seat, "view": view, "facts": facts, "orders": orders,
        "can_order": facts.can_order, "refused": refused,
        "entry": game.entry, "entries": list(range(game.entry, -1, -1)),
        "title": plugin.ruleset().spec.title, "words": plugin.words,
        "schedule_text": schedule_text(game), "notice": _notice(request, plugin.words),
        "request_key": secrets.token_urlsafe(16),
        "nothing_saved": NOTHING_SAVED if refused is not None else None,
        "against_computer": against_computer(seats, seat),
        "computer": computer_players(seats, view),
        "tally": facts.tally,
        "chat": _with_refused_post(request, _chat(db, game, seat, plugin, view, game.entry),
                                   _seat_path(seat)),
        # each order choice's one-line rule, shown beside it (``RulesPage.order_help``)
        "order_help": plugin.rules.order_help if plugin.rules is not None else {},
        **plugin.pages.seat(view, facts)}


def _seat_page(request: Request, db: Session, seat: SeatRow, *,
               refused: Refusal | None = None, status: int = 200) -> Response:
    context = seat_context(request, db, seat, refused=refused)
    plugin = plugin_of(seat.game_row)
    return render(request, plugin.template(plugin.pages.seat_template), context,
                  status=status)


@router.get("/games/{game_id}/seat")
def seat_page(request: Request, db: Db, seat: UserSeat) -> Response:
    if seat.game_row.status == "open":
        return RedirectResponse(f"/games/{seat.game_id}", 303)
    page = _seat_path(seat)
    response = _seat_page(request, db, seat, refused=_stashed_refusal(request, db, seat))
    return flash.shown(request, flash.shown(request, response, page, REFUSED_ORDERS),
                       page, REFUSED_POST)


def _with_refused_post(request: Request, chat: Chat | None, path: str) -> Chat | None:
    """``chat`` with a refused post back in its box (the redirect after ``/posts``)."""
    show_refused_post(request, chat, path)
    return chat


#: The stashed form's kind (``web/flash.py``): a refused order form of the seat page.
REFUSED_ORDERS = "orders"


def _seat_path(seat: SeatRow) -> str:
    return f"/games/{seat.game_id}/seat"


def _stashed_refusal(request: Request, db: Session, seat: SeatRow) -> Refusal | None:
    """The refused form the redirect after ``/orders`` (or ``/ready``) carried, shown once,
    while its entry is still open for this seat; a later entry's page shows none."""
    data = flash.take(request, path=_seat_path(seat), kind=REFUSED_ORDERS)
    game = seat.game_row
    if (data is None or data.get("seat") != seat.seat_id or data.get("entry") != game.entry
            or not isinstance(data.get("fields"), dict)
            or not isinstance(data.get("messages"), list)):
        return None
    fields = {str(key): str(value) for key, value in data["fields"].items()}
    sheet: Any = None
    if fields:
        try:
            sheet = _sheet(plugin_of(game), play.current_view(db, seat), fields)
        except ServiceError:
            sheet = None
    return Refusal(fields, sheet, tuple(str(message) for message in data["messages"]))


def _refused_page(request: Request, db: Session, seat: SeatRow, refusal: Refusal,
                  status: int) -> Response:
    """A refused form of the seat page, nothing saved: 303 to the seat page, which shows
    it with its messages (post/redirect/get: a reload posts nothing). A form too big to
    carry in the cookie is shown here, at the POST's address, as before."""
    fields = {key: value for key, value in refusal.fields.items() if key != "csrf_token"}
    response = RedirectResponse(_seat_path(seat), 303)
    data = {"seat": seat.seat_id, "entry": seat.game_row.entry, "fields": fields,
            "messages": list(refusal.messages)}
    web = request.app.state.web
    if flash.stash(request, response, path=_seat_path(seat), kind=REFUSED_ORDERS, data=data,
                   secure=web.settings.cookie_secure):
        return response
    return _seat_page(request, db, seat, refused=refusal, status=status)


def _refused(request: Request, db: Session, seat: SeatRow, fields: Mapping[str, str],
             sheet: Any, exc: ServiceError) -> Response:
    db.rollback()  # a refused sheet saves nothing
    messages = tuple(getattr(exc, "messages", None) or [exc.message])
    if _wants_json(request):
        return state_json(db, seat, status=error_status(exc), error=exc)
    return _refused_page(request, db, seat, Refusal(dict(fields), sheet, messages),
                         error_status(exc))


def _sheet(plugin: GamePlugin, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
    """The sheet a form stands for; a form the game cannot even read (e.g. a board's move
    that is not JSON) is refused like any sheet, with the game's message."""
    try:
        return plugin.pages.sheet_from_fields(view, fields)
    except OrderError as exc:
        raise OrdersRefused(list(exc.messages)) from None


@router.post("/games/{game_id}/orders")
def submit_orders(request: Request, db: Db, seat: UserSeat, when: Now,
                  fields: FormFields) -> Response:
    game = started_game(seat)
    plugin = plugin_of(game)
    view = play.current_view(db, seat)
    ready = fields.get("ready") == "1"
    sheet: Any = None
    try:
        sheet = _sheet(plugin, view, fields)
        play.submit_orders(db, seat, sheet, now=when, ready=ready,
                           request_key=fields.get("request_key", "")[:80] or None,
                           entry=_entry(fields))
        played = quick.settle(db, game.id, when) if ready else 0
    except ServiceError as exc:
        return _refused(request, db, seat, fields, sheet, exc)
    if _wants_json(request):
        return state_json(db, seat)
    notice = "played" if played else ("ready" if ready else "saved")
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice={notice}", 303)


@router.post("/games/{game_id}/check")
def check_orders(db: Db, seat: UserSeat, when: Now, fields: FormFields) -> JSONResponse:
    """The form as ``/orders`` would read it, judged as there; nothing is saved."""
    game = started_game(seat)
    plugin = plugin_of(game)
    view = play.current_view(db, seat)
    try:
        sheet = _sheet(plugin, view, fields)
        messages = play.check_orders(db, seat, sheet, now=when,
                                     ready=fields.get("ready") == "1")
    except ServiceError as exc:
        messages = list(getattr(exc, "messages", None) or [exc.message])
    db.rollback()
    return JSONResponse({"ok": not messages, "messages": messages,
                         "places": plugin.pages.place(view, fields, messages)})


@router.post("/games/{game_id}/ready")
def mark_ready(request: Request, db: Db, seat: UserSeat, when: Now,
               ready: Annotated[str, Form()] = "1") -> Response:
    want = ready == "1"
    try:
        play.set_ready(db, seat, want, now=when)
        played = quick.settle(db, seat.game_id, when) if want else 0
    except ServiceError as exc:
        db.rollback()
        return _refused_page(request, db, seat, Refusal({}, None, (exc.message,)),
                             error_status(exc))
    notice = "played" if played else ("ready" if want else "unready")
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice={notice}", 303)


@router.post("/games/{game_id}/play")
def play_now(request: Request, db: Db, seat: UserSeat, when: Now) -> Response:
    """A game against the computer: the saved orders become final and the turn is played
    now (the page's "Play the turn now" button)."""
    if not against_computer(games.seats_of(db, seat.game_id), seat):
        raise Conflict("only a game against the computer is played on a button; here the "
                       "turn closes when every player's orders are final, or at the deadline")
    return mark_ready(request, db, seat, when, "1")


# ---------------------------------------------------------------- reports


def _report_page(request: Request, db: Session, seat: SeatRow, entry: int | None) -> Response:
    game = started_game(seat)
    plugin = plugin_of(game)
    if entry is None or entry == game.entry:
        view = play.current_view(db, seat)
        entry = game.entry
    else:
        view = play.report(db, seat, entry)
    path = f"/games/{seat.game_id}/report"
    chat = _chat(db, game, seat, plugin, view, entry)
    if request.url.path == path:  # the current report's boxes take a refused post back
        show_refused_post(request, chat, path)
    response = render(request, plugin.template(plugin.pages.report_template), {
        "game": game, "seat": seat, "view": view, "entry": entry,
        "entries": list(range(game.entry, -1, -1)), "title": plugin.ruleset().spec.title,
        "words": plugin.words, "chat": chat, **plugin.pages.report(view, entry)})
    return flash.shown(request, response, path, REFUSED_POST)


@router.get("/games/{game_id}/report")
def report_page(request: Request, db: Db, seat: UserSeat,
                entry: int | None = None) -> Response:
    return _report_page(request, db, seat, entry)


@router.get("/games/{game_id}/report/{entry}")
def past_report_page(request: Request, entry: EntryNo, db: Db, seat: UserSeat) -> Response:
    return _report_page(request, db, seat, entry)


# ---------------------------------------------------------------- a live board's data


def computer_players(seats: list[SeatRow], view: Mapping[str, Any] | None
                     ) -> dict[str, dict[str, str]]:
    """Seat id -> the computer's strategy now playing (as the view records it, when its
    rules do) and the one its next turn will play."""
    in_effect = (view or {}).get("computer") or {}
    return {row.seat_id: {"difficulty": str(in_effect.get(row.seat_id) or row.bot),
                          "next": str(row.bot)}
            for row in seats if row.bot is not None}


def page_state(db: Session, seat: SeatRow) -> dict[str, Any]:
    """The seat page's data as JSON: the game's public facts, the seats, the computer's
    strategies and the seat's own view, plus the game's ``pages.state``."""
    game = seat.game_row
    plugin = plugin_of(game)
    seats = games.seats_of(db, game.id)
    view = play.current_view(db, seat) if game.status != "open" else None
    bots = plugin.bots.strategies if plugin.bots else ()
    offered = plugin.quick.strategies if plugin.quick and plugin.quick.strategies else \
        tuple((name, name) for name in bots)
    return {
        "game": {"id": game.id, "title": game.title, "status": game.status,
                 "entry": game.entry, "open_entry": game.entry + 1,
                 "deadline": game.deadline.isoformat() if game.deadline else None},
        "seat": seat.seat_id,
        "players": {row.seat_id: {"name": row.name, "player": row.player,
                                  "computer": row.bot is not None} for row in seats},
        "computer": computer_players(seats, view),
        "difficulties": [{"id": key, "name": name} for key, name in offered],
        "view": view,
        **(plugin.pages.state(view) if view is not None else {}),
        # once over, the seat holder may read the host view (deps.host_access): the end's
        # reveal comes with the board's data
        **(plugin.pages.reveal(play.host_view(db, game, game.entry))
           if game.status == "over" else {}),
    }


def state_json(db: Session, seat: SeatRow, *, status: int = 200,
               error: ServiceError | None = None) -> JSONResponse:
    db.expire_all()  # the rows as processing left them
    body: dict[str, Any] = {"ok": error is None, "state": page_state(db, seat)}
    if error is not None:
        body["error"] = error.message
        body["messages"] = list(getattr(error, "messages", None) or [error.message])
    return JSONResponse(body, status)


@router.get("/games/{game_id}/state")
def state_route(db: Db, seat: UserSeat) -> JSONResponse:
    return state_json(db, seat)


# ---------------------------------------------------------------- against the computer


@router.post("/games/{game_id}/computer")
def computer_strategy(request: Request, db: Db, seat: UserSeat,
                      strategy: Annotated[str, Form()] = "") -> Response:
    """The computer players' strategy (a difficulty) from their next turn: one of those
    the game's offer lets a player choose, when it names them."""
    offer = plugin_of(seat.game_row).quick
    try:
        if offer is not None and offer.strategies and strategy.strip() not in dict(
                offer.strategies):
            known = " or ".join(label for _, label in offer.strategies)
            raise Invalid(f"choose {known}", {"strategy": [known]})
        quick.set_strategy(db, seat, strategy.strip())
    except ServiceError as exc:
        db.rollback()
        if _wants_json(request):
            return state_json(db, seat, status=error_status(exc), error=exc)
        raise
    if _wants_json(request):
        return state_json(db, seat)
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice=computer", 303)


@router.post("/games/{game_id}/rematch")
def rematch(db: Db, seat: UserSeat, when: Now) -> Response:
    """A fresh game against the computer: the same game and options, a new seed, the
    computer at its current strategy; the old one is called off."""
    plugin = plugin_of(seat.game_row)
    bots = quick.computer_seats(db, seat.game_id)
    if plugin.quick is None or not bots or bots[0].bot is None:
        raise Conflict("only a game against the computer can be started afresh; "
                       "create a new game in the lobby instead")
    options = dict(seat.game_row.options)
    if plugin.quick.with_computer is not None:
        options = plugin.quick.with_computer(options, bots[0].bot)
    game = quick.restart(db, seat, options=options, now=when)
    return RedirectResponse(f"/games/{game.id}/seat?notice=quick", 303)


# ---------------------------------------------------------------- the host page


def host_chat(db: Session, game: Game, view: Mapping[str, Any], entry: int,
              plugin: GamePlugin, *, secret: bool) -> Chat:
    """The players' talk on the host page after ``entry``: the public posts placed in the
    host view's thread and, for the moderator alone (``secret``: the host holding no
    seat), every other channel the game has as read-only boxes (a game's press: its own
    channels; a gunboat game: none, only the note)."""
    key = plugin.pages.thread_key
    posts = channels.moderator_posts(db, game, secret=secret, upto=entry)
    thread = channels.thread(db, game, view.get(key) or [], posts, key) if key else []
    secret_channels = (("red", "private") if plugin.press is None
                       else tuple(name for name in plugin.press.channels if name != "public"))
    quiet = channels.no_press(game)
    if quiet is not None:
        return Chat(game_id=game.id, boxes=[], note=quiet)
    boxes = [ChannelBox(channel=name, title=TITLES[name], right="read",
                        posts=[p for p in posts if p.channel == name], recipients=[],
                        in_thread=False, can_post=False)
             for name in secret_channels if secret]
    if not key and (plugin.press is not None or any(p.channel == "public" for p in posts)):
        boxes.insert(0, ChannelBox(channel="public", title=TITLES["public"], right="read",
                                   posts=[p for p in posts if p.channel == "public"],
                                   recipients=[], in_thread=False, can_post=False))
    return Chat(game_id=game.id, boxes=boxes, thread=thread)


ORDER_STATES = {"ready": "final", "saved": "draft"}


class HostText:
    """The game's text of the whole game (``plugin.text.host``), made only when the host
    page's template shows it (``{% if host_text %}``, ``{{ host_text }}``): a game's own
    host page may show a big game's seats a page at a time instead of one long text."""

    def __init__(self, render: Callable[[Mapping[str, Any]], str],
                 view: Mapping[str, Any]) -> None:
        self._render = render
        self._view = view
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._render(self._view)
        return self._text

    def __bool__(self) -> bool:
        return bool(str(self))


def orders_count(awaiting: set[str], seats: list[SeatRow], orders_in: Mapping[str, str]
                 ) -> list[tuple[str, int]]:
    """How many seats' orders are final, draft, not in yet, not awaited: the line above
    a paged "Whose orders are in" table (the rows are on several pages)."""
    counts = {"final": 0, "draft": 0, "none yet": 0, "not awaited": 0}
    for row in seats:
        state = (ORDER_STATES.get(orders_in.get(row.seat_id, ""), "none yet")
                 if row.seat_id in awaiting else "not awaited")
        counts[state] += 1
    return [(label, count) for label, count in counts.items() if count]


def _host_page(request: Request, db: Session, access: HostPass, entry: int) -> Response:
    game = access.game
    plugin = plugin_of(game)
    if not 0 <= entry <= game.entry:
        raise Invalid(f"there is no report for record entry {entry} yet")
    view = play.host_view(db, game, entry)
    current = entry == game.entry
    seats = list(game.seats)  # loaded once: the players' channels read the same rows
    host_text = HostText(plugin.text.host, view) if plugin.text.host is not None else None
    orders_in = play.orders_in(db, game) if current else {}
    awaiting = set(game.awaiting or ())
    return render(request, plugin.template(plugin.pages.host_template), {
        "game": game, "view": view, "entry": entry, "current": current,
        "entries": list(range(game.entry, -1, -1)), "title": plugin.ruleset().spec.title,
        "words": plugin.words, "seats": seats, "names": names_of(seats),
        "orders_in": orders_in, "awaiting": awaiting,
        "orders_count": orders_count(awaiting, seats, orders_in),
        "moderator": access.moderator, "host_text": host_text,
        "chat": host_chat(db, game, view, entry, plugin, secret=access.moderator),
        **plugin.pages.host(view, entry)})


@router.get("/games/{game_id}/host")
def host_page(request: Request, db: Db, access: HostAccess,
              entry: int | None = None) -> Response:
    return _host_page(request, db, access, access.game.entry if entry is None else entry)


@router.get("/games/{game_id}/host/{entry}")
def past_host_page(request: Request, entry: EntryNo, db: Db, access: HostAccess) -> Response:
    return _host_page(request, db, access, entry)


# ---------------------------------------------------------------- secrets and API tokens


@router.post("/games/{game_id}/secrets")
def resend_secrets(db: Db, seat: UserSeat, user: CurrentUser, when: Now) -> Response:
    games.resend_secrets(db, user, seat.game_id, when)
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice=secrets", 303)


def _tokens_page(request: Request, db: Session, seat: SeatRow, *, new_token: str | None = None,
                 error: str | None = None, status: int = 200) -> Response:
    return render(request, "tokens.html", {
        "game": seat.game_row, "seat": seat, "tokens": play.tokens_of(db, seat),
        "new_token": new_token, "error": error, "notice": _notice(request),
        "api_base": str(request.base_url).rstrip("/")}, status=status)


@router.get("/games/{game_id}/tokens")
def tokens_page(request: Request, db: Db, seat: UserSeat) -> Response:
    return _tokens_page(request, db, seat)


@router.post("/games/{game_id}/tokens")
def create_token(request: Request, db: Db, seat: UserSeat, when: Now,
                 label: Annotated[str, Form()] = "") -> Response:
    try:
        raw = play.create_token(db, seat, label.strip()[:80], when)
    except ServiceError as exc:
        db.rollback()
        return _tokens_page(request, db, seat, error=exc.message, status=error_status(exc))
    return _tokens_page(request, db, seat, new_token=raw)


@router.post("/games/{game_id}/tokens/{token_id}/revoke")
def revoke_token(token_id: RowId, db: Db, seat: UserSeat, when: Now) -> Response:
    play.revoke_token(db, seat, token_id, when)
    return RedirectResponse(f"/games/{seat.game_id}/tokens?notice=revoked", 303)


__all__ = ["NOTHING_SAVED", "OrdersRefused", "page_state", "router", "seat_context"]
