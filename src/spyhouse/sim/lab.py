"""The balance lab's plan: which games to play, and one game as a pure task.

Game independent, like ``simulate``: a game is reached through ``core.registry`` and
its bots through bot specs (``core.bots.bot_factory``: a built-in name,
``path/to/file.py:Class`` or ``module:Class``).

The plan is fixed by its arguments alone, so any executor (``lab_run``) plays the same
games and returns the same rows:

- **Rotation.** With bots ``b0 … b(B-1)`` and ``N`` seats, rotation ``r`` seats
  ``b((i + r) mod B)`` in seat ``s(i+1)``. A *block* is the ``B`` rotations of one game
  seed, so within a block every bot sits every seat equally often (once per listed
  copy), and seat order cannot favour a bot. ``--games G`` is rounded up to whole blocks.
- **Seeds.** Block ``k`` plays game seed ``S + k`` (``S`` = ``--seed``), the same for
  every variant and player count: variants are compared on the same deals.
- **Variants.** Each variant is a JSON object of rule options merged over the base
  options (its keys win); its label names it in the report.

``play(task)`` is one game: ``(game, seat -> bot spec, seed, options, entry cap) ->
result row``. It depends on nothing else (no clock, no global state): bots that could
read the clock (an attribute ``time_cap``) get ``time_cap = None``, and ``simulate``
hands every bot ``fresh_view(view)``. A finished game's win share goes to its winners, ``1 /
len(winners)`` each; a game cut by the entry cap, or ending without winners, gives none.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyhouse.core import registry
from spyhouse.core.bots import Bot, SeatBotFactory, bot_factory, bot_label
from spyhouse.sim.simulate import BotFactory, default_seats, simulate

#: The record-entry cap of a game when the command gives none (every built-in game
#: ends well within it; a game cut by it counts as unfinished).
DEFAULT_TURNS = 200
#: Seats when the command gives none: 8, or the most/fewest the game takes.
DEFAULT_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class Variant:
    """A named set of rule options merged over the base options."""

    label: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LabTask:
    """One game of the plan; ``play`` turns it into a result row."""

    index: int
    game: str
    players: int
    variant: str
    options: Mapping[str, Any]
    seed: int
    block: int
    rotation: int
    #: bot spec of seats s1…sN, in order
    lineup: tuple[str, ...]
    turns: int


class LabError(ValueError):
    """A plan that cannot be played: the message says why, for the command line."""


def parse_variant(text: str) -> Variant:
    """``JSON`` or ``LABEL=JSON`` (a JSON object of options) as a ``Variant``.

    Without a label, the options themselves name it (``variant=spy2``; ``{}`` is
    ``default``)."""
    label, sep, rest = text.partition("=")
    if sep and label and not label.lstrip().startswith("{"):
        body = rest
    else:
        label, body = "", text
    try:
        options = json.loads(body)
    except json.JSONDecodeError as exc:
        raise LabError(f"variant {text!r} is not JSON: {exc.msg}") from None
    if not isinstance(options, dict):
        raise LabError(f"variant {text!r} must be a JSON object of options")
    return Variant(label.strip() or variant_label(options), options)


def variant_label(options: Mapping[str, Any]) -> str:
    """A short name for a variant's options: ``key=value`` pairs, sorted."""
    if not options:
        return "default"
    return ",".join(f"{key}={json.dumps(value) if not isinstance(value, str) else value}"
                    for key, value in sorted(options.items()))


def default_players(game: str) -> int:
    """Eight seats, or the nearest number the game takes."""
    spec = registry.get(game).spec
    count = max(DEFAULT_PLAYERS, spec.min_seats)
    return min(count, spec.max_seats) if spec.max_seats is not None else count


def resolve_spec(spec: str) -> str:
    """``file.py:Class`` with the file's absolute path (workers may run elsewhere);
    other specs as they are."""
    where, sep, name = spec.rpartition(":")
    if sep and where.endswith(".py"):
        return f"{Path(where).resolve()}:{name}"
    return spec


def plan_games(
    game: str,
    bots: Sequence[str],
    *,
    players: Sequence[int],
    games: int,
    variants: Sequence[Variant] = (),
    seed: int = 1,
    turns: int = DEFAULT_TURNS,
    options: Mapping[str, Any] | None = None,
) -> list[LabTask]:
    """Every game of the lab, in order: player counts, then variants, then blocks of
    ``len(bots)`` rotations (``games`` per player count and variant, rounded up to whole
    blocks). Checks the game, the bot specs, the seat counts and each variant's options
    first (``LabError``)."""
    if game not in registry.names():
        raise LabError(f"unknown game {game!r}; known games: {', '.join(registry.names())}")
    if not bots:
        raise LabError("the lab needs at least one bot")
    if games < 1:
        raise LabError("--games must be at least 1")
    if turns < 1:
        raise LabError("--turns must be at least 1")
    if seed < 0:
        raise LabError("--seed must be a whole number >= 0")
    specs = tuple(resolve_spec(spec) for spec in bots)
    for spec in dict.fromkeys(specs):
        bot_factory(game, spec)  # BotSpecError (a LabError's sibling) names a bad spec
    chosen = list(variants) or [Variant("default", {})]
    labels = [variant.label for variant in chosen]
    if len(set(labels)) != len(labels):
        raise LabError(f"two variants share a label: {', '.join(labels)}")
    ruleset = registry.get(game)
    for count in players:
        for variant in chosen:
            merged = {**(options or {}), **variant.options}
            try:
                parsed = ruleset.parse_options(merged)
                low, high = ruleset.seat_range(parsed)
            except ValueError as exc:  # OptionsError is a ValueError
                raise LabError(f"variant {variant.label}: {exc}") from None
            if count < low or (high is not None and count > high):
                most = "" if high is None else f" to {high}"
                raise LabError(f"{game} takes {low}{most} players, not {count}"
                               f" (variant {variant.label})")
    blocks = math.ceil(games / len(specs))
    tasks: list[LabTask] = []
    for count in players:
        for variant in chosen:
            merged = {**(options or {}), **variant.options}
            for block in range(blocks):
                for rotation in range(len(specs)):
                    lineup = tuple(specs[(seat + rotation) % len(specs)]
                                   for seat in range(count))
                    tasks.append(LabTask(len(tasks), game, count, variant.label, merged,
                                         seed + block, block, rotation, lineup, turns))
    return tasks


def _factory(game: str) -> BotFactory:
    factories: dict[str, SeatBotFactory] = {}

    def make(game_name: str, spec: str, seat: str, seed: int) -> Bot:
        if spec not in factories:
            factories[spec] = bot_factory(game, spec)
        bot = factories[spec](seat, seed)
        if hasattr(bot, "time_cap"):
            bot.time_cap = None  # decisions by the view and the seed alone
        return bot

    return make


def _ending(game: str, public_view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The first sentence of the game's own result line ("The Greens win.")."""
    found = registry.plugin(game).pages.result(public_view, names)
    if found is None:
        return ""
    line = found.line.strip()
    head, sep, _ = line.partition(". ")
    return head + "." if sep else line


def play(task: LabTask) -> dict[str, Any]:
    """Play one game of the plan: its result row (JSON-ready, the same wherever it runs)."""
    seats = default_seats(task.players, task.game)
    try:
        result = simulate(task.game, players=task.players, turns=task.turns, seed=task.seed,
                          bots=task.lineup, options=task.options, seats=seats,
                          make_bot=_factory(task.game))
    except Exception as exc:
        raise RuntimeError(f"lab game {task.index} (seed {task.seed}, variant {task.variant}, "
                           f"bots {', '.join(task.lineup)}): {exc}") from exc
    ruleset = registry.get(task.game)
    ids = [seat.id for seat in seats]
    outcome = result.outcome
    winners = sorted(outcome.winners, key=ids.index) if outcome is not None else []
    share = 1.0 / len(winners) if winners else 0.0
    places = dict(outcome.standings) if outcome is not None else {}
    labels = [bot_label(spec) for spec in task.lineup]
    names = {seat.id: seat.name for seat in seats}
    ending = (_ending(task.game, ruleset.public_view(result.final_state), names)
              if outcome is not None else "")
    return {
        "index": task.index,
        "players": task.players,
        "variant": task.variant,
        "seed": task.seed,
        "block": task.block,
        "rotation": task.rotation,
        "bots": labels,
        "finished": outcome is not None,
        "winners": winners,
        "winner_bots": [labels[ids.index(seat)] for seat in winners],
        "shares": [share if seat in winners else 0.0 for seat in ids],
        "places": [places.get(seat) for seat in ids],
        "entries": result.entries,
        "turns": ruleset.turn_number(result.final_state),
        "refusals": len(result.refusals),
        "ending": ending,
    }


__all__ = ["DEFAULT_TURNS", "LabError", "LabTask", "Variant", "default_players",
           "parse_variant", "plan_games", "play", "resolve_spec", "variant_label"]
