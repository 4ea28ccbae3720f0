"""A game played by bots from start to end, producing its record.

Game independent: it knows a game only through the ``Ruleset`` protocol, the
game record (``core/record.py``) and the bot registry (``core/bots.py``). Each
step gives every awaited seat's bot a fresh copy of that seat's view (``fresh_view``:
nothing in it leads back to the state); the bot's
orders are validated with ``parse_orders`` exactly as the platform validates a
player's, and a refused sheet is recorded as ``null`` (a no-show) and counted.

The result replays to the same states with ``record.replay``: the record holds
``dump_orders`` of the orders that were resolved, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core import bots as bot_registry
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.bots import Bot
from spyhouse.core.errors import OrderError
from spyhouse.core.record import Record
from spyhouse.core.ruleset import Outcome, Ruleset, Seat, SeatId

#: ``make_bot(game, bot name, seat, seed)``, as ``spyhouse.core.bots.make_bot``.
BotFactory = Callable[[str, str, SeatId, int], Bot]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A bot's sheet that ``parse_orders`` refused; the record holds ``null`` instead."""

    entry: int
    seat: SeatId
    message: str


@dataclass(frozen=True, slots=True)
class Simulation:
    """What a simulation produced: the record, the final state's outcome and the refusals."""

    record: Record
    outcome: Outcome | None
    refusals: tuple[Refusal, ...] = field(default=())
    bots: Mapping[SeatId, str] = field(default_factory=dict)
    final_state: Any = field(default=None, repr=False, compare=False)
    #: seat -> (record entries resolved before it, the view): the last view each seat's
    #: bot acted on, i.e. the last report the seat read while it was still playing.
    last_views: Mapping[SeatId, tuple[int, Mapping[str, Any]]] = field(
        default_factory=dict, repr=False, compare=False)

    @property
    def entries(self) -> int:
        return len(self.record.turns)


def seat_names(count: int, game: str = "spyvsspy") -> list[str]:
    """``count`` distinct names of the kind ``game`` gives its computer players (its
    plugin's ``words.computer_names``); past the list, they repeat with " 2", " 3", …."""
    pool = registry.plugin(game).words.computer_names
    names: list[str] = []
    for index in range(count):
        base = pool[index % len(pool)]
        cycle = index // len(pool)
        names.append(base if cycle == 0 else f"{base} {cycle + 1}")
    return names


def default_seats(count: int, game: str | None = None) -> tuple[Seat, ...]:
    """Seats ``s1``…``sN`` with names of the game's own kind (Spy vs Spy's brotherhoods
    when no game is named), played by "Bot 1"…"Bot N".

    A name the game's ``seat_name_problem`` refuses becomes ``Agent_<n>`` instead.
    """
    names = seat_names(count, game or "spyvsspy")
    if game is not None:
        ruleset = registry.get(game)
        for index, name in enumerate(names):
            if ruleset.seat_name_problem(name, names[:index]) is not None:
                names[index] = f"Agent_{index + 1}"
    return tuple(
        Seat(id=f"s{number}", name=name, player=f"Bot {number}", email=None)
        for number, name in enumerate(names, start=1)
    )


def _make_bots(
    game: str, seats: Sequence[Seat], bot_names: Sequence[str], seed: int,
    factory: BotFactory | None,
) -> tuple[dict[SeatId, Bot], dict[SeatId, str]]:
    if factory is None:
        factory = bot_registry.make_bot
    if not bot_names:
        raise ValueError("a simulation needs at least one bot name")
    bots: dict[SeatId, Bot] = {}
    chosen: dict[SeatId, str] = {}
    for index, seat in enumerate(seats):
        name = bot_names[index % len(bot_names)]
        bots[seat.id] = factory(game, name, seat.id, bot_registry.seat_bot_seed(seed, seat.id))
        chosen[seat.id] = name
    return bots, chosen


def simulate(
    game: str,
    *,
    players: int,
    turns: int,
    seed: int,
    bots: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seats: Sequence[Seat] | None = None,
    on_step: Callable[[int, Any], None] | None = None,
    make_bot: BotFactory | None = None,
) -> Simulation:
    """Play ``game`` between bots for at most ``turns`` record entries.

    Bot names cycle over the seats (default: every bot of the game, cycling).
    ``on_step(entry, state)`` is called after each resolved entry (progress bars).
    Stops when the ruleset reports an outcome, awaits nobody, or after ``turns``.
    """
    if players < 1:
        raise ValueError("players must be at least 1")
    if turns < 0:
        raise ValueError("turns must be at least 0")
    chosen_seats = tuple(seats) if seats is not None else default_seats(players, game)
    names = list(bots)
    if not names:
        names = list(bot_registry.bot_names(game))
    seat_bots, bot_of = _make_bots(game, chosen_seats, names, seed, make_bot)

    record = Record(game=game, seed=seed, options=dict(options or {}), seats=chosen_seats)
    ruleset: Ruleset[Any, Any]
    ruleset, rng, state = records.start(record)
    refusals: list[Refusal] = []
    entries: list[Mapping[SeatId, Any]] = []
    last_views: dict[SeatId, tuple[int, Mapping[str, Any]]] = {}
    for entry in range(1, turns + 1):
        if ruleset.outcome(state) is not None:
            break
        awaited = sorted(ruleset.awaiting(state))
        if not awaited:
            break
        raw: dict[SeatId, Any] = {}
        parsed: dict[SeatId, Any] = {}
        for seat in awaited:
            view = ruleset.view(state, seat)
            last_views[seat] = (entry - 1, view)
            data = seat_bots[seat].act(bot_registry.fresh_view(view))
            if data is None:
                raw[seat] = None
                parsed[seat] = None
                continue
            try:
                orders = ruleset.parse_orders(state, seat, data)
            except OrderError as exc:
                refusals.append(Refusal(entry, seat, str(exc)))
                raw[seat] = None
                parsed[seat] = None
                continue
            parsed[seat] = orders
            raw[seat] = ruleset.dump_orders(orders)
        state = ruleset.resolve(state, parsed, rng)
        entries.append(raw)
        if on_step is not None:
            on_step(entry, state)
    final = Record(record.game, record.seed, record.options, record.seats, tuple(entries))
    return Simulation(
        record=final,
        outcome=ruleset.outcome(state),
        refusals=tuple(refusals),
        bots=bot_of,
        final_state=state,
        last_views=last_views,
    )
