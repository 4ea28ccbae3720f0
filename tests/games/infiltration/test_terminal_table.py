"""Spec §9.2 row by row (true and hacked answers, effects and confirmations), §5.3 NPC plans,
§11.3 Engineers, §12.1 Stingers and the R5 deaths post."""

from __future__ import annotations

from typing import Any

from spyhouse.games.infiltration.model import ROOMS, floor_rooms
from tests.games.infiltration.scenario import Scenario


def _use(**keys: Any) -> dict[str, Any]:
    return {"terminal": {"action": "USE", **keys}}


def _one(feature: str, hacked: bool, **rooms: str) -> Scenario:
    """Ann at a ``feature`` terminal in A-3 (hacked or not), the others where given."""
    game = Scenario(["Ann", *rooms], rooms={"Ann": "A-3", **rooms}, features={"A-3": feature})
    game.set_room("A-3", hacked=hacked)
    game.move()
    return game


def test_psychic_true_and_hacked() -> None:
    game = _one("Psychic", False)
    game.decide({"Ann": _use()})
    assert game.answer("Ann") == ["Reds alive: 2"]
    game = _one("Psychic", True)
    game.decide({"Ann": _use()})
    lines = game.answer("Ann")
    assert lines in (["Reds alive: 0"], ["Reds alive: 1"])


def test_locator_true_dead_and_hacked() -> None:
    game = _one("Locator", False, Bob="C-2")
    game.player("Bob").alive = False
    game.decide({"Ann": _use(player="Bob")})
    assert game.answer("Ann") == ["Bob is in C-2 (dead)"]
    game = _one("Locator", True, Bob="C-2")
    game.decide({"Ann": _use(player="Bob")})
    lines = game.answer("Ann")
    assert lines is not None and lines[0].startswith("Bob is in ")
    assert lines[0] != "Bob is in C-2"


def test_history_true_empty_and_hacked() -> None:
    game = _one("History", False, Bob="C-2", Cat="C-2")
    game.decide({"Ann": _use(room="C-2")})
    assert game.answer("Ann") == ["Turn 0: Bob, Cat", "Turn 1: Bob, Cat"]
    game.park()
    game.move()
    game.decide({"Ann": _use(room="H-1")})
    assert game.answer("Ann") == ["No one has been here."]
    game = _one("History", True, Bob="C-2", Cat="C-2")
    game.decide({"Ann": _use(room="C-2")})
    assert game.answer("Ann") != ["Turn 0: Bob, Cat", "Turn 1: Bob, Cat"]


def test_map_data_true_and_hacked() -> None:
    game = _one("Map data", False)
    rooms = ["A-3", "B-1", "H-8"]
    game.decide({"Ann": _use(rooms=rooms)})
    truth = [f"{r}: {game.state.feature(r).value}" for r in rooms]
    assert game.answer("Ann") == truth
    game = _one("Map data", True)
    game.decide({"Ann": _use(rooms=rooms)})
    lies = game.answer("Ann")
    assert lies is not None and all(a != b for a, b in zip(lies, truth, strict=True))
    assert [line.split(":")[0] for line in lies] == rooms


def test_superlocator_true_and_hacked() -> None:
    game = _one("Superlocator", False)
    game.decide({"Ann": _use()})
    truth = [f"{p.handle}: {p.room}" for p in game.state.players]
    assert game.answer("Ann") == truth
    game = _one("Superlocator", True)
    game.decide({"Ann": _use()})
    lies = game.answer("Ann")
    assert lies is not None and all(a != b for a, b in zip(lies, truth, strict=True))


def test_anonymous_messages_and_hacked_effects() -> None:
    """A message is posted at R5; a hacked Messaging, Gas, Lock or Commander's terminal
    only sends its confirmation."""
    game = _one("Anonymous messaging", False)
    game.decide({"Ann": _use(text="Rex was in B-2.")})
    assert game.public("anonymous")[-1]["text"] == "ANONYMOUS TRANSMISSION: Rex was in B-2."
    assert game.answer("Ann") == ["Message transmitted."]
    game = _one("Anonymous messaging", True)
    game.decide({"Ann": _use(text="hello")})
    assert game.public("anonymous") == [] and game.answer("Ann") == ["Message transmitted."]
    game = _one("Gas", True, Bob="C-2")
    game.decide({"Ann": _use(room="C-2")})
    assert game.player("Bob").alive and game.answer("Ann") == ["Gas released into C-2."]
    game = _one("Electronic lock", True)
    game.decide({"Ann": _use(room="C-2")})
    assert game.state.locks == ()
    game = _one("Commander's", True)
    game.decide({"Ann": _use(guards={"Guard-A": "H-1"})})
    assert game.state.npc("Guard-A").plan != "H-1"
    assert game.answer("Ann") == ["Orders transmitted to Guard-A."]


def test_guard_plans_stay_on_the_home_floor_and_return() -> None:
    """§5.3: a guard moves to another room of its floor; ordered off it, it comes back."""
    game = Scenario(["Dan"], rooms={"Dan": "E-3"}, features={"E-3": "Commander's"})
    game.move()
    game.decide({"Dan": _use(guards={"Guard-B": "G-4"})})
    for npc in game.state.npcs:
        if npc.id.startswith("Guard-") and npc.id != "Guard-B":
            assert npc.plan in floor_rooms(npc.home) and npc.plan != npc.room
    assert game.state.npc("Guard-B").plan == "G-4"
    game.move()
    assert game.state.npc("Guard-B").room == "G-4"
    game.decide({})
    assert game.state.npc("Guard-B").plan in floor_rooms("B")


def test_engineers_split_destroyed_terminals_and_skip_alerts() -> None:
    """§5.3: Engineer-2 does not head for the room Engineer-1 planned; §11.3: no repairs in
    Alert Mode."""
    game = Scenario(["Ann"], rooms={"Rex": "C-2", "Roy": "C-3", "Ann": "B-4"}, engineers=2,
                    npcs={"Guard-B": "B-4", "Engineer-1": "H-5", "Engineer-2": "H-6"},
                    features={"C-2": "Seer"})
    game.move()
    assert game.state.alert is True
    game.decide({"Ann": {"vote": "NO LYNCH", "kill": ["Guard-B"]}})
    game.set_room("C-2", destroyed=True)
    game.state.npc("Engineer-1").room = "C-2"
    game.state.npc("Engineer-2").room = "C-2"
    game.park()
    game.state.npc("Guard-B").alive = True
    game.state.npc("Guard-B").room = "B-4"
    game.state.npc("Guard-B").plan = "B-4"
    game.move()
    assert game.state.alert is True  # Ann meets Guard-B again
    game.decide({"Ann": {"vote": "NO LYNCH", "kill": ["Guard-B"]}})
    assert game.state.is_destroyed("C-2")  # no upkeep in Alert Mode
    plans = [game.state.npc("Engineer-1").plan, game.state.npc("Engineer-2").plan]
    assert plans[0] == "C-2" and plans[1] != "C-2" and plans[1] in ROOMS


def test_stinger_pickup() -> None:
    """T9: "You now carry a Stinger." on the turn of pickup, then "already"; a death drops it."""
    game = Scenario(["Ann"], rooms={"Ann": "A-1"}, features={"E-5": "Weapons Lab"})
    game.move({"Ann": "E-5", "Rex": "E-5"})
    assert game.view("Ann")["arrival"]["text"] == "Weapons Lab — You now carry a Stinger."
    assert game.view("Ann")["me"]["stinger"] is True
    game.decide({})
    game.park()
    game.move()
    assert game.view("Ann")["arrival"]["text"] == "Weapons Lab — You already carry a Stinger."
    game.decide({"Rex": {"kill": ["Ann"]}})
    assert game.dead() == ["Ann"] and game.view("Ann")["me"]["stinger"] is False


def test_deaths_are_listed_case_insensitively() -> None:
    """R5: "Found dead this turn" lists handles alphabetically, ignoring case."""
    game = Scenario(["abe", "Ann", "Cat", "Dan"],
                    rooms={"Ann": "A-2", "abe": "A-2", "Cat": "B-2", "Dan": "B-2"})
    game.move()
    game.decide({"Ann": {"kill": ["abe"]}, "Dan": {"kill": ["Cat"]}})
    assert game.public("deaths")[-1]["text"] == "Found dead this turn: abe, Cat"
