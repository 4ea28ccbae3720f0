"""Random Kingdoms games for the property tests: bots and random rows, from views only.

``random_orders(view, stream)`` writes up to K rows of every kind that pass
``parse_orders`` (C.2, C.3) but are otherwise random, so most processing-time
failures and rare paths get exercised. ``play`` runs a game where each seat is a
bot or a random writer (``mix``) and returns every state and the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spyhouse.core.record import Record
from spyhouse.core.rng import Rng, Stream
from spyhouse.core.ruleset import Seat
from spyhouse.games.kingdoms import bots
from spyhouse.games.kingdoms.botplan import map_of
from spyhouse.games.kingdoms.model import Orders, State
from tests.games.kingdoms.fixture import RULES

MOVERS = ("SPY", "SKIP", "SPYCAT", "MOLE", "MOLECAT")
ACTIONS = (*MOVERS, "FIND", "KILL", "WAIT", "SABOTAGE", "WATCH", "RAISE", "MOVE")


def _pick(stream: Stream, items: Sequence[Any]) -> Any:
    return items[stream.roll(len(items)) - 1]


def random_row(view: Mapping[str, Any], stream: Stream, moves: int) -> dict[str, Any] | None:
    """One random row that parses, or ``None`` when the drawn kind cannot be written."""
    game_map = map_of(view)
    me = view["me"]
    lands = list(game_map.lands)
    own = list(me["armies"]) or lands
    rivals = [c["id"] for c in view["countries"]
              if c["eliminated"] is None and c["id"] != me["country"]]
    action = _pick(stream, ACTIONS)
    here = {a["type"]: a["area"] for a in me["agents"]}
    if action in MOVERS:
        kind = "SPY" if action == "SKIP" else action
        frm = _pick(stream, [*own, *me["watchers"], *here.values()]) if (
            kind not in here or stream.roll(4) == 1) else None
        start = frm or here.get(kind) or _pick(stream, lands)
        if action == "SKIP":
            options = [b for b in lands if b != start and not game_map.adjacent(start, b)
                       and game_map.sea_cost(start, b) is not None]
        elif action == "SPY":
            options = list(game_map.area[start].adj)
        else:
            options = [b for b in lands if b != start and (
                game_map.adjacent(start, b) or game_map.sea_cost(start, b) is not None)]
        to = _pick(stream, options) if options and (action == "SKIP" or stream.roll(5) > 1) \
            else None
        if to is None and (action == "SKIP" or frm is None):
            return None
        return {"action": action, "from": frm, "to": to, "extra": None}
    if action == "FIND":
        if stream.roll(2) == 1 and rivals:
            return {"action": "FIND", "from": None, "to": _pick(stream, rivals), "extra": None}
        return {"action": "FIND", "from": _pick(stream, lands), "to": None, "extra": None}
    if action in ("KILL", "WAIT"):
        if not rivals:
            return None
        if action == "KILL":
            area = _pick(stream, [*own, *here.values()])
            return {"action": "KILL", "from": area, "to": _pick(stream, rivals), "extra": None}
        extra = _pick(stream, [None, "SPY", "spycat", "MOLE", "MOLECAT"])
        return {"action": "WAIT", "from": None, "to": _pick(stream, rivals), "extra": extra}
    if action in ("SABOTAGE", "WATCH"):
        return {"action": action, "from": None, "to": None, "extra": None}
    if action == "RAISE":
        return {"action": "RAISE", "from": _pick(stream, own), "to": None,
                "extra": _pick(stream, [None, 1, 2, 3])}
    if moves >= int(view["options"]["max_moves"]):
        return None
    frm = _pick(stream, own)
    return {"action": "MOVE", "from": frm, "to": _pick(stream, game_map.area[frm].adj),
            "extra": _pick(stream, [None, 1, 2, 3, 4])}


def random_orders(view: Mapping[str, Any], stream: Stream) -> dict[str, Any]:
    limit = int(view["options"]["actions_per_turn"])
    rows: list[dict[str, Any]] = []
    moves = 0
    for _ in range(stream.roll(limit + 1) - 1):
        row = random_row(view, stream, moves)
        if row is not None:
            moves += row["action"] == "MOVE"
            rows.append(row)
    return {"actions": rows}


def seats(players: int) -> list[Seat]:
    return [Seat(f"s{i}", f"Player {i}") for i in range(1, players + 1)]


@dataclass
class Game:
    """A played game: every state (index = resolved turns) and the orders resolved."""

    states: list[State]
    record: Record
    orders: list[dict[str, Orders | None]]


def play(seed: int, players: int, turns: int = 20, *, mix: str = "mixed",
         options: Mapping[str, Any] | None = None) -> Game:
    """A game of ``turns`` at most; ``mix``: ``bots``, ``random`` or ``mixed`` (alternating)."""
    rng = Rng(seed)
    state = RULES.setup(seats(players), dict(options or {}), rng)
    names = sorted(set(bots.STRATEGIES) - {"random"})
    players_bots = {f"s{i}": bots.make_bot(names[(i + seed) % len(names)], f"s{i}", seed)
                    for i in range(1, players + 1)}
    states = [state]
    raw_turns: list[dict[str, Any]] = []
    resolved: list[dict[str, Orders | None]] = []
    for _ in range(turns):
        if RULES.outcome(state) is not None:
            break
        raw: dict[str, Any] = {}
        parsed: dict[str, Orders | None] = {}
        for index, sid in enumerate(sorted(RULES.awaiting(state)), start=1):
            view = RULES.view(state, sid)
            random_seat = mix == "random" or (mix == "mixed" and index % 2 == 0)
            if random_seat:
                stream = rng.stream(state.turn, f"random:{sid}")
                data = None if stream.roll(10) == 1 else random_orders(view, stream)
            else:
                data = players_bots[sid].act(view)
            orders = None if data is None else RULES.parse_orders(state, sid, data)
            parsed[sid] = orders
            raw[sid] = None if orders is None else RULES.dump_orders(orders)
        state = RULES.resolve(state, parsed, rng)
        states.append(state)
        raw_turns.append(raw)
        resolved.append(parsed)
    record = Record("kingdoms", seed, dict(options or {}), tuple(seats(players)),
                    tuple(raw_turns))
    return Game(states, record, resolved)
