"""Infiltration's web page: the facility map as the seat knows it, the order form of the
current phase, the seat's private log and the public thread with the live vote tally.

Routes (all through ``deps.check_csrf``; every one through ``deps.UserSeat``, so only the
seat's holder reads or acts and anybody else gets 404):

- ``GET /infiltration/games/{id}``: the seat's page;
- ``POST /infiltration/games/{id}/orders``: the phase's form (``class``; ``move``,
  ``code``; ``vote``, ``kill-<id>``, ``terminal-action`` and ``terminal-<key>``; ``ready``,
  ``entry``, ``request_key``) through ``play.submit_orders``; refused: 422, nothing saved,
  the engine's message shown;
- ``POST /infiltration/games/{id}/check``: the same form through the engine's
  ``parse_orders``, nothing saved: JSON ``{"ok", "message", "index", "code"}`` (the page
  checks the form as it is edited, so a player sees the refusal before saving);
- ``GET /infiltration/games/{id}/report/{entry}``: the seat's view after record entry
  ``entry`` (0 = setup): the map, the private log and the public thread then;
- ``GET /infiltration/games/{id}/host`` and ``.../host/{entry}``: the moderator's page,
  built from the host view (snapshot ``*host``): the whole facility, every seat's
  secrets, every log, the players' public posts in the thread and, for the moderator
  alone (the host holding no seat), the Red channel and private messages. Through
  ``deps.CurrentUser`` and ``host_game``: the game's host while the game runs, if the
  host holds no seat in it; once it is over, the host and every seat holder (who never
  get the Red channel or private messages there). Anybody else gets the same 404 as on
  the seat routes.

Everything shown for a seat comes from that seat's view, plus the declared-public order
field ``vote`` (``public_order_fields``) of every seat's current accepted orders.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.core.errors import OrderError
from spyhouse.games.infiltration.model import FLOORS
from spyhouse.games.infiltration.ruleset import Infiltration
from spyhouse.service import channels, play
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, NotFound, OrdersRefused, ServiceError
from spyhouse.store.tables import Game, OrderDraft, SeatRow, User
from spyhouse.web.deps import (
    CurrentUser,
    Db,
    FormFields,
    Now,
    UserSeat,
    check_csrf,
    seat_in_game,
    started_game,
)
from spyhouse.web.pages_channels import TITLES, ChannelBox, Chat, chat_context
from spyhouse.web.render import error_status, render

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
GAME = "infiltration"
BASE = "/infiltration/games/{game_id}"
SEAT_PAGE = BASE

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {"saved": "Your orders are saved. You can change them until the phase closes.",
           "ready": "Your orders are saved and marked READY."}
NOTHING_SAVED = "Nothing was saved: your previous orders stay in force."
PHASES = {"class": "Class selection", "movement": "Movement phase",
          "decision": "Decision phase", "over": "Game over"}
SHORT = {
    "GHOST room": "GHOST", "General's room": "GENRL", "Weapons Lab": "LAB",
    "Power generator": "POWER", "Commander's": "CMDR", "Seer": "SEER", "Psychic": "PSYCH",
    "Locator": "LOCAT", "History": "HIST", "Map data": "MAP", "Superlocator": "SUPER",
    "Anonymous messaging": "MSG", "Gas": "GAS", "Guard": "GUARD", "Validity check": "VALID",
    "Electronic lock": "LOCK", "Switch": "SWTCH",
}
VOTE_FIELDS = tuple(sorted(Infiltration.public_order_fields))
HOST_PAGE = BASE + "/host"
HOST_CLOSED = "You play in this game, so the moderator's view is closed to you until it ends."
PLAYERS_WAIT = "The moderator's view opens to the players when the game is over."


def names_of(view: Mapping[str, Any]) -> dict[str, str]:
    return {str(p["seat"]): str(p["handle"]) for p in view.get("players") or ()}


# ---------------------------------------------------------------- the map


def facility(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Floors A–H, rooms 1–8, as the seat knows them: each room's last arrival report
    in the private log (feature, state, who was there, on which turn), where it is now."""
    seen: dict[str, Mapping[str, Any]] = {}
    for item in view.get("private_log") or ():
        if item.get("kind") == "arrival" and item.get("room"):
            seen[str(item["room"])] = item
    me = view.get("me") if isinstance(view.get("me"), Mapping) else {}
    here = me.get("room") if me else None
    names = names_of(view)
    floors = []
    for floor in FLOORS:
        rooms = []
        for number in range(1, 9):
            room = f"{floor}-{number}"
            last = seen.get(room)
            cell: dict[str, Any] = {"room": room, "here": room == here, "seen": last is not None}
            if last is not None:
                feature = str(last.get("feature") or "")
                who = [names.get(str(s), str(s)) for s in last.get("players") or ()]
                cell.update({
                    "feature": feature, "short": SHORT.get(feature, feature[:5].upper()),
                    "turn": last.get("turn"), "destroyed": bool(last.get("destroyed")),
                    "hacked": bool(last.get("hacked")), "text": last.get("text"),
                    "players": who, "npcs": list(last.get("npcs") or ()),
                    "corpses": [names.get(str(s), str(s)) for s in last.get("corpses") or ()]})
            rooms.append(cell)
        floors.append({"floor": floor, "rooms": rooms})
    return floors


# ---------------------------------------------------------------- the public vote tally


def vote_tally(db: Session, game: Game, view: Mapping[str, Any]) -> dict[str, Any]:
    """Every seat's current vote for the open entry: only the public ``vote`` field of
    each accepted sheet is read (declared public by the rules), never another field."""
    names = names_of(view)
    drafts = db.scalars(select(OrderDraft).where(OrderDraft.game_id == game.id,
                                                 OrderDraft.entry == game.entry + 1))
    votes: dict[str, str] = {}
    for draft in drafts:
        data = draft.data if isinstance(draft.data, Mapping) else {}
        value = data.get("vote") if "vote" in VOTE_FIELDS else None
        if isinstance(value, str):
            votes[draft.seat_id] = value
    order = [str(p["seat"]) for p in view.get("players") or ()]
    rows = [{"voter": names.get(s, s), "target": names.get(votes[s], votes[s])}
            for s in order if s in votes]
    totals: dict[str, int] = {}
    for row in rows:
        totals[row["target"]] = totals.get(row["target"], 0) + 1
    return {"rows": rows, "totals": sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))}


# ---------------------------------------------------------------- the order form


def form_state(view: Mapping[str, Any], data: Any) -> dict[str, Any]:
    """The form's current values from a saved sheet (or a refused one)."""
    data = data if isinstance(data, Mapping) else {}
    terminal = data.get("terminal") if isinstance(data.get("terminal"), Mapping) else {}
    values: dict[str, Any] = {
        "class": data.get("class") or "", "move": data.get("move") or "",
        "code": data.get("code") or "", "vote": data.get("vote") or "",
        "kill": list(data.get("kill") or ()), "ready": bool(data.get("ready")),
        "terminal_action": (terminal or {}).get("action") or ""}
    for key in ("player", "room", "text", "statement"):
        values[f"terminal_{key}"] = (terminal or {}).get(key) or ""
    rooms = (terminal or {}).get("rooms")
    values["terminal_rooms"] = " ".join(rooms) if isinstance(rooms, list) else (rooms or "")
    guards = (terminal or {}).get("guards")
    values["terminal_guards"] = (", ".join(f"{g} {r}" for g, r in guards.items())
                                 if isinstance(guards, Mapping) else (guards or ""))
    return values


def sheet_from_fields(view: Mapping[str, Any], fields: Mapping[str, str]) -> dict[str, Any]:
    """The phase's order JSON (docs/infiltration.md) from the form; blank fields left out."""
    phase = view.get("phase")
    choices = view.get("choices") or {}
    sheet: dict[str, Any] = {}

    def text(key: str) -> str:
        return fields.get(key, "").strip()[:600]

    if phase == "class":
        if text("class"):
            sheet["class"] = text("class")
        return sheet
    if fields.get("ready") == "1":
        sheet["ready"] = True
    if phase == "movement":
        if text("move"):
            sheet["move"] = text("move")
        if text("code"):
            sheet["code"] = text("code")
        return sheet
    if text("vote"):
        sheet["vote"] = text("vote")
    kill = [str(k)[5:] for k in fields if str(k).startswith("kill-") and fields[k] == "1"]
    if kill:
        sheet["kill"] = kill
    action = text("terminal-action")
    if action:
        terminal: dict[str, Any] = {"action": action}
        if action.upper() == "USE":
            for key in (choices.get("terminal") or {}).get("keys") or ():
                raw = text(f"terminal-{key}")
                if key == "rooms":
                    terminal[key] = [r for r in re.split(r"[\s,;]+", raw) if r]
                elif key == "guards":
                    pairs = [p.split() for p in re.split(r"[,;\n]+", raw) if p.strip()]
                    terminal[key] = {p[0]: p[-1] for p in pairs}
                else:
                    terminal[key] = raw
        sheet["terminal"] = terminal
    return sheet


def order_choices(view: Mapping[str, Any]) -> dict[str, Any]:
    """The form's choices, from the view's ``choices`` (seat ids shown as handles)."""
    names = names_of(view)
    choices = view.get("choices") or {}

    def label(ident: str) -> str:
        return names.get(ident, ident)

    terminal = choices.get("terminal") or {}
    return {
        "classes": list(choices.get("classes") or ()),
        "rooms": list(choices.get("rooms") or ()),
        "vote": [(v, label(v)) for v in choices.get("vote") or ()],
        "kill": [(v, label(v)) for v in choices.get("kill") or ()],
        "terminal": {"type": terminal.get("type"), "actions": list(terminal.get("actions") or ()),
                     "keys": list(terminal.get("keys") or ())},
        "players": [(s, n) for s, n in names.items()
                    if s != ((view.get("me") or {}).get("seat"))],
    }


def check_sheet(db: Session, seat: SeatRow, sheet: Any, now: datetime) -> dict[str, Any]:
    """The verdict on ``sheet`` as ``/orders`` would give it, nothing saved: first the
    platform's (the phase closed, the seat not awaited), then the engine's
    ``parse_orders`` against the current state, whose §15.5 checks read only what the
    seat may know, so the message is safe to show."""
    try:
        play.check_open(db, seat, now)
    except ServiceError as exc:
        return {"ok": False, "message": exc.message, "index": None, "code": None}
    game = seat.game_row
    state = store.state_of(store.load_record(db, game))
    try:
        store.ruleset_of(game).parse_orders(state, seat.seat_id, sheet)
    except OrderError as exc:
        return {"ok": False, "message": exc.messages[0],
                "index": getattr(exc, "index", None), "code": getattr(exc, "code", None)}
    return {"ok": True, "message": None, "index": None, "code": None}


def log_rows(events: Any) -> list[dict[str, Any]]:
    """Logged events grouped by turn, newest turn first."""
    turns: dict[Any, list[dict[str, Any]]] = {}
    for item in events or ():
        turns.setdefault(item.get("turn"), []).append(
            {"kind": item.get("kind"), "text": str(item.get("text", ""))})
    return [{"turn": t, "events": e} for t, e in reversed(turns.items())]


# ---------------------------------------------------------------- the moderator's page


def host_game(db: Session, user: User, game_id: int) -> Game:
    """The Infiltration game whose moderator's page ``user`` may read now.

    While the game runs, only its host, and only when the host holds no seat (a playing
    host must not see the whole facility); once it is over, the host and every seat
    holder (the reveal). Anybody else gets the seat routes' 404, so the answer does not
    tell whether the game exists."""
    game = db.get(Game, game_id)
    seated = _seated(db, game_id, user)
    is_host = game is not None and game.host_id == user.id
    if game is None or game.game != GAME or not (is_host or seated):
        raise NotFound("you hold no seat in this game")
    if game.status == "open":
        raise Conflict("the game has not started yet")
    if game.status != "over" and seated:
        raise NotFound(HOST_CLOSED if is_host else PLAYERS_WAIT)
    return game


def _seated(db: Session, game_id: int, user: User) -> bool:
    return db.scalar(select(SeatRow.id).where(SeatRow.game_id == game_id,
                                              SeatRow.user_id == user.id)) is not None


def is_moderator(db: Session, user: User, game: Game) -> bool:
    """The game's host holding no seat in it: the one reader of the moderator's page who
    may also read the Red channel and the private messages (players never may, not even
    once the game is over and the page opens to them)."""
    return game.host_id == user.id and not _seated(db, game.id, user)


def host_chat(db: Session, game: Game, view: Mapping[str, Any], entry: int, *,
              secret: bool) -> Chat:
    """The players' talk on the moderator's page after ``entry``: the public posts placed
    in the host view's thread as on a seat's page (``channels.thread``) and, for the
    moderator alone (``secret``), the Red channel and the private messages as read-only
    boxes, every post of them."""
    posts = channels.moderator_posts(db, game, secret=secret, upto=entry)
    thread = channels.thread(db, game, view.get("public_log") or [], posts, "public_log")
    boxes = [ChannelBox(channel=name, title=TITLES[name], right="read",
                        posts=[p for p in posts if p.channel == name], recipients=[],
                        in_thread=False, can_post=False)
             for name in ("red", "private") if secret]
    return Chat(game_id=game.id, boxes=boxes, thread=thread)


def npc_label(ident: str) -> str:
    """``Guard-A`` → ``GA``, ``Engineer-1`` → ``E1``: short enough for a map cell."""
    kind, _, rest = ident.partition("-")
    return (kind[:1] + rest) if rest else ident


def host_facility(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Floors A–H, rooms 1–8, as they are: each room's feature and terminal state, the
    electronic locks, the NPCs and every player (team, class, alive) in it."""
    rooms = {str(r.get("room")): r for r in view.get("rooms") or ()}
    locks = {str(r) for r in view.get("locks") or ()}
    people: dict[str, list[dict[str, Any]]] = {}
    for s in view.get("seats") or ():
        people.setdefault(str(s.get("room")), []).append({
            "seat": s.get("seat"), "handle": s.get("handle"), "team": s.get("team"),
            "class": s.get("class"), "alive": bool(s.get("alive")),
            "stinger": bool(s.get("stinger"))})
    npcs: dict[str, list[dict[str, Any]]] = {}
    for n in view.get("npc_state") or ():
        ident = str(n.get("id"))
        npcs.setdefault(str(n.get("room")), []).append({
            "id": ident, "short": npc_label(ident), "alive": bool(n.get("alive")),
            "guard": ident.startswith("Guard-"), "plan": n.get("plan")})
    floors = []
    for floor in FLOORS:
        cells = []
        for number in range(1, 9):
            room = f"{floor}-{number}"
            row = rooms.get(room, {})
            feature = str(row.get("feature") or "")
            cells.append({
                "room": room, "feature": feature,
                "short": SHORT.get(feature, feature[:5].upper()),
                "terminal": row.get("destroyed") is not None,
                "destroyed": bool(row.get("destroyed")), "hacked": bool(row.get("hacked")),
                "locked": room in locks, "players": people.get(room, []),
                "npcs": npcs.get(room, [])})
        floors.append({"floor": floor, "rooms": cells})
    return floors


def presence_rows(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The presence log (who was logged where, per turn), newest turn first."""
    order = [str(p.get("seat")) for p in view.get("players") or ()]
    rows = []
    for turn, where in enumerate(view.get("presence_log") or ()):
        where = where if isinstance(where, Mapping) else {}
        rows.append({"turn": turn, "rooms": [where.get(s, "") for s in order]})
    return list(reversed(rows))


def orders_in(db: Session, game: Game) -> dict[str, str]:
    """Seat id → "ready" or "saved" for the open entry: whose orders the host awaits."""
    drafts = db.scalars(select(OrderDraft).where(OrderDraft.game_id == game.id,
                                                 OrderDraft.entry == game.entry + 1))
    return {d.seat_id: "ready" if d.ready else "saved" for d in drafts}


def _host_page(request: Request, db: Session, user: User, game: Game,
               entry: int) -> Response:
    if not 0 <= entry <= game.entry:
        raise NotFound(f"there is no report for record entry {entry} yet")
    view = store.snapshot(db, game.id, entry, store.HOST_KEY)
    current = entry == game.entry
    private = {str(seat): log_rows(events)
               for seat, events in (view.get("private_logs") or {}).items()}
    chat = host_chat(db, game, view, entry, secret=is_moderator(db, user, game))
    return render(request, "infiltration/host.html", {
        "game": game, "view": view, "entry": entry, "current": current,
        "phase_title": PHASES.get(str(view.get("phase")), str(view.get("phase"))),
        "floors": host_facility(view), "names": names_of(view), "named": _named(view),
        "seats": list(view.get("seats") or ()), "npcs": list(view.get("npc_state") or ()),
        "public_log": log_rows(chat.thread), "private_logs": private, "chat": chat,
        "presence": presence_rows(view),
        "orders_in": orders_in(db, game) if current and game.status != "over" else {},
        "entries": list(range(game.entry, -1, -1))})


# ---------------------------------------------------------------- pages


def _named(view: Mapping[str, Any]) -> Callable[[Any], str]:
    names = names_of(view)

    def named(ids: Any) -> str:
        return ", ".join(names.get(str(i), str(i)) for i in ids or ())

    return named


EMPTY_TALLY: dict[str, Any] = {"rows": [], "totals": []}


def may_order(game: Game, seat: SeatRow, view: Mapping[str, Any]) -> bool:
    """Whether the page offers the order form: the game runs and awaits this seat."""
    return bool(game.status == "running" and view.get("awaited")
                and seat.seat_id in (game.awaiting or ()))


def seat_context(view: Mapping[str, Any], *, game: Game, seat: SeatRow, entry: int,
                 chat: Chat | None = None) -> dict[str, Any]:
    """What the seat page and a past report share, from the seat's view alone: the map,
    the logs, the public thread (with the players' posts placed in it when ``chat``, the
    seat's channels, is given) and the phase links. Pure, so tests render exactly the
    page's context without a database."""
    return {"game": game, "seat": seat, "view": view, "entry": entry, "chat": chat,
            "phase_title": PHASES.get(str(view.get("phase")), str(view.get("phase"))),
            "floors": facility(view), "names": names_of(view), "named": _named(view),
            "private_log": log_rows(view.get("private_log")),
            "public_log": log_rows(chat.thread if chat is not None
                                   else view.get("public_log")),
            "entries": list(range(game.entry, -1, -1))}


def page_context(view: Mapping[str, Any], *, game: Game, seat: SeatRow,
                 chat: Chat | None = None, orders: Any = None, data: Any = None,
                 errors: Sequence[str] = (), tally: Mapping[str, Any] = EMPTY_TALLY,
                 notice: str | None = None, request_key: str = "") -> dict[str, Any]:
    """The seat page's whole template context from the seat's view and the platform's
    facts the route read (its channels, saved orders, the public vote tally): pure, so
    the secrecy tests render the very page a seat gets. ``data``: the sheet to show
    (a refused one), else the saved orders'."""
    can = may_order(game, seat, view)
    if data is None and can and orders is not None:
        data = orders.data
    return {**seat_context(view, game=game, seat=seat, entry=game.entry, chat=chat),
            "can_order": can, "orders": orders if can else None,
            "values": form_state(view, data), "choices": order_choices(view),
            "errors": list(errors), "nothing_saved": NOTHING_SAVED, "tally": tally,
            "notice": notice, "request_key": request_key}


def _page(request: Request, db: Session, seat: SeatRow, *, data: Any = None,
          errors: list[str] | None = None, status: int = 200) -> Response:
    game = started_game(seat)
    view = play.current_view(db, seat)
    chat = chat_context(db, game, seat, events=view.get("public_log") or [],
                        thread_key="public_log", upto=game.entry)
    orders = play.get_orders(db, seat) if may_order(game, seat, view) else None
    return render(request, "infiltration/page.html", page_context(
        view, game=game, seat=seat, chat=chat, orders=orders, data=data,
        errors=errors or (), tally=vote_tally(db, game, view),
        notice=NOTICES.get(request.query_params.get("notice", "")),
        request_key=secrets.token_urlsafe(16)), status=status)


@router.get(BASE)
def seat_page(request: Request, db: Db, seat: UserSeat) -> Response:
    return _page(request, db, seat_in_game(seat, GAME, "Infiltration page"))


@router.post(BASE + "/orders")
def submit_route(request: Request, db: Db, seat: UserSeat, when: Now,
                 fields: FormFields) -> Response:
    seat = seat_in_game(seat, GAME, "Infiltration page")
    started_game(seat)
    view = play.current_view(db, seat)
    sheet = sheet_from_fields(view, fields)
    ready = fields.get("ready") == "1"
    entry = fields.get("entry", "")
    try:
        play.submit_orders(db, seat, sheet, now=when, ready=ready,
                           request_key=fields.get("request_key", "")[:80] or None,
                           entry=int(entry) if entry.isdecimal() else None)
    except OrdersRefused as exc:
        db.rollback()  # a refused sheet saves nothing
        return _page(request, db, seat, data=sheet, errors=list(exc.messages),
                     status=error_status(exc))
    except ServiceError as exc:
        db.rollback()
        return _page(request, db, seat, data=sheet, errors=[exc.message],
                     status=error_status(exc))
    notice = "ready" if ready else "saved"
    return RedirectResponse(BASE.format(game_id=seat.game_id) + f"?notice={notice}", 303)


@router.post(BASE + "/check")
def check_route(db: Db, seat: UserSeat, fields: FormFields, when: Now) -> JSONResponse:
    """The form as ``/orders`` would read it, judged as there; nothing is saved."""
    seat = seat_in_game(seat, GAME, "Infiltration page")
    started_game(seat)
    verdict = check_sheet(db, seat, sheet_from_fields(play.current_view(db, seat), fields),
                          when)
    db.rollback()
    return JSONResponse(verdict)


@router.get(BASE + "/host")
def host_route(request: Request, game_id: int, db: Db, user: CurrentUser) -> Response:
    game = host_game(db, user, game_id)
    return _host_page(request, db, user, game, game.entry)


@router.get(BASE + "/host/{entry}")
def host_past_route(request: Request, game_id: int, entry: int, db: Db,
                    user: CurrentUser) -> Response:
    return _host_page(request, db, user, host_game(db, user, game_id), entry)


@router.get(BASE + "/report/{entry}")
def past_route(request: Request, entry: int, db: Db, seat: UserSeat) -> Response:
    seat = seat_in_game(seat, GAME, "Infiltration page")
    game = started_game(seat)
    view = play.report(db, seat, entry)
    chat = chat_context(db, game, seat, events=view.get("public_log") or [],
                        thread_key="public_log", upto=entry)  # posts until the next entry
    return render(request, "infiltration/past.html",
                  seat_context(view, game=game, seat=seat, entry=entry, chat=chat))


__all__ = ["HOST_PAGE", "SEAT_PAGE", "STATIC", "TEMPLATES", "check_sheet", "facility",
           "host_chat", "host_facility", "host_game", "is_moderator", "may_order",
           "page_context", "router", "seat_context", "sheet_from_fields", "vote_tally"]
