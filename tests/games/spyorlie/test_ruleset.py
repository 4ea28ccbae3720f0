"""The Ruleset binding (DF1, DF3): options, seats, spec, names, messages, registry."""

from __future__ import annotations

import pytest

from spyhouse.core import registry
from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyorlie.ruleset import SpyOrLie
from tests.games.spyorlie.helpers import RULES, SEATS


def test_spec_declares_an_alternating_two_seat_game() -> None:
    spec = SpyOrLie.spec
    assert (spec.name, spec.title, spec.dynamics) == ("spyorlie", "Spy or Lie", "alternating")
    assert (spec.min_seats, spec.max_seats, spec.default_schedule) == (2, 2, "all_submitted")
    assert SpyOrLie.mailed_only_keys == frozenset() and dict(SpyOrLie.seat_setup_keys) == {}
    assert isinstance(registry.get("spyorlie"), SpyOrLie)


def test_options_default_and_typed() -> None:
    options = RULES.parse_options({})
    assert (options.radius, options.blue, options.computer) == (4, None, ())
    options = RULES.parse_options({"radius": 2, "blue": "s2", "computer": {"s1": "spymaster"}})
    assert (options.radius, options.blue, options.computer) == (2, "s2", (("s1", "spymaster"),))


@pytest.mark.parametrize(("data", "key"), [
    ({"colour": "s1"}, "colour"),
    ({"radius": 1}, "radius"),
    ({"radius": 9}, "radius"),
    ({"radius": True}, "radius"),
    ({"radius": "4"}, "radius"),
    ({"blue": 3}, "blue"),
    ({"computer": ["s2"]}, "computer"),
    ({"computer": {"s2": "grandmaster"}}, "computer"),
])
def test_bad_options_name_the_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(OptionsError, match=key):
        RULES.parse_options(data)


@pytest.mark.parametrize(("options", "key"), [
    ({"blue": "s9"}, "blue"),
    ({"computer": {"s9": "operative"}}, "computer"),
])
def test_options_naming_no_seat_are_refused_at_setup(options: dict[str, object],
                                                     key: str) -> None:
    with pytest.raises(OptionsError, match=key):
        RULES.setup(SEATS, options, Rng(0))


def test_exactly_two_seats() -> None:
    with pytest.raises(OptionsError, match="two seats"):
        RULES.setup(SEATS[:1], {}, Rng(0))
    with pytest.raises(OptionsError, match="two seats"):
        RULES.setup((*SEATS, Seat("s3", "Third")), {}, Rng(0))


def test_blue_option_picks_the_first_mover() -> None:
    state = RULES.setup(SEATS, {"blue": "s2"}, Rng(0))
    assert state.seats == ("s2", "s1")
    assert RULES.awaiting(state) == frozenset({"s2"})
    assert RULES.view(state, "s2")["colour"] == "BLUE"


def test_seat_names() -> None:
    assert RULES.seat_name_problem("Blue Agency", []) is None
    assert RULES.seat_name_problem("", []) == "a name has 1 to 40 characters"
    assert RULES.seat_name_problem("x" * 41, []) == "a name has 1 to 40 characters"
    assert RULES.seat_name_problem("tab\there", []) == "a name may hold only printable characters"
    assert RULES.seat_name_problem("blue agency", ["Blue Agency"]) == \
        "the name blue agency is taken in this game"
