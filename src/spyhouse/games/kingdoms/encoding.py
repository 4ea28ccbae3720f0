"""Kingdoms for ``spyhouse.rl``: a turn's sheet built one row per action (docs/rl.md).

The map fixes the layout: ``L`` land areas in map order, ``C`` country slots in map order,
``COUNTS = (1, 2, 4, 8)`` armies, ``E`` directed land adjacencies (each area's neighbours
in map order):

    0                     SUBMIT (ends the sheet; at most ``actions_per_turn`` rows)
    RAISE + 4a + k        RAISE COUNTS[k] armies in area a
    MOVE  + 4e + k        MOVE COUNTS[k] armies along adjacency e
    SEND  + L t + b       move my agent of type t (SPY, SPYCAT, MOLE, MOLECAT) to area b
    RECRUIT + L t + a     recruit an agent of type t in area a (it stays there)
    FIND + c              FIND country c's spy
    KILL + C a + c        KILL country c's agents in area a
    WAIT + 4c + t         WAIT for country c with my agent of type t
    SABOTAGE, WATCH

Not encoded (a documented subset): SKIP and the special agents' sea moves, FIND by area,
counts other than ``COUNTS``, a WAIT with a blank EXTRA. The mask allows only rows the
seat can reasonably give from what it knows (its own areas, armies and agents); every one
of them passes ``parse_orders`` (whose checks are about the map and public facts only),
and the rules may still fail a row at resolution, as for a player.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spyhouse.core.ruleset import Ruleset, SeatId
from spyhouse.games.kingdoms.maps import Map
from spyhouse.games.kingdoms.model import AGENT_TYPES, Options, State

COUNTS: tuple[int, ...] = (1, 2, 4, 8)
ARMY_SCALE = 24
BP_SCALE = 40


class KingdomsEncoder:
    """The encoding of one map."""

    submit: int | None = 0
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, options: Options) -> None:
        game_map: Map = options.map
        self.options = options
        self.lands = game_map.lands
        self.land_index = {area: i for i, area in enumerate(self.lands)}
        self.countries = tuple(c.id for c in game_map.countries)
        self.country_index = {cid: i for i, cid in enumerate(self.countries)}
        self.edges = tuple((a, b) for a in self.lands
                           for b in sorted(game_map.neighbours[a], key=game_map.order.__getitem__)
                           if b in self.land_index)
        self.edge_index = {edge: i for i, edge in enumerate(self.edges)}
        n_land, n_country, n_types, k = (len(self.lands), len(self.countries),
                                         len(AGENT_TYPES), len(COUNTS))
        self.RAISE = 1
        self.MOVE = self.RAISE + k * n_land
        self.SEND = self.MOVE + k * len(self.edges)
        self.RECRUIT = self.SEND + n_types * n_land
        self.FIND = self.RECRUIT + n_types * n_land
        self.KILL = self.FIND + n_country
        self.WAIT = self.KILL + n_land * n_country
        self.SABOTAGE = self.WAIT + n_country * n_types
        self.WATCH = self.SABOTAGE + 1
        self.action_count = self.WATCH + 1
        # observation: per land area: owner (none, me, each country slot), my armies, my
        # agents by type, my watchers, armies observed last turn, observed;
        # per country: in the game, eliminated, areas held; me: bp, reserve, country slot;
        # turn; the sheet: rows, moves
        self.area_width = 2 + n_country + 1 + n_types + 1 + 2
        self.observation_shape = (n_land * self.area_width + 3 * n_country + 2 + n_country
                                  + 1 + 2,)

    # ------------------------------------------------------------ actions

    def _row(self, action: int) -> dict[str, Any]:
        """The order row of one (non-SUBMIT) action."""
        k = len(COUNTS)
        n_land = len(self.lands)
        if action < self.MOVE:
            a, c = divmod(action - self.RAISE, k)
            return {"action": "RAISE", "from": self.lands[a], "to": None, "extra": COUNTS[c]}
        if action < self.SEND:
            e, c = divmod(action - self.MOVE, k)
            frm, to = self.edges[e]
            return {"action": "MOVE", "from": frm, "to": to, "extra": COUNTS[c]}
        if action < self.RECRUIT:
            t, b = divmod(action - self.SEND, n_land)
            return {"action": AGENT_TYPES[t].value, "from": None, "to": self.lands[b],
                    "extra": None}
        if action < self.FIND:
            t, a = divmod(action - self.RECRUIT, n_land)
            return {"action": AGENT_TYPES[t].value, "from": self.lands[a], "to": None,
                    "extra": None}
        if action < self.KILL:
            return {"action": "FIND", "from": None, "to": self.countries[action - self.FIND],
                    "extra": None}
        if action < self.WAIT:
            a, c = divmod(action - self.KILL, len(self.countries))
            return {"action": "KILL", "from": self.lands[a], "to": self.countries[c],
                    "extra": None}
        if action < self.SABOTAGE:
            c, t = divmod(action - self.WAIT, len(AGENT_TYPES))
            return {"action": "WAIT", "from": None, "to": self.countries[c],
                    "extra": AGENT_TYPES[t].value}
        name = "SABOTAGE" if action == self.SABOTAGE else "WATCH"
        return {"action": name, "from": None, "to": None, "extra": None}

    def mask(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.int8]:
        out = np.zeros(self.action_count, dtype=np.int8)
        out[0] = 1
        country = state.country_of(seat)
        if country is None or country.eliminated is not None or state.outcome is not None:
            return out
        rows = [a for a in sheet if a != 0]
        if len(rows) >= state.options.actions_per_turn:
            return out
        me = country.id
        k = len(COUNTS)
        n_land = len(self.lands)
        owned = [i for i, area in enumerate(self.lands) if state.owners.get(area) == me]
        for i in owned:
            out[self.RAISE + k * i:self.RAISE + k * (i + 1)] = 1
        moves = sum(1 for a in rows if self.MOVE <= a < self.SEND)
        if moves < state.options.max_moves:
            for e, (frm, _to) in enumerate(self.edges):
                if state.owners.get(frm) == me:
                    armies = state.armies.get(frm, 0)
                    for c, count in enumerate(COUNTS):
                        out[self.MOVE + k * e + c] = count <= armies
        lands = self.land_index
        places = [area for area in {*country.watchers, *country.agents.values()}
                  if area in lands]
        for t, kind in enumerate(AGENT_TYPES):
            where = country.agents.get(kind)
            if where is not None:
                for b in state.map.neighbours[where]:
                    if b in self.land_index:
                        out[self.SEND + n_land * t + self.land_index[b]] = 1
            elif kind is AGENT_TYPES[0]:
                for i in owned:
                    out[self.RECRUIT + i] = 1
                for area in country.watchers:
                    if area in lands:
                        out[self.RECRUIT + lands[area]] = 1
            else:
                for area in places:
                    out[self.RECRUIT + n_land * t + lands[area]] = 1
        rivals = [self.country_index[c.id] for c in state.alive() if c.id != me]
        for c in rivals:
            out[self.FIND + c] = 1
            for t, kind in enumerate(AGENT_TYPES):
                out[self.WAIT + len(AGENT_TYPES) * c + t] = kind in country.agents
        for area in {*country.agents.values()} & lands.keys():
            a = lands[area]
            for c in rivals:
                out[self.KILL + len(self.countries) * a + c] = 1
        out[self.SABOTAGE] = 1
        out[self.WATCH] = 1
        return out

    def complete(self, state: State, seat: SeatId, sheet: Sequence[int]) -> bool:
        return bool(sheet) and sheet[-1] == 0

    def orders(self, state: State, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        return {"actions": [self._row(a) for a in sheet if a != 0]}

    def parsed(self, state: State, seat: SeatId, sheet: Sequence[int]) -> None:
        return None

    def describe(self, action: int) -> str:
        if action == 0:
            return "SUBMIT"
        row = self._row(action)
        return " ".join(str(row[key]) for key in ("action", "from", "to", "extra")
                        if row[key] is not None)

    # ------------------------------------------------------------ observations

    def observe(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.float32]:
        out = np.zeros(self.observation_shape, dtype=np.float32)
        country = state.country_of(seat)
        me = None if country is None else country.id
        n_country = len(self.countries)
        width = self.area_width
        areas = out[:len(self.lands) * width].reshape(len(self.lands), width)
        for i, area in enumerate(self.lands):
            owner = state.owners.get(area)
            if owner is None:
                areas[i, 0] = 1.0
            else:
                areas[i, 1] = owner == me
                areas[i, 2 + self.country_index[owner]] = 1.0
                if owner == me:
                    areas[i, 2 + n_country] = min(state.armies.get(area, 0), ARMY_SCALE) \
                        / ARMY_SCALE
        at = 3 + n_country
        if country is not None:
            for t, kind in enumerate(AGENT_TYPES):
                where = country.agents.get(kind)
                if where in self.land_index:
                    areas[self.land_index[where], at + t] = 1.0
            for area in country.watchers:
                if area in self.land_index:
                    areas[self.land_index[area], at + len(AGENT_TYPES)] = 1.0
            report = state.reports.get(country.id) if state.resolved else None
            if report is not None:
                for seen in report.observations:
                    if seen.area in self.land_index:
                        row = areas[self.land_index[seen.area]]
                        row[width - 2] = min(seen.armies, ARMY_SCALE) / ARMY_SCALE
                        row[width - 1] = 1.0
        g = out[len(self.lands) * width:]
        held: dict[str, int] = {}
        for owner in state.owners.values():
            if owner is not None:
                held[owner] = held.get(owner, 0) + 1
        for cid, other in state.countries.items():
            c = self.country_index[cid]
            g[c] = 1.0
            g[n_country + c] = other.eliminated is not None
            g[2 * n_country + c] = held.get(cid, 0) / len(self.lands)
        base = 3 * n_country
        if country is not None:
            g[base] = min(country.bp, BP_SCALE) / BP_SCALE
            g[base + 1] = min(country.reserve, self.options.force_pool) \
                / max(self.options.force_pool, 1)
            g[base + 2 + self.country_index[country.id]] = 1.0
        g[base + 2 + n_country] = min(state.turn, self.options.max_turns) \
            / max(self.options.max_turns, 1)
        rows = [a for a in sheet if a != 0]
        g[base + 3 + n_country] = len(rows) / max(self.options.actions_per_turn, 1)
        g[base + 4 + n_country] = min(
            sum(1 for a in rows if self.MOVE <= a < self.SEND), self.options.max_moves) \
            / max(self.options.max_moves, 1)
        return out


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> KingdomsEncoder:
    """The encoder of a game on the map the options choose."""
    parsed: Options = ruleset.parse_options(options)
    return KingdomsEncoder(parsed)


ENCODING = encoding
