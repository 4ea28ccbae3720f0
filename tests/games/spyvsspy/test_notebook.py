"""The deduction notebook (``spyvsspy/notebook.py``): each kind of evidence, and soundness.

Scenarios use the §10 fixture: Alpha s1 (Mr Pink, B), Bravo s2 (Mr Orange, D),
Charlie s3 (Mr Green, D), Delta s4 (Mr Grey, I). The notebook is Alpha's; it reads
only Alpha's views. Soundness is checked against the host view, which a bot never sees.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.model import State
from spyhouse.games.spyvsspy.notebook import Notebook
from tests.games.spyvsspy.fixture import RULES, new_game, play
from tests.games.spyvsspy.randomplay import random_sheet, seats

ALL = list("ABCDEFGHI")
THREE = ["Mr Green", "Mr Grey", "Mr Orange"]


def _book(*states: State, seat: str = "s1") -> Notebook:
    book = Notebook()
    for state in states:
        book.update(RULES.view(state, seat))
    assert book.contradictions == 0
    return book


def _read(game: State, orders: dict[str, Any], **kwargs: Any) -> Notebook:
    return _book(game, play(game, orders, **kwargs).after)


def test_start_knows_nothing(game: State) -> None:
    book = _book(game)
    assert book.rivals() == ["s2", "s3", "s4"]
    assert book.candidates("s2") == (THREE, ALL)
    assert book.certain("s2") is None
    assert book.confidence("s2") == 1 / 27


def test_hunt_reveals_base(game: State) -> None:
    """T7: "killed a spy of Bravo; Bravo's base is in D Docks" is certain."""
    book = _read(game, {"s1": {2: ("HUNT", "H")}, "s2": {7: ("WORK", "H")}},
                 script={"hunt-reveal": [1, 1, 1, 1]})
    assert book.candidates("s2") == (THREE, ["D"])


def test_hunt_reveals_leader_and_propagates(game: State) -> None:
    """A leader name found is certain and leaves every other rival's list."""
    book = _read(game, {"s1": {2: ("HUNT", "H")}, "s2": {7: ("WORK", "H")}},
                 script={"hunt-reveal": [2, 2, 2, 2]})
    assert book.candidates("s2")[0] == ["Mr Orange"]
    assert book.candidates("s3")[0] == ["Mr Green", "Mr Grey"]


def test_undisguised_leader_seen_alone(game: State) -> None:
    """E20: Mr Green ticked in A where only Charlie is counted and DISGUISE is 0: he is not
    Bravo's or Delta's, so he is Charlie's (the only brotherhood that can hold him)."""
    book = _read(game, {"s3": {1: ("TRAIN", "A")}, "s1": {5: ("WORK", "A")}})
    assert book.candidates("s3")[0] == ["Mr Green"]
    assert book.candidates("s2")[0] == ["Mr Grey", "Mr Orange"]
    assert book.candidates("s4")[0] == ["Mr Grey", "Mr Orange"]


def test_disguised_leader_teaches_nothing(game: State) -> None:
    """E21: with a DISGUISE in the column, a tick proves nothing about the counted rows."""
    book = _read(game, {"s3": {1: ("DISGUISE", "A", "s2")}, "s2": {4: ("WORK", "A")},
                        "s1": {5: ("WORK", "A")}})
    for seat in ("s2", "s3", "s4"):
        assert book.candidates(seat)[0] == THREE


def test_follow_sees_the_disguise(game: State) -> None:
    """E23: "followed Mr Green to A Academy; he was disguised as Bravo": not Bravo's leader."""
    book = _read(game, {"s3": {1: ("DISGUISE", "A", "s2")}, "s2": {4: ("WORK", "A")},
                        "s1": {5: ("WORK", "A"), 6: ("FOLLOW", "Mr Green")}})
    assert book.candidates("s2")[0] == ["Mr Grey", "Mr Orange"]
    assert book.candidates("s3")[0] == THREE


def test_follow_undisguised_leader(game: State) -> None:
    """E24: followed into the Ghetto, Mr Green was not disguised and only Charlie is there."""
    book = _read(game, {"s3": {1: ("RECRUIT",)}, "s1": {6: ("FOLLOW", "Mr Green")}})
    assert book.candidates("s3")[0] == ["Mr Green"]


def test_clean_search_is_certain(game: State) -> None:
    """E35: no FAKE in D, so the base reported there is real."""
    played = play(game, {"s1": {4: ("SEARCH", "D")}})
    result = str(played.result("s1", 4))
    book = _book(game, played.after)
    found = "s2" if result.startswith("base of Bravo") else "s3"
    assert result.endswith("bases here: 2")
    assert book.candidates(found)[1] == ["D"]
    assert book.candidates("s4")[1] == ALL


def test_named_search_not_returned_excludes(game: State) -> None:
    """E36: naming Delta in D returns another base, so Delta's base is not in D."""
    book = _read(game, {"s1": {4: ("SEARCH", "D", "s4")}})
    assert "D" not in book.candidates("s4")[1]


def test_search_with_fake_is_only_a_hint(game: State) -> None:
    """E37: with a FAKE in D the report may be a lie: no candidate is dropped, D weighs more."""
    played = play(game, {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D")}})
    assert played.result("s1", 4) == "base of Delta reported here; bases here: 3"
    book = _book(game, played.after)
    assert book.candidates("s4")[1] == ALL
    weights = book.base_weights("s4")
    assert weights["D"] > weights["A"]
    assert book.best_guess("s4") is not None
    assert book.best_guess("s4")[1] == "D"  # type: ignore[index]


def test_empty_region_leaves_every_list(game: State) -> None:
    """ "no base found; bases here: 0" (and "only your own base") rule the region out for all."""
    book = _read(game, {"s1": {4: ("SEARCH", "C"), 5: ("SEARCH", "B")}})
    for seat in ("s2", "s3", "s4"):
        assert "B" not in book.candidates(seat)[1]
        assert "C" not in book.candidates(seat)[1]


def test_exact_count_completes(game: State) -> None:
    """One base in I, and it is Delta's: nobody else's base is in I."""
    book = _read(game, {"s1": {4: ("SEARCH", "I")}}, avoid="I")
    assert book.candidates("s4")[1] == ["I"]
    assert "I" not in book.candidates("s2")[1]


def test_incorrect_declaration_with_life_rules_out_the_pair(game: State) -> None:
    """Alpha, holding a Life, wrongly declares (Bravo, Mr Orange, B) and learns by HUNT that
    Mr Orange leads Bravo: so Bravo's base is not in B."""
    alpha = game.by_seat("s1")
    assert alpha is not None
    alpha.life = 1
    book = _read(game, {"s1": {2: ("HUNT", "H")}, "s2": {7: ("WORK", "H")}},
                 declare={"s1": [("s2", "Mr Orange", "B")]},
                 script={"hunt-reveal": [2, 2, 2, 2]})
    assert book.candidates("s2") == (["Mr Orange"], [r for r in ALL if r != "B"])


def test_eliminated_rival_leaves_the_notebook(game: State) -> None:
    book = _read(game, {}, declare={"s1": [("s4", "Mr Grey", "I")]})
    assert book.rivals() == ["s2", "s3"]
    assert book.candidates("s4") == ([], [])
    assert book.candidates("s2")[0] == ["Mr Green", "Mr Orange"]


def test_update_is_idempotent(game: State) -> None:
    after = play(game, {"s3": {1: ("TRAIN", "A")}, "s1": {5: ("WORK", "A")}}).after
    book = _book(game, after)
    before = [book.candidates(s) for s in book.rivals()]
    book.update(RULES.view(after, "s1"))
    book.update(RULES.view(game, "s1"))
    assert [book.candidates(s) for s in book.rivals()] == before


def test_names_with_separators() -> None:
    """Brotherhood names holding "; " and "'s" still parse (HUNT results repeat the name)."""
    state = new_game((("s1", "Alpha", "Mr Pink", "B"), ("s2", "Bob's; Band", "Mr Orange", "D"),
                      ("s3", "Band", "Mr Green", "E")))
    played = play(state, {"s1": {2: ("HUNT", "H")}, "s2": {7: ("WORK", "H")}},
                  script={"hunt-reveal": [1, 1, 1]})
    assert played.result("s1", 2) == "killed a spy of Bob's; Band; Bob's; Band's base is in D Docks"
    book = _book(state, played.after)
    assert book.candidates("s2")[1] == ["D"]
    assert book.candidates("s3")[1] == ALL


def test_certain_needs_both_halves(game: State) -> None:
    """Base by HUNT one turn, the leader by a lone tick the next: then it is certain."""
    first = play(game, {"s1": {2: ("HUNT", "H")}, "s3": {7: ("WORK", "H")}},
                 script={"hunt-reveal": [1, 1, 1, 1]})
    second = play(first.after, {"s3": {1: ("TRAIN", "A")}, "s1": {5: ("WORK", "A")}})
    book = _book(game, first.after)
    assert book.certain("s3") is None
    book.update(RULES.view(second.after, "s1"))
    assert book.certain("s3") == ("Mr Green", "D")
    assert book.confidence("s3") == 1.0


# ---------------------------------------------------------------- soundness


def check_sound(state: State, books: dict[str, Notebook]) -> None:
    """Every surviving rival's true leader and base are among its candidates."""
    host = RULES.view(state, None)
    for seat, book in books.items():
        if seat not in host["seats"] or "spies" not in RULES.view(state, seat):
            continue
        assert book.contradictions == 0, seat
        for rival in book.rivals():
            truth = host["seats"][rival]
            leaders, bases = book.candidates(rival)
            assert truth["leader"] in leaders, (seat, rival, truth, leaders)
            assert truth["base"] in bases, (seat, rival, truth, bases)
            if book.certain(rival) is not None:
                assert book.certain(rival) == (truth["leader"], truth["base"])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 8),
       variant=st.sampled_from(["classic", "spy2"]))
def test_notebook_sound_in_random_games(seed: int, players: int, variant: str) -> None:
    """Random players using every task (DISGUISE, FAKE, FOLLOW...) never fool the notebook."""
    rng = Rng(seed)
    state = RULES.setup(seats(players), {"variant": variant}, rng)
    books = {seat: Notebook() for seat in sorted(RULES.awaiting(state))}
    for turn in range(1, 13):
        if RULES.outcome(state) is not None:
            break
        sheets = {}
        for seat in sorted(RULES.awaiting(state)):
            view = RULES.view(state, seat)
            books[seat].update(view)
            data = random_sheet(view, Rng(seed).stream(turn, f"player:{seat}"), declare=False)
            sheets[seat] = RULES.parse_orders(state, seat, data)
        check_sound(state, books)
        state = RULES.resolve(state, sheets, rng)
