"""Spec §10 E35–E45: FAKE and SEARCH (§6 T8, T9). Bravo has covertness 3, Charlie 1;
both bases are in D."""

from __future__ import annotations

import pytest

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import FIXTURE_SEATS, new_game, play, seen


@pytest.fixture
def searchable(game: State) -> State:
    """The fixture with Bravo at covertness 3 and Charlie at 1."""
    game.by_seat("s2").covertness = 3  # type: ignore[union-attr]
    game.by_seat("s3").covertness = 1  # type: ignore[union-attr]
    return game


def test_e35_search_least_covert(searchable: State) -> None:
    """E35: Alpha#4 SEARCHes D with no FAKE there: the least covert real base, Charlie's
    (1 < 3), is returned; two bases are there."""
    t = play(searchable, {"s1": {4: ("SEARCH", "D")}})
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"
    assert t.draws("search") == []


def test_e36_search_named(searchable: State) -> None:
    """E36: naming Bravo, whose base is in D, returns Bravo; naming Delta, which is not
    there, falls back to the least covert base, Charlie's."""
    t = play(searchable, {"s1": {4: ("SEARCH", "D", "s2")}})
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 2"
    t = play(searchable, {"s1": {4: ("SEARCH", "D", "s4")}})
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"


def test_e37_search_fake_unnamed(searchable: State) -> None:
    """E37 (FAQ count includes FAKEs): Delta#5 FAKEs in D; Alpha#4's SEARCH there finds only
    the fake (real bases are never spotted when a foreign fake is present), and the count is
    2 real bases + 1 fake."""
    t = play(searchable, {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D")}})
    assert t.result("s4", 5) == "planted a fake base in D Docks"
    assert t.result("s1", 4) == "base of Delta reported here; bases here: 3"


def test_e38_search_fake_named_real(searchable: State) -> None:
    """E38: Delta#5 FAKEs in D; Alpha#4 SEARCHes D naming Bravo. Bravo's real base is there
    but Bravo is not faking there, so the fake masks it: Delta, 3."""
    t = play(searchable, {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D", "s2")}})
    assert t.result("s1", 4) == "base of Delta reported here; bases here: 3"


def test_e39_search_fake_in_own_region(searchable: State) -> None:
    """E39 (FAQ Hounds): Bravo#5 and Delta#5 FAKE in D, where Bravo's real base is. Alpha#4
    names Bravo: Bravo is faking in its own base region, so Bravo is always returned (no
    draw). Alpha#5 names nobody: a random fake among [Bravo#5, Delta#5], ``search`` roll(2)=2
    gives Delta. The count is 2 real + 2 fakes = 4."""
    t = play(searchable, {"s2": {5: ("FAKE", "D")}, "s4": {5: ("FAKE", "D")},
                          "s1": {4: ("SEARCH", "D", "s2"), 5: ("SEARCH", "D")}},
             script={"search": [2]})
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 4"
    assert t.result("s1", 5) == "base of Delta reported here; bases here: 4"
    assert t.draws("search") == [(2, 2)]


def test_e40_search_own_fake_ignored(searchable: State) -> None:
    """E40: Alpha#5 FAKEs in D; Alpha#4 and Bravo#6 SEARCH D. Alpha's own fake is neither
    found nor counted by Alpha: Charlie, 2. Bravo finds Alpha's fake; its count is Charlie's
    base plus one fake (its own base excluded): 2."""
    t = play(searchable, {"s1": {5: ("FAKE", "D"), 4: ("SEARCH", "D")}, "s2": {6: ("SEARCH", "D")}})
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"
    assert t.result("s2", 6) == "base of Alpha reported here; bases here: 2"


def test_e41_search_own_base_unavoidable(searchable: State) -> None:
    """E41: only Alpha's base is in B and nobody FAKEs there; Alpha#4 SEARCHes B and can only
    find its own base, which is not counted."""
    t = play(searchable, {"s1": {4: ("SEARCH", "B")}})
    assert t.result("s1", 4) == "only your own base is here; bases here: 0"


def test_e42_search_two_fakes_random(searchable: State) -> None:
    """E42 (FAQ two FAKEs): no base is in C; Bravo#5 (covertness 3) and Charlie#5
    (covertness 1) FAKE there; Alpha#4 SEARCHes C. Fakes are drawn at random, not by
    covertness: ``search`` roll(2) = 1 gives Bravo's fake; 2 fakes are counted."""
    t = play(searchable, {"s2": {5: ("FAKE", "C")}, "s3": {5: ("FAKE", "C")},
                          "s1": {4: ("SEARCH", "C")}},
             script={"search": [1]})
    assert t.draws("search") == [(2, 1)]
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 2"


def test_e43_two_searches_one_fake(searchable: State) -> None:
    """E43 (FAQ two SEARCHes): Delta#5 FAKEs in D; Alpha#4 and #5 both SEARCH D. A single
    fake is found by every search, with no draw."""
    t = play(searchable, {"s4": {5: ("FAKE", "D")},
                          "s1": {4: ("SEARCH", "D"), 5: ("SEARCH", "D")}})
    assert t.result("s1", 4) == "base of Delta reported here; bases here: 3"
    assert t.result("s1", 5) == "base of Delta reported here; bases here: 3"
    assert t.draws("search") == []


def test_e44_search_count_pigsty() -> None:
    """E44 (FAQ 7 bases in PigSty): eight brotherhoods; Alpha (base B) and Bravo (base D)
    as in the fixture, the six others all based in I. Bravo#5 FAKEs in I and Alpha#4
    SEARCHes there: "bases here: 7" (6 real + 1 fake, the fake being what is found), and
    Alpha's I column shows FAKE 1, so 6 real bases are there."""
    seats = [*FIXTURE_SEATS[:2],
             ("s3", "Charlie", "Mr Green", "I"), ("s4", "Delta", "Mr Grey", "I"),
             ("s5", "Echo", "Mr Navy", "I"), ("s6", "Foxtrot", "Mr Ochre", "I"),
             ("s7", "Golf", "Mr Aqua", "I"), ("s8", "Hotel", "Mr Yellow", "I")]
    state = new_game(seats)
    state.by_seat("s2").covertness = 3  # type: ignore[union-attr]
    t = play(state, {"s2": {5: ("FAKE", "I")}, "s1": {4: ("SEARCH", "I")}})
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 7"
    assert seen(t.view("s1"), "I") == {"Bravo": 1, "FAKE": 1}


def test_e45_killed_faker_plants_nothing(searchable: State) -> None:
    """E45: Delta#5 (1) FAKEs in D, but Alpha#2 (3) HUNTs there and kills it in T7, before
    FAKE: no fake is planted, so Alpha#4's SEARCH reads Charlie, 2. Alpha's D column still
    counts the faker (FAKE 1): counts are where spies were placed."""
    t = play(searchable, {"s4": {5: ("FAKE", "D")},
                          "s1": {2: ("HUNT", "D"), 4: ("SEARCH", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s4", 5) == "killed by a hunter of Alpha"
    assert t.result("s1", 2) == "killed a spy of Delta; Delta's base is in I PigSty"
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"
    assert seen(t.view("s1"), "D") == {"Delta": 1, "FAKE": 1}
