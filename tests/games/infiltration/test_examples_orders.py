"""Spec §17 A40 and the §15.5 validation table: every refusal's code, message and order."""

from __future__ import annotations

from typing import Any

import pytest

from spyhouse.games.infiltration.orders import InfiltrationOrderError
from spyhouse.games.infiltration.ruleset import Infiltration
from tests.games.infiltration.scenario import Scenario

RULES = Infiltration()


def _refusal(game: Scenario, name: str, data: Any) -> tuple[str, str, int | None]:
    with pytest.raises(InfiltrationOrderError) as info:
        game.parse(name, data)
    return info.value.code, str(info.value), info.value.index


def _a40() -> Scenario:
    """Ann in A-4 (Seer) with Bob only; Cat dead in F-1; Lou at the lock in C-7."""
    game = Scenario(["Ann", "Bob", "Cat", "Lou"],
                    rooms={"Ann": "A-4", "Bob": "A-4", "Cat": "F-1", "Lou": "C-7"},
                    features={"A-4": "Seer", "C-7": "Electronic lock"})
    game.player("Cat").alive = False
    game.move()
    return game


def test_a40_validation() -> None:
    """A40: K1 (index 1), B1, B2, U11 and G1 in the Decision phase; G4 in the next Movement
    phase; a move into a locked room is accepted and fails at T5 (N2)."""
    game = _a40()
    assert _refusal(game, "Ann", {"kill": ["Cat"]}) == ("K1", "Cat is not in your room.", 1)
    assert _refusal(game, "Ann", {"vote": "Cat"}) == (
        "B1", "Cat is dead. Vote for a living player, NO LYNCH or NO REDS LEFT.", None)
    assert _refusal(game, "Ann", {"vote": "Ann"})[:2] == ("B2", "You cannot vote for yourself.")
    assert _refusal(game, "Ann", {"terminal": {"action": "HACK"}})[:2] == (
        "U11", "Only Reds can hack or destroy terminals.")
    assert _refusal(game, "Ann", {"move": "A-1"})[:2] == (
        "G1", "'move' is not accepted during the Decision phase.")
    game.decide({"Lou": {"terminal": {"action": "USE", "room": "C-4"}}})
    game.park()
    assert _refusal(game, "Ann", {"move": "Z-9"})[:2] == (
        "G4", "'Z-9' is not a room. Rooms are A-1 to H-8.")
    game.move({"Ann": "C-4"})
    assert game.player("Ann").room == "A-4"
    assert game.view("Ann")["arrival"]["notice"] == (
        "C-4 was electronically locked. You remain in A-4.")


def _decision_game() -> Scenario:
    game = Scenario(["Ann", "Bob", "Cat", "Hal"],
                    rooms={"Ann": "A-4", "Bob": "A-4", "Cat": "A-4", "Hal": "B-1",
                           "Rex": "C-1"},
                    features={"A-4": "Seer", "B-1": "Map data", "C-1": "Switch"},
                    npcs={"Guard-A": "A-4"})
    game.player("Cat").alive = False
    game.state.npcs[0].alive = True
    game.move()
    return game


CASES: list[tuple[str, str, Any, str, str, int | None]] = [
    ("f1", "Bob", ["USE"], "F1", "Orders must be a JSON object.", None),
    ("g1-order", "Bob", {"zebra": 1, "move": "A-1"}, "G1",
     "'move' is not accepted during the Decision phase.", None),
    ("f2-vote", "Bob", {"vote": 3}, "F2",
     "'vote' must be a player, NO LYNCH, NO REDS LEFT or null.", None),
    ("g3-vote", "Bob", {"vote": "s99"}, "G3", "There is no player or NPC called 's99'.", None),
    ("b4", "Bob", {"vote": "guard-a"}, "B4",
     "Guard-A is not a player. Vote for a living player, NO LYNCH or NO REDS LEFT.", None),
    ("f2-kill", "Bob", {"kill": "Ann"}, "F2",
     "'kill' must be a list of players and NPCs in your room.", None),
    ("k3", "Bob", {"kill": ["Ann", "Bob"]}, "K3", "You cannot target yourself.", 2),
    ("k2", "Bob", {"kill": ["Cat"]}, "K2", "Cat is dead.", 1),
    ("k4", "Bob", {"kill": ["Guard-A", "GUARD-A"]}, "K4", "Guard-A is named more than once.", 2),
    ("g3-kill", "Bob", {"kill": ["Engineer-7"]}, "G3",
     "There is no player or NPC called 'Engineer-7'.", 1),
    ("f2-terminal", "Bob", {"terminal": "USE"}, "F2", "'terminal' must be an object or null.",
     None),
    ("f2-action", "Bob", {"terminal": {"action": "PUNCH"}}, "F2",
     "'action' must be USE, HACK, DESTROY or RESTORE.", None),
    ("u3", "Bob", {"terminal": {"action": "USE", "player": "Ann"}}, "U3",
     "ALERT MODE: terminals are locked down this turn.", None),
    ("b3", "Bob", {"ready": True}, "B3", "Cast a vote before declaring READY.", None),
    ("f2-ready", "Bob", {"vote": "NO LYNCH", "ready": "yes"}, "F2",
     "'ready' must be true or false.", None),
]


@pytest.mark.parametrize(("case", "name", "data", "code", "message", "index"), CASES,
                         ids=[c[0] for c in CASES])
def test_decision_refusals(case: str, name: str, data: Any, code: str, message: str,
                           index: int | None) -> None:
    """§15.5: each refusal with its exact message (Bob is with Guard-A: Alert Mode)."""
    game = _decision_game()
    assert game.state.alert is True
    assert _refusal(game, name, data) == (code, message, index)


def _quiet_decision() -> Scenario:
    game = Scenario(["Ann", "Hal", "Lou", "Dan", "Tom"],
                    rooms={"Ann": "A-3", "Hal": "B-1", "Rex": "C-1", "Lou": "C-7",
                           "Dan": "E-3", "Tom": "G-2"},
                    features={"A-3": "Seer", "B-1": "Map data", "C-1": "Switch",
                              "C-7": "Anonymous messaging", "E-3": "Commander's",
                              "G-2": "Validity check", "E-5": "Weapons Lab"},
                    options={"message_max_chars": 50})
    game.move()
    assert game.state.alert is False
    return game


def _use(**keys: Any) -> dict[str, Any]:
    return {"terminal": {"action": "USE", **keys}}


TERMINAL_CASES: list[tuple[str, str, Any, str, str]] = [
    ("f3", "Rex", {"terminal": {"action": "HACK", "room": "A-1"}}, "F3",
     "HACK takes no other field."),
    ("u4-missing", "Ann", _use(), "U4", "The Seer terminal takes: player (a player's seat id)."),
    ("u4-extra", "Hal", _use(rooms=["A-1"], room="A-2"), "U4",
     "The Map data terminal takes: rooms (1 to 5 different rooms)."),
    ("u4-type", "Hal", _use(rooms="A-1"), "U4",
     "The Map data terminal takes: rooms (1 to 5 different rooms)."),
    ("u4-text", "Lou", _use(), "U4", "The Anonymous messaging terminal takes: text (1 to 50 "
                                     "characters)."),
    ("g3-player", "Ann", _use(player="s42"), "G3", "There is no player or NPC called 's42'."),
    ("u10", "Ann", _use(player="Guard-B"), "U10", "This terminal only reads players."),
    ("g4-rooms", "Hal", _use(rooms=["A-1", "Q-1"]), "G4",
     "'Q-1' is not a room. Rooms are A-1 to H-8."),
    ("u5-twice", "Hal", _use(rooms=["A-1", "a-1"]), "U5", "Choose 1 to 5 different rooms."),
    ("u5-six", "Hal", _use(rooms=["A-1", "A-2", "A-3", "A-4", "A-5", "A-6"]), "U5",
     "Choose 1 to 5 different rooms."),
    ("u6", "Rex", _use(room="c-1"), "U6", "A Switch terminal cannot target its own room."),
    ("u9", "Lou", _use(text="   "), "U9", "Messages must be 1 to 50 characters."),
    ("u9-long", "Lou", _use(text="x" * 51), "U9", "Messages must be 1 to 50 characters."),
    ("u7-none", "Dan", _use(guards={}), "U7",
     "Give 1 to 8 destinations, at most one for each of Guard-A … Guard-H."),
    ("u7-twice", "Dan", _use(guards={"Guard-A": "A-1", "guard-a": "A-2"}), "U7",
     "Give 1 to 8 destinations, at most one for each of Guard-A … Guard-H."),
    ("u7-engineer", "Dan", _use(guards={"Engineer-1": "A-1"}), "U7",
     "Give 1 to 8 destinations, at most one for each of Guard-A … Guard-H."),
    ("g4-guards", "Dan", _use(guards={"Guard-A": "A-9"}), "G4",
     "'A-9' is not a room. Rooms are A-1 to H-8."),
    ("g3-statement", "Tom", _use(statement="ZED IS IN A-1"), "G3",
     "There is no player or NPC called 'ZED'."),
    ("u8-future", "Tom", _use(statement="ANN WAS IN A-1 ON TURN 2"), "U8",
     "The terminal cannot evaluate that statement. Allowed forms: player IS IN room; player "
     "WAS IN room ON TURN n; player HAS STINGER; GUARD-x IS IN room; room HAS feature; room IS "
     "DESTROYED; room IS HACKED; CODE IS dddd. Alliance and class can never be checked."),
    ("u8-feature", "Tom", _use(statement="A-1 HAS TOASTER"), "U8",
     "The terminal cannot evaluate that statement. Allowed forms: player IS IN room; player "
     "WAS IN room ON TURN n; player HAS STINGER; GUARD-x IS IN room; room HAS feature; room IS "
     "DESTROYED; room IS HACKED; CODE IS dddd. Alliance and class can never be checked."),
    ("u13", "Hal", {"terminal": {"action": "RESTORE"}}, "U13", "This terminal is not hacked."),
]


@pytest.mark.parametrize(("case", "name", "data", "code", "message"), TERMINAL_CASES,
                         ids=[c[0] for c in TERMINAL_CASES])
def test_terminal_refusals(case: str, name: str, data: Any, code: str, message: str) -> None:
    """§15.5: the terminal checks, in the order U11, U12, U1, U3, U2, U13, F3, U4, keys."""
    game = _quiet_decision()
    assert _refusal(game, name, data)[:2] == (code, message)


def test_accepted_orders_are_canonical() -> None:
    """Keywords, rooms and NPC ids are stored as the spec writes them; the dump parses back."""
    game = _quiet_decision()
    orders = game.parse("Dan", {"vote": " no   lynch ", "kill": [],
                                "terminal": {"action": "use",
                                             "guards": {"guard-b": "b-3", "GUARD-A": "c-1"}}})
    data = RULES.dump_orders(orders)
    assert data == {"vote": "NO LYNCH", "terminal": {
        "action": "USE", "guards": {"Guard-A": "C-1", "Guard-B": "B-3"}}}
    assert RULES.dump_orders(RULES.parse_orders(game.state, game.seat("Dan"), data)) == data
    statement = game.parse("Tom", _use(statement="guard-c is in c-4"))
    assert statement.terminal is not None and statement.terminal.statement is not None
    assert statement.terminal.statement.form == "Q4"
    text = game.parse("Lou", _use(text="  Rex was in B-2.  "))
    assert RULES.dump_orders(text)["terminal"]["text"] == "Rex was in B-2."


def test_movement_refusals() -> None:
    """F2 and M1 in the Movement phase; G2 for the dead."""
    mover = _quiet_decision()
    mover.decide({})
    assert _refusal(mover, "Ann", {"move": 5})[:2] == ("F2", "'move' must be a room or null.")
    assert _refusal(mover, "Ann", {"move": "A-1", "code": "12a4"})[:2] == (
        "M1", "A door code is exactly four digits (0000–9999).")
    assert _refusal(mover, "Ann", {"move": "A-1", "code": 1234})[0] == "M1"
    mover.player("Tom").alive = False
    assert _refusal(mover, "Tom", {})[:2] == ("G2", "You are dead and can no longer give "
                                                    "orders.")


def test_class_phase_refusals() -> None:
    """P2 names the offered classes in the order Warrior, Hacker, Sneaker; F2 for a number."""
    from spyhouse.core.rng import Rng
    from spyhouse.core.ruleset import Seat

    seats = [Seat(f"s{i}", f"P{i}") for i in range(1, 8)]
    state = RULES.setup(seats, {"classes_offered": ["Sneaker", "Hacker"],
                                "setup": {"reds": ["s1", "s2"]}}, Rng(3))
    with pytest.raises(InfiltrationOrderError) as info:
        RULES.parse_orders(state, "s3", {"class": "Warrior"})
    assert str(info.value) == ("Warrior is not available in this game. Choose one of: "
                               "Hacker, Sneaker.")
    with pytest.raises(InfiltrationOrderError) as info:
        RULES.parse_orders(state, "s3", {"class": 1})
    assert str(info.value) == "'class' must be a class name or null."
    assert RULES.dump_orders(RULES.parse_orders(state, "s3", {"class": " sneaker"})) == {
        "class": "Sneaker"}
    over = state.clone()
    over.phase = over.phase.__class__("over")
    with pytest.raises(InfiltrationOrderError) as info:
        RULES.parse_orders(over, "s3", {})
    assert info.value.code == "G5"
