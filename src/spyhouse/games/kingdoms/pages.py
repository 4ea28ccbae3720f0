"""Kingdoms' pure page builders (``core.plugin.GamePages``): views in, contexts out.

The platform owns every route (``/games/{id}/seat``, ``/orders``, ``/check``, ``/ready``,
``/play``, ``/report/{entry}``, ``/host``); this module gives its templates what they
draw: the map as SVG (``map_picture``), the four-box order list (``form_rows``,
``form_choices``), each message beside the form row it is about (``place_messages``),
the turn report (``report_context``) and, for the host, the whole board.

Everything a seat's page shows is built from that seat's view (E.4) alone: the map
from ``view.map`` and ``view.owners``, armies from ``me`` and the report's
observations, foreign agents only as the report's observations and FIND results state
them. The host page reads the host view's ``private`` part, which only the host gets.
Row messages are the engine's own (C.3), which use only public data.
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core.plugin import Explanation, GamePages, GameResult, PublicTable, SeatFacts
from spyhouse.games.kingdoms.changes import changes
from spyhouse.games.kingdoms.explain import explain_turn
from spyhouse.games.kingdoms.guide import ACTION_HELP
from spyhouse.games.kingdoms.layout import layout, sea_shapes
from spyhouse.games.kingdoms.maps import MapError, map_from_data
from spyhouse.games.kingdoms.model import MAX_COUNT, Action
from spyhouse.games.kingdoms.orders import SHAPES
from spyhouse.games.kingdoms.text import event_text, news_lines, row_text


def options_from_form(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the create form; a pasted map is validated here, so the host
    reads the first problem (``MapError``, naming it) before any game exists."""
    text = fields.get("option-map", "").strip()
    if not text:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(None, f"not valid TOML: {exc}") from None
    map_from_data(data)
    return {"map": data}


#: The twelve actions (C.2) with what each row does, in the order the form offers them
#: (their one-line rules, ``guide.ACTION_HELP``, also on the rules page).
ACTIONS: tuple[tuple[str, str], ...] = tuple(ACTION_HELP.items())
WAITERS = ("SPY", "SPYCAT", "MOLE", "MOLECAT")
TYPE_NAMES = {"SPY": "spy", "SPYCAT": "spy catcher", "MOLE": "mole",
              "MOLECAT": "mole catcher", "WATCHER": "watcher"}
TYPE_LETTERS = {"SPY": "S", "SPYCAT": "C", "MOLE": "M", "MOLECAT": "K", "WATCHER": "W"}
COLOURS = ("#c0392b", "#2e6fbd", "#2e8b57", "#c79a12", "#8e44ad", "#d35400")
NEUTRAL = "#e9e3d0"
UNIT = 120  # pixels per land step on the map
MARGIN = 70
#: Form rows when the view does not say K (C.1's default).
DEFAULT_ROWS = 8
ROW_FIELDS = ("action", "from", "to", "extra")


# ---------------------------------------------------------------- small readers


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _me(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    me = view.get("me")
    return me if isinstance(me, Mapping) else None


def country_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Country id -> its name, from the public ``countries``."""
    return {str(c.get("id")): str(c.get("name")) for c in view.get("countries") or ()}


def area_names(view: Mapping[str, Any]) -> dict[str, str]:
    return {str(a.get("id")): str(a.get("name")) for a in _mapping(view.get("map")).get("area")
            or ()}


def colours(view: Mapping[str, Any]) -> dict[str, str]:
    """Country id -> colour, by the map's country order."""
    countries = _mapping(view.get("map")).get("country") or ()
    return {str(c.get("id")): COLOURS[i % len(COLOURS)] for i, c in enumerate(countries)}


def row_count(view: Mapping[str, Any]) -> int:
    """K, the rows of the order list (the view's ``options.actions_per_turn``)."""
    return int(_mapping(view.get("options")).get("actions_per_turn") or DEFAULT_ROWS)


# ---------------------------------------------------------------- the map


Shapes = dict[str, tuple[list[tuple[float, float]], dict[str, tuple[float, float]]]]


@functools.lru_cache(maxsize=32)
def _positions(map_json: str) -> tuple[dict[str, tuple[float, float]], Shapes]:
    game_map = json.loads(map_json)
    pos = layout(game_map)
    return pos, sea_shapes(game_map, pos)


@dataclass(slots=True)
class _Marks:
    """What the map draws on each land area beyond its owner (``map_picture``'s input)."""

    armies: dict[str, tuple[Any, str]] = field(default_factory=dict)
    own: dict[str, list[str]] = field(default_factory=dict)
    foreign: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    waiting: dict[str, list[str]] = field(default_factory=dict)
    mine: str | None = None


def _seen(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per area, the last observation of the report (armies and foreign agents seen), and
    the FIND results that place foreign agents there."""
    report = _mapping(view.get("report"))
    seen: dict[str, dict[str, Any]] = {}
    for obs in report.get("observations") or ():
        area = str(obs.get("area"))
        seen[area] = {"armies": obs.get("armies"), "owner": obs.get("owner"),
                      "agents": [dict(a) for a in obs.get("agents") or ()],
                      "when": obs.get("when"), "by": obs.get("by"), "found": []}
    for result in report.get("results") or ():
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


def _seat_marks(view: Mapping[str, Any]) -> _Marks:
    """A seat's marks: its own armies and agents now, the rest as its report saw them."""
    me = _me(view) or {}
    mine = str(me.get("country")) if me else None
    marks = _Marks(mine=mine)
    owners = view.get("owners") or {}
    own_armies = me.get("armies") or {}
    for agent in me.get("agents") or ():
        marks.own.setdefault(str(agent.get("area")), []).append(str(agent.get("type")))
    for area in me.get("watchers") or ():
        marks.own.setdefault(str(area), []).append("WATCHER")
    wait = me.get("wait")
    if isinstance(wait, Mapping):
        marks.waiting[str(wait.get("area"))] = [mine or ""]
    palette = colours(view)
    for area, look in _seen(view).items():
        if look.get("armies") is not None and not (mine and owners.get(area) == mine):
            by = TYPE_NAMES.get(str(look.get("by")), "agent")
            marks.armies[area] = (look["armies"], f"seen by your {by} ({look.get('when')})")
        marks.foreign[area] = [
            {"country": str(a.get("country")), "type": str(a.get("type")),
             "colour": palette.get(str(a.get("country")), "#555"),
             "letter": TYPE_LETTERS.get(str(a.get("type")), "?")}
            for a in [*look.get("agents", ()), *look.get("found", ())]]
    for area, owner in owners.items():
        if mine and owner == mine:
            marks.armies[str(area)] = (own_armies.get(area, 0), "your armies now")
    return marks


def _host_marks(view: Mapping[str, Any]) -> _Marks:
    """The host's marks: every country's armies, agents, watchers and WAITs, from
    ``private`` (agents coloured by their country)."""
    marks = _Marks()
    palette = colours(view)
    for cid, part in sorted(_mapping(view.get("private")).items()):
        me = _mapping(_mapping(part).get("me"))
        for area, count in (me.get("armies") or {}).items():
            marks.armies[str(area)] = (count, f"{cid}'s armies")
        kinds = [(str(a.get("area")), str(a.get("type"))) for a in me.get("agents") or ()]
        kinds += [(str(area), "WATCHER") for area in me.get("watchers") or ()]
        for area, kind in kinds:
            marks.foreign.setdefault(area, []).append(
                {"country": str(cid), "type": kind, "colour": palette.get(str(cid), "#555"),
                 "letter": TYPE_LETTERS.get(kind, "?")})
        wait = me.get("wait")
        if isinstance(wait, Mapping):
            marks.waiting.setdefault(str(wait.get("area")), []).append(str(cid))
    return marks


def map_picture(view: Mapping[str, Any]) -> dict[str, Any]:
    """The map of a seat's view as the SVG template draws it: areas with positions,
    owners, armies and agents, land borders and coasts. Only the view is read."""
    return _picture(view, _seat_marks(view))


def host_picture(view: Mapping[str, Any]) -> dict[str, Any]:
    """The whole board of the host view: every army and every agent where it is."""
    return {**_picture(view, _host_marks(view)), "host": True}


def _picture(view: Mapping[str, Any], marks: _Marks) -> dict[str, Any]:
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
    palette = colours(view)
    names = country_names(view)
    areas: list[dict[str, Any]] = []
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
        armies, armies_note = marks.armies.get(aid, (None, ""))
        areas.append({
            "id": aid, "name": area.get("name"), "kind": "land", "x": x, "y": y,
            "owner": owner, "owner_name": names.get(str(owner), "neutral"),
            "fill": palette.get(str(owner), NEUTRAL) if owner else NEUTRAL,
            "mine": owner is not None and owner == marks.mine,
            "armies": armies, "armies_note": armies_note,
            "agents": [{"type": t, "letter": TYPE_LETTERS[t], "name": TYPE_NAMES[t]}
                       for t in marks.own.get(aid, ())],
            "waiting": bool(marks.waiting.get(aid)),
            "waiting_for": marks.waiting.get(aid, []),
            "foreign": marks.foreign.get(aid, []),
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
    """K rows for the form: the given ones (a saved sheet's), then blanks."""
    out = []
    for n in range(1, row_count(view) + 1):
        row = rows[n - 1] if n <= len(rows) else {}
        out.append({"n": n, "action": _text(row.get("action")).upper(),
                    "from": _text(row.get("from")), "to": _text(row.get("to")),
                    "extra": _text(row.get("extra")), "errors": []})
    return out


def rows_from_fields(fields: Mapping[str, str], size: int) -> list[dict[str, Any]]:
    """The form's K rows as they were typed (strings, stripped; ``row-N-<field>``)."""
    return [{"n": n, **{key: fields.get(f"row-{n}-{key}", "").strip()[:40]
                        for key in ROW_FIELDS}, "errors": []}
            for n in range(1, size + 1)]


def sheet_of(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[int]]:
    """The order JSON (C.1) of the filled rows, and each sheet row's form row number.
    A blank form row is left out; a number in EXTRA is sent as a number."""
    actions = []
    numbers = []
    for row in rows:
        values = [str(row.get(k) or "") for k in ROW_FIELDS]
        if not any(values):
            continue
        extra: Any = values[3] or None
        if isinstance(extra, str) and extra.isdecimal():
            extra = int(extra)
        actions.append({"action": values[0] or None, "from": values[1] or None,
                        "to": values[2] or None, "extra": extra})
        numbers.append(int(row["n"]))
    return {"actions": actions}, numbers


def _action_index(message: str) -> int | None:
    """``i`` of a message ``action i: ...`` (the engine's row messages), else ``None``."""
    head, colon, _ = message.partition(":")
    number = head.removeprefix("action ")
    return int(number) if colon and head.startswith("action ") and number.isdecimal() else None


def place_messages(messages: Sequence[str], numbers: Sequence[int]
                   ) -> tuple[dict[int, list[str]], list[str]]:
    """Each ``action i: ...`` message by the form row it is about: the i-th FILLED row,
    ``numbers[i-1]`` (blank rows between are left out of the sheet); the rest are about
    the whole list."""
    by_row: dict[int, list[str]] = {}
    general: list[str] = []
    for message in messages:
        index = _action_index(message)
        if index is not None and 1 <= index <= len(numbers):
            by_row.setdefault(numbers[index - 1], []).append(message)
        else:
            general.append(message)
    return by_row, general


def form_choices(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the form's selects offer, from the view: actions, land areas (own first
    marked), countries that may be named (not oneself, not eliminated), EXTRA values."""
    me = _me(view) or {}
    mine = me.get("country")
    owners = view.get("owners") or {}
    armies = me.get("armies") or {}
    areas = []
    for area in _mapping(view.get("map")).get("area") or ():
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
    return {"actions": ACTIONS, "areas": areas, "area_ids": [a["id"] for a in areas],
            "countries": countries, "country_ids": [c["id"] for c in countries],
            "counts": list(range(1, MAX_COUNT + 1)), "waiters": WAITERS, "shapes": shapes}


# ---------------------------------------------------------------- the report


def own_context(view: Mapping[str, Any], me: Mapping[str, Any] | None,
                report: Mapping[str, Any] | None) -> dict[str, Any]:
    """One country's own state and last report (``me`` and ``report`` of E.4) as the
    templates lay them out (like ``text.render_report``)."""
    names = area_names(view)
    results = [{"index": r.get("index"), "row": row_text(r.get("row") or {}),
                "status": r.get("status"), "bp": r.get("bp") or "", "text": r.get("text")}
               for r in (report or {}).get("results") or ()]
    observations = [{"when": o.get("when"), "by": TYPE_NAMES.get(str(o.get("by")), o.get("by")),
                     "area": o.get("area"), "name": names.get(str(o.get("area")), ""),
                     "owner": o.get("owner") or "-", "armies": o.get("armies"),
                     "agents": ", ".join(f"{a.get('country')} {a.get('type')}"
                                         for a in o.get("agents") or ()) or "-"}
                    for o in (report or {}).get("observations") or ()]
    events = [event_text(view, e) for e in (report or {}).get("events") or ()]
    agents = [f"{TYPE_NAMES.get(str(a.get('type')))} in {a.get('area')} "
              f"{names.get(str(a.get('area')), '')}" for a in (me or {}).get("agents") or ()]
    watchers = [f"{a} {names.get(str(a), '')}" for a in (me or {}).get("watchers") or ()]
    wait = (me or {}).get("wait")
    wait_text = (f"{TYPE_NAMES.get(str(wait.get('agent')))} in {wait.get('area')} waits "
                 f"for {wait.get('target')}'s {TYPE_NAMES.get(str(wait.get('hunts')))}"
                 if isinstance(wait, Mapping) else None)
    return {"me": me, "report": report, "results": results, "observations": observations,
            "events": events, "agents": agents, "watchers": watchers, "wait_text": wait_text,
            "own_armies": [(a, names.get(str(a), ""), n)
                           for a, n in ((me or {}).get("armies") or {}).items()]}


def report_context(view: Mapping[str, Any]) -> dict[str, Any]:
    """The turn report of a seat's view, as the templates lay it out."""
    report = view.get("report") if isinstance(view.get("report"), Mapping) else None
    news = (view.get("news") or [])[-1:]
    return {"names": country_names(view), "area_names": area_names(view), "news": news,
            **own_context(view, _me(view), report)}


# ---------------------------------------------------------------- standings


def _status(country: Mapping[str, Any], winners: Sequence[Any] = ()) -> str:
    if country.get("id") in winners:
        return "wins"
    if country.get("eliminated") is not None:
        return f"eliminated in turn {country.get('eliminated')}"
    return "in the game"


def countries_table(view: Mapping[str, Any],
                    names: Mapping[str, str] | None = None) -> PublicTable:
    """The public countries: id, name, who plays it (the seat's name), areas held,
    whether still in the game."""
    winners = _mapping(view.get("outcome")).get("winners") or ()
    seats = names or {}
    rows = tuple((c.get("id"), c.get("name"), seats.get(str(c.get("seat")), c.get("seat")),
                  c.get("areas"), _status(c, winners))
                 for c in view.get("countries") or ())
    return PublicTable(("Id", "Country", "Played by", "Areas", "Status"), rows)


def result_of(view: Mapping[str, Any], names: Mapping[str, str]) -> GameResult | None:
    """The end of the game from the public view: the winner line and the ranking."""
    outcome = view.get("outcome")
    if not isinstance(outcome, Mapping):
        return None
    countries = {str(c.get("id")): c for c in view.get("countries") or ()}

    def who(cid: Any) -> str:
        country = countries.get(str(cid), {})
        player = names.get(str(country.get("seat")))
        name = str(country.get("name") or cid)
        return f"{name} ({player})" if player else name

    winners = [who(c) for c in outcome.get("winners") or ()]
    line = (f"{winners[0]} wins." if len(winners) == 1 else
            f"{', '.join(winners[:-1])} and {winners[-1]} share the win." if winners else
            "Nobody wins.")
    rows = []
    for entry in outcome.get("ranking") or ():
        country = countries.get(str(entry.get("country")), {})
        rows.append((entry.get("rank"), entry.get("country"), country.get("name"),
                     names.get(str(country.get("seat")), country.get("seat")),
                     country.get("areas"), _status(country, outcome.get("winners") or ())))
    notes = (f"After turn {view.get('turn')}.",) if view.get("turn") is not None else ()
    return GameResult(line, PublicTable(("Rank", "Id", "Country", "Player", "Areas", "Status"),
                                        tuple(rows)), notes)


# ---------------------------------------------------------------- the pages


class KingdomsPages(GamePages):
    """The map, the four-box order list with each message beside its row, the turn
    report, past turns and the host's whole board."""

    #: the platform's host page with the whole board drawn in its ``host_body``
    host_template = "host_board.html"

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        rows: list[dict[str, Any]] | None = None
        general: list[str] = []
        refused = facts.refused
        if facts.can_order and _me(view) is not None and view.get("outcome") is None:
            if refused is not None and refused.fields:
                rows = rows_from_fields(refused.fields, row_count(view))
                _, numbers = sheet_of(rows)
                by_row, general = place_messages(refused.messages, numbers)
                for number, messages in by_row.items():
                    rows[number - 1]["errors"] = messages
            else:
                rows = form_rows(view, _rows_of(facts.orders))
                general = list(refused.messages) if refused is not None else []
        elif refused is not None:
            general = list(refused.messages)
        return {"picture": map_picture(view), "choices": form_choices(view), "rows": rows,
                "general": general, "warnings": list(facts.warnings),
                "km_refused": refused is not None, "km": report_context(view)}

    def changes(self, before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
        return changes(before, after, entry)

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        return sheet_of(rows_from_fields(fields, row_count(view)))[0]

    def place(self, view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
        """``row-N`` for a row's messages (N the form row), ``""`` for the list's own."""
        _, numbers = sheet_of(rows_from_fields(fields, row_count(view)))
        by_row, general = place_messages(messages, numbers)
        places = {f"row-{n}": found for n, found in sorted(by_row.items())}
        if general:
            places[""] = general
        return places

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"picture": map_picture(view), "km": report_context(view)}

    def explain(self, host_view: Mapping[str, Any], orders: Mapping[str, Any] | None,
                entry: int) -> list[Explanation]:
        """D.2 step by step: player order, observations, the action phase slot by slot,
        what was caught, ambushed, sabotaged or fought over, eliminations, income, the
        outcome (``explain.explain_turn``)."""
        return explain_turn(host_view, entry)

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        """The whole board and, for each country, its own state and last report."""
        private = _mapping(view.get("private"))
        countries = []
        for country in view.get("countries") or ():
            part = _mapping(private.get(str(country.get("id"))))
            report = part.get("report")
            countries.append({"country": country, **own_context(
                view, _mapping(part.get("me")) or None,
                report if isinstance(report, Mapping) else None)})
        return {"picture": host_picture(view), "host_countries": countries,
                "country_names": country_names(view), "area_names": area_names(view),
                "news": (view.get("news") or [])[-1:]}

    def public(self, view: Mapping[str, Any], names: Mapping[str, str]) -> PublicTable | None:
        return countries_table(view, names)

    def news(self, view: Mapping[str, Any]) -> list[str]:
        """The last turn's captures and eliminations, as the text report words them."""
        return [line.strip() for line in news_lines(view)[3:]]

    def result(self, view: Mapping[str, Any], names: Mapping[str, str]) -> GameResult | None:
        return result_of(view, names)


__all__ = ["ACTIONS", "KingdomsPages", "form_choices", "form_rows", "host_picture",
           "map_picture", "options_from_form", "place_messages", "report_context",
           "rows_from_fields", "sheet_of"]
