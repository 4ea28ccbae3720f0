"""Spy vs Spy's views stored in parts (issue 12): ``stored_views`` and ``joined_view``.

After a JSON round trip, a seat's part joined with the entry's shared part is exactly
that seat's view (keys in the same order), and the host's part the host view less the
reports; a seat's part holds only the seat's own things, and is small.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.record import replay
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy import stored
from spyhouse.games.spyvsspy import view as views
from spyhouse.games.spyvsspy.model import Region, Spy, State, TurnLog
from spyhouse.sim.simulate import default_seats, simulate
from tests.games.spyvsspy.fixture import DISGUISED, cell, play
from tests.games.spyvsspy.randomplay import RULES, random_sheet, seats
from tests.games.spyvsspy.randomplay import play as random_play

GAMES = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])
VARIANTS = st.sampled_from(["classic", "spy2"])


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _text(data: Any) -> str:
    """JSON text in the data's own key order: equal texts are equal views, same order."""
    return json.dumps(data, ensure_ascii=False)


def _scrambled_seats(players: int) -> list[Seat]:
    """Seats whose names are not in seat order, nor in it by case (the report sorts by
    name, casefolded), with some e-mails hidden."""
    names = [seat.name for seat in default_seats(players, "spyvsspy")][::-1]
    return [Seat(f"s{n}", name.lower() if n % 3 == 0 else name, f"Bot {n}",
                 f"b{n}@example.org" if n % 2 else None)
            for n, name in enumerate(names, start=1)]


def _bot_game(seed: int, players: int, variant: str, turns: int = 40) -> list[State]:
    result = simulate("spyvsspy", players=players, turns=turns, seed=seed,
                      options={"variant": variant}, seats=_scrambled_seats(players))
    return list(replay(result.record))


def _random_game(seed: int, players: int, variant: str, turns: int = 6) -> list[State]:
    return random_play(seed, players, turns, variant, no_show=seed % (players + 2))


def _check_joins(state: State) -> dict[str | None, dict[str, Any]]:
    """Every join of ``state``'s stored views is its view; the parts, round-tripped."""
    ids = [b.seat for b in state.brotherhoods]
    done = RULES.stored_views(state, ids)
    assert set(done.parts) == {*ids, None}
    shared = _json(done.shared)
    parts = {key: _json(part) for key, part in done.parts.items()}
    for seat in ids:
        assert _text(RULES.joined_view(shared, parts[seat])) == _text(
            _json(RULES.view(state, seat))), seat
    host = _json(RULES.view(state, None))
    for info in host["seats"].values():
        del info["report"]
    assert _text(RULES.joined_view(shared, parts[None])) == _text(host)
    return parts


def _kinds(states: Iterable[State]) -> Iterator[str]:
    """The kinds of state and view a game went through, for the coverage check."""
    for state in states:
        yield state.options.variant
        if state.log is None:
            yield "turn 0"
        if state.game_over is not None:
            yield "game over"
            continue
        for b in state.brotherhoods:
            if b.eliminated is not None:
                yield "eliminated now" if b.eliminated.turn == state.turn else "eliminated"
        if state.log is None:
            continue
        for b in state.surviving():
            log = state.log.seats[b.seat]
            if any(seen.apparent != b.bid for seen in log.seen):
                yield "own spy disguised"
            view = RULES.view(state, b.seat)
            if any(isinstance(v, int) and v > 0 for row in view["table"]["rows"]
                   if row["kind"] == "disguised" for v in row["cells"].values()):
                yield "disguised as you"
            if any(v == "✓" for row in view["table"]["rows"] if row["kind"] == "leader"
                   for v in row["cells"].values()):
                yield "leader seen"


# ------------------------------------------------------------------ joins


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), variant=VARIANTS)
def test_every_join_is_the_view_in_random_games(seed: int, players: int, variant: str) -> None:
    """Random sheets (every task, disguises, no-shows, guessed declarations)."""
    for state in _random_game(seed, players, variant):
        _check_joins(state)


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7), variant=VARIANTS)
def test_every_join_is_the_view_in_bot_games(seed: int, players: int, variant: str) -> None:
    """Bot games, which eliminate brotherhoods and end."""
    for state in _bot_game(seed, players, variant):
        _check_joins(state)


def test_the_games_cover_every_kind_of_state() -> None:
    """The games the joins are checked on go through turn 0, eliminations (this turn and
    before), game over, both variants, disguises both ways and leader sightings."""
    states: list[State] = []
    for seed in range(4):
        for variant in ("classic", "spy2"):
            states += _bot_game(seed, 5, variant)
            states += _random_game(seed, 5, variant)
    for state in states:
        _check_joins(state)
    assert set(_kinds(states)) >= {
        "classic", "spy2", "turn 0", "game over", "eliminated now", "eliminated",
        "own spy disguised", "disguised as you", "leader seen"}


def test_disguise_rows_join(game: State) -> None:
    """§10 fixture: Bravo#2 disguised as Alpha and Alpha#2 disguised as Charlie in A, with
    Alpha's leader watching: Alpha's "Disguised as you" counts Bravo's spy, Charlie's row
    leaves out Alpha's own disguised spy, and every join is the view."""
    t = play(game, {"s1": {1: ("WORK", "A"), 2: ("DISGUISE", "A", "s3")},
                    "s2": {2: ("DISGUISE", "A", "s1")}})
    view = RULES.view(t.after, "s1")
    assert cell(view, DISGUISED, "A") == 1
    assert cell(view, "Charlie", "A") == 0
    parts = _check_joins(t.after)
    own = parts["s1"]["table"]
    assert own["observed"][0]["region"] == "A"
    assert sorted(own["observed"][0]["apparent"]) == [[1, 1], [3, 1]]


def _scrub(value: Any) -> None:
    """Empty every list and dict inside ``value``, innermost first."""
    if isinstance(value, dict):
        for item in value.values():
            _scrub(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _scrub(item)
        value.clear()


def test_a_join_is_fresh() -> None:
    """A join shares nothing with what it was joined from: emptying every list and dict
    of one view changes neither the stored parts nor the next join (a state with an
    eliminated brotherhood, so the directory has its nested ``eliminated``)."""
    state = next(s for s in _bot_game(1, 5, "classic") if s.game_over is None
                 and any(b.eliminated is not None for b in s.brotherhoods))
    seat = next(b.seat for b in state.brotherhoods if b.eliminated is None)
    done = RULES.stored_views(state, [seat])
    shared, part, host = _json(done.shared), _json(done.parts[seat]), _json(done.parts[None])
    before = _text([shared, part, host])
    for key in (part, host):
        first = RULES.joined_view(shared, key)
        _scrub(first)
        assert _text([shared, part, host]) == before
        assert RULES.joined_view(shared, key) != first


def test_a_join_refuses_another_format() -> None:
    state = _random_game(3, 3, "classic", turns=1)[-1]
    done = RULES.stored_views(state, ["s1"])
    with pytest.raises(ValueError, match="format"):
        RULES.joined_view({**done.shared, "format": 0}, done.parts["s1"])


def test_the_host_part_builds_no_seat_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's part is built in one pass over the brotherhoods, never seat by seat
    (``host_view`` builds every report: n² work at n seats)."""
    state = _random_game(5, 5, "classic", turns=3)[-1]
    expected = _json(stored.host_part(state))

    def refused(*_: Any) -> None:
        raise AssertionError("seat_view called")

    monkeypatch.setattr(views, "seat_view", refused)
    assert _json(RULES.stored_views(state, []).parts[None]) == expected


# ------------------------------------------------------------------ secrecy


def _censored(state: State, seat: str) -> State:
    """``state`` as far as ``seat`` knows it: every other brotherhood's leader, base and
    spies' places replaced, the others' logs and the turn's totals and sightings gone."""
    others = []
    for b in state.brotherhoods:
        if b.seat == seat:
            others.append(b)
            continue
        stranger = b.clone()
        stranger.leader, stranger.base = f"Nobody {b.bid}", Region.I
        stranger.spies = [Spy(s.number, s.skill, Region.A) for s in b.spies]
        others.append(stranger)
    log = state.log
    if log is not None:
        mine = log.seats.get(seat)
        log = TurnLog(log.turn, log.news, {seat: mine} if mine is not None else {},
                      {}, {}, (), {})
    return State(state.options, state.seed, state.turn, others, state.price, log,
                 state.game_over)


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), variant=VARIANTS)
def test_a_seat_part_is_made_of_its_own_things_only(
        seed: int, players: int, variant: str) -> None:
    """A seat's part is the same when every other brotherhood's leader, base, spies'
    places, sheets and sightings are changed (and it never names their leaders unless its
    own view's own keys do); its own keys are its view's, and each observed region's
    counts add up to its own spies seen there."""
    for state in _random_game(seed, players, variant, turns=5):
        for b in state.brotherhoods:
            part = _json(stored.seat_part(state, b.seat))
            assert _json(stored.seat_part(_censored(state, b.seat), b.seat)) == part
            view = _json(RULES.view(state, b.seat))
            for key, value in part.items():
                if key != "table":
                    assert view[key] == value, key
            own = _text({k: v for k, v in view.items()
                         if k in ("secrets", "me", "declarations", "spies")})
            for other in state.brotherhoods:
                if other is not b and other.leader not in own:
                    assert other.leader not in _text(part)
            if part.get("table") is None:
                continue
            assert part["table"]["bid"] == b.bid
            for entry in part["table"]["observed"]:
                here = [s for s in view["spies"] if s["at"] == entry["region"] and s["task"]]
                assert any(not s["killed"] and s["task"]["task"] != "HIDE" for s in here)
                assert (sum(n for _, n in entry["apparent"]) == sum(entry["tasks"].values())
                        <= len(here))
                if variant == "spy2":
                    assert entry["skill"] == sum(s["skill"] for s in here if not s["killed"])


def _masked(part: dict[str, Any]) -> dict[str, Any]:
    """A part less its HUNT and SEARCH results (the rules' channels for secrets, §8.3)."""
    part = _json(part)
    for line in part.get("spies", []):
        if line["task"] and line["task"]["task"] in ("HUNT", "SEARCH") and not line["killed"]:
            line["result"] = "masked"
    return part


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), data=st.data())
def test_swapping_two_seats_secrets_leaves_a_third_seats_part(
        seed: int, players: int, data: st.DataObject) -> None:
    """Swapping two seats' leader names and bases changes no third seat's part but for
    its own HUNT and SEARCH results; the shared part is what changes."""
    x, y = data.draw(st.sampled_from([(i, j) for i in range(1, players + 1)
                                      for j in range(i + 1, players + 1)]))
    first = RULES.setup(seats(players), {}, Rng(seed))
    a, b = first.by_seat(f"s{x}"), first.by_seat(f"s{y}")
    assert a is not None and b is not None
    second = first.clone()
    sa, sb = second.by_seat(f"s{x}"), second.by_seat(f"s{y}")
    assert sa is not None and sb is not None
    sa.leader, sb.leader, sa.base, sb.base = b.leader, a.leader, b.base, a.base
    worlds = [first, second]
    ids = [f"s{z}" for z in range(1, players + 1)]
    for t in range(1, 5):
        if first.game_over is not None:
            break
        sheets = {}
        for seat in sorted(RULES.awaiting(first)):
            sheet = random_sheet(RULES.view(first, seat), Rng(seed).stream(t, seat),
                                 declare=False)
            for order in sheet["spies"].values():  # FOLLOW moves by the leader's name
                if order["task"] == "FOLLOW":
                    order.clear()
                    order.update(task="WORK", region="A")
            sheets[seat] = sheet
        worlds = [RULES.resolve(w, {s: RULES.parse_orders(w, s, d) for s, d in sheets.items()},
                                Rng(seed)) for w in worlds]
        first = worlds[0]
        one, two = (RULES.stored_views(w, ids) for w in worlds)
        for z in ids:
            if z not in (f"s{x}", f"s{y}"):
                assert _masked(one.parts[z]) == _masked(two.parts[z]), z
        if first.game_over is None and all(
                first.brotherhoods[i - 1].eliminated is None for i in (x, y)):
            assert _json(one.shared) != _json(two.shared)


# ------------------------------------------------------------------ size


def _size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False).encode())


@pytest.mark.parametrize("variant", ["classic", "spy2"])
def test_parts_are_small_at_200_brotherhoods(variant: str) -> None:
    """200 brotherhoods after one resolved turn: the largest seat part is under 1/20 of
    the smallest whole seat view, and the shared part under 5 whole views."""
    *_, state = _bot_game(2026, 200, variant, turns=1)
    assert state.turn == 1 and state.game_over is None
    ids = [b.seat for b in state.brotherhoods]
    done = RULES.stored_views(state, ids)
    smallest = min(_size(RULES.view(state, seat)) for seat in ids)
    largest = max(_size(done.parts[seat]) for seat in ids)
    assert largest * 20 < smallest, (largest, smallest)
    assert _size(done.shared) < 5 * smallest, (_size(done.shared), smallest)


def test_a_seat_part_does_not_grow_with_the_town() -> None:
    """A seat's part depends on its own spies, not on the number of brotherhoods: the
    same seat with the same spies at 20 and 200 brotherhoods has a part of about the
    same size (its notices and results name a few others at most)."""
    sizes = []
    for players in (20, 200):
        *_, state = _bot_game(7, players, "classic", turns=1)
        sizes.append(max(_size(stored.seat_part(state, b.seat))
                         for b in state.brotherhoods))
    assert sizes[1] < 2 * sizes[0], sizes
