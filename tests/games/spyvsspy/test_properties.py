"""Property tests over random games: determinism, conservation, secrecy, refusal."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.errors import OrderError
from spyhouse.core.record import Record, final_state, replay
from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.randomplay import RULES, play, random_sheet, seats, sheets_of

GAMES = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def _record(states: list[State], seed: int, players: int, variant: str) -> Record:
    return Record("spyvsspy", seed, {"variant": variant}, tuple(seats(players)),
                  tuple(sheets_of(s) for s in states[1:]))


def _all_views(state: State) -> str:
    views = [RULES.view(state, None)] + [RULES.view(state, b.seat) for b in state.brotherhoods]
    return json.dumps(views, sort_keys=True, ensure_ascii=False)


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       variant=st.sampled_from(["classic", "spy2"]))
def test_record_replays_to_identical_views(seed: int, players: int, variant: str) -> None:
    """Replaying a game's record gives byte-identical views after every turn."""
    states = play(seed, players, 6, variant)
    record = _record(states, seed, players, variant)
    for played, replayed in zip(states, replay(record), strict=True):
        assert _all_views(played) == _all_views(replayed)


def test_replay_in_fresh_process_with_other_hash_seed(tmp_path: Any) -> None:
    """A record replays to the same views in a new process with a different PYTHONHASHSEED."""
    seed, players = 4242, 6
    states = play(seed, players, 8)
    record = _record(states, seed, players, "classic")
    path = tmp_path / "game.json"
    record.save(path)
    script = (
        "import json,sys\n"
        "from spyhouse.core.record import load, final_state\n"
        "from spyhouse.core import registry\n"
        "r = load(sys.argv[1]); s = final_state(r); rules = registry.get('spyvsspy')\n"
        "views = [rules.view(s, None)] + [rules.view(s, b.seat) for b in s.brotherhoods]\n"
        "sys.stdout.write(json.dumps(views, sort_keys=True, ensure_ascii=False))\n"
    )
    outputs = []
    for hash_seed in ("1", "987654"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", script, str(path)], env=env,
                              capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == _all_views(final_state(record))


_EARNED = re.compile(r"earned (\d+) gp")
_TRAINED = re.compile(r"skill \+(\d+) for (\d+) gp")
_RECRUITED = re.compile(r"recruited spy #\d+ \(skill \d\) for (\d+) gp")
_SHARE = re.compile(r"correct: you receive (\d+) gp")


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_gold_and_spies_change_only_by_the_rules(seed: int, players: int) -> None:
    """Each surviving brotherhood's gp and spy count change exactly by its report's lines."""
    states = play(seed, players, 8)
    for before, after in itertools.pairwise(states):
        if after.game_over is not None:
            continue
        for b in after.surviving():
            old = before.by_seat(b.seat)
            assert old is not None
            view = RULES.view(after, b.seat)
            gp, spies = old.gp, len(old.spies)
            for line in view["spies"]:
                result = line["result"] or ""
                if m := _EARNED.search(result):
                    gp += int(m.group(1))
                if m := _TRAINED.search(result):
                    gp -= int(m.group(2))
                if m := _RECRUITED.search(result):
                    gp -= int(m.group(1))
                    spies += 1
                if line["killed"]:
                    spies -= 1
            for declaration in view["declarations"]:
                if m := _SHARE.search(declaration["outcome"]):
                    gp += int(m.group(1))
            assert b.gp == gp
            assert len(b.spies) == spies == view["me"]["nspies"]
            assert any(s.number == 1 for s in b.spies), "a leader never dies"


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_kills_match_news(seed: int, players: int) -> None:
    """Every kill is one news line, one hunter result and one victim's killed spy."""
    for state in play(seed, players, 6, declare=False)[1:]:
        kills = [line for line in (state.log.news if state.log else ())
                 if " killed a spy of " in line]
        hunters = victims = 0
        for b in state.surviving():
            for line in RULES.view(state, b.seat)["spies"]:
                hunters += (line["result"] or "").startswith("killed a spy of")
                victims += line["killed"]
        assert len(kills) == hunters == victims


def _masked(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view less what may legitimately depend on rivals' secrets: leader rows and
    HUNT/SEARCH results (the spec's channels for secrets, §8.3)."""
    view = json.loads(json.dumps(view))
    if view.get("table"):
        view["table"]["rows"] = [r for r in view["table"]["rows"] if r["kind"] != "leader"]
    for line in view.get("spies", []):
        if line["task"] and line["task"]["task"] in ("HUNT", "SEARCH") and not line["killed"]:
            line["result"] = "masked"
    return view


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), data=st.data())
def test_secret_pairings_reach_others_only_through_the_rules(
        seed: int, players: int, data: st.DataObject) -> None:
    """Swapping two seats' leader names and bases changes a third seat's view only in its
    leader sightings and its own HUNT and SEARCH results (no FOLLOW: it moves by name)."""
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
    for t in range(1, 5):
        sheets = {}
        for seat in sorted(RULES.awaiting(first)):
            view = RULES.view(first, seat)
            sheet = random_sheet(view, Rng(seed).stream(t, seat), declare=False)
            for order in sheet["spies"].values():  # FOLLOW moves by the leader's name: a
                if order["task"] == "FOLLOW":       # channel of its own, tested elsewhere
                    order.clear()
                    order.update(task="WORK", region="A")
            sheets[seat] = sheet
        worlds = [RULES.resolve(w, {s: RULES.parse_orders(w, s, d) for s, d in sheets.items()},
                                Rng(seed)) for w in worlds]
        first = worlds[0]
        for z in range(1, players + 1):
            if z in (x, y):
                continue
            one, two = (_masked(RULES.view(w, f"s{z}")) for w in worlds)
            assert one == two, f"seat s{z} can tell s{x} and s{y}'s secrets apart"


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_no_view_holds_another_seats_secrets_key(seed: int, players: int) -> None:
    """Only the own view has ``secrets``; the directory and table carry no leader or base."""
    for state in play(seed, players, 5):
        for b in state.brotherhoods:
            view = RULES.view(state, b.seat)
            if "secrets" in view:
                assert view["secrets"] == {"leader": b.leader, "base": b.base.value}
            text = json.dumps({k: v for k, v in view.items()
                               if k not in ("secrets", "leaders", "table", "spies", "news",
                                            "game_over", "declarations")})
            for other in state.brotherhoods:
                if other.eliminated is None and state.game_over is None:
                    assert other.leader not in text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(
    json_values,
    st.fixed_dictionaries({"spies": st.dictionaries(
        st.sampled_from(["1", "2", "9", "10", "x"]),
        st.dictionaries(st.sampled_from(["task", "region", "brotherhood", "leader", "bad"]),
                        st.sampled_from(["WORK", "hunt", "A", "Z", "s2", "s1", "Mr Orange",
                                         "RECRUIT", "FOLLOW", None]), max_size=4),
        max_size=5)}),
))
def test_any_json_is_accepted_or_refused_cleanly(data: Any) -> None:
    """parse_orders either accepts or raises OrderError with messages; the state is unchanged."""
    state = RULES.setup(seats(3), {"setup": {"leaders": {"s2": "Mr Orange"}}}, Rng(1))
    before = json.dumps(RULES.view(state, None), sort_keys=True)
    try:
        sheet = RULES.parse_orders(state, "s1", data)
    except OrderError as error:
        assert error.messages and all(isinstance(m, str) and m for m in error.messages)
    else:
        assert RULES.parse_orders(state, "s1", RULES.dump_orders(sheet)) == sheet
    assert json.dumps(RULES.view(state, None), sort_keys=True) == before


@pytest.mark.parametrize("variant", ["classic", "spy2"])
def test_resolve_leaves_its_input_untouched(variant: str) -> None:
    states = play(77, 5, 4, variant)
    snapshot = _all_views(states[2])
    RULES.resolve(states[2], {seat: None for seat in RULES.awaiting(states[2])}, Rng(77))
    assert _all_views(states[2]) == snapshot
