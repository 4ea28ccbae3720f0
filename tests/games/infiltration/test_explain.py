"""Infiltration's "why it happened" (issue 13 item 6): the vote count, combat by priority,
terminal answers and whether hacked, gas and the end, from the host view.

Each worked example of spec §17 with a combat, terminal, vote or end outcome is played
through the scenario harness; the explanation must state that outcome. Properties: explain
never raises on bot games and gives non-empty titles and lines; a replayed record explains
every entry as the live run did.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.record import step
from spyhouse.core.rng import Rng
from spyhouse.games.infiltration.plugin import PLUGIN
from tests.games.infiltration.botplay import play
from tests.games.infiltration.scenario import RULES, Scenario

PAGES = PLUGIN.pages


def _why(game: Scenario) -> dict[str, list[str]]:
    """Title -> lines of the explanation of the phase just resolved."""
    return {e.title: list(e.lines) for e in PAGES.explain(game.view(None), None, 9)}


def _warriors(kills: dict[str, list[str]]) -> dict[str, list[str]]:
    game = Scenario(["Ann", "Bob", "Cat"], rooms={"Ann": "C-3", "Bob": "C-3", "Cat": "C-3"})
    game.move()
    game.decide({name: {"kill": targets} for name, targets in kills.items()})
    return _why(game)


def _combat(why: dict[str, list[str]]) -> list[str]:
    return why["R2 Combat, by priority"]


def test_titles_follow_the_turn_algorithm() -> None:
    """A Decision phase: R1 … R6 in §4's order; a Movement phase: movement, then T8."""
    game = Scenario(["Ann", "Bob"])
    game.move()
    assert list(_why(game)) == ["T4–T7 Movement", "T8 Alert"]
    game.decide()
    assert list(_why(game)) == ["R1 Lynch: the vote count", "R2 Combat", "R3 Terminals",
                                "R4 Gas", "R5 Information", "R6 End check"]


def test_a1_seed_example_1_only_c_dies() -> None:
    """A1: all at priority 3; Cat cannot parry two attackers who do not attack each other."""
    combat = _combat(_warriors({"Ann": ["Cat"], "Bob": ["Cat"], "Cat": ["Ann", "Bob"]}))
    assert combat[0].startswith("In C-3: Ann (Green Warrior, priority 3), Bob (Green Warrior, "
                                "priority 3), Cat (Green Warrior, priority 3)")
    assert combat[1] == ("  Priority 3 (Warrior): Ann → Cat; Bob → Cat; Cat → Ann; Cat → Bob; "
                         "died: Cat.")


def test_a2_seed_example_2_b_and_c_die() -> None:
    combat = _combat(_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Cat"], "Cat": ["Ann", "Bob"]}))
    assert combat[1].endswith("died: Bob, Cat.")


def test_a3_seed_example_3_no_one_dies() -> None:
    combat = _combat(_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Ann", "Cat"],
                                "Cat": ["Ann", "Bob"]}))
    assert combat[1].endswith("died: nobody.") and combat[2] == "  Dead in C-3: nobody."


def test_a4_seed_example_4_everyone_dies() -> None:
    combat = _combat(_warriors({"Ann": ["Bob"], "Bob": ["Cat"], "Cat": ["Ann"]}))
    assert combat[1].endswith("died: Ann, Bob, Cat.")


def test_a5_seed_example_5_b_and_c_die() -> None:
    combat = _combat(_warriors({"Ann": ["Bob", "Cat"], "Bob": ["Cat"], "Cat": ["Bob"]}))
    assert combat[1].endswith("died: Bob, Cat.")


def test_a6_priority_beats_a_standoff() -> None:
    """A6: Warrior Rex acts at priority 3 and kills Hacker Hal before Hal's tier."""
    game = Scenario(["Hal", "Rex"], rooms={"Hal": "D-2", "Rex": "D-2"})
    game.move()
    game.decide({"Rex": {"kill": ["Hal"]}, "Hal": {"kill": ["Rex"]}})
    combat = _combat(_why(game))
    assert "Hal (Green Hacker, priority 2), Rex (Red Warrior, priority 3)" in combat[0]
    assert combat[1] == "  Priority 3 (Warrior): Rex → Hal; died: Hal."
    assert len([line for line in combat if "Priority" in line]) == 1  # Hal never acted


def test_a7_lone_hacker_vs_guard() -> None:
    """A7: Hal and Guard-D stand each other off at priority 2; without a KILL Hal dies."""
    for attacks, dead in ((True, "nobody"), (False, "Hal")):
        game = Scenario(["Hal"], rooms={"Hal": "D-1"}, npcs={"Guard-D": "D-4"})
        game.plan("Guard-D", "D-5")
        game.move({"Hal": "D-5"})
        game.decide({"Hal": {"kill": ["Guard-D"]} if attacks else {}})
        tier = _combat(_why(game))[1]
        assert tier.startswith("  Priority 2 (Hacker, Sneaker, guard): ")
        assert tier.endswith(f"died: {dead}.")


def test_a8_ganging_up_on_a_guard() -> None:
    game = Scenario(["Hal", "Hil"], rooms={"Hal": "D-5", "Hil": "D-5"},
                    npcs={"Guard-D": "D-5"})
    game.move()
    game.decide({"Hal": {"kill": ["Guard-D"]}, "Hil": {"kill": ["Guard-D"]}})
    combat = _combat(_why(game))
    assert "Guard-D (guard, priority 2)" in combat[0]
    assert combat[1].endswith("died: Guard-D.")


def test_a9_warrior_vs_guard() -> None:
    """A9: Ann kills Guard-E at priority 3, so the guard never shoots at priority 2."""
    game = Scenario(["Ann"], rooms={"Ann": "E-7"}, npcs={"Guard-E": "E-7"})
    game.move()
    game.decide({"Ann": {"kill": ["Guard-E"]}})
    combat = _combat(_why(game))
    assert combat[1] == "  Priority 3 (Warrior): Ann → Guard-E; died: Guard-E."
    assert not any("Priority 2" in line for line in combat)


def test_a16_gas_user_killed_first() -> None:
    """A16: Gil dies at R2, so his gas never runs: it is listed as dropped."""
    game = Scenario(["Gil", "Rex", "Tom"], rooms={"Gil": "F-1", "Rex": "F-1", "Tom": "F-4"},
                    features={"F-1": "Gas"})
    game.move()
    game.decide({"Gil": {"terminal": {"action": "USE", "room": "F-4"}},
                 "Rex": {"kill": ["Gil"]}})
    why = _why(game)
    assert any(line.startswith("Gil's USE did not run") for line in why["R3 Terminals"])
    assert why["R4 Gas"] == ["No room was gassed."]


def test_a17_gas_after_combat() -> None:
    """A17: Cat dies at R2 and Bob of Eve's gas at R4."""
    game = Scenario(["Bob", "Cat", "Eve"], rooms={"Eve": "G-1", "Bob": "H-2", "Cat": "H-2"},
                    features={"G-1": "Gas"})
    game.move()
    game.decide({"Eve": {"terminal": {"action": "USE", "room": "H-2"}}, "Bob": {"kill": ["Cat"]}})
    why = _why(game)
    assert _combat(why)[-2] == "  Dead in H-2: Cat."
    assert "Eve in G-1: USE the Gas terminal (clean). Told: Gas released into H-2." \
        in why["R3 Terminals"]
    assert why["R4 Gas"] == ["Gassed: H-2.", "Died of gas: Bob."]
    assert why["R5 Information"] == ["Found dead this turn: Bob, Cat"]


def test_a23_hacked_seer_and_same_turn_hack() -> None:
    """A23: the hacked Seer's answer is false; hacked this very turn, it still answers true."""
    game = Scenario(["Ann", "Gil"], rooms={"Gil": "B-7", "Ann": "A-2"},
                    features={"B-7": "Seer", "D-1": "Seer"})
    game.set_room("B-7", hacked=True)
    game.move()
    game.decide({"Gil": {"terminal": {"action": "USE", "player": "Rex"}}})
    assert ("Gil in B-7: USE the Seer terminal (hacked: the answer is false). Told: Rex is "
            "GREEN") in _why(game)["R3 Terminals"]
    game.park()
    game.move({"Gil": "D-1", "Rex": "D-1"})
    game.decide({"Gil": {"terminal": {"action": "USE", "player": "Rex"}},
                 "Rex": {"terminal": {"action": "HACK"}}})
    terminals = _why(game)["R3 Terminals"]
    assert ("Gil in D-1: USE the Seer terminal (clean: the answer is true). Told: Rex is RED"
            in terminals)
    assert ("Rex in D-1: HACK the Seer terminal (clean). Told: You hacked the Seer terminal in "
            "D-1.") in terminals


def test_a26_unanimous_no_reds_left_with_none_left() -> None:
    """A26: the game ends at R1; nothing else happens."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"], rooms={"Ann": "A-1", "Bob": "A-1"})
    for name in ("Rex", "Roy"):
        game.player(name).alive = False
    game.move()
    orders: dict[str, Any] = {n: {"vote": "NO REDS LEFT"} for n in ("Bob", "Cat", "Dan", "Eve")}
    orders["Ann"] = {"vote": "NO REDS LEFT", "kill": ["Bob"]}
    game.decide(orders, fill=False)
    why = _why(game)
    assert list(why) == ["R1 Lynch: the vote count", "R1 End of the game"]
    assert why["R1 Lynch: the vote count"][1] == "Greens win."


def test_a28_no_reds_left_majority_is_no_lynch() -> None:
    """A28: NO LYNCH 5000 against Bob 1000: the count and "No lynch."."""
    game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"])
    game.player("Roy").alive = False
    game.move()
    orders = {p: {"vote": "NO REDS LEFT"} for p in ("Ann", "Bob", "Cat", "Dan", "Rex")}
    orders["Eve"] = {"vote": "Bob"}
    game.decide(orders, fill=False)
    lynch = _why(game)["R1 Lynch: the vote count"]
    assert lynch[0].endswith("Totals: Bob 1, NO LYNCH 5.")
    assert lynch[1] == "No lynch."
    assert "NO REDS LEFT counts for NO LYNCH" in lynch[-1]


def test_a29_ties_and_phantoms() -> None:
    """A29: a tie is no lynch; Bob's phantom breaks it and he is lynched."""
    for phantom, outcome in ((False, "No lynch."), (True, "Bob was lynched.")):
        game = Scenario(["Ann", "Bob", "Cat", "Dan", "Eve"])
        game.player("Roy").alive = False
        if phantom:
            game.player("Bob").phantoms = 1
        game.move()
        orders = {p: {"vote": "Ann"} for p in ("Bob", "Cat", "Dan")}
        orders.update({p: {"vote": "Bob"} for p in ("Ann", "Eve", "Rex")})
        game.decide(orders, fill=False)
        lynch = _why(game)["R1 Lynch: the vote count"]
        assert lynch[1] == outcome
        assert ("Bob 3.001" if phantom else "Bob 3,") in lynch[0]


# ------------------------------------------------------------------ properties


GAMES = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAMES
@given(seed=st.integers(0, 2**31), players=st.integers(6, 14))
def test_explain_never_raises_and_replays_identically(seed: int, players: int) -> None:
    """Every entry of a bot game is explained in non-empty titles and lines, and the
    replayed record explains each entry as the live run did."""
    game = play(seed, players)
    rng = Rng(seed)
    state = RULES.setup(list(game.record.seats), dict(game.record.options), rng)
    for entry, live in enumerate(game.states):
        if entry:
            state = step(RULES, rng, state, game.record.turns[entry - 1], entry)
        orders = game.record.turns[entry - 1] if entry else None
        explained = PAGES.explain(RULES.view(live, None), orders, entry)
        assert explained
        for e in explained:
            assert isinstance(e.title, str) and e.title
            assert e.lines and all(isinstance(line, str) and line for line in e.lines)
        assert explained == PAGES.explain(RULES.view(state, None), orders, entry)
