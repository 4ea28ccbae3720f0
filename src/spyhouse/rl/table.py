"""``Table``: one game driven through its ``Ruleset`` by action indices, for both kinds of
environment (``aec.py``, ``parallel.py``).

It holds the state, each awaited seat's sheet and the orders already parsed, and resolves
an entry once every awaited seat's sheet is complete. A sheet's orders are those
``parse_orders`` gives for its JSON, as a player's: built directly by the encoder where it
can (``Encoder.parsed``, tested equal; ``trust = False`` parses every sheet instead), so an
environment never plays a move the rules refuse. The JSON of each entry is kept, so
``record()`` replays to the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from spyhouse.core import registry
from spyhouse.core.record import Record
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Outcome, Ruleset, Seat, SeatId
from spyhouse.rl.encoding import Encoder, Mask, Observation, load_encoding


def table_seats(game: str, ruleset: Ruleset[Any, Any], count: int) -> tuple[Seat, ...]:
    """Seats ``s1``…``sN`` named as the game names its computer players."""
    pool = registry.plugin(game).words.computer_names
    names: list[str] = []
    for index in range(count):
        base = pool[index % len(pool)]
        name = base if index < len(pool) else f"{base} {index // len(pool) + 1}"
        if ruleset.seat_name_problem(name, names) is not None:
            name = f"Agent_{index + 1}"
        names.append(name)
    return tuple(Seat(id=f"s{number}", name=name, player=f"Agent {number}")
                 for number, name in enumerate(names, start=1))


def outcome_rewards(outcome: Outcome | None, seats: Sequence[SeatId]) -> dict[SeatId, float]:
    """Win 1, loss -1; 0 for everyone when nobody or everybody wins (a draw) or when there
    is no outcome (a game cut short). Several winners (a team, a shared first place)
    each get 1."""
    if outcome is None or not outcome.winners or set(outcome.winners) >= set(seats):
        return dict.fromkeys(seats, 0.0)
    winners = set(outcome.winners)
    return {seat: 1.0 if seat in winners else -1.0 for seat in seats}


class Table:
    """One game at a time: ``reset`` starts one, ``act`` adds a seat's action."""

    def __init__(self, game: str, *, players: int | None = None,
                 rules: Mapping[str, Any] | None = None, max_entries: int | None = None
                 ) -> None:
        plugin = registry.plugin(game)
        self.game = game
        self.ruleset: Ruleset[Any, Any] = plugin.ruleset()
        self.rules: dict[str, Any] = dict(rules or {})
        low, high = self.ruleset.seat_range(self.ruleset.parse_options(self.rules))
        count = players if players is not None else low
        if count < low or (high is not None and count > high):
            raise ValueError(f"{game} takes {low} to {high or 'any number of'} players, "
                             f"not {count}")
        self.seats = table_seats(game, self.ruleset, count)
        self.seat_ids: tuple[SeatId, ...] = tuple(seat.id for seat in self.seats)
        self.encoder: Encoder = load_encoding(plugin)(self.ruleset, self.rules, self.seat_ids)
        self.max_entries = max_entries
        #: build typed orders with the encoder's ``parsed`` (else ``parse_orders`` every sheet)
        self.trust = True
        self.seed = 0
        self.rng = Rng(0)
        self.state: Any = None
        self.entries = 0
        self.turns: list[dict[SeatId, Any]] = []
        self.sheets: dict[SeatId, list[int]] = {}
        self.pending: dict[SeatId, Any] = {}
        self.sent: dict[SeatId, Any] = {}
        self.awaited: tuple[SeatId, ...] = ()
        self.outcome: Outcome | None = None
        self.truncated = False
        self._cache: dict[tuple[SeatId, int, int], tuple[Observation, Mask]] = {}

    # ------------------------------------------------------------ playing

    def reset(self, seed: int) -> None:
        """A new game with ``seed`` as the game's seed (the ``Rng`` of the rules)."""
        self.seed = seed
        self.rng = Rng(seed)
        self.state = self.ruleset.setup(self.seats, self.rules, self.rng)
        self.entries = 0
        self.turns = []
        self._opened()

    def _opened(self) -> None:
        """A new entry opened (or the game ended): fresh sheets for the awaited seats."""
        outcome = self.outcome = self.ruleset.outcome(self.state)
        awaited = () if outcome is not None else tuple(sorted(
            self.ruleset.awaiting(self.state)))
        # the games' own turn limits (Kingdoms' and Infiltration's ``max_turns``) end a game
        # with an outcome: that is a termination; only ``max_entries`` cuts one short
        self.truncated = self.outcome is None and bool(awaited) and (
            self.max_entries is not None and self.entries >= self.max_entries)
        self.awaited = () if self.truncated else awaited
        self.sheets = {seat: [] for seat in self.awaited}
        self.pending = {}
        self.sent = {}
        self._cache.clear()

    @property
    def over(self) -> bool:
        """The game ended (an outcome, nobody awaited) or was cut short (``truncated``)."""
        return not self.awaited

    def acting(self) -> list[SeatId]:
        """The awaited seats whose sheets are not complete yet, in seat order."""
        return [seat for seat in self.awaited if seat not in self.pending]

    def act(self, seat: SeatId, action: int) -> bool:
        """Add ``action`` to ``seat``'s sheet; ``True`` when that resolved an entry.

        An action the mask forbids raises ``ValueError`` (never an order the rules refuse)."""
        sheet = self.sheets.get(seat)
        pending = self.pending
        if sheet is None or seat in pending:
            raise ValueError(f"{seat} has nothing to order now")
        encoder = self.encoder
        if not 0 <= action < encoder.action_count:
            raise ValueError(f"action {action} is not legal: actions are 0 to "
                             f"{encoder.action_count - 1}")
        if not self._encoded(seat)[1][action]:
            raise ValueError(f"action {action} ({encoder.describe(action)}) is not legal "
                             f"for {seat} now")
        sheet.append(action)
        state = self.state
        if not encoder.complete(state, seat, sheet):
            return False
        data = encoder.orders(state, seat, sheet)
        orders = encoder.parsed(state, seat, sheet) if self.trust else None
        if orders is None:
            orders = self.ruleset.parse_orders(state, seat, data)
        pending[seat] = orders
        self.sent[seat] = data
        if len(pending) < len(self.awaited):
            return False
        self.state = self.ruleset.resolve(state, pending, self.rng)
        self.entries += 1
        self.turns.append(self.sent)
        self._opened()
        return True

    # ------------------------------------------------------------ reading

    def _encoded(self, seat: SeatId) -> tuple[Observation, Mask]:
        sheet = self.sheets.get(seat, ())
        key = (seat, self.entries, len(sheet))
        found = self._cache.get(key)
        if found is None:
            encoder = self.encoder
            found = (encoder.observe(self.state, seat, sheet), self._mask(seat, sheet))
            self._cache[key] = found
        return found

    def _mask(self, seat: SeatId, sheet: Sequence[int]) -> Mask:
        encoder = self.encoder
        if seat in self.sheets and seat not in self.pending:
            return encoder.mask(self.state, seat, sheet)
        idle = np.zeros(encoder.action_count, dtype=np.int8)
        if encoder.submit is not None:
            idle[encoder.submit] = 1
        return idle

    def observation(self, seat: SeatId) -> Observation:
        return self._encoded(seat)[0]

    def mask(self, seat: SeatId) -> Mask:
        """The seat's legal actions now; a seat with nothing to order may only ``submit``
        (nothing at all in a one-move game)."""
        return self._encoded(seat)[1]

    def view(self, seat: SeatId) -> dict[str, Any]:
        return self.ruleset.view(self.state, seat)

    def rewards(self) -> dict[SeatId, float]:
        """The game's end as rewards (``outcome_rewards``); zeros while it goes on."""
        return outcome_rewards(self.outcome, self.seat_ids)

    def describe(self) -> str:
        """One line for an environment's ``render`` (mode ``"ansi"``)."""
        return (f"{self.game} seed {self.seed}, entry {self.entries}, "
                f"awaiting {', '.join(self.acting()) or 'nobody'}")

    def record(self) -> Record:
        """The game so far as a record (``spyhouse replay`` reads it)."""
        return Record(game=self.game, seed=self.seed, options=dict(self.rules),
                      seats=self.seats, turns=tuple(self.turns))
