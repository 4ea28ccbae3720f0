"""The ``conqueror`` bot finishes a rival off: its prey's last seen garrison is attacked
in slot 1, before the prey's own RAISE, when the conqueror comes first in the turn."""

from __future__ import annotations

from typing import Any

from spyhouse.games.kingdoms import bots
from spyhouse.games.kingdoms.model import State
from tests.games.kingdoms.fixture import RULES, new_game, set_area


def last_stand(turn: int) -> State:
    """G3 at ``turn``: k3 holds only a05 (1 army, seen last turn), k1's a04 has 6."""
    state = new_game(3, turn=turn)
    set_area(state, "a06", None, 0)
    set_area(state, "a12", None, 0)
    set_area(state, "a05", "k3", 1)
    set_area(state, "a04", "k1", 6)
    return state


def orders_of_k1(state: State) -> list[dict[str, Any]]:
    bot = bots.make_bot("conqueror", "s1", 5)
    assert isinstance(bot, bots.Conqueror)
    bot.intel.armies["a05"] = (state.turn - 1, 1)
    orders = bot.act(RULES.view(state, "s1"))
    assert orders is not None
    RULES.parse_orders(state, "s1", orders)
    assert bot.prey == "k3"
    return list(orders["actions"])


def test_conqueror_strikes_the_last_area_first() -> None:
    """Turn 4: k1 comes first (P_4 = k1 k3 k5), so its slot-1 MOVE takes a05 before
    k3 can raise there."""
    first = orders_of_k1(last_stand(4))[0]
    assert first == {"action": "MOVE", "from": "a04", "to": "a05", "extra": 6}


def test_conqueror_waits_when_the_prey_raises_first() -> None:
    """Turn 5 (P_5 = k3 k5 k1): k3's RAISE would land first; no slot-1 strike."""
    assert orders_of_k1(last_stand(5))[0]["action"] != "MOVE"
