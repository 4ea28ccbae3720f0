"""Spec §17 A1–A9, A15, A16, A39, A42: room combat by priority (§8), the seed's five
examples among them, both on the bare tier rule and through whole turns."""

from __future__ import annotations

import pytest

from spyhouse.games.infiltration.combat import resolve_room
from tests.games.infiltration.scenario import Scenario

WARRIORS = {"A": 3, "B": 3, "C": 3}


def _attacks(**kills: str) -> list[tuple[str, str]]:
    return [(x, y) for x, targets in kills.items() for y in targets]


SEED_EXAMPLES = [
    # (name, kills, dead) — the seed's five examples, A1–A5
    ("a1", {"A": "C", "B": "C", "C": "AB"}, {"C"}),
    ("a2", {"A": "BC", "B": "C", "C": "AB"}, {"B", "C"}),
    ("a3", {"A": "BC", "B": "AC", "C": "AB"}, set()),
    ("a4", {"A": "B", "B": "C", "C": "A"}, {"A", "B", "C"}),
    ("a5", {"A": "BC", "B": "C", "C": "B"}, {"B", "C"}),
]


@pytest.mark.parametrize(("name", "kills", "dead"), SEED_EXAMPLES,
                         ids=[e[0] for e in SEED_EXAMPLES])
def test_seed_examples_on_the_tier_rule(name: str, kills: dict[str, str],
                                        dead: set[str]) -> None:
    """A1–A5 on ``resolve_room`` alone: three Warriors at the same priority."""
    assert resolve_room(WARRIORS, _attacks(**kills)) == dead


def _three_warriors(kills: dict[str, list[str]]) -> Scenario:
    """Ann (A), Bob (B) and Cat (C) alone in C-3, then one turn with ``kills``."""
    game = Scenario(["Ann", "Bob", "Cat"], rooms={"Ann": "C-3", "Bob": "C-3", "Cat": "C-3"})
    game.move()
    game.decide({name: {"kill": targets} for name, targets in kills.items()})
    return game


def test_a1_seed_example_1_only_c_dies() -> None:
    """A1: A kills C; B kills C; C kills A, B → only C dies (A and B are not mutual)."""
    game = _three_warriors({"Ann": ["Cat"], "Bob": ["Cat"], "Cat": ["Ann", "Bob"]})
    assert game.dead() == ["Cat"]
    report = game.last("Ann", "combat")
    assert report is not None
    assert report["text"] == "Ann → Cat; Bob → Cat; Cat → Ann; Cat → Bob; died: Cat"


def test_a2_seed_example_2_b_and_c_die() -> None:
    """A2: A kills B, C; B kills C; C kills A, B → B and C die; A parries C."""
    game = _three_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Cat"], "Cat": ["Ann", "Bob"]})
    assert game.dead() == ["Bob", "Cat"]


def test_a3_seed_example_3_no_one_dies() -> None:
    """A3: everyone targets both others → every attack parried, every pair mutual."""
    game = _three_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Ann", "Cat"],
                            "Cat": ["Ann", "Bob"]})
    assert game.dead() == []
    report = game.last("Bob", "combat")
    assert report is not None and report["text"].endswith("; died: nobody")


def test_a4_seed_example_4_everyone_dies() -> None:
    """A4: A kills B; B kills C; C kills A → no attack is parried: all three die."""
    game = _three_warriors({"Ann": ["Bob"], "Bob": ["Cat"], "Cat": ["Ann"]})
    assert game.dead() == ["Ann", "Bob", "Cat"]
    assert game.public("deaths")[-1]["text"] == "Found dead this turn: Ann, Bob, Cat"


def test_a5_seed_example_5_b_and_c_die() -> None:
    """A5: A kills B, C; B kills C; C kills B → B and C die; A is not attacked."""
    game = _three_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Cat"], "Cat": ["Bob"]})
    assert game.dead() == ["Bob", "Cat"]


def test_a6_priority_beats_a_standoff() -> None:
    """A6: Warrior Rex and Hacker Hal target each other in D-2: Hal dies at tier 3."""
    game = Scenario(["Hal", "Rex"], rooms={"Hal": "D-2", "Rex": "D-2"})
    game.move()
    game.decide({"Rex": {"kill": ["Hal"]}, "Hal": {"kill": ["Rex"]}})
    assert game.dead() == ["Hal"]
    report = game.last("Rex", "combat")
    assert report is not None
    assert report["text"] == "Hal → Rex; Rex → Hal; died: Hal"
    assert game.events("Hal", "combat") == []


@pytest.mark.parametrize("attacks", [True, False], ids=["standoff", "no-kill"])
def test_a7_lone_hacker_vs_guard(attacks: bool) -> None:
    """A7: Hal moves into D-5 as Guard-D arrives → Alert Mode. Hal kills Guard-D → both
    survive (a standoff at tier 2); without a KILL Hal dies at tier 2."""
    game = Scenario(["Hal"], rooms={"Hal": "D-1"}, npcs={"Guard-D": "D-4"})
    game.plan("Guard-D", "D-5")
    game.move({"Hal": "D-5"})
    assert game.state.alert is True
    assert game.public("alert")[-1]["text"].startswith("ALERT MODE")
    game.decide({"Hal": {"kill": ["Guard-D"]} if attacks else {}})
    if attacks:
        assert game.dead() == [] and game.state.npc("Guard-D").alive
    else:
        assert game.dead() == ["Hal"] and game.state.npc("Guard-D").alive


def test_a8_ganging_up_on_a_guard() -> None:
    """A8: Hackers Hal and Hil both kill Guard-D in D-5: the guard dies, both survive; its
    corpse stays and there is no public death notice."""
    game = Scenario(["Hal", "Hil"], rooms={"Hal": "D-5", "Hil": "D-5"},
                    npcs={"Guard-D": "D-5"})
    game.move()
    game.decide({"Hal": {"kill": ["Guard-D"]}, "Hil": {"kill": ["Guard-D"]}})
    assert game.dead() == []
    guard = game.state.npc("Guard-D")
    assert not guard.alive and guard.room == "D-5"
    assert game.public("deaths") == []
    game.park()
    game.move()
    arrival = game.view("Hal")["arrival"]
    assert arrival["corpses"] == ["Guard-D"]


@pytest.mark.parametrize("attacks", [True, False], ids=["kill", "no-kill"])
def test_a9_warrior_vs_guard(attacks: bool) -> None:
    """A9: Warrior Ann kills Guard-E in E-7 at tier 3, untouched; ignoring it, she dies."""
    game = Scenario(["Ann"], rooms={"Ann": "E-7"}, npcs={"Guard-E": "E-7"})
    game.move()
    game.decide({"Ann": {"kill": ["Guard-E"]} if attacks else {}})
    if attacks:
        assert game.dead() == [] and not game.state.npc("Guard-E").alive
    else:
        assert game.dead() == ["Ann"] and game.state.npc("Guard-E").alive


def _everyone_votes(game: Scenario, victim: str) -> dict[str, dict[str, object]]:
    return {name: {"vote": victim if name != victim else "NO LYNCH"} for name in game.names}


@pytest.mark.parametrize("bob_attacks", [False, True], ids=["bob-idle", "bob-kills-ann"])
def test_a15_nanites(bob_attacks: bool) -> None:
    """A15: Ann (KILL Bob, USE Gas C-1) is lynched: she dies at R1, there is no attack and
    no combat report, her gas never happens; Bob's KILL Ann (variant) is dropped."""
    game = Scenario(["Ann", "Bob", "Tom"], rooms={"Ann": "A-4", "Bob": "A-4", "Tom": "C-1"},
                    features={"A-4": "Gas"})
    game.move()
    orders = _everyone_votes(game, "Ann")
    orders["Ann"] = {"vote": "NO LYNCH", "kill": ["Bob"],
                     "terminal": {"action": "USE", "room": "C-1"}}
    if bob_attacks:
        orders["Bob"] = {"vote": "Ann", "kill": ["Ann"]}
    game.decide(orders)
    assert game.dead() == ["Ann"]
    assert game.player("Ann").death.step == "R1"
    assert game.events("Bob", "combat") == []
    assert game.player("Tom").alive


def test_a16_gas_user_killed_first() -> None:
    """A16: Rex kills Gil in F-1 (Gas) while Gil gasses F-4: Gil dies at R2, his gas is
    dropped, and Tom in F-4 lives."""
    game = Scenario(["Gil", "Rex", "Tom"], rooms={"Gil": "F-1", "Rex": "F-1", "Tom": "F-4"},
                    features={"F-1": "Gas"})
    game.move()
    game.decide({"Gil": {"terminal": {"action": "USE", "room": "F-4"}},
                 "Rex": {"kill": ["Gil"]}})
    assert game.dead() == ["Gil"]
    assert game.player("Tom").alive


def test_a39_renegade() -> None:
    """A39: Renegade-1, Guard-C and Ann in C-2; Ann kills both NPCs. At tier 4 Renegade-1
    kills Guard-C and Ann. The Renegade meeting the guard alone causes no alert."""
    game = Scenario(["Ann"], rooms={"Ann": "C-2"}, renegades=1,
                    npcs={"Renegade-1": "C-2", "Guard-C": "C-2"})
    game.move()
    assert game.state.alert is True  # Ann's presence (condition a)
    game.decide({"Ann": {"kill": ["Renegade-1", "Guard-C"]}})
    assert game.dead() == ["Ann"]
    assert not game.state.npc("Guard-C").alive
    assert game.state.npc("Renegade-1").alive

    quiet = Scenario(["Ann"], rooms={"Ann": "A-1"}, renegades=1,
                     npcs={"Renegade-1": "C-2", "Guard-C": "C-2"})
    quiet.move()
    assert quiet.state.alert is False


@pytest.mark.parametrize("ann_class", ["Warrior", "Hacker"])
def test_a42_combat_report_hides_the_tier(ann_class: str) -> None:
    """A42: Ann and Hal both kill Guard-D in D-5: both get the same words whether Ann is a
    Warrior (the guard dies at tier 3) or a Hacker (it dies ganged up on at tier 2)."""
    game = Scenario(["Ann", "Hal"], rooms={"Ann": "D-5", "Hal": "D-5"},
                    npcs={"Guard-D": "D-5"}, classes={"Ann": ann_class})
    game.move()
    game.decide({"Ann": {"kill": ["Guard-D"]}, "Hal": {"kill": ["Guard-D"]}})
    text = "Ann → Guard-D; Hal → Guard-D; Guard-D → Ann; Guard-D → Hal; died: Guard-D"
    for name in ("Ann", "Hal"):
        report = game.last(name, "combat")
        assert report is not None and report["text"] == text
    assert game.dead() == []
