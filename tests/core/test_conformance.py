"""The conformance test every registered game must pass (DESIGN.md, "The Ruleset protocol").

Bot games end; every view is JSON and the same in a fresh process with another
``PYTHONHASHSEED``; a record replays to the same views; bots see only views;
``parse_orders`` accepts what ``dump_orders`` wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spyhouse.core import bots, registry
from spyhouse.core.record import Record, replay
from spyhouse.sim.simulate import simulate

GAMES = [game for game in registry.names() if game in bots.games()]
PLAYERS = {"spyvsspy": 5, "spyorlie": 2, "infiltration": 8}


def _views_per_entry(record: Record) -> list[str]:
    ruleset = registry.get(record.game)
    out = []
    for state in replay(record):
        seats: list[str | None] = [None, *(seat.id for seat in record.seats)]
        out.append(json.dumps([ruleset.view(state, seat) for seat in seats],
                              sort_keys=True, ensure_ascii=False))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_games_end_and_replay(game: str, seed: int) -> None:
    result = simulate(game, players=PLAYERS.get(game, 4), turns=200, seed=seed)
    assert result.outcome is not None, "a bot game must end"
    assert not result.refusals, "bots send only valid orders"
    ruleset = registry.get(game)
    first = _views_per_entry(result.record)
    assert first == _views_per_entry(result.record)
    assert json.loads(first[-1])[0]["game_over"] is not None or ruleset.outcome(
        result.final_state) is not None


@pytest.mark.parametrize("game", GAMES)
def test_replay_is_identical_in_a_fresh_process(game: str, tmp_path: Path) -> None:
    result = simulate(game, players=PLAYERS.get(game, 4), turns=200, seed=11)
    path = tmp_path / "record.json"
    result.record.save(path)
    script = (
        "import json, sys\n"
        "from spyhouse.core.record import load\n"
        "from tests.core.test_conformance import _views_per_entry\n"
        "sys.stdout.write(json.dumps(_views_per_entry(load(sys.argv[1]))))\n"
    )
    outputs = []
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, check=True,
                              capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[2])
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == json.dumps(_views_per_entry(result.record))


class _Spy:
    """Wraps a bot and records every argument it is given."""

    def __init__(self, inner: Any, seen: list[Any]) -> None:
        self.inner, self.seen = inner, seen

    def act(self, view: Any) -> Any:
        self.seen.append(view)
        return self.inner.act(view)


@pytest.mark.parametrize("game", GAMES)
def test_bots_receive_exactly_their_seats_view(game: str) -> None:
    seen: list[Any] = []

    def factory(g: str, name: str, seat: str, seed: int) -> Any:
        return _Spy(bots.make_bot(g, name, seat, seed), seen)

    result = simulate(game, players=PLAYERS.get(game, 4), turns=3, seed=5, make_bot=factory)
    ruleset = registry.get(game)
    states = list(replay(result.record))
    for view in seen:
        assert isinstance(view, dict)
        state = states[view["turn"]] if "turn" in view else None
        if state is not None and "seat" in view:
            assert view == ruleset.view(state, view["seat"])


@pytest.mark.parametrize("game", GAMES)
def test_dumped_orders_parse_back(game: str) -> None:
    result = simulate(game, players=PLAYERS.get(game, 4), turns=4, seed=8)
    ruleset = registry.get(game)
    for state, entry in zip(replay(result.record), result.record.turns, strict=False):
        for seat, data in entry.items():
            if data is not None:
                orders = ruleset.parse_orders(state, seat, data)
                assert ruleset.dump_orders(orders) == data


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))


def _scribble(data: Any) -> None:
    """Change every list and mapping inside ``data`` in place."""
    if isinstance(data, dict):
        for value in data.values():
            _scribble(value)
        data["scribbled"] = True
    elif isinstance(data, list):
        for value in data:
            _scribble(value)
        data.append("scribbled")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [4, 5])
def test_stored_views_join_to_every_view(game: str, seed: int) -> None:
    """The platform stores each entry's views as ``Ruleset.stored_views`` (what they
    share once, each reader's own part) and serves ``joined_view``: after a JSON round
    trip, the join is exactly the seat's view at every entry of a bot game, and the
    host's without the seats' own views (kept once, as each seat's part)."""
    result = simulate(game, players=PLAYERS.get(game, 4), turns=200, seed=seed)
    ruleset = registry.get(game)
    seats = [seat.id for seat in result.record.seats]
    key = ruleset.host_seat_view_key
    for state in replay(result.record):
        stored = ruleset.stored_views(state, seats)
        assert set(stored.parts) == {*seats, None}
        shared = _json(stored.shared)
        for seat in seats:
            part = _json(stored.parts[seat])
            joined = ruleset.joined_view(shared, part)
            assert joined == _json(ruleset.view(state, seat)), seat
            _scribble(joined)  # the platform keeps ``shared`` in memory: no aliasing
            again = ruleset.joined_view(shared, _json(stored.parts[seat]))
            assert again == _json(ruleset.view(state, seat))
        host = _json(ruleset.view(state, None))
        if key is not None:
            for info in host["seats"].values():
                info.pop(key)
        assert ruleset.joined_view(shared, _json(stored.parts[None])) == host
