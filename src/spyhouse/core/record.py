"""The game record (``spyhouse-record/1``): load, validate, save, replay.

A game is fully described by its record; every state and report is derived
from it. Replaying a record gives the same states and views byte for byte in
any process. An invalid record raises ``RecordError`` with one line that names
the record entry, the seat, the order and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyhouse.core import registry
from spyhouse.core.errors import OptionsError, OrderError, RecordError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Ruleset, Seat, SeatId

FORMAT = "spyhouse-record/1"
_TOP_KEYS = {"format", "game", "seed", "options", "seats", "turns"}

#: The largest record read (bytes of its file; characters of a text): a finished game's
#: record is tens of kilobytes, so this is hundreds of games' worth, and a file above it
#: is refused before it is read whole.
MAX_BYTES = 16 * 1024 * 1024
#: The deepest nesting of arrays and objects a record may have, the record's own object
#: counting as 1: every game's records nest at most 7 deep. Deeper JSON would exhaust
#: Python's recursion (in the parser, or later in the rules) with a traceback.
MAX_DEPTH = 64
TOO_BIG = f"too big: a record is at most {MAX_BYTES // (1024 * 1024)} MiB"
TOO_DEEP = f"nested too deeply: arrays and objects at most {MAX_DEPTH} levels deep"


@dataclass(frozen=True)
class Record:
    """Seed, options, seats and the orders of every resolution step."""

    game: str
    seed: int
    options: Mapping[str, Any]
    seats: tuple[Seat, ...]
    turns: tuple[Mapping[SeatId, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "seed": self.seed,
            "options": self.options,
            "seats": [seat.to_json() for seat in self.seats],
            "turns": [{"orders": dict(turn)} for turn in self.turns],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=False) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def with_turn(self, orders: Mapping[SeatId, Any]) -> Record:
        return Record(self.game, self.seed, self.options, self.seats, (*self.turns, orders))


def _seat_from_json(index: int, data: Any) -> Seat:
    if not isinstance(data, dict):
        raise RecordError(f"seat {index + 1} is not an object")
    unknown = set(data) - {"id", "name", "player", "email"}
    if unknown:
        raise RecordError(f"seat {index + 1} has unknown key {sorted(unknown)[0]!r}")
    seat_id, name = data.get("id"), data.get("name")
    player, email = data.get("player", ""), data.get("email")
    if not isinstance(seat_id, str) or not seat_id:
        raise RecordError(f"seat {index + 1} needs a string id")
    if not isinstance(name, str) or not name.strip():
        raise RecordError(f"seat {seat_id} needs a name")
    if not isinstance(player, str):
        raise RecordError(f"seat {seat_id}: player must be a string")
    if email is not None and not isinstance(email, str):
        raise RecordError(f"seat {seat_id}: email must be a string or null")
    return Seat(seat_id, name, player, email)


def _too_deep(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels (without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = (value.values() if isinstance(value, dict)
                    else value if isinstance(value, list) else None)
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return False


def record_from_json(data: Any) -> Record:
    """Validate the record's shape (not yet its orders: ``replay`` checks those)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if _too_deep(data, MAX_DEPTH):
        raise RecordError(TOO_DEEP)
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r}")
    game = data.get("game")
    if not isinstance(game, str) or game not in registry.names():
        raise RecordError(f"unknown game {game!r}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RecordError("seed must be a whole number >= 0")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options must be an object")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise RecordError("seats must be a non-empty list")
    seats = tuple(_seat_from_json(i, s) for i, s in enumerate(raw_seats))
    ids = [seat.id for seat in seats]
    for seat_id in ids:
        if ids.count(seat_id) > 1:
            raise RecordError(f"seat id {seat_id!r} is used twice")
    raw_turns = data.get("turns", [])
    if not isinstance(raw_turns, list):
        raise RecordError("turns must be a list")
    turns: list[Mapping[SeatId, Any]] = []
    for entry, turn in enumerate(raw_turns, start=1):
        if not isinstance(turn, dict) or set(turn) != {"orders"}:
            raise RecordError("a turn must be an object with the one key 'orders'", entry=entry)
        orders = turn["orders"]
        if not isinstance(orders, dict):
            raise RecordError("orders must be an object of seat ids", entry=entry)
        for seat_id in orders:
            if seat_id not in ids:
                raise RecordError("no such seat in this record", entry=entry, seat=seat_id)
        turns.append(orders)
    return Record(game, seed, options, seats, tuple(turns))


def loads(text: str) -> Record:
    """A record from its JSON text: ``RecordError`` for text that is not JSON, larger than
    ``MAX_BYTES`` or nested deeper than ``MAX_DEPTH``, or not a record's shape."""
    if len(text) > MAX_BYTES:  # a character is at least a byte
        raise RecordError(TOO_BIG)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:  # far deeper than MAX_DEPTH: the parser gave up first
        raise RecordError(TOO_DEEP) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise RecordError(f"not a usable JSON value: {exc}") from None
    return record_from_json(data)


def load(path: str | Path) -> Record:
    """The record in the file ``path`` (UTF-8 JSON), read only up to ``MAX_BYTES``."""
    try:
        with Path(path).open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise RecordError(TOO_BIG)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    return loads(text)


def start(record: Record) -> tuple[Ruleset[Any, Any], Rng, Any]:
    """The ruleset, the RNG and the state at turn 0 of ``record``."""
    ruleset = registry.get(record.game)
    rng = Rng(record.seed)
    try:
        state = ruleset.setup(record.seats, record.options, rng)
    except OptionsError as exc:
        text = str(exc)
        raise RecordError(text if text.startswith(("options:", "setup:")) else f"options: {text}"
                          ) from None
    return ruleset, rng, state


def step(
    ruleset: Ruleset[Any, Any], rng: Rng, state: Any, raw: Mapping[SeatId, Any], entry: int
) -> Any:
    """Validate one record entry's orders against ``state`` and resolve it."""
    awaited = ruleset.awaiting(state)
    if not awaited:
        raise RecordError("the game is already over", entry=entry)
    parsed: dict[SeatId, Any] = {}
    for seat_id, data in raw.items():
        if seat_id not in awaited:
            if data is not None:
                raise RecordError("this seat is not awaited and may give no orders",
                                  entry=entry, seat=seat_id)
            continue
        if data is None:
            continue
        try:
            parsed[seat_id] = ruleset.parse_orders(state, seat_id, data)
        except OrderError as exc:
            raise RecordError(str(exc), entry=entry, seat=seat_id) from None
    orders = {seat_id: parsed.get(seat_id) for seat_id in sorted(awaited)}
    return ruleset.resolve(state, orders, rng)


def replay(record: Record) -> Iterator[Any]:
    """The states after turn 0, 1, … of ``record``, validating every entry on the way."""
    ruleset, rng, state = start(record)
    yield state
    for entry, raw in enumerate(record.turns, start=1):
        state = step(ruleset, rng, state, raw, entry)
        yield state


def final_state(record: Record, upto: int | None = None) -> Any:
    """The state after record entry ``upto`` (default: all of them)."""
    if upto is not None and not 0 <= upto <= len(record.turns):
        raise RecordError(f"--turn must be between 0 and {len(record.turns)}")
    final = None
    for index, state in enumerate(replay(record)):
        final = state
        if upto is not None and index == upto:
            break
    return final


def views(record: Record, seats: Sequence[SeatId | None]) -> list[dict[str, Any]]:
    """The views of ``seats`` after the whole record (convenience for tests and tools)."""
    ruleset = registry.get(record.game)
    state = final_state(record)
    return [ruleset.view(state, seat) for seat in seats]
