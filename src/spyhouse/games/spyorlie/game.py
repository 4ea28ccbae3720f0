"""The platform state of a game: options (DF1), seats, the position, the log (§4.2, DF3).

``GameState`` is immutable: ``resolve_entry`` copies the position, applies one chosen
move and every forced pass after it (D39), and returns a new state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.core.ruleset import Seat, SeatId
from spyhouse.games.spyorlie.board import MAX_RADIUS, MIN_RADIUS
from spyhouse.games.spyorlie.model import Colour, Event, Move
from spyhouse.games.spyorlie.rules import Key, Position

DIFFICULTIES = ("operative", "spymaster", "random")
_OPTION_KEYS = ("blue", "computer", "radius")


@dataclass(frozen=True, slots=True)
class Options:
    """DF1. ``blue`` is ``None`` for "the first seat"; ``computer`` is sorted by seat."""

    radius: int = 4
    blue: SeatId | None = None
    computer: tuple[tuple[SeatId, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"radius": self.radius}
        if self.blue is not None:
            out["blue"] = self.blue
        out["computer"] = dict(self.computer)
        return out


def parse_options(data: Mapping[str, Any]) -> Options:
    """DF1: typed options; ``OptionsError`` names the key (seat ids are checked in setup)."""
    if not isinstance(data, Mapping):
        raise OptionsError("options must be an object")
    for key in sorted(data):
        if key not in _OPTION_KEYS:
            raise OptionsError(f"unknown option {key}")
    radius = data.get("radius", 4)
    if radius is None:
        radius = 4
    if not isinstance(radius, int) or isinstance(radius, bool) or \
            not MIN_RADIUS <= radius <= MAX_RADIUS:
        raise OptionsError(f"radius must be a whole number from {MIN_RADIUS} to {MAX_RADIUS}")
    blue = data.get("blue")
    if blue is not None and (not isinstance(blue, str) or not blue):
        raise OptionsError("blue must be a seat id")
    computer = data.get("computer")
    if computer is None:
        computer = {}
    if not isinstance(computer, Mapping):
        raise OptionsError("computer must be an object of seat ids")
    pairs: list[tuple[SeatId, str]] = []
    for seat in sorted(computer):
        level = computer[seat]
        if not isinstance(seat, str) or level not in DIFFICULTIES:
            raise OptionsError(f'computer.{seat} must be "operative", "spymaster" or "random"')
        pairs.append((seat, level))
    return Options(radius=radius, blue=blue, computer=tuple(pairs))


@dataclass(frozen=True, slots=True)
class AiNote:
    """DF2 ``ai``: the difficulty a computer move was chosen with and the AI6 cut flag."""

    difficulty: str
    budget_cut: bool

    def to_json(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "budget_cut": self.budget_cut}


@dataclass(frozen=True, slots=True)
class Order:
    """A seat's move as the platform passes it around: the move and its ``ai`` note."""

    move: Move
    ai: AiNote | None = None

    def to_json(self) -> dict[str, Any]:
        out = self.move.to_json()
        if self.ai is not None:
            out["ai"] = self.ai.to_json()
        return out


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One completed turn: ``move`` is ``None`` for a pass."""

    ply: int
    colour: Colour
    move: Move | None
    events: tuple[Event, ...]
    ai: AiNote | None = None


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the platform keeps between record entries. ``position`` is never mutated."""

    options: Options
    seats: tuple[SeatId, SeatId]            # by colour: BLUE's seat, RED's seat
    names: tuple[str, str]                  # public seat names, by colour
    position: Position
    log: tuple[LogEntry, ...] = ()
    last_from: int = 0                      # log index where the latest record entry starts
    keys: tuple[Key, ...] = ()              # KO1 key after every turn
    computer: tuple[tuple[SeatId, str], ...] = ()   # seat -> difficulty of its latest move
    entries: int = 0                        # record entries resolved

    def colour_of(self, seat: SeatId) -> Colour | None:
        if seat == self.seats[0]:
            return Colour.BLUE
        if seat == self.seats[1]:
            return Colour.RED
        return None

    def seat_of(self, colour: int) -> SeatId:
        return self.seats[colour]

    @property
    def last(self) -> tuple[LogEntry, ...]:
        return self.log[self.last_from:]


def start_state(seats: Sequence[Seat], options: Options) -> GameState:
    """DF3 setup: empty board, full hands, BLUE (``options.blue`` or the first seat) to move."""
    if len(seats) != 2:
        raise OptionsError(f"seats: Spy or Lie takes exactly two seats, not {len(seats)}")
    ids = [seat.id for seat in seats]
    if options.blue is not None and options.blue not in ids:
        raise OptionsError(f"blue: there is no seat {options.blue} in this game")
    for seat, _level in options.computer:
        if seat not in ids:
            raise OptionsError(f"computer: there is no seat {seat} in this game")
    blue = options.blue if options.blue is not None else ids[0]
    red = ids[1] if blue == ids[0] else ids[0]
    names = {seat.id: seat.name for seat in seats}
    return GameState(options=options, seats=(blue, red), names=(names[blue], names[red]),
                     position=Position.start(options.radius), computer=options.computer)


def ko_violation(position: Position, move: Move, previous_key: Key | None) -> bool:
    """KO2 (D28): whether ``move`` recreates ``previous_key`` (the key after the mover's own
    previous turn). Card counts are compared first; a placement always adds a card (G16)."""
    if previous_key is None:
        return False
    before = previous_key[-1]
    if isinstance(before, bytes) and sum(1 for b in before if b) != position.ncards + 1:
        return False
    trial = position.copy()
    trial.apply(move)
    return trial.key() == previous_key


def previous_key(state: GameState) -> Key | None:
    """The key after the mover's own previous turn (two turns back), if any."""
    return state.keys[-2] if len(state.keys) >= 2 else None


def resolve_entry(state: GameState, order: Order) -> GameState:
    """DF3 resolve: APPLY the chosen move, then APPLY(PASS) while forced (D29, D39).

    The new position keeps its packed cells up to date (``track_key``), carried over from
    the state's own when it has them, so each turn's KO key packs no cell."""
    before = state.position
    position = before.copy()
    codes = before.codes
    position.codes = bytearray(before.packed() if codes is None else codes)
    mover = position.to_move
    ply = position.ply
    events = position.apply(order.move)
    log = [LogEntry(ply, mover, order.move, tuple(events), order.ai)]
    keys = [position.key()]
    while not position.over and not position.has_placement():
        colour, ply = position.to_move, position.ply
        events = position.apply_pass()
        log.append(LogEntry(ply, colour, None, tuple(events)))
        keys.append(position.key())
    computer = state.computer
    if order.ai is not None:
        seats = dict(computer)
        seats[state.seat_of(mover)] = order.ai.difficulty
        computer = tuple(sorted(seats.items()))
    return GameState(options=state.options, seats=state.seats, names=state.names,
                     position=position, log=state.log + tuple(log), last_from=len(state.log),
                     keys=state.keys + tuple(keys), computer=computer,
                     entries=state.entries + 1)
