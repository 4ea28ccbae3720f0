"""Plain-text reports of Infiltration views, for ``spyhouse replay`` and mail.

Everything here reads a view mapping (``Infiltration.view``, spec §15.4) and
nothing else: never the state, so a report holds only what the view's seat may
know. Missing keys are left out, which covers spectators (public keys only).

- ``render_report(view)``: a seat's report: who I am, my arrival report, the Reds'
  occupancy report, what I may order now, my private log and the public thread.
- ``render_host(view)``: the host view (``seat=None``): every seat's secrets, the
  facility map, the NPCs, locks, door and code, and the public thread.
- ``render_standings(view)``: the result (or the roster while the game goes on).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

TITLE = "INFILTRATION"
_PHASES = {"class": "class selection", "movement": "Movement phase",
           "decision": "Decision phase", "over": "game over"}
#: A terminal's short name, short enough for a map cell (also the pages' map).
SHORT = {
    "GHOST room": "GHOST", "General's room": "GENRL", "Weapons Lab": "LAB",
    "Power generator": "POWER", "Commander's": "CMDR", "Seer": "SEER", "Psychic": "PSYCH",
    "Locator": "LOCAT", "History": "HIST", "Map data": "MAP", "Superlocator": "SUPER",
    "Anonymous messaging": "MSG", "Gas": "GAS", "Guard": "GUARD", "Validity check": "VALID",
    "Electronic lock": "LOCK", "Switch": "SWTCH",
}


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    return {row["seat"]: row["handle"] for row in view.get("players") or ()}


def _who(names: Mapping[str, str], ids: Iterable[str]) -> str:
    return ", ".join(names.get(x, x) for x in ids) or "nobody"


def _header(view: Mapping[str, Any]) -> list[str]:
    phase = _PHASES.get(str(view.get("phase")), str(view.get("phase")))
    line = f"{TITLE} — turn {view.get('turn', 0)}, {phase}"
    if view.get("alert") is True:
        line += " — ALERT MODE"
    return [line, "=" * len(line)]


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    body = [["" if v is None else str(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    return [line(list(headers))] + [line(r) for r in body]


def _log(title: str, events: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [title]
    if not events:
        return [*out, "  (nothing yet)"]
    turn = None
    for item in events:
        if item.get("turn") != turn:
            turn = item.get("turn")
            out.append(f"  Turn {turn}:")
        for number, text in enumerate(str(item.get("text", "")).splitlines() or [""]):
            prefix = f"    [{item.get('kind')}] " if number == 0 else "      "
            out.append(prefix + text)
    return out


def _arrival(report: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    out = [f"Arrival report (turn {report.get('turn')}): {report.get('room')} — "
           f"{report.get('text')}"]
    if report.get("notice"):
        out.append(f"  Notice: {report['notice']}")
    out.append(f"  Players here: {_who(names, report.get('players') or ())}")
    if report.get("npcs"):
        out.append(f"  NPCs here: {', '.join(report['npcs'])}")
    if report.get("corpses"):
        out.append(f"  Corpses: {_who(names, report['corpses'])}")
    return out


def _choices(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    choices = view.get("choices") or {}
    if not view.get("awaited"):
        return ["You have nothing to order now."]
    out = ["Your orders now:"]
    if "classes" in choices:
        offered = choices["classes"]
        out.append("  class: " + (", ".join(offered) if offered else
                                  "none (Reds are always Warriors; send {})"))
    if "rooms" in choices:
        out.append("  move: any room A-1 … H-8 (code: four digits, for the GHOST room)")
    if "vote" in choices:
        out.append("  vote: " + _who(names, choices["vote"]))
        out.append("  kill: " + _who(names, choices["kill"]))
        terminal = choices.get("terminal") or {}
        kind = terminal.get("type") or "no terminal"
        actions = ", ".join(terminal.get("actions") or []) or "none"
        keys = ", ".join(terminal.get("keys") or []) or "none"
        out.append(f"  terminal: {kind} — actions: {actions}; USE keys: {keys}")
    return out


def _result(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    result = view.get("result")
    if not result:
        return []
    out = [f"GAME OVER on turn {result.get('turn')}: {result.get('result')} "
           f"({result.get('reason')}); winners: {_who(names, result.get('winners') or [])}"]
    reveal = result.get("reveal") or {}
    if reveal.get("seats"):
        out.append("")
        out.extend(_seats(reveal["seats"]))
    if reveal.get("code"):
        out.append(f"General's code: {reveal['code']}")
    return out


def _seats(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    rows = []
    for s in seats:
        death = s.get("death")
        rows.append((s["seat"], s["handle"], s["team"], s.get("class"),
                     "alive" if s["alive"] else "dead", s["room"],
                     "yes" if s.get("stinger") else "", s.get("phantoms") or "",
                     f"{death['cause']} (turn {death['turn']})" if death else ""))
    return _table(("Seat", "Handle", "Team", "Class", "State", "Room", "Stinger", "Phantoms",
                   "Death"), rows)


def render_report(view: Mapping[str, Any]) -> str:
    """A seat's report as plain text."""
    names = _names(view)
    out = _header(view)
    me = view.get("me")
    if me:
        klass = me.get("class") or "class not chosen yet"
        state = "alive" if me.get("alive") else "dead"
        out.append(f"You: {me['handle']} ({me['seat']}), {me['team'].capitalize()} {klass}, "
                   f"{state}, in {me['room']}; Stinger: {'yes' if me.get('stinger') else 'no'}"
                   f"; phantoms: {me.get('phantoms', 0)}")
        if me.get("reds"):
            out.append(f"The Reds: {_who(names, me['reds'])}")
    if view.get("red_count") is not None:
        out.append(f"Reds at the start: {view['red_count']}")
    out.append("")
    if view.get("arrival"):
        out.extend(_arrival(view["arrival"], names))
        out.append("")
    if view.get("occupancy"):
        rooms = ", ".join(f"{room}: {count}" for room, count in view["occupancy"])
        out.extend([f"Occupancy (Reds only): {rooms}", ""])
    if "me" in view:
        out.extend(_choices(view, names))
        out.append("")
    out.extend(_table(("Seat", "Handle", "State", "Phantoms"),
                      [(r["seat"], r["handle"], "alive" if r["alive"] else "dead",
                        r["phantoms"] or "") for r in view.get("players") or ()]))
    out.append("")
    if "private_log" in view:
        out.extend(_log("Your private log:", view["private_log"]))
        out.append("")
    out.extend(_log("Public thread:", view.get("public_log") or []))
    result = _result(view, names)
    if result:
        out.extend(["", *result])
    return "\n".join(out) + "\n"


def _facility(rooms: Sequence[Mapping[str, Any]]) -> list[str]:
    """The 8×8 map: each room's feature, ``*`` hacked, ``x`` destroyed."""
    out = ["Facility (* hacked, x destroyed):", "     " + "".join(f"{n:<8}" for n in range(1, 9))]
    for floor in "ABCDEFGH":
        cells = []
        for row in rooms:
            if row["room"].startswith(floor + "-"):
                mark = "x" if row.get("destroyed") else "*" if row.get("hacked") else ""
                cells.append(f"{SHORT.get(row['feature'], row['feature'])}{mark}".ljust(8))
        out.append(f"  {floor}  " + "".join(cells).rstrip())
    return out


def render_host(view: Mapping[str, Any]) -> str:
    """The host view (or a spectator's public view) as plain text."""
    names = _names(view)
    out = _header(view)
    if view.get("awaiting") is not None:
        out.append(f"Awaiting: {_who(names, view['awaiting'])}")
    if view.get("seats"):
        out.append("")
        out.extend(_seats(view["seats"]))
    if view.get("rooms"):
        out.append("")
        out.extend(_facility(view["rooms"]))
    if view.get("npc_state"):
        out.append("")
        out.extend(_table(("NPC", "Room", "State", "Plan"),
                          [(n["id"], n["room"], "alive" if n["alive"] else "dead", n["plan"])
                           for n in view["npc_state"]]))
    if "code" in view:
        out.append("")
        out.append(f"Code: {view['code']}; GHOST outer door: "
                   f"{'open' if view.get('ghost_door_open') else 'locked'}; locks next "
                   f"movement: {', '.join(view.get('locks') or []) or 'none'}")
    out.append("")
    out.extend(_log("Public thread:", view.get("public_log") or []))
    result = _result(view, names)
    if result:
        out.extend(["", result[0]])
    return "\n".join(out) + "\n"


def render_standings(view: Mapping[str, Any]) -> str:
    """The result, or the roster with who is alive while the game goes on."""
    names = _names(view)
    result = view.get("result")
    if result:
        return (f"{result['result']} ({result['reason']}) on turn {result['turn']}; winners: "
                f"{_who(names, result.get('winners') or [])}\n")
    rows = [(r["handle"], "alive" if r["alive"] else "dead") for r in view.get("players") or ()]
    return "\n".join(_table(("Player", "State"), rows)) + "\n"
