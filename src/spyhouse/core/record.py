"""The game record (``spyhouse-record/2``): load, validate, save, replay, verify.

A game is fully described by its record; every state and report is derived
from it. Replaying a record gives the same states and views byte for byte in
any process. An invalid record raises ``RecordError`` with one line that names
the record entry, the seat, the order and the reason.

The record is tamper-evident: each entry's ``hash`` chains the one before it over
the entry's canonical JSON, starting from a hash of the header (``genesis``), and
the record carries the last one (``head``). The hashes are derived (``chain``), never
kept in ``Record``; reading checks them, and ``spyhouse-record/1`` files (written
before the chain, without hashes) are still read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyhouse.core import registry
from spyhouse.core.errors import OptionsError, OrderError, RecordError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Ruleset, Seat, SeatId

FORMAT = "spyhouse-record/2"
#: the format before the chain: no ``hash`` in the entries, no ``head``; still read
FORMAT_1 = "spyhouse-record/1"
_TOP_KEYS = {"format", "game", "seed", "options", "seats", "turns"}
_TOP_KEYS_2 = _TOP_KEYS | {"head"}
CHANGED = "(the record was changed after it was written)"

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

    def to_json(self, *, chained: bool = True) -> dict[str, Any]:
        """The record's JSON (``spyhouse-record/2``, with each entry's ``hash`` and the
        ``head``); ``chained=False`` leaves the hashes out (an in-memory digest's input,
        not a record anyone reads)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "seed": self.seed,
            "options": self.options,
            "seats": [seat.to_json() for seat in self.seats],
        }
        if not chained:
            data["turns"] = [{"orders": dict(turn)} for turn in self.turns]
            return data
        hashes = chain(self)
        data["turns"] = [{"orders": dict(turn), "hash": hashed}
                         for turn, hashed in zip(self.turns, hashes, strict=True)]
        data["head"] = hashes[-1] if hashes else genesis(self)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=False) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def with_turn(self, orders: Mapping[SeatId, Any]) -> Record:
        return Record(self.game, self.seed, self.options, self.seats, (*self.turns, orders))


# ---------------------------------------------------------------- the chain


def canonical(value: Any) -> bytes:
    """``value``'s canonical JSON as UTF-8: keys sorted, no whitespace, non-ASCII
    unescaped (docs/record-format.md gives it byte for byte)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8")


def genesis(record: Record) -> str:
    """The hash the chain starts from: SHA-256 of the header's canonical JSON (format
    ``spyhouse-record/2``, game, seed, options, seats), lowercase hex."""
    header = {"format": FORMAT, "game": record.game, "seed": record.seed,
              "options": record.options, "seats": [seat.to_json() for seat in record.seats]}
    return hashlib.sha256(canonical(header)).hexdigest()


def link(previous: str, orders: Mapping[SeatId, Any]) -> str:
    """An entry's hash: SHA-256 of the previous hash (64 hex digits, ASCII) followed by
    the canonical JSON of the entry's orders, lowercase hex."""
    return hashlib.sha256(previous.encode("ascii") + canonical(dict(orders))).hexdigest()


def chain(record: Record, start: str | None = None) -> list[str]:
    """The hash of every entry of ``record``, in order, from ``start`` (default: the
    record's ``genesis``)."""
    previous = genesis(record) if start is None else start
    hashes = []
    for orders in record.turns:
        previous = link(previous, orders)
        hashes.append(previous)
    return hashes


def head(record: Record) -> str:
    """The last entry's hash, or the genesis for a record without entries."""
    hashes = chain(record)
    return hashes[-1] if hashes else genesis(record)


def _mismatch(record: Record, hashes: Sequence[Any], written_head: Any) -> RecordError | None:
    """The first entry whose written hash is not the chain's, or a head that is not the
    last hash: one line, with ``entry`` set (``None`` for the head)."""
    computed = chain(record)
    for entry, (written, expected) in enumerate(zip(hashes, computed, strict=True), start=1):
        if written != expected:
            what = "the record's header or entry 1" if entry == 1 else f"entry {entry}"
            error = RecordError(f"entry {entry}: hash does not match ({what} was changed "
                                "after it was written)")
            error.entry = entry
            return error
    if written_head != (computed[-1] if computed else genesis(record)):
        return RecordError(f"head does not match {CHANGED}")
    return None


@dataclass(frozen=True)
class VerifyResult:
    """What ``verify`` found: the record, whether it carries a chain (``/2``), its head
    as recomputed, and the one-line problem (``None`` when the chain holds)."""

    record: Record
    chained: bool
    head: str
    problem: str | None = None
    #: the first entry that does not match (``None``: none, or the head)
    entry: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify(data: Any) -> VerifyResult:
    """Check the chain of a record's JSON (parsed): a chain that does not match is a
    result, not an error; a record of a bad shape raises ``RecordError``. The orders are
    not replayed (``replay`` does that)."""
    record, hashes, written_head = _parse(data)
    computed = head(record)
    if hashes is None:
        return VerifyResult(record, chained=False, head=computed)
    error = _mismatch(record, hashes, written_head)
    if error is None:
        return VerifyResult(record, chained=True, head=computed)
    return VerifyResult(record, chained=True, head=computed, problem=str(error),
                        entry=error.entry)


# ---------------------------------------------------------------- reading


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


def _parse(data: Any) -> tuple[Record, list[Any] | None, Any]:
    """The record, its entries' written hashes (``None`` for ``spyhouse-record/1``) and
    its written head, the shape validated (not the chain, nor the orders)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if _too_deep(data, MAX_DEPTH):
        raise RecordError(TOO_DEEP)
    written = data.get("format")
    if written not in (FORMAT, FORMAT_1):
        raise RecordError(f"format must be {FORMAT!r} or {FORMAT_1!r}, not {written!r}")
    chained = written == FORMAT
    if chained and "head" not in data:
        raise RecordError(f"a {FORMAT} record needs its head")
    unknown = set(data) - (_TOP_KEYS_2 if chained else _TOP_KEYS)
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
    hashes: list[Any] = []
    for entry, turn in enumerate(raw_turns, start=1):
        if chained and (not isinstance(turn, dict) or set(turn) != {"orders", "hash"}):
            raise RecordError("a turn must be an object with the two keys 'orders' and "
                              "'hash'", entry=entry)
        if not chained and (not isinstance(turn, dict) or set(turn) != {"orders"}):
            raise RecordError("a turn must be an object with the one key 'orders'", entry=entry)
        if chained:
            hashes.append(turn["hash"])
        orders = turn["orders"]
        if not isinstance(orders, dict):
            raise RecordError("orders must be an object of seat ids", entry=entry)
        for seat_id in orders:
            if seat_id not in ids:
                raise RecordError("no such seat in this record", entry=entry, seat=seat_id)
        turns.append(orders)
    record = Record(game, seed, options, seats, tuple(turns))
    return record, (hashes if chained else None), data.get("head")


def record_from_json(data: Any) -> Record:
    """Validate the record's shape and its chain (not yet its orders: ``replay`` checks
    those). A chain that does not match is refused, naming the first entry that does
    not (``entry 3: hash does not match …``); a ``spyhouse-record/1`` record has none."""
    record, hashes, written_head = _parse(data)
    if hashes is not None:
        error = _mismatch(record, hashes, written_head)
        if error is not None:
            raise error
    return record


def parse_json(text: str) -> Any:
    """A record's JSON text parsed: ``RecordError`` for text that is not JSON, larger
    than ``MAX_BYTES`` or too deep for the parser (its shape is not checked yet)."""
    if len(text) > MAX_BYTES:  # a character is at least a byte
        raise RecordError(TOO_BIG)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:  # far deeper than MAX_DEPTH: the parser gave up first
        raise RecordError(TOO_DEEP) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise RecordError(f"not a usable JSON value: {exc}") from None


def read_text(path: str | Path) -> str:
    """The text of the file ``path`` (UTF-8), read only up to ``MAX_BYTES``."""
    try:
        with Path(path).open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise RecordError(TOO_BIG)
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None


def loads(text: str) -> Record:
    """A record from its JSON text: ``RecordError`` for text that is not JSON, larger than
    ``MAX_BYTES`` or nested deeper than ``MAX_DEPTH``, not a record's shape, or whose
    chain does not match."""
    return record_from_json(parse_json(text))


def load(path: str | Path) -> Record:
    """The record in the file ``path`` (UTF-8 JSON), read only up to ``MAX_BYTES``."""
    return loads(read_text(path))


def verify_file(path: str | Path) -> VerifyResult:
    """``verify`` of the record in the file ``path``, read as ``load`` reads it."""
    return verify(parse_json(read_text(path)))


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
