"""Infiltration's web page: the facility map as the seat knows it, the order form of the
current phase, the seat's private log and the public thread with the live vote tally.

Routes (all through ``deps.check_csrf``; every one through ``deps.UserSeat``, so only the
seat's holder reads or acts and anybody else gets 404):

- ``GET /infiltration/games/{id}``: the seat's page;
- ``POST /infiltration/games/{id}/orders``: the phase's form (``class``; ``move``,
  ``code``; ``vote``, ``kill-<id>``, ``terminal-action`` and ``terminal-<key>``; ``ready``,
  ``entry``, ``request_key``) through ``play.submit_orders``; refused: 422, nothing saved,
  the engine's message shown;
- ``GET /infiltration/games/{id}/report/{entry}``: the seat's view after record entry
  ``entry`` (0 = setup): the map, the private log and the public thread then.

Everything shown for a seat comes from that seat's view, plus the declared-public order
field ``vote`` (``public_order_fields``) of every seat's current accepted orders.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.games.infiltration.model import FLOORS
from spyhouse.games.infiltration.ruleset import Infiltration
from spyhouse.service import play
from spyhouse.service.errors import OrdersRefused, ServiceError
from spyhouse.store.tables import Game, OrderDraft, SeatRow
from spyhouse.web.deps import Db, FormFields, Now, UserSeat, check_csrf, seat_in_game, started_game
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


def log_rows(events: Any) -> list[dict[str, Any]]:
    """Logged events grouped by turn, newest turn first."""
    turns: dict[Any, list[dict[str, Any]]] = {}
    for item in events or ():
        turns.setdefault(item.get("turn"), []).append(
            {"kind": item.get("kind"), "text": str(item.get("text", ""))})
    return [{"turn": t, "events": e} for t, e in reversed(turns.items())]


# ---------------------------------------------------------------- pages


def _named(view: Mapping[str, Any]) -> Callable[[Any], str]:
    names = names_of(view)

    def named(ids: Any) -> str:
        return ", ".join(names.get(str(i), str(i)) for i in ids or ())

    return named


def _context(db: Session, game: Game, seat: SeatRow, view: Mapping[str, Any],
             entry: int) -> dict[str, Any]:
    return {"game": game, "seat": seat, "view": view, "entry": entry,
            "phase_title": PHASES.get(str(view.get("phase")), str(view.get("phase"))),
            "floors": facility(view), "names": names_of(view), "named": _named(view),
            "private_log": log_rows(view.get("private_log")),
            "public_log": log_rows(view.get("public_log")),
            "entries": list(range(game.entry, -1, -1))}


def _page(request: Request, db: Session, seat: SeatRow, *, data: Any = None,
          errors: list[str] | None = None, status: int = 200) -> Response:
    game = started_game(seat)
    view = play.current_view(db, seat)
    can = bool(game.status == "running" and view.get("awaited")
               and seat.seat_id in (game.awaiting or ()))
    orders = play.get_orders(db, seat) if can else None
    if data is None and orders is not None:
        data = orders.data
    return render(request, "infiltration/page.html", {
        **_context(db, game, seat, view, game.entry),
        "can_order": can, "orders": orders, "values": form_state(view, data),
        "choices": order_choices(view), "errors": errors or [],
        "nothing_saved": NOTHING_SAVED, "tally": vote_tally(db, game, view),
        "notice": NOTICES.get(request.query_params.get("notice", "")),
        "request_key": secrets.token_urlsafe(16)}, status=status)


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


@router.get(BASE + "/report/{entry}")
def past_route(request: Request, entry: int, db: Db, seat: UserSeat) -> Response:
    seat = seat_in_game(seat, GAME, "Infiltration page")
    game = started_game(seat)
    view = play.report(db, seat, entry)
    return render(request, "infiltration/past.html", _context(db, game, seat, view, entry))


__all__ = ["SEAT_PAGE", "STATIC", "TEMPLATES", "facility", "router", "sheet_from_fields",
           "vote_tally"]
