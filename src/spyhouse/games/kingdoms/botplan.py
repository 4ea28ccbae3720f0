"""What a Kingdoms bot knows and how it writes orders: ``Intel`` (memory) and ``Plan`` (rows).

Everything here reads a seat's view (E.4) and nothing else. ``Intel`` remembers
across turns what the reports told: armies seen in areas (observations, battles),
enemy agents seen (observations, FIND) and enemy watchers found (FIND where).
``Plan`` keeps a local copy of the country's own BP, reserve, armies and agents
and updates it as rows are added, so later rows are written for the situation
the earlier ones leave; every row it writes passes ``parse_orders`` (C.2, C.3):
at most K rows and ``max_moves`` MOVEs, adjacency and sea routes checked against
the map, targets only other countries still in the game.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core.rng import Stream
from spyhouse.games.kingdoms.maps import Map, map_from_data
from spyhouse.games.kingdoms.model import MAX_COUNT

#: The agent type each catcher hunts (A.1), and what KILL it enables there (A.6).
PREY: dict[str, str] = {"SPYCAT": "SPY", "MOLE": "SPYCAT", "MOLECAT": "MOLE"}
RECRUIT: dict[str, int] = {"SPY": 2, "SPYCAT": 5, "MOLE": 5, "MOLECAT": 5}
#: A KILL's result text names its victim's type (C.4.4).
KILLED: dict[str, str] = {"spy": "SPY", "spy catcher": "SPYCAT", "mole": "MOLE",
                          "watcher": "WATCHER"}
#: How many turns a sighting stays worth acting on.
FRESH = 2

_MAPS: list[tuple[Any, Map]] = []

#: A battle round goes to the attacker when its die beats the defender's (B.5: 15 of 36).
ROUND = 15 / 36


@functools.cache
def win_chance(attackers: int, defenders: int) -> float:
    """The chance that ``attackers`` armies moving in take an area ``defenders`` hold (B.5)."""
    if defenders <= 0:
        return 1.0 if attackers > 0 else 0.0
    if attackers <= 0:
        return 0.0
    return (ROUND * win_chance(attackers, defenders - 1)
            + (1 - ROUND) * win_chance(attackers - 1, defenders))


def map_of(view: Mapping[str, Any]) -> Map:
    """The view's map as a ``Map``, validated once per distinct map (a small cache)."""
    data = view["map"]
    for known, game_map in _MAPS:
        if known == data:
            return game_map
    game_map = map_from_data(data)
    _MAPS.insert(0, (copy.deepcopy(data), game_map))
    del _MAPS[8:]
    return game_map


@dataclass(slots=True)
class Intel:
    """A bot's memory of its reports (what a careful player would note down)."""

    armies: dict[str, tuple[int, int]] = field(default_factory=dict)
    agents: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    watchers: dict[tuple[str, str], int] = field(default_factory=dict)
    last: int = -1

    def read(self, view: Mapping[str, Any]) -> None:
        """Take in the report of the last resolved turn (once per turn)."""
        report = view.get("report")
        if not isinstance(report, Mapping) or report.get("turn") == self.last:
            return
        turn = int(report["turn"])
        self.last = turn
        for obs in report.get("observations") or ():
            self.armies[obs["area"]] = (turn, int(obs["armies"]))
            for agent in obs["agents"]:
                self.agents[(agent["country"], agent["type"])] = (obs["area"], turn)
        for result in report.get("results") or ():
            self._read_result(result, turn)
        for event in report.get("events") or ():
            self._read_event(event, turn)
        for news in view.get("news") or ():
            if news.get("turn") == turn:
                for capture in news.get("captures") or ():
                    seen = self.armies.get(capture["area"])
                    if seen is not None and seen[0] < turn:
                        del self.armies[capture["area"]]

    def _read_result(self, result: Mapping[str, Any], turn: int) -> None:
        find = result.get("find")
        row = result.get("row") or {}
        if isinstance(find, Mapping):
            if "found" in find:
                for hit in find["found"]:
                    if hit["type"] == "WATCHER":
                        self.watchers[(hit["country"], find["area"])] = turn
                    else:
                        self.agents[(hit["country"], hit["type"])] = (find["area"], turn)
            elif find.get("area") is not None:
                self.agents[(find["country"], "SPY")] = (find["area"], turn)
            else:
                self.agents.pop((find["country"], "SPY"), None)
        if row.get("action") == "KILL" and result.get("status") == "done":
            self._read_kill(str(row.get("to")), str(row.get("from")), str(result.get("text")))

    def _read_kill(self, victim: str, area: str, text: str) -> None:
        """Forget what a done KILL removed, or (nothing found) all of the victim's there."""
        hit = KILLED.get(text.removeprefix(f"killed {victim}'s ").removesuffix(f" in {area}"))
        if hit == "WATCHER" or text == "nothing found":
            self.watchers.pop((victim, area), None)
        for key, (where, _) in list(self.agents.items()):
            if key[0] == victim and where == area and (hit is None or key[1] == hit):
                del self.agents[key]

    def _read_event(self, event: Mapping[str, Any], turn: int) -> None:
        if event.get("event") == "battle":
            left = int(event["defenders"]) - int(event["defender_losses"])
            attackers = int(event["attackers"]) - int(event["attacker_losses"])
            self.armies[event["area"]] = (turn, attackers if event["result"] == "captured"
                                          else left)

    def spotted(self, country: str, kind: str, now: int) -> str | None:
        """Where ``country``'s ``kind`` was last seen, if recently enough."""
        seen = self.agents.get((country, kind))
        if seen is None or now - seen[1] > FRESH:
            return None
        return seen[0]

    def armies_in(self, area: str, now: int) -> int | None:
        seen = self.armies.get(area)
        if seen is None or now - seen[0] > FRESH + 1:
            return None
        return seen[1]


class Plan:
    """One turn's orders under construction, with the country's own situation kept current."""

    def __init__(self, view: Mapping[str, Any], intel: Intel, stream: Stream) -> None:
        self.view = view
        self.intel = intel
        self.rng = stream
        self.map = map_of(view)
        me = view["me"]
        self.me: str = me["country"]
        self.turn: int = int(view["turn"])
        self.bp: int = int(me["bp"])
        self.reserve: int = int(me["reserve"])
        self.armies: dict[str, int] = {a: int(n) for a, n in me["armies"].items()}
        self.agents: dict[str, str] = {a["type"]: a["area"] for a in me["agents"]}
        self.watchers: list[str] = list(me["watchers"])
        self.wait: Mapping[str, Any] | None = me["wait"]
        self.owners: dict[str, str | None] = dict(view["owners"])
        options = view["options"]
        self.limit: int = int(options["actions_per_turn"])
        self.max_moves: int = int(options["max_moves"])
        self.max_watchers: int = int(options["max_watchers"])
        self.rivals: list[str] = [c["id"] for c in view["countries"]
                                  if c["eliminated"] is None and c["id"] != self.me]
        self.areas_of: dict[str, int] = {c["id"]: int(c["areas"]) for c in view["countries"]}
        #: A random rank of each area this turn: every tie between areas goes by it,
        #: never by map order (which would send every bot the same way across the map).
        self.rank: dict[str, int] = {a: stream.roll(1_000_000) for a in self.map.lands}
        self.rows: list[dict[str, Any]] = []
        self.moves = 0
        self.moved: set[str] = set()

    # -- bookkeeping

    @property
    def full(self) -> bool:
        return len(self.rows) >= self.limit

    def add(self, action: str, frm: str | None = None, to: str | None = None,
            extra: str | int | None = None) -> bool:
        if self.full:
            return False
        self.rows.append({"action": action, "from": frm, "to": to, "extra": extra})
        return True

    def orders(self) -> dict[str, Any]:
        return {"actions": list(self.rows)}

    # -- geography

    def own(self, area: str) -> bool:
        return self.owners.get(area) == self.me

    def mine(self) -> list[str]:
        return [a for a in self.map.lands if self.own(a)]

    def rival_of(self, area: str) -> str | None:
        owner = self.owners.get(area)
        return owner if owner is not None and owner != self.me and owner in self.rivals else None

    def neighbours(self, area: str) -> list[str]:
        """The land neighbours of ``area`` in this turn's random order."""
        return sorted(self.map.area[area].adj, key=self.rank.__getitem__)

    def frontier(self) -> list[str]:
        """Own areas bordering an area that is not own."""
        return [a for a in self.mine() if any(not self.own(b) for b in self.neighbours(a))]

    def enemy_front(self) -> list[str]:
        """Own areas bordering a rival's area."""
        return [a for a in self.mine() if any(self.rival_of(b) for b in self.neighbours(a))]

    def path_step(self, start: str, goals: Iterable[str]) -> str | None:
        """The first land step from ``start`` on a shortest land path to one of ``goals``."""
        targets = set(goals)
        if not targets or start in targets:
            return None
        first: dict[str, str] = {}
        frontier = [start]
        seen = {start}
        while frontier:
            following: list[str] = []
            for area in frontier:
                for nxt in self.neighbours(area):
                    if nxt in seen:
                        continue
                    seen.add(nxt)
                    first[nxt] = first.get(area, nxt)
                    if nxt in targets:
                        return first[nxt]
                    following.append(nxt)
            frontier = following
        return None

    def pick(self, items: Sequence[str]) -> str | None:
        return None if not items else self.rng.choice(list(items))

    def known_armies(self, area: str) -> int | None:
        if self.owners.get(area) is None:
            return 0
        return self.intel.armies_in(area, self.turn)

    # -- army rows (B.4, B.5)

    def raise_in(self, area: str, n: int) -> bool:
        n = min(n, self.reserve, self.bp // 2, MAX_COUNT)
        if n < 1 or not self.own(area) or not self.add("RAISE", area, None, n):
            return False
        self.bp -= 2 * n
        self.reserve -= n
        self.armies[area] = self.armies.get(area, 0) + n
        return True

    def move(self, frm: str, to: str, n: int, *, capture: bool) -> bool:
        n = min(n, MAX_COUNT)
        if (n < 1 or self.moves >= self.max_moves or self.armies.get(frm, 0) < n
                or not self.map.adjacent(frm, to)):
            return False
        if not self.add("MOVE", frm, to, n):
            return False
        self.moves += 1
        self.armies[frm] -= n
        self.moved.add(to)
        if self.own(to):
            self.armies[to] = self.armies.get(to, 0) + n
        elif capture:
            self.owners[to] = self.me
            self.armies[to] = n
        return True

    # -- agent rows (A.2, A.3)

    def agent_to(self, kind: str, to: str, *, frm: str | None = None) -> bool:
        """Move (or with ``frm``, recruit and move) ``kind`` to ``to``, by land or sea."""
        here = frm if frm is not None else self.agents.get(kind)
        if here is None or here == to:
            return False
        adjacent = self.map.adjacent(here, to)
        sea = None if adjacent else self.map.sea_cost(here, to)
        if not adjacent and sea is None:
            return False
        cost = (RECRUIT[kind] if frm is not None else 0) + (sea or 0)
        if cost > self.bp:
            return False
        action = kind
        if kind == "SPY" and not adjacent:
            action = "SKIP"
        if not self.add(action, frm, to):
            return False
        self.bp -= cost
        self.agents[kind] = to
        if self.wait is not None and self.wait.get("agent") == kind:
            self.wait = None
        return True

    def recruit(self, kind: str, frm: str, to: str | None = None) -> bool:
        if kind in self.agents or RECRUIT[kind] > self.bp:
            return False
        if to is not None and to != frm:
            return self.agent_to(kind, to, frm=frm)
        if not self.add(kind, frm, None):
            return False
        self.bp -= RECRUIT[kind]
        self.agents[kind] = frm
        return True

    def recruit_points(self, kind: str) -> list[str]:
        """Where ``kind`` may be recruited now (A.2.2), in area order."""
        if kind == "SPY":
            points = set(self.mine()) | set(self.watchers)
        else:
            points = {a for k, a in self.agents.items() if k != kind} | set(self.watchers)
        return [a for a in self.map.lands if a in points]

    # -- spy chapter rows (A.5-A.9)

    def kill(self, area: str, victim: str) -> bool:
        return victim in self.rivals and self.add("KILL", area, victim)

    def find_whose(self, victim: str) -> bool:
        return victim in self.rivals and self.add("FIND", None, victim)

    def find_where(self, area: str) -> bool:
        return self.add("FIND", area, None)

    def wait_for(self, kind: str, target: str) -> bool:
        area = self.agents.get(kind)
        if area is None or not self.own(area) or target not in self.rivals:
            return False
        if (self.wait is not None and self.wait.get("agent") == kind
                and self.wait.get("target") == target and self.wait.get("area") == area):
            return False
        if not self.add("WAIT", None, target, kind):
            return False
        self.wait = {"agent": kind, "area": area, "target": target}
        return True

    def sabotage(self) -> bool:
        area = self.agents.get("SPY")
        if area is None or self.own(area) or self.bp < 1 or not self.add("SABOTAGE"):
            return False
        self.bp -= 1
        del self.agents["SPY"]
        return True

    def watch(self) -> bool:
        area = self.agents.get("SPY")
        if (area is None or area in self.watchers or len(self.watchers) >= self.max_watchers
                or not self.add("WATCH")):
            return False
        del self.agents["SPY"]
        self.watchers.append(area)
        return True
