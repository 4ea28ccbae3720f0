"""DF9: every validation row V1 … V30 as a named test with its exact message."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from spyhouse.core.errors import OrderError, OrderSyntaxError
from spyhouse.games.spyorlie.game import GameState
from spyhouse.games.spyorlie.model import Face
from tests.games.spyorlie.fixture import position, spy
from tests.games.spyorlie.helpers import RULES, new_game, with_position

MID = "(0,0)=Bs (1,0)=Rs (-1,1)=Bs (1,-2)=B!s (0,-1)=Rs"


def mid(to_move: str = "B", turns: tuple[int, int] = (5, 5), text: str = MID,
        hands: dict[str, dict[str, int]] | None = None) -> GameState:
    return with_position(new_game(), position(text, radius=4, to_move=to_move, turns=turns,
                                              hands=hands))


def refused(state: GameState, data: Any, seat: str = "s1") -> str:
    with pytest.raises(OrderError) as error:
        RULES.parse_orders(state, seat, data)
    assert error.value.seat == seat
    assert len(error.value.messages) == 1
    return error.value.messages[0]


def test_v01_not_a_json_object() -> None:
    assert refused(new_game(), ["S", [0, 0]]) == "A move must be a JSON object."
    assert refused(new_game(), None) == "A move must be a JSON object."


def test_v02_pass_is_never_submitted() -> None:
    assert refused(new_game(), {"pass": True}) == \
        "You cannot pass: a pass is made for you only when you have no legal move."


def test_v03_unknown_key_first_in_sorted_order() -> None:
    data = {"face": "S", "cell": [0, 0], "zeta": 1, "alpha": 2}
    assert refused(new_game(), data) == 'Unknown key "alpha" in the move.'


def test_v04_face_missing_or_invalid() -> None:
    message = 'face must be one of "S", "M", "C", "X".'
    assert refused(new_game(), {"cell": [0, 0]}) == message
    assert refused(new_game(), {"face": "Q", "cell": [0, 0]}) == message
    assert refused(new_game(), {"face": "s", "cell": [0, 0]}) == message


def test_v05_cell_missing_or_invalid() -> None:
    message = "cell must be [q, r] with two integers."
    assert refused(new_game(), {"face": "S"}) == message
    assert refused(new_game(), {"face": "S", "cell": [0, True]}) == message
    assert refused(new_game(), {"face": "S", "cell": [0, 0, 0]}) == message
    assert refused(new_game(), {"face": "S", "cell": "0,0"}) == message


def test_v06_orientation_invalid() -> None:
    message = "orientation must be 0, 1 or null."
    assert refused(new_game(), {"face": "S", "cell": [0, 0], "orientation": 2}) == message
    assert refused(new_game(), {"face": "S", "cell": [0, 0], "orientation": True}) == message


def test_v07_mode_invalid() -> None:
    assert refused(new_game(), {"face": "S", "cell": [0, 0], "mode": "plain"}) == \
        'mode must be "PLAIN", "ACCUSE" or "CYBER".'


def test_v08_target_invalid() -> None:
    message = "target must be [q, r] with two integers, or null."
    assert refused(new_game(), {"face": "C", "cell": [0, 0], "target": [1]}) == message
    assert refused(new_game(), {"face": "C", "cell": [0, 0], "target": [1.0, 0]}) == message


def test_v09_game_over() -> None:
    state = mid()
    state.position.over = True
    assert refused(state, {"face": "S", "cell": [2, -1]}, seat="s2") == "The game is over."


def test_v10_not_your_turn() -> None:
    assert refused(new_game(), {"face": "S", "cell": [0, 0], "orientation": 0}, seat="s2") == \
        "It is not your turn."
    assert refused(new_game(), {"face": "S", "cell": [0, 0]}, seat="nobody") == \
        "It is not your turn."


def test_v11_face_not_in_hand() -> None:
    state = mid(hands={"B": {"S": 3}, "R": {"S": 3}})
    assert refused(state, {"face": "C", "cell": [2, -1]}) == \
        "You have no Mole Catcher left in your hand."


def test_v12_spy_or_mole_not_plain() -> None:
    assert refused(mid(), {"face": "S", "cell": [2, -1], "mode": "ACCUSE", "target": [1, 0]}) \
        == "A Spy can only be placed PLAIN."
    assert refused(mid(), {"face": "M", "cell": [2, -1], "mode": "CYBER", "target": [1, 0]}) \
        == "A Mole can only be placed PLAIN."


def test_v13_catcher_in_cyber_mode() -> None:
    assert refused(mid(), {"face": "C", "cell": [2, -1], "mode": "CYBER", "target": [1, 0]}) \
        == "A Mole Catcher is placed PLAIN or ACCUSE."


def test_v14_cyber_attack_not_in_cyber_mode() -> None:
    assert refused(mid(), {"face": "X", "cell": [2, -1], "mode": "PLAIN"}) == \
        "A Cyber Attack must be placed in CYBER mode."


def test_v15_plain_with_a_target() -> None:
    assert refused(mid(), {"face": "S", "cell": [2, -1], "target": [1, 0]}) == \
        "A PLAIN placement takes no target."


def test_v16_accuse_or_cyber_without_a_target() -> None:
    assert refused(mid(), {"face": "C", "cell": [2, -1], "mode": "ACCUSE"}) == \
        "ACCUSE needs a target."
    assert refused(mid(), {"face": "X", "cell": [2, -1]}) == "CYBER needs a target."


def test_v17_first_card_cyber_attack() -> None:
    assert refused(new_game(), {"face": "X", "cell": [0, 0], "orientation": 0,
                                "target": [1, 0]}) == "The first card cannot be a Cyber Attack."


def test_v18_first_card_announced() -> None:
    assert refused(new_game(), {"face": "C", "cell": [0, 0], "orientation": 0,
                                "mode": "ACCUSE", "target": [1, 0]}) == \
        "The first card cannot be announced."


def test_v19_first_card_off_centre() -> None:
    assert refused(new_game(), {"face": "S", "cell": [1, 0], "orientation": 0}) == \
        "The first card must be placed in the centre, [0, 0]."


def test_v20_first_card_without_orientation() -> None:
    assert refused(new_game(), {"face": "S", "cell": [0, 0]}) == \
        "Choose orientation 0 or 1 for the first card."
    assert refused(new_game(), {"face": "M", "cell": [0, 0], "orientation": None}) == \
        "Choose orientation 0 or 1 for the first card."


def test_v21_cyber_before_the_window() -> None:
    assert refused(mid(turns=(5, 4), to_move="B"), {"face": "X", "cell": [2, -1],
                                                    "target": [1, 0]}) == \
        "Cyber Attacks are allowed only after both players have taken five turns."


def test_v22_cell_off_the_board() -> None:
    assert refused(mid(), {"face": "S", "cell": [5, 0]}) == "Cell [5, 0] is off the board."


def test_v23_cell_occupied() -> None:
    assert refused(mid(), {"face": "S", "cell": [1, 0]}) == "Cell [1, 0] is occupied."


def test_v24_cell_not_on_an_open_marked_edge() -> None:
    assert refused(mid(), {"face": "S", "cell": [2, 0]}) == \
        "Cell [2, 0] is not on an open marked edge."  # a dead cell
    assert refused(mid(), {"face": "S", "cell": [3, 0]}) == \
        "Cell [3, 0] is not on an open marked edge."  # live, but nothing touches it


def test_v25_orientation_forced() -> None:
    assert refused(mid(), {"face": "S", "cell": [2, -1], "orientation": 1}) == \
        "The orientation at [2, -1] is forced to 0."


def test_v26_target_does_not_touch_the_cell() -> None:
    assert refused(mid(), {"face": "C", "cell": [2, -1], "mode": "ACCUSE",
                           "target": [0, -1]}) == "Target [0, -1] does not touch cell [2, -1]."


def test_v27_accuse_target_not_a_face_down_enemy_agent() -> None:
    message = "Target [1, 0] is not a face-down enemy agent."
    state = mid(text="(0,0)=Bs (1,0)=R!s (-1,1)=Bs")
    assert refused(state, {"face": "C", "cell": [2, -1], "mode": "ACCUSE",
                           "target": [1, 0]}) == message
    state = mid(text="(0,0)=Bs (1,0)=RS (-1,1)=Bs")
    assert refused(state, {"face": "C", "cell": [2, -1], "mode": "ACCUSE",
                           "target": [1, 0]}) == message
    assert refused(mid(), {"face": "C", "cell": [1, -1], "mode": "ACCUSE",
                           "target": [1, -2]}) == \
        "Cell [1, -1] is not on an open marked edge."


def test_v28_cyber_target_not_an_enemy_card() -> None:
    assert refused(mid(), {"face": "X", "cell": [2, -2], "target": [1, -2]}) == \
        "Target [1, -2] is not an enemy card."  # BLUE's own point card
    assert refused(mid(), {"face": "X", "cell": [2, -2], "target": [2, -1]}) == \
        "Target [2, -1] is not an enemy card."  # an empty cell


def test_v29_cyber_target_a_protected_catcher() -> None:
    state = mid(text="(0,0)=BC# (1,0)=Rs (-1,1)=Bs", to_move="R", turns=(6, 5))
    assert refused(state, {"face": "X", "cell": [0, -1], "target": [0, 0]}, seat="s2") == \
        "Target [0, 0] is a protected Mole Catcher."


def test_v30_ko() -> None:
    """KO2 can never fire in play (G16); a synthetic history shows the check and message."""
    state = mid()
    after = state.position.copy()
    after.apply(spy((2, -1)))
    synthetic = replace(state, keys=(after.key(), state.position.key()))
    assert refused(synthetic, {"face": "S", "cell": [2, -1]}) == \
        "This move would restore the position before your opponent's last turn (Ko)."
    assert RULES.parse_orders(state, "s1", {"face": "S", "cell": [2, -1]}).move == \
        spy((2, -1))


def test_checks_run_in_table_order() -> None:
    state = mid()
    state.position.over = True
    assert refused(state, {"face": "S", "cell": [9, 9]}, seat="s2") == "The game is over."
    assert refused(mid(hands={"B": {}, "R": {}}), {"face": "S", "cell": [9, 9],
                                                   "mode": "CYBER"}) == \
        "You have no Spy left in your hand."


def test_accepted_moves_are_canonical() -> None:
    order = RULES.parse_orders(mid(), "s1", {"face": "C", "cell": [2, -1], "mode": "ACCUSE",
                                             "target": [1, 0]})
    assert RULES.dump_orders(order) == {"face": "C", "cell": [2, -1], "orientation": 0,
                                        "mode": "ACCUSE", "target": [1, 0]}
    order = RULES.parse_orders(mid(), "s1", {"face": "X", "cell": [2, -1], "target": [1, 0],
                                             "ai": {"difficulty": "spymaster",
                                                    "budget_cut": False}})
    assert RULES.dump_orders(order) == {"face": "X", "cell": [2, -1], "orientation": 0,
                                        "mode": "CYBER", "target": [1, 0],
                                        "ai": {"difficulty": "spymaster", "budget_cut": False}}
    assert order.move.face == Face.X


def test_a_malformed_ai_note_is_a_syntax_error() -> None:
    with pytest.raises(OrderSyntaxError):
        RULES.parse_orders(mid(), "s1", {"face": "S", "cell": [2, -1], "ai": "yes"})
