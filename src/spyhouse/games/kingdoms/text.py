"""Plain-text turn reports for Kingdoms, as a play-by-email player would get them.

Everything here reads a view mapping (``Kingdoms.view``, E.4) and nothing else:
never the state, so a report holds only what the view's seat may know. Missing
keys are left out, which covers spectators (public keys only).

- ``render_report(view)``: a seat's report: header, news, own country, the
  results of its rows, observations, events, the map's owners and the next order;
- ``render_host(view)``: the host view (every country's private part) or a
  spectator's public view;
- ``render_standings(view)``: the ranking at the end, else the countries by areas.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

TITLE = "KINGDOMS"
_TYPE_NAMES = {"SPY": "spy", "SPYCAT": "spy catcher", "MOLE": "mole",
               "MOLECAT": "mole catcher", "WATCHER": "watcher"}


# ---------------------------------------------------------------- helpers


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]],
           right: Iterable[int] = ()) -> list[str]:
    body = [["" if v is None else str(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in body:
        for i, value in enumerate(row):
            if i < len(widths):
                widths[i] = max(widths[i], len(value))
    right_set = set(right)

    def line(values: Sequence[str]) -> str:
        cells = [(values[i] if i < len(values) else "").rjust(w) if i in right_set
                 else (values[i] if i < len(values) else "").ljust(w)
                 for i, w in enumerate(widths)]
        return "  ".join(cells).rstrip()

    return [line(list(headers)), *(line(row) for row in body)]


def _heading(text: str) -> list[str]:
    return ["", text, "-" * len(text)]


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    return {str(c.get("id")): str(c.get("name")) for c in view.get("countries") or ()
            if isinstance(c, Mapping)}


def _areas(view: Mapping[str, Any]) -> dict[str, str]:
    game_map = view.get("map") or {}
    return {str(a.get("id")): str(a.get("name")) for a in game_map.get("area") or ()
            if isinstance(a, Mapping)}


def _who(view: Mapping[str, Any], cid: Any) -> str:
    if cid is None:
        return "neutral"
    name = _names(view).get(str(cid))
    return f"{cid} ({name})" if name else str(cid)


def _where(view: Mapping[str, Any], area: Any) -> str:
    name = _areas(view).get(str(area))
    return f"{area} {name}" if name else str(area)


def row_text(row: Mapping[str, Any]) -> str:
    """A row as ``ACTION FROM TO EXTRA`` with ``-`` for blank (trailing blanks left out)."""
    parts = [str(row.get("action") or "-")]
    parts += ["-" if row.get(k) is None else str(row.get(k)) for k in ("from", "to", "extra")]
    while len(parts) > 1 and parts[-1] == "-":
        parts.pop()
    return " ".join(parts)


def event_text(view: Mapping[str, Any], e: Mapping[str, Any]) -> str:
    """One private event (E.2) in words."""
    kind = e.get("event")
    what = _TYPE_NAMES.get(str(e.get("type")), str(e.get("type")))
    if kind == "agent_lost":
        if e.get("cause") == "ambush":
            return (f"your {what} was ambushed in {_where(view, e.get('area'))} by "
                    f"{_who(view, e.get('by'))}'s {_TYPE_NAMES.get(str(e.get('means')), '')}")
        means = ("as the area's owner" if e.get("means") == "owner"
                 else f"with its {_TYPE_NAMES.get(str(e.get('means')), '')}")
        return (f"your {what} in {_where(view, e.get('area'))} was killed by "
                f"{_who(view, e.get('by'))} {means}")
    if kind == "ambush":
        return (f"your ambush in {_where(view, e.get('area'))} caught "
                f"{_who(view, e.get('victim'))}'s {what}")
    if kind == "wait_cancelled":
        return (f"your {_TYPE_NAMES.get(str(e.get('agent')), '')} no longer waits in "
                f"{e.get('area')} for {e.get('target')} ({str(e.get('cause')).replace('_', ' ')})")
    if kind == "sabotaged":
        done = "one army dispersed" if e.get("dispersed") else "no army there to disperse"
        return f"{_who(view, e.get('by'))}'s spy sabotaged {_where(view, e.get('area'))}: {done}"
    if kind == "battle":
        return (f"battle in {_where(view, e.get('area'))}: {e.get('attacker')} attacked "
                f"{e.get('defender')} with {e.get('attackers')} against {e.get('defenders')}; "
                f"attacker lost {e.get('attacker_losses')}, defender lost "
                f"{e.get('defender_losses')}; {e.get('result')}")
    if kind == "area_captured":
        how = "in battle" if e.get("battle") else "without battle"
        return f"{_where(view, e.get('area'))} was captured by {_who(view, e.get('by'))} {how}"
    if kind == "eliminated":
        return f"your country was eliminated in turn {e.get('turn')}"
    return str(dict(e))


def news_lines(view: Mapping[str, Any]) -> list[str]:
    """The last turn's news: a heading (three lines), then one line per change."""
    news = view.get("news") or []
    if not news:
        return []
    last = news[-1]
    lines = _heading(f"News of turn {last.get('turn')}")
    for c in last.get("captures") or ():
        lines.append(f"  {_where(view, c.get('area'))}: {_who(view, c.get('old'))} → "
                     f"{_who(view, c.get('new'))}")
    for cid in last.get("eliminated") or ():
        lines.append(f"  {_who(view, cid)} has been eliminated")
    if len(lines) == 3:
        lines.append("  no area changed hands")
    return lines


def _countries(view: Mapping[str, Any]) -> list[str]:
    rows = [(c.get("id"), c.get("name"), c.get("seat"), c.get("areas"),
             "in the game" if c.get("eliminated") is None
             else f"eliminated in turn {c.get('eliminated')}")
            for c in view.get("countries") or ()]
    return [*_heading("Countries"),
            *_table(("Id", "Country", "Seat", "Areas", "Status"), rows, right=(3,))]


def _owners(view: Mapping[str, Any], armies: Mapping[str, Any] | None = None) -> list[str]:
    armies = armies or {}
    rows = [(area, _areas(view).get(area, ""), owner or "-",
             armies.get(area, "") if owner is not None else "")
            for area, owner in (view.get("owners") or {}).items()]
    return [*_heading("Map"), *_table(("Area", "Name", "Owner", "Armies"), rows, right=(3,))]


def _me(view: Mapping[str, Any], me: Mapping[str, Any], report: Mapping[str, Any] | None
        ) -> list[str]:
    income = report.get("income") if isinstance(report, Mapping) else None
    lines = _heading(f"Your country: {_who(view, me.get('country'))}")
    lines.append(f"  BP {me.get('bp')}" + (f" (income +{income})" if income is not None
                                           else "") + f", reserve {me.get('reserve')} armies")
    agents = [f"{_TYPE_NAMES.get(str(a.get('type')))} in {_where(view, a.get('area'))}"
              for a in me.get("agents") or ()]
    lines.append("  agents: " + ("; ".join(agents) or "none"))
    lines.append("  watchers: " + (", ".join(_where(view, a) for a in me.get("watchers") or ())
                                   or "none"))
    wait = me.get("wait")
    if isinstance(wait, Mapping):
        lines.append(f"  standing WAIT: your {_TYPE_NAMES.get(str(wait.get('agent')))} in "
                     f"{wait.get('area')} waits for {wait.get('target')}'s "
                     f"{_TYPE_NAMES.get(str(wait.get('hunts')))}")
    return lines


def _report(view: Mapping[str, Any], report: Mapping[str, Any]) -> list[str]:
    lines = _heading(f"Your actions in turn {report.get('turn')}")
    rows = [(r.get("index"), row_text(r.get("row") or {}), r.get("status"),
             r.get("bp") or "", r.get("text")) for r in report.get("results") or ()]
    lines += _table(("#", "Row", "Status", "BP", "Result"), rows, right=(0, 3)) if rows else [
        "  no actions"]
    observations = report.get("observations") or []
    lines += _heading("Observations")
    if observations:
        obs_rows = [(o.get("when"), _TYPE_NAMES.get(str(o.get("by"))), o.get("area"),
                     _areas(view).get(str(o.get("area")), ""), o.get("owner") or "-",
                     o.get("armies"),
                     ", ".join(f"{a.get('country')} {a.get('type')}" for a in o.get("agents")
                               or ()) or "-")
                    for o in observations]
        lines += _table(("When", "By", "Area", "Name", "Owner", "Armies", "Agents seen"),
                        obs_rows, right=(5,))
    else:
        lines.append("  none")
    lines += _heading("Events")
    events = report.get("events") or []
    lines += [f"  {event_text(view, e)}" for e in events] or ["  none"]
    return lines


def _header(view: Mapping[str, Any], who: str) -> list[str]:
    game_map = view.get("map") or {}
    over = view.get("outcome")
    state = "final report" if over else f"orders for turn {view.get('turn')}"
    title = f"{TITLE} — {game_map.get('name', '')} — {state} — {who}"
    return [title, "=" * len(title)]


def _footer(view: Mapping[str, Any]) -> list[str]:
    if view.get("outcome"):
        return ["", *render_standings(view).rstrip("\n").split("\n")]
    order = view.get("order") or []
    options = view.get("options") or {}
    return ["", f"Player order of turn {view.get('turn')}: {' '.join(order)} "
                f"(at most {options.get('actions_per_turn')} actions, "
                f"{options.get('max_moves')} MOVEs)"]


# ---------------------------------------------------------------- renderers


def render_report(view: Mapping[str, Any]) -> str:
    """A seat's turn report (E.4) as text."""
    me = view.get("me")
    if not isinstance(me, Mapping):
        return render_host(view)
    report = view.get("report")
    lines = _header(view, _who(view, me.get("country")))
    lines += news_lines(view)
    lines += _me(view, me, report if isinstance(report, Mapping) else None)
    own = me.get("armies") or {}
    if own:
        lines += _table(("  Area", "Name", "Armies"),
                        [(f"  {a}", _areas(view).get(a, ""), n) for a, n in own.items()],
                        right=(2,))
    if isinstance(report, Mapping):
        lines += _report(view, report)
    lines += _countries(view)
    lines += _owners(view, own)
    lines += _footer(view)
    return "\n".join(lines) + "\n"


def render_host(view: Mapping[str, Any]) -> str:
    """The host view (every country's private part) or a spectator's public view."""
    lines = _header(view, "host" if "private" in view else "public")
    lines += news_lines(view)
    lines += _countries(view)
    private = view.get("private") or {}
    armies: dict[str, Any] = {}
    for part in private.values():
        armies.update((part.get("me") or {}).get("armies") or {})
    lines += _owners(view, armies)
    for part in private.values():
        me = part.get("me") or {}
        report = part.get("report")
        lines += _me(view, me, report if isinstance(report, Mapping) else None)
        if isinstance(report, Mapping):
            lines += [f"  {line}" for line in _report(view, report)]
    lines += _footer(view)
    return "\n".join(lines) + "\n"


def render_standings(view: Mapping[str, Any]) -> str:
    """The ranking once the game is over, else the countries by areas (public keys only)."""
    countries = {str(c.get("id")): c for c in view.get("countries") or ()
                 if isinstance(c, Mapping)}
    over = view.get("outcome")
    if isinstance(over, Mapping):
        title = f"Final ranking after turn {view.get('turn')}"
        winners = over.get("winners") or ()
        rows = []
        for r in over.get("ranking") or ():
            c = countries.get(str(r.get("country")), {})
            status = "wins" if r.get("country") in winners else (
                "" if c.get("eliminated") is None else f"out in turn {c.get('eliminated')}")
            rows.append((r.get("rank"), r.get("country"), c.get("name"), c.get("areas"),
                         status))
    else:
        title = f"Standings after turn {int(view.get('turn') or 1) - 1} (game not over)"
        listed = sorted(countries.values(), key=lambda c: (c.get("eliminated") is not None,
                                                           -int(c.get("areas") or 0)))
        rows = [("-", c.get("id"), c.get("name"), c.get("areas"),
                 "" if c.get("eliminated") is None else f"out in turn {c.get('eliminated')}")
                for c in listed]
    lines = [title, *_table(("Rank", "Id", "Country", "Areas", ""), rows, right=(0, 3))]
    return "\n".join(lines) + "\n"


__all__ = ["event_text", "render_host", "render_report", "render_standings", "row_text"]
