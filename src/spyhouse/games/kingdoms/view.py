"""Views (E.4), built by allow-list: each key is constructed from what the seat may know.

Nothing is copied from the state and pruned. Pages, mails, the text report and
bots read these views and nothing else.

- ``public_view``: the nine public keys of E.4 (every seat and spectators);
- ``seat_view``: public keys plus ``me`` and ``report`` of the seat's country;
- ``host_view``: public keys plus ``private`` (every country's ``me`` and ``report``).
"""

from __future__ import annotations

from typing import Any

from spyhouse.games.kingdoms.model import AGENT_TYPES, Country, State
from spyhouse.games.kingdoms.resolve import player_order

PUBLIC_KEYS = ("game", "turn", "map", "options", "countries", "owners", "order", "news",
               "outcome")


def _options(state: State) -> dict[str, Any]:
    o = state.options
    return {"start_bp": o.start_bp, "force_pool": o.force_pool,
            "actions_per_turn": o.actions_per_turn, "max_moves": o.max_moves,
            "max_watchers": o.max_watchers, "max_turns": o.max_turns, "map": o.map.id,
            "seating": list(state.base_order)}


def public_view(state: State) -> dict[str, Any]:
    """E.1 / E.4: what every seat and every spectator may know."""
    areas: dict[str, int] = {}
    for owner in state.owners.values():
        if owner is not None:
            areas[owner] = areas.get(owner, 0) + 1
    return {
        "game": "kingdoms",
        "turn": state.turn,
        "map": state.map.to_json(),
        "options": _options(state),
        "countries": [{"id": c.id, "name": c.name, "seat": c.seat,
                       "areas": areas.get(c.id, 0), "eliminated": c.eliminated}
                      for c in state.countries.values()],
        "owners": dict(state.owners),
        "order": [] if state.outcome is not None else player_order(state),
        "news": [news.to_json() for news in state.news],
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def me(state: State, country: Country) -> dict[str, Any]:
    """E.2 "own state": BP, reserve, own armies, own agents, watchers and standing WAIT."""
    return {
        "country": country.id,
        "bp": country.bp,
        "reserve": country.reserve,
        "armies": {area: state.armies[area] for area, owner in state.owners.items()
                   if owner == country.id},
        "agents": [{"type": kind.value, "area": country.agents[kind]}
                   for kind in AGENT_TYPES if kind in country.agents],
        "watchers": list(country.watchers),
        "wait": None if country.wait is None else country.wait.to_json(),
    }


def report(state: State, country: Country) -> dict[str, Any] | None:
    """E.4 ``report``: the last resolved turn's results, observations, events and income."""
    if state.resolved == 0:
        return None
    found = state.reports.get(country.id)
    if found is None:  # a country with nothing to report this turn
        return {"turn": state.resolved, "results": [], "observations": [], "events": [],
                "income": 0}
    return found.to_json()


def seat_view(state: State, seat: str) -> dict[str, Any]:
    """What ``seat``'s country may know after the last resolved turn."""
    country = state.country_of(seat)
    if country is None:
        raise KeyError(f"no seat {seat!r} in this game")
    view = public_view(state)
    view["me"] = me(state, country)
    view["report"] = report(state, country)
    return view


def host_view(state: State) -> dict[str, Any]:
    """The host's full view (E.4): the public keys and every country's ``me`` and ``report``.

    ``game_over`` (the outcome, or ``null``) is added for the platform's game-independent
    checks; it repeats ``outcome`` and reveals nothing more.
    """
    view = public_view(state)
    view["private"] = {c.id: {"me": me(state, c), "report": report(state, c)}
                       for c in state.countries.values()}
    view["game_over"] = None if state.outcome is None else state.outcome.to_json()
    return view
