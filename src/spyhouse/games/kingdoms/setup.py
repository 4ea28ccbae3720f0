"""Options (B.3) and the start of the game (D.1). No randomness, no I/O.

The shipped maps are read by the ruleset layer and passed in as ``builtin``; a
custom map travels whole in ``options.map`` (B.3 Decision), so a record replays
with no outside file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.core.ruleset import Seat
from spyhouse.games.kingdoms.maps import Map, map_from_data
from spyhouse.games.kingdoms.model import (
    NUMBER_DEFAULTS,
    NUMBER_OPTIONS,
    Country,
    Options,
    State,
)

OPTION_KEYS: tuple[str, ...] = (*NUMBER_OPTIONS, "map", "seating")
#: Options of the platform's talk (``press.PRESS``) that the rules accept and never read:
#: not a key of B.3, so the views' effective options leave it out.
TALK_KEYS: tuple[str, ...] = ("press",)
MIN_SEATS, MAX_SEATS = 3, 6
HOME_ARMIES = 3
OTHER_ARMIES = 1


def _number(data: Mapping[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise OptionsError(f"options: {key} must be a whole number, at least 1")
    return value


def _map(value: Any, builtin: Mapping[str, Map]) -> Map:
    if isinstance(value, str):
        found = builtin.get(value)
        if found is None:
            raise OptionsError(f'options: unknown map "{value}"')
        return found
    if isinstance(value, Mapping):
        return map_from_data(value)
    raise OptionsError("options: map must be a map id or a map object")


def _seating_form(value: Any) -> tuple[str, ...] | None:
    """``None`` for null, the tuple for a list of strings; anything else is kept out."""
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return tuple(value)
    raise OptionsError("options: seating must be a list of distinct countries of the map")


def parse_options(data: Any, builtin: Mapping[str, Map], *, seats: int | None = None
                  ) -> Options:
    """Typed options, refusing with the first failing check of B.3 (1)-(3).

    With ``seats`` given (setup), checks (4)-(5) follow in the spec's order; without
    it (a host filling in the form) the seating list is checked against its own length.
    """
    if not isinstance(data, Mapping):
        raise OptionsError("options: options must be an object")
    for key in sorted(data):
        if key not in OPTION_KEYS and key not in TALK_KEYS:
            raise OptionsError(f'options: unknown option "{key}"')
    if not isinstance(data.get("press", True), bool):
        raise OptionsError("options: press must be true or false")
    numbers = {key: _number(data, key, NUMBER_DEFAULTS[key]) for key in NUMBER_OPTIONS}
    raw_map = data.get("map", "default")
    game_map = _map(raw_map, builtin)
    map_option: str | dict[str, Any] = (raw_map if isinstance(raw_map, str)
                                        else json.loads(json.dumps(raw_map)))
    if seats is not None and not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionsError(f"setup: Kingdoms needs {MIN_SEATS} to {MAX_SEATS} seats "
                           f"(got {seats})")
    raw_seating = data.get("seating")
    count = seats if seats is not None else (
        len(raw_seating) if isinstance(raw_seating, list) else None)
    seating = _seating_form(raw_seating) if count is None else _check_seating(
        raw_seating, count, game_map)
    return Options(map=game_map, map_option=map_option, seating=seating, **numbers)


def _check_seating(value: Any, count: int, game_map: Map) -> tuple[str, ...] | None:
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(x, str) and x in game_map.country for x in value)
            or len(set(value)) != count):
        raise OptionsError(f"options: seating must be a list of {count} distinct countries "
                           "of the map")
    return tuple(value)


def seating_of(options: Options, count: int) -> tuple[str, ...]:
    """The countries played, in seat order (D.1.1)."""
    if options.seating is not None:
        return options.seating
    seating = options.map.seats_for(count)
    if seating is None:
        raise OptionsError(f"setup: map {options.map.id} has no seating for {count} seats")
    return seating


def start_state(seats: Sequence[Seat], data: Any, builtin: Mapping[str, Map]) -> State:
    """D.1: validate the options against the seats and build the state of turn 1."""
    options = parse_options(data, builtin, seats=len(seats))
    game_map = options.map
    playing = seating_of(options, len(seats))
    start_armies: dict[str, int] = {}
    for cid in playing:
        home = game_map.country[cid].home
        start_armies[cid] = sum(HOME_ARMIES if a.id == home else OTHER_ARMIES
                                for a in game_map.areas if a.land and a.owner == cid)
    for cid in playing:
        if options.force_pool < start_armies[cid]:
            raise OptionsError(f"options: force_pool {options.force_pool} is less than the "
                               f"{start_armies[cid]} armies {cid} starts with")
    seat_of = {cid: seat.id for cid, seat in zip(playing, seats, strict=True)}
    countries = {
        c.id: Country(c.id, c.name, seat_of[c.id], options.start_bp,
                      options.force_pool - start_armies[c.id])
        for c in game_map.countries if c.id in seat_of
    }
    owners: dict[str, str | None] = {}
    armies: dict[str, int] = {}
    for a in game_map.areas:
        if not a.land:
            continue
        owner = a.owner if a.owner in seat_of else None
        owners[a.id] = owner
        if owner is None:
            armies[a.id] = 0
        else:
            armies[a.id] = HOME_ARMIES if game_map.country[owner].home == a.id else OTHER_ARMIES
    return State(options=options, seats=tuple(seats), base_order=tuple(playing),
                 countries=countries, owners=owners, armies=armies)
