"""Infiltration's pure page builders (``core.plugin.GamePages``): views in, contexts out.

The platform owns the routes (``/games/{id}/seat``, ``/orders``, ``/check``,
``/report/{entry}``, ``/host``); this module gives their templates what they read: the
facility map as the seat knows it (or, on the host page, as it is), the current phase's
order form with each message beside its row, the private log and the public thread
grouped by turn, and the public vote tally the service counted (``SeatFacts.tally``).
Everything a seat's page shows comes from that seat's view and the platform's plain
facts; nothing here reads a state, a row or a database.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation, GamePages, GameResult, PublicTable, SeatFacts
from spyhouse.games.infiltration import notebook_page
from spyhouse.games.infiltration.changes import changes
from spyhouse.games.infiltration.explain import explain_phase
from spyhouse.games.infiltration.model import FLOORS
from spyhouse.games.infiltration.text import SHORT

PHASES = {"class": "Class selection", "movement": "Movement phase",
          "decision": "Decision phase", "over": "Game over"}
RESULTS = {"greens": "The Greens win.", "reds": "The Reds win.", "draw": "A draw."}
REASONS = {"ghost_destroyed": "the GHOST was destroyed",
           "too_few_greens": "fewer than four Greens were left alive",
           "max_turns": "the turn limit was reached",
           "no_reds_left_vote": "the players voted NO REDS LEFT"}
#: The form's places (``data-place``) for the check and refusal messages, besides
#: ``kill-<id>`` (one attack target) and ``""`` (the top of the form).
PLACES = ("class", "move", "code", "vote", "kill", "terminal", "ready")


def names_of(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> handle, from the view's public roster."""
    return {str(p["seat"]): str(p["handle"]) for p in view.get("players") or ()}


def phase_title(view: Mapping[str, Any]) -> str:
    return PHASES.get(str(view.get("phase")), str(view.get("phase")))


def named_of(view: Mapping[str, Any]) -> Callable[[Any], str]:
    """A template helper: seat ids -> "Alice, Bob" (an NPC's id stays as it is)."""
    names = names_of(view)

    def named(ids: Any) -> str:
        return ", ".join(names.get(str(i), str(i)) for i in ids or ())

    return named


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
                cell.update({
                    "feature": feature, "short": SHORT.get(feature, feature[:5].upper()),
                    "turn": last.get("turn"), "destroyed": bool(last.get("destroyed")),
                    "hacked": bool(last.get("hacked")), "text": last.get("text"),
                    "players": [names.get(str(s), str(s)) for s in last.get("players") or ()],
                    "npcs": list(last.get("npcs") or ()),
                    "corpses": [names.get(str(s), str(s)) for s in last.get("corpses") or ()]})
            rooms.append(cell)
        floors.append({"floor": floor, "rooms": rooms})
    return floors


def npc_label(ident: str) -> str:
    """``Guard-A`` → ``GA``, ``Engineer-1`` → ``E1``: short enough for a map cell."""
    kind, _, rest = ident.partition("-")
    return (kind[:1] + rest) if rest else ident


def host_facility(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Floors A–H, rooms 1–8, as they are (the host view): each room's feature and
    terminal state, the electronic locks, the NPCs and every player (team, class, alive)."""
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


# ---------------------------------------------------------------- logs


def log_rows(events: Any) -> list[dict[str, Any]]:
    """Logged events (and the players' posts placed among them) grouped by turn, newest
    turn first. A template helper too: the platform's ``chat.thread`` comes this way."""
    turns: dict[Any, list[dict[str, Any]]] = {}
    for item in events or ():
        turns.setdefault(item.get("turn"), []).append(
            {"kind": item.get("kind"), "text": str(item.get("text", ""))})
    return [{"turn": t, "events": e} for t, e in reversed(turns.items())]


def presence_rows(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The presence log (who was logged where, per turn), newest turn first."""
    order = [str(p.get("seat")) for p in view.get("players") or ()]
    rows = []
    for turn, where in enumerate(view.get("presence_log") or ()):
        where = where if isinstance(where, Mapping) else {}
        rows.append({"turn": turn, "rooms": [where.get(s, "") for s in order]})
    return list(reversed(rows))


def vote_tally(view: Mapping[str, Any], votes: Mapping[str, Any]) -> dict[str, Any]:
    """The public tally of the open Decision phase from the service's count of the
    declared-public ``vote`` field (seat id -> target), named from the view, in the
    roster's order; the totals most votes first."""
    names = names_of(view)
    order = [str(p["seat"]) for p in view.get("players") or ()]
    rows = [{"voter": names.get(s, s), "target": names.get(str(votes[s]), str(votes[s]))}
            for s in order if isinstance(votes.get(s), str)]
    totals: dict[str, int] = {}
    for row in rows:
        totals[row["target"]] = totals.get(row["target"], 0) + 1
    return {"rows": rows, "totals": sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))}


# ---------------------------------------------------------------- the order form


def form_state(view: Mapping[str, Any], data: Any) -> dict[str, Any]:
    """The form's current values from a saved sheet (or a refused one)."""
    data = data if isinstance(data, Mapping) else {}
    raw = data.get("terminal")
    terminal: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    values: dict[str, Any] = {
        "class": data.get("class") or "", "move": data.get("move") or "",
        "code": data.get("code") or "", "vote": data.get("vote") or "",
        "kill": [str(k) for k in data.get("kill") or ()], "ready": bool(data.get("ready")),
        "terminal_action": terminal.get("action") or ""}
    for key in ("player", "room", "text", "statement"):
        values[f"terminal_{key}"] = terminal.get(key) or ""
    rooms = terminal.get("rooms")
    values["terminal_rooms"] = " ".join(rooms) if isinstance(rooms, list) else (rooms or "")
    guards = terminal.get("guards")
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
    terminal = choices.get("terminal") or {}
    me = (view.get("me") or {}).get("seat")
    return {
        "classes": list(choices.get("classes") or ()),
        "rooms": list(choices.get("rooms") or ()),
        "vote": [(v, names.get(v, v)) for v in choices.get("vote") or ()],
        "kill": [(v, names.get(v, v)) for v in choices.get("kill") or ()],
        "terminal": {"type": terminal.get("type"), "actions": list(terminal.get("actions") or ()),
                     "keys": list(terminal.get("keys") or ())},
        "players": [(s, n) for s, n in names.items() if s != me],
    }


def closing_rule(view: Mapping[str, Any]) -> str:
    """How the open phase closes, in the page's words (drafts never close it)."""
    early = bool((view.get("options") or {}).get("early_close"))
    if not early:
        return ("This phase closes at its deadline only; READY tells the others you are "
                "done, but does not close it earlier.")
    if view.get("phase") == "class":
        return ("This phase closes at its deadline, or as soon as every player has saved "
                "a class order.")
    return ("This phase closes at its deadline, or as soon as every living player's orders "
            "are saved and marked READY. Orders saved without READY are a draft.")


# ---------------------------------------------------------------- message places

_KILL_NAMED = re.compile(r"^(?P<name>.+) is (?:not in your room|dead|named more than once)\.$")
_NO_SUCH = re.compile(r"^There is no player or NPC called '(?P<name>.*)'\.$")
_TERMINAL_WORDS = ("terminal", "Terminal", "ALERT MODE", "hack or destroy", "restore",
                   "'action' must", "takes no other field", "Choose 1 to 5", "Messages must",
                   "Give 1 to 8 destinations")


def place_of(view: Mapping[str, Any], fields: Mapping[str, str], message: str) -> str:
    """The form place of one of the engine's messages (``PLACES``, ``kill-<id>``, or
    ``""`` for the top of the form: the platform's refusals and the phase's own)."""
    phase = view.get("phase")
    if message.startswith("'class' must") or message.startswith("Reds are always Warriors") \
            or "is not available in this game" in message:
        return "class"
    if message.startswith("A door code"):
        return "code"
    if message.startswith("'ready' must") or "before declaring READY" in message:
        return "ready"
    if phase == "movement":
        return "move" if ("is not a room" in message
                          or message.startswith("'move' must")) else ""
    if phase != "decision":
        return ""
    if message.startswith("'vote' must") or message == "You cannot vote for yourself." \
            or "Vote for a living player" in message:
        return "vote"
    if message.startswith("'kill' must"):
        return "kill"
    if message == "You cannot target yourself.":
        return f"kill-{(view.get('me') or {}).get('seat', '')}"
    ids = {name: seat for seat, name in names_of(view).items()}
    named = _KILL_NAMED.match(message)
    if named:
        return f"kill-{ids.get(named['name'], named['name'])}"
    missing = _NO_SUCH.match(message)
    if missing:
        value = missing["name"]
        if value and fields.get("vote", "").strip() == value:
            return "vote"
        if fields.get(f"kill-{value}") == "1":
            return f"kill-{value}"
        return "terminal"
    if "is not a room" in message or message.startswith("'terminal' must") \
            or any(word in message for word in _TERMINAL_WORDS):
        return "terminal"
    return ""


def form_places(view: Mapping[str, Any]) -> frozenset[str]:
    """The places the phase's form has (a message for any other goes to its top)."""
    phase = view.get("phase")
    if phase == "class":
        return frozenset({"class"})
    if phase == "movement":
        return frozenset({"move", "code", "ready"})
    if phase == "decision":
        kill = (view.get("choices") or {}).get("kill") or ()
        return frozenset({"vote", "kill", "terminal", "ready", *(f"kill-{k}" for k in kill)})
    return frozenset()


def places_of(view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
    """Place key -> its messages, in their order; only places the form has."""
    known = form_places(view)
    places: dict[str, list[str]] = {}
    for message in messages:
        key = place_of(view, fields, message)
        places.setdefault(key if key in known else "", []).append(message)
    return places


def result_line(view: Mapping[str, Any]) -> str | None:
    """How the game ended, in words, once it is over (``None`` before)."""
    result = view.get("result")
    if not isinstance(result, Mapping):
        return None
    outcome = RESULTS.get(str(result.get("result")), str(result.get("result")))
    reason = REASONS.get(str(result.get("reason")), str(result.get("reason")))
    winners = named_of(view)(result.get("winners")) or "nobody"
    return f"{outcome} Game over on turn {result.get('turn')}: {reason}. Winners: {winners}."


# ---------------------------------------------------------------- the pages


def _shared(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the seat page and a past report share, from the seat's view alone."""
    return {"phase_title": phase_title(view), "floors": facility(view),
            "names": names_of(view), "named": named_of(view), "log_rows": log_rows,
            "private_log": log_rows(view.get("private_log")), "result_line": result_line(view)}


class InfiltrationPages(GamePages):
    """The facility map, the phase's order form, the logs and the moderator's page."""

    seat_template = "seat.html"
    report_template = "report.html"
    #: its own name: "host.html" is the platform's generic page, which it extends
    host_template = "moderator.html"
    thread_key = "public_log"
    notebook_template = "notebook.html"

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        refused = facts.refused
        if refused is not None and refused.fields:  # the form as sent, messages beside
            data = refused.sheet if refused.sheet is not None else sheet_from_fields(
                view, refused.fields)
            places = places_of(view, refused.fields, refused.messages)
        else:
            data = facts.orders if facts.can_order else None
            places = {"": list(refused.messages)} if refused is not None else {}
        tally = vote_tally(view, facts.tally.get("vote") or {}) \
            if view.get("phase") == "decision" else {"rows": [], "totals": []}
        return {**_shared(view), "values": form_state(view, data),
                "choices": order_choices(view), "places": places, "vote_tally": tally,
                "closing_rule": closing_rule(view),
                "early_close": bool((view.get("options") or {}).get("early_close"))}

    def changes(self, before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
        return changes(before, after, entry, phase_title)

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        return sheet_from_fields(view, fields)

    def place(self, view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
        return places_of(view, fields, messages)

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return _shared(view)

    def explain(self, host_view: Mapping[str, Any], orders: Mapping[str, Any] | None,
                entry: int) -> list[Explanation]:
        """The phase's steps: the vote count, combat by priority, terminal answers and
        whether hacked, gas, deaths, the end check (``explain.explain_phase``)."""
        return explain_phase(host_view, entry)

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"phase_title": phase_title(view), "floors": host_facility(view),
                "named": named_of(view), "log_rows": log_rows, "result_line": result_line(view),
                "roster": list(view.get("seats") or ()),
                "npcs": list(view.get("npc_state") or ()),
                "private_logs": {str(seat): log_rows(events) for seat, events
                                 in (view.get("private_logs") or {}).items()},
                "presence": presence_rows(view)}

    def public(self, view: Mapping[str, Any], names: Mapping[str, str]) -> PublicTable | None:
        rows = tuple((p.get("handle"), "alive" if p.get("alive") else "dead",
                      p.get("phantoms") or "")
                     for p in view.get("players") or ())
        return PublicTable(("Player", "State", "Phantom votes"), rows)

    def result(self, view: Mapping[str, Any], names: Mapping[str, str]) -> GameResult | None:
        result = view.get("result")
        if not isinstance(result, Mapping):
            return None
        outcome = RESULTS.get(str(result.get("result")), str(result.get("result")))
        reason = REASONS.get(str(result.get("reason")), str(result.get("reason")))
        line = f"{outcome} Game over on turn {result.get('turn')}: {reason}."
        winners = {str(s) for s in result.get("winners") or ()}
        reveal = result.get("reveal") if isinstance(result.get("reveal"), Mapping) else {}
        rows = tuple(
            (s.get("handle"), str(s.get("team") or "").capitalize(), s.get("class") or "—",
             "alive" if s.get("alive") else "dead",
             "winner" if str(s.get("seat")) in winners else "")
            for s in (reveal or {}).get("seats") or ())
        return GameResult(line, PublicTable(("Player", "Team", "Class", "State", "Result"),
                                            rows))

    def notebook_read(self, notes: Any, views: Sequence[Mapping[str, Any]]) -> Any:
        return notebook_page.read(notes, views)

    def notebook(self, notes: Any) -> dict[str, Any]:
        return {"notebook": notebook_page.page(notes)}


__all__ = ["InfiltrationPages", "facility", "form_state", "host_facility", "log_rows",
           "order_choices", "place_of", "presence_rows", "sheet_from_fields", "vote_tally"]
