"""A harness for the spec's worked examples (§17): named players, a fixed map, parked NPCs.

Players are seated in alphabetical order of their names (§17). Rex and Roy are Red;
Hal, Hil and Gil are Hackers, Sue is a Sneaker, every other Green is a Warrior.
The game is built through the real setup with ``setup`` overrides (reds, classes,
map, code, positions); NPCs are then "parked" (their plan is their own room) so
that nobody meets a guard unless the example says so. Orders are given as the
spec's JSON with names standing for seat ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.infiltration import facility
from spyhouse.games.infiltration.model import (
    FLOORS,
    ROOMS,
    Feature,
    State,
    bracket_of,
    floor_rooms,
    npc_ids,
    parse_feature,
)
from spyhouse.games.infiltration.ruleset import Infiltration

RULES = Infiltration()
REDS = ("Rex", "Roy")
HACKERS = ("Hal", "Hil", "Gil")
SNEAKERS = ("Sue",)
FILLERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Lou", "Sam", "Tom")


def build_map(players: int, overrides: Mapping[str, str]) -> dict[str, str]:
    """A valid map for the bracket with ``overrides`` (room → S4 name) swapped in."""
    features = facility.generate_map(Rng(0), bracket_of(players))
    fixed: set[int] = set()
    for room, name in overrides.items():
        feature = parse_feature(name)
        assert feature is not None, name
        i = ROOMS.index(room)
        if features[i] is not feature:
            j = next(j for j, f in enumerate(features) if f is feature and j not in fixed)
            features[i], features[j] = features[j], features[i]
        fixed.add(i)
    return {room: f.value for room, f in zip(ROOMS, features, strict=True)}


class Scenario:
    """One example game; ``state`` advances with ``move`` and ``decide``."""

    def __init__(
        self,
        names: Iterable[str] = (),
        *,
        rooms: Mapping[str, str] | None = None,
        features: Mapping[str, str] | None = None,
        npcs: Mapping[str, str] | None = None,
        classes: Mapping[str, str] | None = None,
        code: str = "4071",
        engineers: int = 0,
        renegades: int = 0,
        options: Mapping[str, Any] | None = None,
        seed: int = 1,
        min_players: int = 7,
        rng: Rng | None = None,
    ) -> None:
        rooms = dict(rooms or {})
        wanted = set(names) | set(rooms) | set(REDS)
        for filler in FILLERS:
            if len(wanted) >= min_players:
                break
            wanted.add(filler)
        self.names = sorted(wanted)
        self.id = {name: f"s{i}" for i, name in enumerate(self.names, start=1)}
        self.name_of = {seat: name for name, seat in self.id.items()}
        n = len(self.names)
        game_map = build_map(n, features or {})
        mentioned = set(rooms.values()) | set(features or {}) | set((npcs or {}).values())
        positions: dict[str, str] = {}
        free = (r for r in ROOMS if r not in mentioned
                and parse_feature(game_map[r]) not in _SPECIAL and not r.endswith(("-8", "-7")))
        for name in self.names:
            positions[self.id[name]] = rooms.get(name) or next(free)
        used = set(positions.values()) | mentioned
        for npc_id in npc_ids(engineers, renegades):
            if npcs and npc_id in npcs:
                positions[npc_id] = npcs[npc_id]
            else:
                positions[npc_id] = self._park(npc_id, used)
            used.add(positions[npc_id])
        class_map = {self.id[name]: klass for name, klass in _default_classes(self.names).items()}
        for name, klass in (classes or {}).items():
            class_map[self.id[name]] = klass
        opts: dict[str, Any] = {
            "engineers": engineers, "renegades": renegades,
            "setup": {"reds": [self.id[r] for r in REDS if r in self.id],
                      "classes": class_map, "map": game_map, "code": code,
                      "positions": positions},
        }
        opts["reds"] = len(opts["setup"]["reds"])
        opts.update(options or {})
        self.rng = rng if rng is not None else Rng(seed)
        self.state: State = RULES.setup(
            [Seat(self.id[name], name) for name in self.names], opts, self.rng)
        self.park()

    @staticmethod
    def _park(npc_id: str, used: set[str]) -> str:
        floor = npc_id[-1] if npc_id.startswith("Guard-") else "H"
        if floor not in FLOORS:
            floor = "H"
        for room in reversed(floor_rooms(floor)):
            if room not in used:
                return room
        raise AssertionError("no room to park " + npc_id)

    # ------------------------------------------------------------ state edits

    def park(self) -> None:
        """Every living NPC's plan becomes its own room (it stays put next movement)."""
        for npc in self.state.npcs:
            npc.plan = npc.room

    def place(self, npc_id: str, room: str, plan: str | None = None) -> None:
        npc = self.state.npc(npc_id)
        npc.room = room
        npc.plan = plan if plan is not None else room

    def plan(self, npc_id: str, room: str) -> None:
        self.state.npc(npc_id).plan = room

    def set_room(self, room: str, *, hacked: bool | None = None,
                 destroyed: bool | None = None) -> None:
        i = ROOMS.index(room)
        if hacked is not None:
            self.state.hacked[i] = hacked
        if destroyed is not None:
            self.state.destroyed[i] = destroyed

    # ------------------------------------------------------------ orders

    def seat(self, name: str) -> str:
        return self.id.get(name, name)

    def _ids(self, data: Any) -> Any:
        """Replace player names by seat ids where the order JSON names players."""
        if not isinstance(data, dict):
            return data
        out = dict(data)
        if isinstance(out.get("vote"), str):
            out["vote"] = self.seat(out["vote"])
        if isinstance(out.get("kill"), list):
            out["kill"] = [self.seat(x) for x in out["kill"]]
        terminal = out.get("terminal")
        if isinstance(terminal, dict) and isinstance(terminal.get("player"), str):
            out["terminal"] = dict(terminal, player=self.seat(terminal["player"]))
        return out

    def parse(self, name: str, data: Any) -> Any:
        return RULES.parse_orders(self.state, self.seat(name), self._ids(data))

    def move(self, orders: Mapping[str, Any] | None = None) -> State:
        """Resolve a Movement phase: ``orders`` maps a name to a room, (room, code) or JSON.

        NPCs follow their plans: call ``park`` first to keep them where they are."""
        assert self.state.phase.value == "movement", self.state.phase
        parsed: dict[str, Any] = {}
        for name, value in (orders or {}).items():
            if isinstance(value, tuple):
                value = {"move": value[0], "code": value[1]}
            elif isinstance(value, str):
                value = {"move": value}
            parsed[self.seat(name)] = self.parse(name, value)
        return self._resolve(parsed)

    def decide(self, orders: Mapping[str, Any] | None = None, *, fill: bool = True) -> State:
        """Resolve a Decision phase: ``orders`` maps a name to its order JSON (names for ids).

        With ``fill``, every living player whose order has no vote votes NO LYNCH (so no
        phantoms pile up).
        """
        assert self.state.phase.value == "decision", self.state.phase
        given = dict(orders or {})
        if fill:
            for p in self.state.players:
                name = self.name_of[p.seat]
                if p.alive:
                    given[name] = {"vote": "NO LYNCH", **given.get(name, {})}
        parsed = {self.seat(name): self.parse(name, data) for name, data in given.items()}
        return self._resolve(parsed)

    def _resolve(self, parsed: Mapping[str, Any]) -> State:
        orders = {seat: parsed.get(seat) for seat in RULES.awaiting(self.state)}
        self.state = RULES.resolve(self.state, orders, self.rng)
        return self.state

    def turn(self, moves: Mapping[str, Any] | None = None,
             decisions: Mapping[str, Any] | None = None, *, park: bool = True) -> State:
        """A whole turn: park NPCs (unless told not to), move, decide."""
        if park:
            self.park()
        self.move(moves)
        return self.decide(decisions)

    # ------------------------------------------------------------ reading

    def view(self, name: str | None = None) -> dict[str, Any]:
        return RULES.view(self.state, None if name is None else self.seat(name))

    def player(self, name: str) -> Any:
        return self.state.player(self.seat(name))

    def events(self, name: str, kind: str, turn: int | None = None) -> list[dict[str, Any]]:
        log = self.state.private_logs.get(self.seat(name), [])
        return [e for e in log if e["kind"] == kind and (turn is None or e["turn"] == turn)]

    def last(self, name: str, kind: str) -> dict[str, Any] | None:
        found = self.events(name, kind)
        return found[-1] if found else None

    def answer(self, name: str) -> list[str] | None:
        """The terminal result lines ``name`` received this turn (R5), if any."""
        found = [e for e in self.state.private_logs.get(self.seat(name), [])
                 if e["kind"] == "terminal"]
        return list(found[-1]["lines"]) if found else None

    def public(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.state.public_log if e["kind"] == kind]

    def public_texts(self, turn: int | None = None) -> list[str]:
        return [e["text"] for e in self.state.public_log
                if turn is None or e["turn"] == turn]

    def dead(self) -> list[str]:
        return [self.name_of[p.seat] for p in self.state.players if not p.alive]


_SPECIAL = {Feature.GHOST, Feature.GENERALS, Feature.LAB, Feature.GENERATOR}


def _default_classes(names: Iterable[str]) -> dict[str, str]:
    out = {}
    for name in names:
        if name in REDS:
            continue
        if name in HACKERS:
            out[name] = "Hacker"
        elif name in SNEAKERS:
            out[name] = "Sneaker"
        else:
            out[name] = "Warrior"
    return out
