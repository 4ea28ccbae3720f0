"""The facility generator and the setup draws of places (spec S5–S8, §16).

Every draw goes through the core's seeded streams: ``layout`` and ``code`` of
the facility seed, ``guards`` and ``starts`` of the game seed, all at turn 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from spyhouse.core.rng import Rng
from spyhouse.games.infiltration.model import (
    FLOORS,
    ROOM_INDEX,
    ROOMS,
    TERMINALS,
    Bracket,
    Feature,
    composition,
    floor_rooms,
)


def specials_in_order(bracket: Bracket) -> list[Feature]:
    """S5.1: GHOST room, General's room, Weapons Lab, generator 1 … generator P."""
    generators = composition(bracket)[Feature.GENERATOR]
    return [Feature.GHOST, Feature.GENERALS, Feature.LAB] + [Feature.GENERATOR] * generators


def generate_map(facility: Rng, bracket: Bracket) -> list[Feature]:
    """S5: the 64 rooms' features, in canonical room order (stream ``layout``)."""
    stream = facility.stream(0, "layout")
    floors = stream.ordering(FLOORS)
    specials = specials_in_order(bracket)
    features: list[Feature | None] = [None] * len(ROOMS)
    for index, special in enumerate(specials):  # S5.2: one roll(8) per special, in order
        room = f"{floors[index]}-{stream.roll(8)}"
        features[ROOM_INDEX[room]] = special
    counts = composition(bracket)
    terminal_list = [feature for feature in TERMINALS for _ in range(counts[feature])]
    shuffled = stream.ordering(terminal_list)
    free = [i for i, f in enumerate(features) if f is None]
    for slot, feature in zip(free, shuffled, strict=True):
        features[slot] = feature
    return [f for f in features if f is not None]


def draw_code(facility: Rng) -> str:
    """S8: a uniform integer 0–9999 as four digits (stream ``code``)."""
    return f"{facility.stream(0, 'code').roll(10_000) - 1:04d}"


def guard_starts(rng: Rng) -> list[str]:
    """S6: for floors A→H, a uniform room of that floor (stream ``guards``)."""
    stream = rng.stream(0, "guards")
    return [floor_rooms(floor)[stream.roll(8) - 1] for floor in FLOORS]


def starting_rooms(rng: Rng, features: Sequence[Feature], guards: Sequence[str],
                   count: int) -> list[str]:
    """S7: the first ``count`` rooms of a shuffle of the guard-free terminal rooms."""
    occupied = set(guards)
    eligible = [room for room, feature in zip(ROOMS, features, strict=True)
                if feature.is_terminal and room not in occupied]
    order = rng.stream(0, "starts").ordering(eligible)
    if count > len(order):  # cannot happen: at least 52 rooms are eligible
        raise ValueError("not enough starting rooms")
    return order[:count]
