"""Helpers for the Kingdoms worked examples (spec §F).

``new_game(3)`` is the baseline G3 (default map, seats s1 s2 s3 playing k1 k3 k5),
``G4``/``G6`` likewise. ``put(state, "k3:SPY@a03", "k5:W@a09")`` places agents and
watchers; ``waiting(state, "k1", "SPYCAT", "k3")`` gives a country a standing WAIT
where its agent stands; ``set_area`` changes an area's owner and armies keeping
every force pool whole. ``play(state, {"k1": ["SPY a01 a02"]}, battle=[2, 4])``
parses the rows (``ACTION FROM TO EXTRA`` with ``-`` for blank) exactly as a
player's JSON is parsed, resolves one turn and returns a ``Played`` to read the
views with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from spyhouse.core.errors import OrderError
from spyhouse.core.rng import ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.kingdoms.model import HUNTS, AgentType, Orders, State, Wait
from spyhouse.games.kingdoms.ruleset import Kingdoms

RULES = Kingdoms()


def new_game(players: int = 3, *, turn: int = 1, options: Mapping[str, Any] | None = None
             ) -> State:
    """The baseline G3/G4/G6 of §F at ``turn`` (the start state of B.3)."""
    seats = [Seat(f"s{i}", f"Player {i}") for i in range(1, players + 1)]
    state = RULES.setup(seats, dict(options or {}), ScriptedRng(0))
    state.turn = turn
    return state


def seat(state: State, cid: str) -> str:
    return state.countries[cid].seat


def put(state: State, *specs: str) -> None:
    """``k3:SPY@a03`` an agent, ``k3:W@a09`` a watcher."""
    for spec in specs:
        cid, rest = spec.split(":")
        kind, area = rest.split("@")
        country = state.countries[cid]
        if kind == "W":
            country.watchers = sorted([*country.watchers, area],
                                      key=state.map.order.__getitem__)
        else:
            country.agents[AgentType(kind)] = area


def waiting(state: State, cid: str, agent: str, target: str) -> None:
    """``cid``'s agent ``agent`` stands waiting for ``target`` where it is (A.7.2)."""
    kind = AgentType(agent)
    country = state.countries[cid]
    country.wait = Wait(kind, country.agents[kind], target, HUNTS[kind])


def set_area(state: State, area: str, owner: str | None, armies: int) -> None:
    """Give ``area`` to ``owner`` with ``armies``; reserves change so pools stay whole."""
    old = state.owners[area]
    if old is not None:
        state.countries[old].reserve += state.armies[area]
    state.owners[area] = owner
    state.armies[area] = armies
    if owner is not None:
        state.countries[owner].reserve -= armies


def row(text: str) -> dict[str, Any]:
    """``"MOVE a02 a03 3"`` -> the C.1 row JSON (``-`` = blank)."""
    parts = text.split()
    fields: list[Any] = [None if p == "-" else p for p in parts[1:]] + [None] * 3
    extra = fields[2]
    if isinstance(extra, str) and extra.isdigit():
        extra = int(extra)
    return {"action": parts[0], "from": fields[0], "to": fields[1], "extra": extra}


def orders_json(rows: Sequence[str]) -> dict[str, Any]:
    return {"actions": [row(text) for text in rows]}


def refusal(state: State, cid: str, data: Any) -> str:
    """The message of orders that must be refused (a list of row texts or raw JSON)."""
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        data = orders_json(data)
    with pytest.raises(OrderError) as caught:
        RULES.parse_orders(state, seat(state, cid), data)
    (message,) = caught.value.messages
    return message


@dataclass
class Played:
    """One resolved turn: the state before and after, read through the views."""

    before: State
    after: State
    rng: ScriptedRng

    def view(self, cid: str) -> dict[str, Any]:
        return RULES.view(self.after, seat(self.after, cid))

    def report(self, cid: str) -> dict[str, Any]:
        report = self.view(cid)["report"]
        assert isinstance(report, dict)
        return report

    def results(self, cid: str) -> list[tuple[str, str]]:
        return [(r["status"], r["text"]) for r in self.report(cid)["results"]]

    def text(self, cid: str, index: int) -> str:
        return str(self.report(cid)["results"][index - 1]["text"])

    def status(self, cid: str, index: int) -> str:
        return str(self.report(cid)["results"][index - 1]["status"])

    def events(self, cid: str) -> list[dict[str, Any]]:
        return list(self.report(cid)["events"])

    def observations(self, cid: str) -> list[tuple[Any, ...]]:
        """(when, area, by, owner, armies, [(country, type)]) in the order taken."""
        return [(o["when"], o["area"], o["by"], o["owner"], o["armies"],
                 [(a["country"], a["type"]) for a in o["agents"]])
                for o in self.report(cid)["observations"]]

    def me(self, cid: str) -> dict[str, Any]:
        return dict(self.view(cid)["me"])

    def bp_before_income(self, cid: str) -> int:
        return int(self.me(cid)["bp"]) - int(self.report(cid)["income"])

    def agents(self, cid: str) -> dict[str, str]:
        return {a["type"]: a["area"] for a in self.me(cid)["agents"]}

    def news(self) -> dict[str, Any]:
        return dict(self.view(next(iter(self.after.countries)))["news"][-1])

    def quiet(self, cid: str) -> bool:
        """``cid`` learned nothing this turn: no results, observations or events."""
        report = self.report(cid)
        return not report["results"] and not report["observations"] and not report["events"]


def play(state: State, rows: Mapping[str, Sequence[str] | None], *,
         battle: Sequence[int] = ()) -> Played:
    """Resolve one turn with ``rows`` per country (``None`` = a no-show)."""
    rng = ScriptedRng(0, {"battle": list(battle)})
    orders: dict[str, Orders | None] = {}
    for cid, texts in rows.items():
        sid = seat(state, cid)
        orders[sid] = None if texts is None else RULES.parse_orders(state, sid,
                                                                     orders_json(texts))
    after = RULES.resolve(state, orders, rng)
    assert not rng.unused(), f"battle draws left over: {rng.unused()}"
    return Played(state, after, rng)


def event(name: str, **data: Any) -> dict[str, Any]:
    return {"event": name, **data}


def agent_lost(area: str, kind: str, cause: str, by: str, means: str) -> dict[str, Any]:
    return event("agent_lost", area=area, type=kind, cause=cause, by=by, means=means)


def wait_cancelled(agent: str, area: str, target: str, cause: str) -> dict[str, Any]:
    return event("wait_cancelled", agent=agent, area=area, target=target, cause=cause)
