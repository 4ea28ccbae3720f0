"""Why a Kingdoms turn came out as it did, for the replay (``GamePages.explain``).

Read from the host view after the turn: every country's report (its action results,
observations, events and income, spec E.2), the options' seating and the countries'
eliminations. The steps follow D.2: the player order, the start observations, the
action phase slot by slot in player order (each row's result: spies, catchers, moles
and watchers, FIND, KILL, WAIT, SABOTAGE, RAISE, MOVE), what was caught, ambushed,
sabotaged or fought over (the events), eliminations, income, end observations and the
outcome. Kingdoms writes nothing more for the host than its reports: a step they do not
show (a battle's dice) is not explained. Pure: a view in, sentences out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation

_AGENT = {"SPY": "spy", "SPYCAT": "spy catcher", "MOLE": "mole", "MOLECAT": "mole catcher",
          "WATCHER": "watcher"}


class _Names:
    """Country names by id, from the view's public ``countries``."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.names = {str(c.get("id")): str(c.get("name"))
                      for c in view.get("countries") or () if isinstance(c, Mapping)}

    def __call__(self, cid: Any) -> str:
        if cid is None:
            return "nobody"
        return self.names.get(str(cid), str(cid))


def _agent(kind: Any) -> str:
    return _AGENT.get(str(kind), str(kind).lower())


def player_order(view: Mapping[str, Any], turn: int) -> list[str]:
    """D.2.1: the seating rotated left by (t − 1) mod N, without the countries eliminated
    before turn t (one eliminated in turn t still acted in it)."""
    base = [str(c) for c in (view.get("options") or {}).get("seating") or ()]
    if not base:
        return []
    shift = (turn - 1) % len(base)
    gone = {str(c.get("id")): c.get("eliminated") for c in view.get("countries") or ()}
    return [c for c in [*base[shift:], *base[:shift]]
            if gone.get(c) is None or int(gone[c]) >= turn]


def explain_turn(view: Mapping[str, Any], entry: int) -> list[Explanation]:
    """The explanation of record entry ``entry`` from the host view after it."""
    names = _Names(view)
    private: Mapping[str, Any] = view.get("private") or {}
    reports: dict[str, Mapping[str, Any]] = {}
    for cid, part in private.items():
        report = (part or {}).get("report")
        if isinstance(report, Mapping):
            reports[str(cid)] = report
    turn = next((int(r.get("turn") or 0) for r in reports.values()), 0)
    if entry == 0 or turn == 0:
        return [_setup(view, names)]
    order = player_order(view, turn)
    ordered = [c for c in order if c in reports]
    out = [Explanation("D.2.1 Player order", (
        f"Turn {turn}: " + ", ".join(names(c) for c in order) + " (the seating rotated by "
        f"{turn - 1}; each slot is played country by country in this order).",))]
    out.append(Explanation("D.2.3 Start observations", tuple(
        _observations(reports, ordered, names, ("start",))
        or ["No agent was in place at the start of the turn."])))
    out.append(Explanation("D.2.4 Action phase", tuple(_actions(reports, ordered, names))))
    out.append(Explanation("Spies caught, ambushes, sabotage and battles", tuple(
        _events(reports, ordered, names) or ["Nothing was caught, sabotaged or fought over."])))
    eliminated = [names(c.get("id")) for c in view.get("countries") or ()
                  if c.get("eliminated") == turn]
    out.append(Explanation("D.2.5 Eliminations", (
        ("Eliminated: " + ", ".join(eliminated) + " (no land area left).") if eliminated
        else "No country was eliminated.",)))
    out.append(Explanation("D.2.6 Income", tuple(
        f"{names(c)} gains {int(reports[c].get('income') or 0)} BP (1 per land area owned)."
        for c in ordered) or ("No income.",)))
    out.append(Explanation("D.2.7 End observations", tuple(
        _observations(reports, ordered, names, ("end",))
        or ["No agent or watcher observed at the end of the turn."])))
    outcome = view.get("outcome")
    if isinstance(outcome, Mapping):
        ranks = ", ".join(f"{r.get('rank')}. {names(r.get('country'))}"
                          for r in outcome.get("ranking") or ())
        winners = ", ".join(names(w) for w in outcome.get("winners") or ())
        out.append(Explanation("D.2.8 Outcome", (f"The game is over: {winners} won.",
                                                 f"Ranking: {ranks}.")))
    return out


def _setup(view: Mapping[str, Any], names: _Names) -> Explanation:
    options = view.get("options") or {}
    lines = [f"Map {options.get('map')}; each country starts with {options.get('start_bp')} BP "
             f"and a force pool of {options.get('force_pool')}; up to "
             f"{options.get('actions_per_turn')} rows a turn."]
    for c in view.get("countries") or ():
        lines.append(f"{names(c.get('id'))} (seat {c.get('seat')}): {c.get('areas')} areas.")
    return Explanation("D.1 Set-up", tuple(lines))


def _row(row: Mapping[str, Any]) -> str:
    parts = [str(row.get(key)) for key in ("action", "from", "to", "extra")
             if row.get(key) is not None]
    return " ".join(parts)


def _actions(reports: Mapping[str, Any], ordered: Sequence[str], names: _Names) -> list[str]:
    """Slot by slot, each country in player order: its row, done or failed, and why."""
    results = {c: list(reports[c].get("results") or ()) for c in ordered}
    slots = max((len(r) for r in results.values()), default=0)
    lines = []
    for slot in range(1, slots + 1):
        for c in ordered:
            if len(results[c]) < slot:
                continue
            r = results[c][slot - 1]
            paid = f", {r.get('bp')} BP paid" if r.get("bp") else ""
            lines.append(f"Slot {slot}, {names(c)}: {_row(r.get('row') or {})}: "
                         f"{r.get('status')}{paid}: {r.get('text')}.")
    return lines or ["No country gave an order."]


def _observations(reports: Mapping[str, Any], ordered: Sequence[str], names: _Names,
                  when: Sequence[str]) -> list[str]:
    lines = []
    for c in ordered:
        for o in reports[c].get("observations") or ():
            if o.get("when") not in when:
                continue
            agents = ", ".join(f"{names(a.get('country'))}'s {_agent(a.get('type'))}"
                               for a in o.get("agents") or ()) or "no agent"
            lines.append(f"{names(c)}'s {_agent(o.get('by'))} in {o.get('area')} saw: owner "
                         f"{names(o.get('owner'))}, {o.get('armies')} armies, {agents}.")
    return lines


def _events(reports: Mapping[str, Any], ordered: Sequence[str], names: _Names) -> list[str]:
    """Each country's events in processing order; a battle, told to both sides, once."""
    lines: list[str] = []
    battles: set[tuple[Any, ...]] = set()
    for c in ordered:
        for e in reports[c].get("events") or ():
            kind = e.get("event")
            if kind == "battle":
                key = tuple(sorted((k, str(v)) for k, v in e.items()))
                if key in battles:
                    continue
                battles.add(key)
            lines.append(_event(c, e, names))
    return lines


def _event(c: str, e: Mapping[str, Any], names: _Names) -> str:
    kind = e.get("event")
    who = names(c)
    if kind == "agent_lost":
        how = (f"killed by {names(e.get('by'))} ({_means(e.get('means'))})"
               if e.get("cause") == "kill" else
               f"ambushed by {names(e.get('by'))}'s waiting {_agent(e.get('means'))}")
        return f"{who} lost its {_agent(e.get('type'))} in {e.get('area')}: {how}."
    if kind == "ambush":
        return (f"{who}'s WAIT in {e.get('area')} caught {names(e.get('victim'))}'s "
                f"{_agent(e.get('type'))} as it entered.")
    if kind == "wait_cancelled":
        return (f"{who}'s {_agent(e.get('agent'))} stopped waiting in {e.get('area')} for "
                f"{names(e.get('target'))}: {str(e.get('cause')).replace('_', ' ')}.")
    if kind == "sabotaged":
        what = "one army dispersed" if e.get("dispersed") else "no army to disperse"
        return f"{who}'s area {e.get('area')} was sabotaged by {names(e.get('by'))}: {what}."
    if kind == "battle":
        result = "the attacker captured it" if e.get("result") == "captured" else "it was held"
        return (f"Battle in {e.get('area')}: {names(e.get('attacker'))} attacked with "
                f"{e.get('attackers')} against {names(e.get('defender'))}'s "
                f"{e.get('defenders')}; losses {e.get('attacker_losses')} and "
                f"{e.get('defender_losses')}; {result} (ties go to the defender).")
    if kind == "area_captured":
        how = "after a battle" if e.get("battle") else "without a battle"
        return f"{who} lost {e.get('area')} to {names(e.get('by'))} {how}."
    if kind == "eliminated":
        return f"{who} was eliminated in turn {e.get('turn')}."
    detail = ", ".join(f"{k} {v}" for k, v in e.items() if k != "event")
    return f"{who}: {kind} ({detail})."


def _means(means: Any) -> str:
    return "as the area's owner" if means == "owner" else f"with its {_agent(means)}"


__all__ = ["explain_turn", "player_order"]
