"""The checks every game's ``Ruleset.resample`` passes, for the games' property tests."""

from __future__ import annotations

import json
from typing import Any

from spyhouse.core.rng import Rng


def dumped(data: Any) -> str:
    """Canonical JSON, to compare views."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def seat_world(rules: Any, state: Any, seat: str, seed: int) -> tuple[Any, Any]:
    """Two draws of ``resample(state, seat, Rng(seed))``, after checking that the seat
    sees the same in the world, that ``state`` is untouched and that both draws agree."""
    before_host, before_seat = dumped(rules.view(state, None)), dumped(rules.view(state, seat))
    world = rules.resample(state, seat, Rng(seed))
    assert dumped(rules.view(world, seat)) == before_seat
    assert dumped(rules.view(state, None)) == before_host
    again = rules.resample(state, seat, Rng(seed))
    assert dumped(rules.view(again, None)) == dumped(rules.view(world, None))
    return world, again
