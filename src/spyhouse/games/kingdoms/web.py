"""Kingdoms' web page: the map as SVG, the four-box order list, the turn report, past turns.

Routes (all through ``deps.check_csrf``; every one through ``deps.UserSeat``, so only the
seat's holder reads or acts and anybody else gets 404):

- ``GET /kingdoms/games/{id}``: the seat's page: the map, the order list for the open
  turn, the last report;
- ``POST /kingdoms/games/{id}/orders``: the list (``row-N-action/from/to/extra``,
  ``entry``, ``request_key``, ``ready``) through ``play.submit_orders``; refused: 422,
  nothing saved, each message beside its row;
- ``POST /kingdoms/games/{id}/check``: the same form, nothing saved: JSON ``{"ok",
  "rows": {N: message}, "general": [...]}`` (the page checks each row as it is edited);
- ``POST /kingdoms/games/{id}/ready``: mark the saved list final (``ready`` = 1 or 0);
- ``GET /kingdoms/games/{id}/report/{entry}``: the seat's view after record entry
  ``entry`` (0 = setup): the map and the report of that turn.

The platform's ``/games/{id}/seat`` and ``/games/{id}/report`` render this game's
``kingdoms/seat.html`` / ``kingdoms/report.html``, which lead here.

Everything a page shows for a seat is built from that seat's view (E.4) alone: the map
from ``view.map`` and ``view.owners``, armies from ``me`` and the report's observations,
foreign agents only as the report's observations and FIND results state them. Row
messages are the engine's own (C.3), which use only public data.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.games.kingdoms.layout import layout, sea_shapes
from spyhouse.games.kingdoms.model import MAX_COUNT, Action
from spyhouse.games.kingdoms.orders import SHAPES, KingdomsOrderError, parse_row
from spyhouse.games.kingdoms.text import event_text, row_text
from spyhouse.service import play
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, OrdersRefused, ServiceError
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web.deps import Db, FormFields, Now, UserSeat, check_csrf, seat_in_game, started_game
from spyhouse.web.render import error_status, render

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
GAME = "kingdoms"
BASE = "/kingdoms/games/{game_id}"
#: The hook the platform may read to link a seat straight to this page.
SEAT_PAGE = BASE

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {"saved": "Your orders are saved. You can change them until the turn is processed.",
           "ready": "Your orders are saved and marked final (ready).",
           "unready": "Your orders are no longer marked final."}
NOTHING_SAVED = "Nothing was saved: your previous orders stay in force."

#: The twelve actions (C.2) with what each row does, in the order the form offers them.
ACTIONS: tuple[tuple[str, str], ...] = (
    ("SPY", "move the spy by land (FROM to recruit, 2 BP)"),
    ("SKIP", "move the spy by sea (1 BP per sea)"),
    ("FIND", "FROM an area, or TO a country: where are spies"),
    ("KILL", "FROM area, TO country: remove one of its agents"),
    ("WAIT", "TO country, EXTRA agent: lie in wait"),
    ("SABOTAGE", "the spy disperses one army where it is (1 BP)"),
    ("WATCH", "the spy goes underground as a watcher"),
    ("SPYCAT", "move or recruit the spy catcher (5 BP)"),
    ("MOLE", "move or recruit the mole (5 BP)"),
    ("MOLECAT", "move or recruit the mole catcher (5 BP)"),
    ("RAISE", "FROM own area, EXTRA n: raise armies (2 BP each)"),
    ("MOVE", "FROM own area, TO neighbour, EXTRA n armies"),
)
WAITERS = ("SPY", "SPYCAT", "MOLE", "MOLECAT")
TYPE_NAMES = {"SPY": "spy", "SPYCAT": "spy catcher", "MOLE": "mole",
              "MOLECAT": "mole catcher", "WATCHER": "watcher"}
TYPE_LETTERS = {"SPY": "S", "SPYCAT": "C", "MOLE": "M", "MOLECAT": "K", "WATCHER": "W"}
COLOURS = ("#c0392b", "#2e6fbd", "#2e8b57", "#c79a12", "#8e44ad", "#d35400")
NEUTRAL = "#e9e3d0"
UNIT = 120  # pixels per land step on the map
MARGIN = 70


# ---------------------------------------------------------------- the seat and its data






def can_order(game: Game, seat: SeatRow, view: Mapping[str, Any]) -> bool:
    return bool(game.status == "running" and seat.seat_id in (game.awaiting or ())
                and view.get("outcome") is None and isinstance(view.get("me"), Mapping))


# ---------------------------------------------------------------- the map


Shapes = dict[str, tuple[list[tuple[float, float]], dict[str, tuple[float, float]]]]


@functools.lru_cache(maxsize=32)
def _positions(map_json: str) -> tuple[dict[str, tuple[float, float]], Shapes]:
    game_map = json.loads(map_json)
    pos = layout(game_map)
    return pos, sea_shapes(game_map, pos)


def colours(view: Mapping[str, Any]) -> dict[str, str]:
    """Country id -> colour, by the map's country order."""
    countries = (view.get("map") or {}).get("country") or ()
    return {str(c.get("id")): COLOURS[i % len(COLOURS)] for i, c in enumerate(countries)}


def _seen(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per area, the last observation of the report (armies and foreign agents seen), and
    the FIND results that place foreign agents there."""
    report = view.get("report") if isinstance(view.get("report"), Mapping) else None
    seen: dict[str, dict[str, Any]] = {}
    for obs in (report or {}).get("observations") or ():
        area = str(obs.get("area"))
        seen[area] = {"armies": obs.get("armies"), "owner": obs.get("owner"),
                      "agents": [dict(a) for a in obs.get("agents") or ()],
                      "when": obs.get("when"), "by": obs.get("by"), "found": []}
    for result in (report or {}).get("results") or ():
        find = result.get("find")
        if not isinstance(find, Mapping) or find.get("area") is None:
            continue
        area = str(find.get("area"))
        entry = seen.setdefault(area, {"armies": None, "owner": None, "agents": [],
                                       "when": None, "by": None, "found": []})
        if "found" in find:
            entry["found"] += [dict(a) for a in find.get("found") or ()]
        else:
            entry["found"].append({"country": find.get("country"), "type": "SPY"})
    return seen


def map_picture(view: Mapping[str, Any]) -> dict[str, Any]:
    """The map of a view as the SVG template draws it: areas with positions, owners,
    armies and agents, land borders and coasts. Only the view is read."""
    game_map = view.get("map") or {}
    pos, shapes = _positions(json.dumps(game_map, sort_keys=True))
    if not pos:
        return {"width": 0, "height": 0, "areas": [], "borders": [], "coasts": [],
                "sea_links": [], "waters": [], "colours": {}}
    every = [*pos.values(), *(p for hull, _ in shapes.values() for p in hull)]
    min_x = min(p[0] for p in every)
    min_y = min(p[1] for p in every)

    def px(point: tuple[float, float]) -> tuple[int, int]:
        return round((point[0] - min_x) * UNIT + MARGIN), round((point[1] - min_y) * UNIT + MARGIN)

    def at(area: str) -> tuple[int, int]:
        return px(pos[area])

    owners = view.get("owners") or {}
    me = view.get("me") if isinstance(view.get("me"), Mapping) else {}
    mine = str(me.get("country")) if me else None
    own_armies = me.get("armies") or {} if me else {}
    agents: dict[str, list[str]] = {}
    for agent in (me.get("agents") or () if me else ()):
        agents.setdefault(str(agent.get("area")), []).append(str(agent.get("type")))
    for area in (me.get("watchers") or () if me else ()):
        agents.setdefault(str(area), []).append("WATCHER")
    wait = me.get("wait") if me else None
    seen = _seen(view)
    palette = colours(view)
    names = {str(c.get("id")): str(c.get("name")) for c in view.get("countries") or ()}
    areas = []
    borders: set[tuple[str, str]] = set()
    coasts: list[dict[str, Any]] = []
    sea_links: set[tuple[str, str]] = set()
    for area in game_map.get("area") or ():
        aid = str(area.get("id"))
        x, y = at(aid)
        if area.get("kind") == "sea":
            areas.append({"id": aid, "name": area.get("name"), "kind": "sea", "x": x, "y": y})
            for other in area.get("adj") or ():
                sea_links.add((min(aid, str(other)), max(aid, str(other))))
            continue
        owner = owners.get(aid)
        for other in area.get("adj") or ():
            borders.add((min(aid, str(other)), max(aid, str(other))))
        for sea in area.get("seas") or ():
            end = shapes.get(str(sea), ([], {}))[1].get(aid)
            if end is not None:
                (x1, y1), (x2, y2) = at(aid), px(end)
                coasts.append({"a": aid, "b": str(sea), "x1": x1, "y1": y1, "x2": x2, "y2": y2})
        look = seen.get(aid, {})
        if owner is not None and owner == mine:
            armies: Any = own_armies.get(aid, 0)
            armies_note = "your armies now"
        elif look.get("armies") is not None:
            armies = look["armies"]
            armies_note = f"seen by your {TYPE_NAMES.get(str(look.get('by')), 'agent')} " \
                          f"({look.get('when')})"
        else:
            armies, armies_note = None, ""
        foreign = [{"country": str(a.get("country")), "type": str(a.get("type")),
                    "colour": palette.get(str(a.get("country")), "#555"),
                    "letter": TYPE_LETTERS.get(str(a.get("type")), "?")}
                   for a in [*look.get("agents", ()), *look.get("found", ())]]
        areas.append({
            "id": aid, "name": area.get("name"), "kind": "land", "x": x, "y": y,
            "owner": owner, "owner_name": names.get(str(owner), "neutral"),
            "fill": palette.get(str(owner), NEUTRAL) if owner else NEUTRAL,
            "mine": owner is not None and owner == mine,
            "armies": armies, "armies_note": armies_note,
            "agents": [{"type": t, "letter": TYPE_LETTERS[t], "name": TYPE_NAMES[t]}
                       for t in agents.get(aid, ())],
            "waiting": isinstance(wait, Mapping) and wait.get("area") == aid,
            "foreign": foreign,
        })
    xs = [a["x"] for a in areas]
    ys = [a["y"] for a in areas]

    def line(a: str, b: str) -> dict[str, Any]:
        (x1, y1), (x2, y2) = at(a), at(b)
        return {"a": a, "b": b, "x1": x1, "y1": y1, "x2": x2, "y2": y2}

    def link(a: str, b: str) -> dict[str, Any]:
        """Two seas joined: a line between the closest points of their outlines."""
        hull_a = shapes.get(a, ([pos[a]], {}))[0] or [pos[a]]
        hull_b = shapes.get(b, ([pos[b]], {}))[0] or [pos[b]]
        p, q = min(((p, q) for p in hull_a for q in hull_b),
                   key=lambda pq: (pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2)
        (x1, y1), (x2, y2) = px(p), px(q)
        return {"a": a, "b": b, "x1": x1, "y1": y1, "x2": x2, "y2": y2}

    waters = [{"id": sid, "d": "M " + " L ".join(f"{x} {y}" for x, y in map(px, hull)) + " Z"}
              for sid, (hull, _) in shapes.items() if hull]
    xs += [px(p)[0] for p in every]
    ys += [px(p)[1] for p in every]
    return {"width": max(xs) + MARGIN, "height": max(ys) + MARGIN, "areas": areas,
            "borders": [line(a, b) for a, b in sorted(borders)], "coasts": coasts,
            "sea_links": [link(a, b) for a, b in sorted(sea_links)], "waters": waters,
            "colours": palette}


# ---------------------------------------------------------------- the order form


def _rows_of(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, Mapping) and isinstance(data.get("actions"), list):
        return [dict(r) for r in data["actions"] if isinstance(r, Mapping)]
    return []


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def form_rows(view: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """K rows for the form: the given ones, then blanks."""
    size = int((view.get("options") or {}).get("actions_per_turn") or 8)
    out = []
    for n in range(1, size + 1):
        row = rows[n - 1] if n <= len(rows) else {}
        out.append({"n": n, "action": _text(row.get("action")).upper(),
                    "from": _text(row.get("from")), "to": _text(row.get("to")),
                    "extra": _text(row.get("extra")), "error": None})
    return out


def rows_from_fields(fields: Mapping[str, str], size: int) -> list[dict[str, Any]]:
    """The form's K rows as they were typed (strings, stripped)."""
    return [{"n": n, **{key: fields.get(f"row-{n}-{key}", "").strip()[:40]
                        for key in ("action", "from", "to", "extra")}, "error": None}
            for n in range(1, size + 1)]


def sheet_of(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[int]]:
    """The order JSON (C.1) of the filled rows, and each sheet row's form row number.
    A blank form row is left out; a number in EXTRA is sent as a number."""
    actions = []
    numbers = []
    for row in rows:
        values = [str(row.get(k) or "") for k in ("action", "from", "to", "extra")]
        if not any(values):
            continue
        extra: Any = values[3] or None
        if isinstance(extra, str) and extra.isdecimal():
            extra = int(extra)
        actions.append({"action": values[0] or None, "from": values[1] or None,
                        "to": values[2] or None, "extra": extra})
        numbers.append(int(row["n"]))
    return {"actions": actions}, numbers


def row_messages(db: Session, seat: SeatRow, view: Mapping[str, Any],
                 rows: Sequence[Mapping[str, Any]]) -> tuple[dict[int, str], list[str]]:
    """The engine's parse-time message (C.3) for every failing row, by form row number,
    and the messages about the whole list. Parse-time checks read only public data."""
    sheet, numbers = sheet_of(rows)
    game = seat.game_row
    ruleset = store.ruleset_of(game)
    state = store.state_of(store.load_record(db, game))
    by_row: dict[int, str] = {}
    general: list[str] = []
    me = view.get("me") if isinstance(view.get("me"), Mapping) else None
    if me is not None:
        for index, raw in enumerate(sheet["actions"], start=1):
            try:
                parse_row(state, seat.seat_id, str(me.get("country")), index, raw)
            except KingdomsOrderError as exc:
                by_row[numbers[index - 1]] = exc.message
    try:
        ruleset.parse_orders(state, seat.seat_id, sheet)
    except KingdomsOrderError as exc:
        if exc.index is None:
            general.append(exc.message)
        else:
            by_row.setdefault(numbers[exc.index - 1], exc.message)
    return by_row, general


def _place(rows: list[dict[str, Any]], messages: Sequence[str],
           numbers: Sequence[int]) -> list[str]:
    """Put ``action i: …`` messages beside form row ``numbers[i-1]``; the rest are general."""
    general = []
    for message in messages:
        head, _, _ = message.partition(":")
        index = int(head.split()[1]) if head.startswith("action ") and head[7:].isdecimal() \
            else None
        if index is not None and 1 <= index <= len(numbers):
            row = rows[numbers[index - 1] - 1]
            row["error"] = row["error"] or message
        else:
            general.append(message)
    return general


def form_choices(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the form's selects offer, from the view: actions, land areas (own first
    marked), countries that may be named (not oneself, not eliminated), EXTRA values."""
    me = view.get("me") if isinstance(view.get("me"), Mapping) else {}
    mine = me.get("country") if me else None
    owners = view.get("owners") or {}
    armies = me.get("armies") or {} if me else {}
    names = {str(c.get("id")): str(c.get("name")) for c in view.get("countries") or ()}
    areas = []
    for area in (view.get("map") or {}).get("area") or ():
        if area.get("kind") != "land":
            continue
        aid = str(area.get("id"))
        owner = owners.get(aid)
        note = (f"yours, {armies.get(aid, 0)}" if owner is not None and owner == mine
                else (owner or "neutral"))
        areas.append({"id": aid, "label": f"{aid} {area.get('name')} ({note})"})
    countries = [{"id": str(c.get("id")), "label": f"{c.get('id')} {c.get('name')}"}
                 for c in view.get("countries") or ()
                 if c.get("id") != mine and c.get("eliminated") is None]
    shapes = {name: {"from": SHAPES[Action(name)].frm, "to": SHAPES[Action(name)].to,
                     "extra": SHAPES[Action(name)].extra} for name, _ in ACTIONS}
    return {"actions": ACTIONS, "areas": areas, "countries": countries,
            "counts": list(range(1, MAX_COUNT + 1)), "waiters": WAITERS,
            "shapes": shapes, "names": names}


# ---------------------------------------------------------------- the report


def report_context(view: Mapping[str, Any]) -> dict[str, Any]:
    """The turn report of a view, as the template lays it out (like ``text.render_report``)."""
    report = view.get("report") if isinstance(view.get("report"), Mapping) else None
    names = {str(c.get("id")): str(c.get("name")) for c in view.get("countries") or ()}
    area_names = {str(a.get("id")): str(a.get("name"))
                  for a in (view.get("map") or {}).get("area") or ()}
    news = (view.get("news") or [])[-1:] if view.get("news") else []
    results = [{"index": r.get("index"), "row": row_text(r.get("row") or {}),
                "status": r.get("status"), "bp": r.get("bp") or "", "text": r.get("text")}
               for r in (report or {}).get("results") or ()]
    observations = [{"when": o.get("when"), "by": TYPE_NAMES.get(str(o.get("by")), o.get("by")),
                     "area": o.get("area"), "name": area_names.get(str(o.get("area")), ""),
                     "owner": o.get("owner") or "-", "armies": o.get("armies"),
                     "agents": ", ".join(f"{a.get('country')} {a.get('type')}"
                                         for a in o.get("agents") or ()) or "-"}
                    for o in (report or {}).get("observations") or ()]
    events = [event_text(view, e) for e in (report or {}).get("events") or ()]
    me = view.get("me") if isinstance(view.get("me"), Mapping) else None
    agents = [f"{TYPE_NAMES.get(str(a.get('type')))} in {a.get('area')} "
              f"{area_names.get(str(a.get('area')), '')}" for a in (me or {}).get("agents") or ()]
    watchers = [f"{a} {area_names.get(str(a), '')}" for a in (me or {}).get("watchers") or ()]
    wait = (me or {}).get("wait")
    wait_text = (f"your {TYPE_NAMES.get(str(wait.get('agent')))} in {wait.get('area')} waits "
                 f"for {wait.get('target')}'s {TYPE_NAMES.get(str(wait.get('hunts')))}"
                 if isinstance(wait, Mapping) else None)
    return {"report": report, "names": names, "area_names": area_names, "news": news,
            "results": results, "observations": observations, "events": events,
            "me": me, "agents": agents, "watchers": watchers, "wait_text": wait_text,
            "own_armies": [(a, area_names.get(str(a), ""), n)
                           for a, n in ((me or {}).get("armies") or {}).items()]}


# ---------------------------------------------------------------- pages


def _page(request: Request, db: Session, seat: SeatRow, *,
          rows: list[dict[str, Any]] | None = None, errors: Sequence[str] = (),
          numbers: Sequence[int] = (), top: Sequence[str] = (),
          status: int = 200) -> Response:
    game = started_game(seat)
    view = play.current_view(db, seat)
    orders = None
    general: list[str] = list(top)
    if can_order(game, seat, view):
        orders = play.get_orders(db, seat)
        if rows is None:
            rows = form_rows(view, _rows_of(orders.data))
        general += _place(rows, errors, numbers)
    return render(request, "kingdoms/page.html", {
        "game": game, "seat": seat, "view": view, "entry": game.entry,
        "picture": map_picture(view), "choices": form_choices(view),
        "rows": rows, "orders": orders, "general": general,
        "refused": bool(errors or top), "nothing_saved": NOTHING_SAVED,
        "notice": NOTICES.get(request.query_params.get("notice", "")),
        "request_key": secrets.token_urlsafe(16),
        "entries": list(range(game.entry, -1, -1)), **report_context(view)},
        status=status)


@router.get(BASE)
def seat_page(request: Request, db: Db, seat: UserSeat) -> Response:
    return _page(request, db, seat_in_game(seat, GAME, "Kingdoms map"))


@router.post(BASE + "/orders")
def submit_route(request: Request, db: Db, seat: UserSeat, when: Now,
                 fields: FormFields) -> Response:
    seat = seat_in_game(seat, GAME, "Kingdoms map")
    view = play.current_view(db, seat)
    size = int((view.get("options") or {}).get("actions_per_turn") or 8)
    rows = rows_from_fields(fields, size)
    sheet, numbers = sheet_of(rows)
    ready = fields.get("ready") == "1"
    entry = fields.get("entry", "")
    try:
        play.submit_orders(db, seat, sheet, now=when, ready=ready,
                           request_key=fields.get("request_key", "")[:80] or None,
                           entry=int(entry) if entry.isdecimal() else None)
    except OrdersRefused as exc:
        db.rollback()  # a refused list saves nothing
        by_row, general = row_messages(db, seat, view, rows)
        messages = [*exc.messages]
        for number, message in by_row.items():
            if rows[number - 1]["error"] is None and message not in messages:
                rows[number - 1]["error"] = message
        return _page(request, db, seat, rows=rows, errors=messages, numbers=numbers,
                     top=[m for m in general if m not in messages],
                     status=error_status(exc))
    except ServiceError as exc:
        db.rollback()
        return _page(request, db, seat, rows=rows, top=[exc.message],
                     status=error_status(exc))
    return RedirectResponse(
        BASE.format(game_id=seat.game_id) + f"?notice={'ready' if ready else 'saved'}", 303)


@router.post(BASE + "/check")
def check_route(db: Db, seat: UserSeat, fields: FormFields) -> JSONResponse:
    """Each row's message as the engine would give it; nothing is saved."""
    seat = seat_in_game(seat, GAME, "Kingdoms map")
    started_game(seat)
    view = play.current_view(db, seat)
    size = int((view.get("options") or {}).get("actions_per_turn") or 8)
    by_row, general = row_messages(db, seat, view, rows_from_fields(fields, size))
    db.rollback()
    return JSONResponse({"ok": not by_row and not general,
                         "rows": {str(n): m for n, m in sorted(by_row.items())},
                         "general": general})


@router.get(BASE + "/report/{entry}")
def past_route(request: Request, entry: int, db: Db, seat: UserSeat) -> Response:
    seat = seat_in_game(seat, GAME, "Kingdoms map")
    game = started_game(seat)
    view = play.report(db, seat, entry)
    return render(request, "kingdoms/past.html", {
        "game": game, "seat": seat, "view": view, "entry": entry,
        "picture": map_picture(view), "entries": list(range(game.entry, -1, -1)),
        **report_context(view)})


@router.post(BASE + "/ready")
def ready_route(db: Db, seat: UserSeat, when: Now,
                ready: Annotated[str, Form()] = "1") -> Response:
    """Mark the saved orders final (or not): the turn closes early once all are ready."""
    seat = seat_in_game(seat, GAME, "Kingdoms map")
    state = play.get_orders(db, seat)
    if state.data is None:
        raise Conflict("save your orders first; then you can mark them final")
    play.submit_orders(db, seat, state.data, now=when, ready=ready == "1")
    notice = "ready" if ready == "1" else "unready"
    return RedirectResponse(BASE.format(game_id=seat.game_id) + f"?notice={notice}", 303)


__all__ = ["SEAT_PAGE", "STATIC", "TEMPLATES", "form_choices", "map_picture", "report_context",
           "router", "row_messages", "sheet_of"]
