"""Spec §17 A10–A14, A19, A20, A33, A35: movement, locks, the GHOST door, Alert Mode and the
Reds' occupancy report (§5, §6, T2)."""

from __future__ import annotations

from tests.games.infiltration.scenario import Scenario


def test_a10_sneaker_unseen() -> None:
    """A10: Sneaker Sue alone with Guard-F in F-2: "All quiet", no combat, and her USE of the
    Seer in F-2 resolves normally."""
    game = Scenario(["Sue"], rooms={"Sue": "F-2"}, npcs={"Guard-F": "F-2"},
                    features={"F-2": "Seer"})
    game.move()
    assert game.public("alert")[-1]["text"] == "All quiet"
    game.decide({"Sue": {"terminal": {"action": "USE", "player": "Rex"}}})
    assert game.dead() == []
    assert game.events("Sue", "combat") == []
    assert game.answer("Sue") == ["Rex is RED"]


def test_a11_sneaker_in_alert_mode() -> None:
    """A11: Ann meets Guard-B in B-4 (alert). Bob's USE in H-1 is refused with U3; Sneaker
    Sue's Locator use in G-3 goes through; the vote and the combat in B-4 go ahead."""
    game = Scenario(["Ann", "Bob", "Sue"], rooms={"Ann": "B-4", "Bob": "H-1", "Sue": "G-3"},
                    npcs={"Guard-B": "B-4"}, features={"G-3": "Locator", "H-1": "Seer"})
    game.move()
    assert game.state.alert is True
    try:
        game.parse("Bob", {"terminal": {"action": "USE", "player": "Rex"}})
    except Exception as exc:
        assert getattr(exc, "code", None) == "U3"
        assert str(exc) == "ALERT MODE: terminals are locked down this turn."
    else:
        raise AssertionError("USE in Alert Mode must be refused")
    rex_room = game.player("Rex").room
    votes = {name: {"vote": "NO LYNCH"} for name in game.names}
    votes["Sue"] = {"vote": "NO LYNCH", "terminal": {"action": "USE", "player": "Rex"}}
    votes["Ann"] = {"vote": "NO LYNCH", "kill": ["Guard-B"]}
    game.decide(votes)
    assert game.answer("Sue") == [f"Rex is in {rex_room}"]
    assert not game.state.npc("Guard-B").alive
    assert game.public("lynch")[-1]["text"] == "No lynch."


def test_a12_alert_two_guards() -> None:
    """A12: Dan orders Guard-A and Guard-B to B-3 on turn 4: on turn 5 both are in B-3 after
    movement — Alert Mode (condition b) with no player there."""
    game = Scenario(["Dan"], rooms={"Dan": "E-3"}, features={"E-3": "Commander's"})
    game.move()
    game.decide({"Dan": {"terminal": {"action": "USE",
                                      "guards": {"Guard-A": "B-3", "Guard-B": "B-3"}}}})
    assert game.answer("Dan") == ["Orders transmitted to Guard-A, Guard-B."]
    assert game.state.npc("Guard-A").plan == "B-3" == game.state.npc("Guard-B").plan
    game.move()  # NPCs are not parked: they follow their plans
    assert game.state.npc("Guard-A").room == "B-3" == game.state.npc("Guard-B").room
    assert game.state.alert is True


def test_a13_alert_guard_corpse() -> None:
    """A13: Guard-C's corpse lies in C-6; Dan orders Guard-D → C-6: next turn, Alert Mode
    (condition c)."""
    game = Scenario(["Dan"], rooms={"Dan": "E-3"}, features={"E-3": "Commander's"},
                    npcs={"Guard-C": "C-6"})
    game.state.npc("Guard-C").alive = False
    game.move()
    assert game.state.alert is False
    game.decide({"Dan": {"terminal": {"action": "USE", "guards": {"Guard-D": "C-6"}}}})
    for npc in game.state.npcs:
        if npc.id != "Guard-D":
            npc.plan = npc.room
    game.move()
    assert game.state.npc("Guard-D").room == "C-6"
    assert game.state.alert is True


def test_a14_crossing_paths() -> None:
    """A14: Ann (E-2) moves to E-7 while Guard-E moves E-7 → E-2: they cross unseen."""
    game = Scenario(["Ann"], rooms={"Ann": "E-2"}, npcs={"Guard-E": "E-7"})
    game.plan("Guard-E", "E-2")
    game.move({"Ann": "E-7"})
    assert game.player("Ann").room == "E-7"
    assert game.state.npc("Guard-E").room == "E-2"
    assert game.state.alert is False
    arrival = game.view("Ann")["arrival"]
    assert arrival["npcs"] == [] and arrival["notice"] is None
    game.decide({})
    assert game.dead() == [] and game.events("Ann", "combat") == []


def test_a19_lock_trapping() -> None:
    """A19: Lou (C-7, Electronic lock) locks C-4, where Tom is. Guard-C's next plan avoids
    C-4; Tom cannot leave (N1), Ann cannot enter (N2); the lock then lapses."""
    game = Scenario(["Ann", "Lou", "Tom"], rooms={"Ann": "A-2", "Lou": "C-7", "Tom": "C-4"},
                    features={"C-7": "Electronic lock"})
    game.move()
    game.decide({"Lou": {"terminal": {"action": "USE", "room": "C-4"}}})
    assert game.answer("Lou") == ["C-4 will be electronically locked during next turn's "
                                  "movement."]
    assert game.state.npc("Guard-C").plan != "C-4"
    assert game.state.locks == ("C-4",)
    game.park()
    game.move({"Tom": "A-1", "Ann": "C-4"})
    assert game.player("Tom").room == "C-4"
    assert game.view("Tom")["arrival"]["notice"] == (
        "C-4 was electronically locked. You could not leave.")
    assert game.player("Ann").room == "A-2"
    assert game.view("Ann")["arrival"]["notice"] == (
        "C-4 was electronically locked. You remain in A-2.")
    assert game.state.locks == ()
    game.decide({})
    game.park()
    game.move({"Tom": "A-1"})
    assert game.player("Tom").room == "A-1"


def test_a20_lock_versus_commanders_orders() -> None:
    """A20: Lou locks C-4 and Dan orders Guard-B (B-2) → C-4: Guard-B's plan is to stay;
    Fay's Guard terminal reads "Guard-B → B-2"; next turn Guard-B is still in B-2."""
    game = Scenario(["Dan", "Fay", "Lou"], rooms={"Dan": "E-3", "Fay": "F-3", "Lou": "C-7"},
                    features={"E-3": "Commander's", "F-3": "Guard", "C-7": "Electronic lock"},
                    npcs={"Guard-B": "B-2"})
    game.move()
    game.decide({"Lou": {"terminal": {"action": "USE", "room": "C-4"}},
                 "Dan": {"terminal": {"action": "USE", "guards": {"Guard-B": "C-4"}}},
                 "Fay": {"terminal": {"action": "USE"}}})
    assert game.state.npc("Guard-B").plan == "B-2"
    lines = game.answer("Fay")
    assert lines is not None and "Guard-B → B-2" in lines and len(lines) == 8
    game.move()
    assert game.state.npc("Guard-B").room == "B-2"


def test_a33_ghost_code() -> None:
    """A33: a wrong code leaves Ann outside (N3); the right one opens the door for good, so
    Cat later enters without a code; a code with another destination is ignored."""
    game = Scenario(["Ann", "Bob", "Cat"], rooms={"Ann": "A-1", "Bob": "B-1", "Cat": "C-1"},
                    features={"H-8": "GHOST room"}, npcs={"Guard-H": "H-1"})
    game.move({"Ann": ("H-8", "1234"), "Bob": ("D-2", "9999")})
    assert game.player("Ann").room == "A-1"
    assert game.view("Ann")["arrival"]["notice"] == (
        "The outer door of H-8 has a mechanical lock and did not open (code 1234 rejected). "
        "You remain in A-1.")
    assert game.player("Bob").room == "D-2"
    assert game.view("Bob")["arrival"]["notice"] is None
    game.decide({})
    game.park()
    game.move({"Cat": "H-8"})
    assert game.view("Cat")["arrival"]["notice"] == (
        "The outer door of H-8 has a mechanical lock and did not open (no code given). "
        "You remain in C-1.")
    game.decide({})
    game.park()
    game.move({"Ann": ("H-8", "4071")})
    assert game.player("Ann").room == "H-8" and game.state.ghost_door_open
    assert game.view("Ann")["arrival"]["text"] == (
        "GHOST room — outer door open; inner door sealed unless two generators are manned.")
    game.decide({})
    game.park()
    game.move({"Cat": "H-8"})
    assert game.player("Cat").room == "H-8"


def test_a35_red_occupancy_report() -> None:
    """A35: Ann and Bob in A-1, Rex in C-2, Roy and Dan in H-5, Eve and Fay in D-3, Cat's
    corpse in F-1, Guard-A in A-2: both Reds read "A-1: 2, C-2: 1, D-3: 2, H-5: 2"."""
    rooms = {"Ann": "A-1", "Bob": "A-1", "Rex": "C-2", "Roy": "H-5", "Dan": "H-5",
             "Eve": "D-3", "Fay": "D-3", "Cat": "F-1"}
    game = Scenario(list(rooms), rooms=rooms, npcs={"Guard-A": "A-2"})
    game.move()
    votes = {name: {"vote": "Cat"} for name in game.names if name != "Cat"}
    game.decide(votes)
    assert game.dead() == ["Cat"]
    text = "A-1: 2, C-2: 1, D-3: 2, H-5: 2"
    for red in ("Rex", "Roy"):
        report = game.last(red, "occupancy")
        assert report is not None and report["text"] == text
        assert game.view(red)["occupancy"] == [["A-1", 2], ["C-2", 1], ["D-3", 2], ["H-5", 2]]
    assert game.events("Ann", "occupancy") == []
    assert game.view("Ann")["occupancy"] is None
