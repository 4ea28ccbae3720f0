"""Spec §17 A17, A18, A21–A25, A36–A38, A44: terminals, gas, switches, hacks, repairs,
validity checks and the Commander's and Guard terminals (§9–§11)."""

from __future__ import annotations

import pytest

from spyhouse.core.rng import ScriptedRng
from spyhouse.games.infiltration.model import floor_rooms
from spyhouse.games.infiltration.orders import InfiltrationOrderError
from tests.games.infiltration.scenario import Scenario


def _refused(game: Scenario, name: str, data: dict[str, object]) -> InfiltrationOrderError:
    with pytest.raises(InfiltrationOrderError) as info:
        game.parse(name, data)
    return info.value


def _use(**keys: object) -> dict[str, object]:
    return {"terminal": {"action": "USE", **keys}}


def test_a17_gas_after_combat() -> None:
    """A17: Eve gasses H-2 where Bob kills Cat: Cat dies at R2, Bob at R4; one deaths post."""
    game = Scenario(["Bob", "Cat", "Eve"], rooms={"Eve": "G-1", "Bob": "H-2", "Cat": "H-2"},
                    features={"G-1": "Gas"})
    game.move()
    game.decide({"Eve": _use(room="H-2"), "Bob": {"kill": ["Cat"]}}, fill=True)
    assert game.player("Cat").death.step == "R2"
    assert game.player("Bob").death.cause == "gas"
    assert game.public("deaths")[-1]["text"] == "Found dead this turn: Bob, Cat"
    assert game.answer("Eve") == ["Gas released into H-2."]


def test_a18_gas_in_alert_mode() -> None:
    """A18: in Alert Mode Warrior Eve's gas is refused (U3); Sneaker Sue's goes through and
    kills everyone in H-2 at R4."""
    game = Scenario(["Ann", "Eve", "Sue", "Tom"],
                    rooms={"Ann": "B-4", "Eve": "G-2", "Sue": "G-1", "Tom": "H-2"},
                    features={"G-1": "Gas", "G-2": "Gas"}, npcs={"Guard-B": "B-4"})
    game.move()
    assert game.state.alert is True
    assert _refused(game, "Eve", _use(room="H-2")).code == "U3"
    game.decide({"Sue": _use(room="H-2"), "Ann": {"kill": ["Guard-B"]}})
    assert game.dead() == ["Tom"]
    assert game.player("Tom").death.step == "R4"


def test_a21_switch_swaps_types_not_state() -> None:
    """A21: Sam switches A-3 (clean Switch) with F-6 (hacked Seer): A-3 holds a clean Seer,
    F-6 a hacked Switch; Tia's later switch from F-6 only sends the confirmation."""
    game = Scenario(["Sam", "Tia"], rooms={"Sam": "A-3", "Tia": "F-6"},
                    features={"A-3": "Switch", "F-6": "Seer", "G-1": "Locator"})
    game.set_room("F-6", hacked=True)
    game.move()
    game.decide({"Sam": _use(room="F-6")})
    assert game.answer("Sam") == ["Switch executed: F-6 now holds the Switch terminal; A-3 now "
                                  "holds a Seer terminal."]
    state = game.state
    assert state.feature("A-3").value == "Seer" and not state.is_hacked("A-3")
    assert state.feature("F-6").value == "Switch" and state.is_hacked("F-6")
    game.park()
    game.move()
    game.decide({"Tia": _use(room="G-1")})
    assert game.answer("Tia") == ["Switch executed: G-1 now holds the Switch terminal; F-6 now "
                                  "holds a Locator terminal."]
    assert game.state.feature("G-1").value == "Locator"
    assert game.state.feature("F-6").value == "Switch"


def test_a21_article_before_vowels() -> None:
    """§9.2: "an" replaces "a" before Anonymous messaging and Electronic lock."""
    game = Scenario(["Sam"], rooms={"Sam": "A-3"},
                    features={"A-3": "Switch", "B-1": "Electronic lock"})
    game.move()
    game.decide({"Sam": _use(room="B-1")})
    assert game.answer("Sam") == ["Switch executed: B-1 now holds the Switch terminal; A-3 now "
                                  "holds an Electronic lock terminal."]


def test_a22_switch_on_special_room() -> None:
    """A22: a Switch aimed at the Weapons Lab: "E-5 holds no terminal. Nothing happened." """
    game = Scenario(["Sam"], rooms={"Sam": "A-3"},
                    features={"A-3": "Switch", "E-5": "Weapons Lab"})
    game.move()
    game.decide({"Sam": _use(room="E-5")})
    assert game.answer("Sam") == ["E-5 holds no terminal. Nothing happened."]
    assert game.state.feature("A-3").value == "Switch"


def test_a22_lost_race() -> None:
    """A22 variant: Sam (→ B-1) and Sid (→ B-2) at the Switch in A-3, Sid first in initiative:
    A-3 and B-2 swap; Sam's swap fizzles with the lost-race message."""
    names = ["Ann", "Bob", "Cat", "Rex", "Roy", "Sam", "Sid"]
    rng = ScriptedRng(1, {"initiative@1": [7]})  # Sid, 7th in seat order, goes first
    game = Scenario(names, rooms={"Sam": "A-3", "Sid": "A-3"},
                    features={"A-3": "Switch", "B-1": "History", "B-2": "Psychic"}, rng=rng)
    game.move()
    game.decide({"Sam": _use(room="B-1"), "Sid": _use(room="B-2")})
    assert game.state.initiative[0] == game.seat("Sid")
    assert game.answer("Sid") == ["Switch executed: B-2 now holds the Switch terminal; A-3 now "
                                  "holds a Psychic terminal."]
    assert game.answer("Sam") == ["Switch failed: this terminal was reconfigured before your "
                                  "command ran."]
    assert game.state.feature("A-3").value == "Psychic"
    assert game.state.feature("B-1").value == "History"


def test_a23_hacked_seer_and_same_turn_hack() -> None:
    """A23: a hacked Seer says "Rex is GREEN"; a Seer hacked this very turn still answers
    truly ("Rex is RED"), and falsely from the next turn."""
    game = Scenario(["Ann", "Gil"], rooms={"Gil": "B-7", "Ann": "A-2"},
                    features={"B-7": "Seer", "D-1": "Seer"})
    game.set_room("B-7", hacked=True)
    game.move()
    game.decide({"Gil": _use(player="Rex")})
    assert game.answer("Gil") == ["Rex is GREEN"]
    game.park()
    game.move({"Gil": "D-1", "Rex": "D-1"})
    game.decide({"Gil": _use(player="Rex"), "Rex": {"terminal": {"action": "HACK"}}})
    assert game.answer("Gil") == ["Rex is RED"]
    assert game.answer("Rex") == ["You hacked the Seer terminal in D-1."]
    game.park()
    game.move({"Ann": "D-1", "Gil": "A-1", "Rex": "A-4"})
    game.decide({"Ann": _use(player="Rex")})
    assert game.answer("Ann") == ["Rex is GREEN"]


def test_a24_hacker_detects_and_restores() -> None:
    """A24: Hal sees "Seer — operational — hacked" on arrival and RESTOREs it; Gil then reads
    the truth. RESTORE on a clean terminal is refused with U13."""
    game = Scenario(["Gil", "Hal"], rooms={"Hal": "A-2", "Gil": "A-3"},
                    features={"B-7": "Seer"})
    game.set_room("B-7", hacked=True)
    game.move({"Hal": "B-7"})
    arrival = game.view("Hal")["arrival"]
    assert arrival["text"] == "Seer — operational — hacked" and arrival["hacked"] is True
    game.decide({"Hal": {"terminal": {"action": "RESTORE"}}})
    assert game.answer("Hal") == ["You restored the Seer terminal in B-7."]
    assert not game.state.is_hacked("B-7")
    game.park()
    game.move({"Gil": "B-7"})
    assert game.view("Hal")["arrival"]["text"] == "Seer — operational — clean"
    assert game.view("Gil")["arrival"]["hacked"] is False  # Gil is a Hacker too
    assert _refused(game, "Hal", {"terminal": {"action": "RESTORE"}}).code == "U13"
    game.decide({"Gil": _use(player="Rex")})
    assert game.answer("Gil") == ["Rex is RED"]


def test_a25_destroy_and_repair() -> None:
    """A25: Rex destroys the Locator in G-2; Engineer-1 heads there; Ann sees it destroyed and
    cannot use it (U2); the Engineer repairs it at R3.6 and Ann sees it operational."""
    game = Scenario(["Ann"], rooms={"Rex": "G-2", "Ann": "A-2"}, engineers=1,
                    features={"G-2": "Locator"}, npcs={"Engineer-1": "H-6"})
    game.move()
    game.decide({"Rex": {"terminal": {"action": "DESTROY"}}})
    assert game.answer("Rex") == ["You destroyed the Locator terminal in G-2."]
    assert game.state.npc("Engineer-1").plan == "G-2"
    for npc in game.state.npcs:
        if npc.id != "Engineer-1":
            npc.plan = npc.room
    game.move({"Ann": "G-2", "Rex": "A-4"})
    assert game.state.alert is False
    assert game.view("Ann")["arrival"]["text"] == "Locator — destroyed"
    assert game.view("Ann")["arrival"]["npcs"] == ["Engineer-1"]
    error = _refused(game, "Ann", _use(player="Rex"))
    assert error.code == "U2"
    assert str(error) == "The Locator terminal in G-2 is destroyed and cannot be used."
    game.decide({})
    assert not game.state.is_destroyed("G-2")
    game.park()
    game.move()
    assert game.view("Ann")["arrival"]["text"] == "Locator — operational"


def test_a36_validity_checks() -> None:
    """A36: "ANN IS IN A-1" and "CODE IS 4071" are TRUE; "REX IS RED" is refused with U8; a
    hacked Validity terminal answers FALSE to a true statement."""
    game = Scenario(["Ann", "Fay"], rooms={"Ann": "A-1", "Fay": "F-2"},
                    features={"F-2": "Validity check"})
    game.move()
    error = _refused(game, "Fay", _use(statement="REX IS RED"))
    assert error.code == "U8" and "Alliance and class can never be checked." in str(error)
    game.decide({"Fay": _use(statement="ANN IS IN A-1")})
    assert game.answer("Fay") == ["TRUE"]
    game.park()
    game.move()
    game.decide({"Fay": _use(statement="code is 4071")})
    assert game.answer("Fay") == ["TRUE"]
    game.set_room("F-2", hacked=True)
    game.park()
    game.move()
    game.decide({"Fay": _use(statement="ANN IS IN A-1")})
    assert game.answer("Fay") == ["FALSE"]


def test_a37_commanders_orders_from_two_users() -> None:
    """A37: Dan and Eve at the Commander's terminal, Eve first in initiative: per guard the
    first user decides; each is told only the guards they ordered."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Rex", "Roy"]
    rng = ScriptedRng(1, {"initiative@1": [5]})  # Eve, 5th in seat order, goes first
    game = Scenario(names, rooms={"Dan": "E-3", "Eve": "E-3"},
                    features={"E-3": "Commander's"}, rng=rng)
    game.move()
    game.decide({"Dan": _use(guards={"Guard-A": "B-3"}),
                 "Eve": _use(guards={"Guard-A": "A-1", "Guard-B": "B-5"})})
    assert game.state.npc("Guard-A").plan == "A-1"
    assert game.state.npc("Guard-B").plan == "B-5"
    assert game.answer("Eve") == ["Orders transmitted to Guard-A, Guard-B."]
    assert game.answer("Dan") == ["Orders transmitted to Guard-A."]


@pytest.mark.parametrize("hacked", [False, True], ids=["true", "hacked"])
def test_a38_guard_terminal_forecast(hacked: bool) -> None:
    """A38: Fay's Guard-terminal answer lists the seven guards alive after gas with their
    R4a plans, and they arrive exactly there; hacked, every room is a wrong one of the
    guard's home floor."""
    game = Scenario(["Fay", "Gus"], rooms={"Fay": "F-3", "Gus": "G-1"},
                    features={"F-3": "Guard", "G-1": "Gas"}, npcs={"Guard-C": "C-5"})
    game.set_room("F-3", hacked=hacked)
    game.move()
    game.decide({"Fay": _use(), "Gus": _use(room="C-5")})
    assert not game.state.npc("Guard-C").alive
    lines = game.answer("Fay")
    assert lines is not None and len(lines) == 7
    assert not any(line.startswith("Guard-C") for line in lines)
    told = dict(line.split(" → ") for line in lines)
    game.move()
    for guard, room in told.items():
        npc = game.state.npc(guard)
        if hacked:
            assert room != npc.room and room in floor_rooms(npc.home)
        else:
            assert npc.room == room


def test_a44_check_order_keeps_hacks_secret() -> None:
    """A44: Warrior Bob's RESTORE at a hacked Seer gets U12, never U13; Hacker Hal's RESTORE
    in the Weapons Lab gets U1."""
    game = Scenario(["Bob", "Hal"], rooms={"Bob": "B-7", "Hal": "A-2"},
                    features={"B-7": "Seer", "E-5": "Weapons Lab"})
    game.set_room("B-7", hacked=True)
    game.move({"Hal": "E-5"})
    error = _refused(game, "Bob", {"terminal": {"action": "RESTORE"}})
    assert (error.code, str(error)) == ("U12", "Only Hackers can restore terminals.")
    error = _refused(game, "Hal", {"terminal": {"action": "RESTORE"}})
    assert (error.code, str(error)) == ("U1", "There is no terminal in E-5.")
    assert game.view("Hal")["arrival"]["text"] == "Weapons Lab — You now carry a Stinger."
