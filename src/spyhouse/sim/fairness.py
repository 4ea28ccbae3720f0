"""The fairness harness: does a bot decide from its view alone?

Game independent: a game is reached through ``core.registry`` and its ``Ruleset``
(``resample`` in particular), a bot through its spec (``core.bots.bot_factory``).

A fair bot's decision is a function of the view it is handed (and its seed and the views
it was handed before). So at any decision point, in any world the seat cannot tell from
the true one (``Ruleset.resample``: the same view), a fair bot decides the same. The
harness plays bot games (``simulate``, the tested bot in every seat), picks ``positions``
decision points spread over them (deterministically from ``seed``), and at each runs the
bot once on the true world and once on each of ``worlds`` resampled worlds, each run in a
fresh process:

- the child is forked from a clean forkserver (it shares nothing with this process) and is
  sent JSON only: the record, the entry, the seat, the world, the bot spec and seed;
- it replays the record to the entry, draws the world (``resample`` with a seed derived
  from ``seed``, the position and the world), checks the seat's view is the true one's
  (a mismatch is a resample bug, reported apart) and drops the true state, the record and
  the task; only then does it build the bot (a custom bot's module is imported there),
  feed it the seat's earlier views and ask it to act on ``fresh_view`` of the world's view
  while the world's state is alive in that process (a local of the calling frame,
  reachable by ``gc``, the last state passed to ``view``). A bot that reaches for the
  state by the stack, ``gc`` or a module global finds the world's hidden information, and
  its decision changes between worlds: caught.

Decisions are compared as canonical JSON, the whole of it (a clock-capped bot gets
``time_cap = None``, so Spy or Lie's ``ai`` note is the same in every world). A position
counts as *varied* when some world's host view differs from the true one's: with no varied
position the check proves nothing (``FairnessReport.vacuous``).
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.bots import Bot, bot_factory, bot_label, fresh_view, seat_bot_seed
from spyhouse.core.record import Record
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Ruleset, SeatId
from spyhouse.sim.simulate import simulate

#: The record-entry cap of each bot game (every built-in game ends well within it).
MAX_ENTRIES = 400
#: Bot games played at most to find enough decision points.
MAX_GAMES = 20
#: Seconds one world's process may take (replay, resample, the bot's decisions) before
#: it is killed and the world counts as the bot's error.
TIME_LIMIT = 120.0
#: The world index of the true world in a task and in reports.
TRUE = "true"
#: How much of a decision a report shows.
SHOWN = 160


class ResampleMissing(NotImplementedError):
    """The game's ruleset cannot resample: there is nothing to check the bot against."""


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A bot decision in a bot game: seat ``seat`` acts after ``entry`` record entries."""

    game_seed: int
    entry: int
    seat: SeatId

    def __str__(self) -> str:
        return f"game seed {self.game_seed}, entry {self.entry}, seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Finding:
    """A world where something went wrong: the decision changed (``kind`` "changed"),
    the resample broke its contract ("resample") or the bot failed ("error")."""

    kind: str
    point: DecisionPoint
    world: int
    message: str
    true_decision: Any = None
    world_decision: Any = None

    def __str__(self) -> str:
        where = f"{self.point}, world {self.world}"
        if self.kind == "changed":
            return (f"decision changed at {where}: true world {shorten(self.true_decision)}"
                    f", resampled world {shorten(self.world_decision)}")
        if self.kind == "resample":
            return f"resample bug at {where}: {self.message}"
        return f"bot failed at {where}: {self.message}"


@dataclass(slots=True)
class FairnessReport:
    """What ``check_fairness`` found."""

    game: str
    spec: str
    seed: int
    worlds: int
    points: list[DecisionPoint] = field(default_factory=list)
    #: positions where some resampled world's host view differed from the true one's
    varied: int = 0
    findings: list[Finding] = field(default_factory=list)
    games_played: int = 0

    @property
    def changes(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "changed"]

    @property
    def resample_bugs(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "resample"]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "error"]

    @property
    def fair(self) -> bool:
        return not self.findings

    @property
    def vacuous(self) -> bool:
        """No position's hidden information varied: the check proved nothing."""
        return self.varied == 0

    def summary(self) -> str:
        """One line: the verdict, what was checked, and how much of it could vary."""
        label = bot_label(self.spec)
        counts = (f"{len(self.points)} positions x {self.worlds} resampled worlds "
                  f"({self.games_played} bot games, seed {self.seed}); hidden information "
                  f"varied at {self.varied} of {len(self.points)} positions")
        if self.fair:
            verdict = "fair" if not self.vacuous else "fair but VACUOUS (nothing hidden varied)"
            return f"{self.game} {label}: {verdict}: {counts}"
        first = self.changes[0] if self.changes else self.findings[0]
        return f"{self.game} {label}: NOT FAIR: {first}; {counts}"


def shorten(decision: Any, limit: int = SHOWN) -> str:
    text = json.dumps(decision, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (the harness seed, a position, a world)."""
    text = "/".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


# ---------------------------------------------------------------- the parent


def _check_resample(ruleset: Ruleset[Any, Any], record: Record, seat: SeatId) -> None:
    _, _rng, state = records.start(record)
    try:
        ruleset.resample(state, seat, Rng(0))
    except NotImplementedError as exc:
        raise ResampleMissing(f"{record.game} cannot resample a seat's hidden information "
                              f"(its ruleset has no resample): {exc}") from None


def decision_points(record: Record) -> list[DecisionPoint]:
    """Every (entry, awaited seat) of ``record``, in order: where a bot decided."""
    ruleset = registry.get(record.game)
    points: list[DecisionPoint] = []
    for entry, state in enumerate(records.replay(record)):
        if entry == len(record.turns):
            break
        points.extend(DecisionPoint(record.seed, entry, seat)
                      for seat in sorted(ruleset.awaiting(state)))
    return points


def spread(points: Sequence[DecisionPoint], count: int, seed: int) -> list[DecisionPoint]:
    """``count`` of ``points`` spread evenly over them, the offset drawn from ``seed``."""
    if count >= len(points):
        return list(points)
    offset = Rng(seed).stream(0, "fairness:positions").roll(1000) - 1
    return [points[((k * 1000 + offset) * len(points)) // (count * 1000)]
            for k in range(count)]


def _games(game: str, spec: str, *, count: int, seed: int, players: int,
           options: Mapping[str, Any] | None, turns: int
           ) -> tuple[dict[int, Record], list[DecisionPoint]]:
    """Bot games of the tested bot in every seat until ``count`` decision points."""
    factory = bot_factory(game, spec)

    def make(_game: str, _name: str, seat: SeatId, seat_seed: int) -> Bot:
        return factory(seat, seat_seed)

    played: dict[int, Record] = {}
    points: list[DecisionPoint] = []
    for index in range(MAX_GAMES):
        game_seed = seed + index
        result = simulate(game, players=players, turns=turns, seed=game_seed,
                          bots=[spec], options=options, make_bot=make)
        played[game_seed] = result.record
        if index == 0:
            _check_resample(registry.get(game), result.record, result.record.seats[0].id)
        points.extend(decision_points(result.record))
        if len(points) >= count:
            break
    return played, points


def _task(game: str, spec: str, seed: int, record: Record, point: DecisionPoint,
          world: int | str) -> bytes:
    return json.dumps({
        "game": game, "spec": spec, "record": record.to_json(), "entry": point.entry,
        "seat": point.seat, "world": world, "bot_seed": seat_bot_seed(point.game_seed, point.seat),
        "resample_seed": derived_seed("fairness", seed, point.game_seed, point.entry,
                                      point.seat, world),
    }).encode("utf-8")


def _preload() -> list[str]:
    """Modules the forkserver imports once: the main module (so that no child runs it
    again) and every ``spyhouse`` module loaded here (the registry loads every game's)."""
    return ["__main__", *sorted(name for name in sys.modules
                                if name == "spyhouse" or name.startswith("spyhouse."))]


def _run_all(tasks: list[tuple[int, int | str, bytes]], jobs: int,
             on_done: Callable[[int, int | str, dict[str, Any]], None], *,
             time_limit: float | None = None,
             clock: Callable[[], float] = time.monotonic) -> None:
    """Run every task in its own fresh process, ``jobs`` at a time; a process still
    deciding ``time_limit`` seconds after its start is killed, and the answer is an
    error: a bot that never answers costs its own check, never the harness."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_preload())
    pending = list(reversed(tasks))
    running: dict[Connection, tuple[int, int | str, Any, float]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            index, world, payload = pending.pop()
            parent_end, child_end = context.Pipe()
            process = context.Process(target=_child, args=(child_end,), daemon=True)
            process.start()
            child_end.close()
            parent_end.send_bytes(payload)
            running[parent_end] = (index, world, process, clock())
        timeout = None
        if time_limit is not None:
            first = min(started for *_, started in running.values())
            timeout = max(0.0, first + time_limit - clock())
        for ready in wait(list(running), timeout=timeout):
            assert isinstance(ready, Connection)
            index, world, process, _ = running.pop(ready)
            try:
                answer = json.loads(ready.recv_bytes())
            except EOFError:
                answer = {"error": "the process died without an answer"}
            ready.close()
            process.join()
            on_done(index, world, answer)
        if time_limit is None:
            continue
        now = clock()
        for conn, (index, world, process, started) in list(running.items()):
            if now - started >= time_limit:
                del running[conn]
                process.kill()
                process.join()
                conn.close()
                on_done(index, world, {"error": f"no decision within {time_limit:g} s"})


def check_fairness(
    game: str, spec: str, *, positions: int = 5, seed: int = 1, worlds: int = 3,
    players: int | None = None, options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None, jobs: int = 2,
    turns: int = MAX_ENTRIES, time_limit: float | None = TIME_LIMIT,
) -> FairnessReport:
    """Check bot ``spec`` on ``positions`` decision points x ``worlds`` resampled worlds.

    The bot games last at most ``turns`` record entries each (fewer: the points lie in
    the games' openings, and a slow bot's games cost less).
    ``progress(done, total)`` is called as worlds finish (the true world counts too).
    Raises ``BotSpecError`` for a bad spec, ``KeyError`` for an unknown game and
    ``ResampleMissing`` for a game whose ruleset cannot resample.
    """
    if positions < 1 or worlds < 1 or jobs < 1:
        raise ValueError("positions, worlds and jobs must each be at least 1")
    ruleset = registry.get(game)
    seats = players if players is not None else ruleset.spec.min_seats
    played, every = _games(game, spec, count=positions, seed=seed, players=seats,
                           options=options, turns=turns)
    chosen = spread(every, positions, seed)
    report = FairnessReport(game, spec, seed, worlds, points=chosen, games_played=len(played))
    total = len(chosen) * (worlds + 1)
    if progress is not None:
        progress(0, total)
    tasks = [(index, world, _task(game, spec, seed, played[point.game_seed], point, world))
             for index, point in enumerate(chosen)
             for world in (TRUE, *range(worlds))]
    answers: dict[int, dict[int | str, dict[str, Any]]] = {}
    done = 0

    def on_done(index: int, world: int | str, answer: dict[str, Any]) -> None:
        nonlocal done
        answers.setdefault(index, {})[world] = answer
        done += 1
        if progress is not None:
            progress(done, total)

    _run_all(tasks, jobs, on_done, time_limit=time_limit)
    for index, point in enumerate(chosen):
        report.varied += _judge(point, answers[index], worlds, report.findings)
    return report


def _judge(point: DecisionPoint, answers: Mapping[int | str, Mapping[str, Any]], worlds: int,
           findings: list[Finding]) -> int:
    """Add the position's findings; 1 if its hidden information varied, else 0."""
    true = answers[TRUE]
    if "error" in true:
        findings.append(Finding("error", point, -1, f"in the true world: {true['error']}"))
        return 0
    varied = 0
    for world in range(worlds):
        answer = answers[world]
        if "error" in answer:
            findings.append(Finding("error", point, world, str(answer["error"])))
            continue
        if answer.get("resample_bug"):
            findings.append(Finding("resample", point, world, str(answer["resample_bug"])))
        varied |= bool(answer.get("varied"))
        if canonical(answer["decision"]) != canonical(true["decision"]):
            findings.append(Finding("changed", point, world, "the decision changed",
                                    true["decision"], answer["decision"]))
    return varied


# ---------------------------------------------------------------- the child


def _child(conn: Connection) -> None:
    """One world in a fresh process: read the task, decide, answer (JSON both ways)."""
    # What the forkserver imported is never garbage: out of the collector's sight, a full
    # collection stays fast and does not copy the inherited heap page by page.
    gc.freeze()
    try:
        answer = _decide(json.loads(conn.recv_bytes()))
    except Exception as exc:  # the bot's or the game's: the report names it
        answer = {"error": f"{type(exc).__name__}: {exc}"}
    try:
        text = json.dumps(answer)
    except (TypeError, ValueError) as exc:
        text = json.dumps({"error": f"the decision is not JSON: {exc}"})
    conn.send_bytes(text.encode("utf-8"))
    conn.close()


def _decide(task: dict[str, Any]) -> dict[str, Any]:
    """The world first, the bot after: the bot's code is imported (a custom bot's module
    runs) only once the true state, the record and the task are gone, so nothing it
    installs at import (a wrapped ``view``, a hook) ever sees the true world."""
    game, seat, spec, seed = task["game"], task["seat"], task["spec"], task["bot_seed"]
    ruleset = registry.get(game)
    earlier, world, note = _world(ruleset, task.pop("record"), task["entry"], seat,
                                  task["world"], task["resample_seed"])
    task.clear()
    gc.collect()
    bot = bot_factory(game, spec)(seat, seed)
    if hasattr(bot, "time_cap"):
        bot.time_cap = None
    if getattr(bot, "keeps_notes", True):
        for old in earlier:
            bot.act(fresh_view(old))
    view = ruleset.view(world, seat)
    decision = bot.act(fresh_view(view))
    return {"decision": json.loads(json.dumps(decision)), **note}


def _world(ruleset: Ruleset[Any, Any], record_json: dict[str, Any], entry: int, seat: SeatId,
           world: int | str, resample_seed: int) -> tuple[list[dict[str, Any]], Any,
                                                          dict[str, Any]]:
    """The seat's earlier views (where it was awaited), the world's state and notes on it;
    the true state and the states before it are gone when this returns."""
    states: Iterator[Any] = records.replay(records.record_from_json(record_json))
    earlier: list[dict[str, Any]] = []
    state = None
    for index, state in enumerate(states):
        if index == entry:
            break
        if seat in ruleset.awaiting(state):
            earlier.append(ruleset.view(state, seat))
    del states
    if world == TRUE:
        return earlier, state, {}
    true_host = canonical(ruleset.view(state, None))
    resampled = ruleset.resample(state, seat, Rng(resample_seed))
    note: dict[str, Any] = {"varied": canonical(ruleset.view(resampled, None)) != true_host}
    if canonical(ruleset.view(state, None)) != true_host:
        note["resample_bug"] = "resample changed the true state"
    else:
        true_view, world_view = ruleset.view(state, seat), ruleset.view(resampled, seat)
        if true_view != world_view:
            note["resample_bug"] = (f"the seat's view differs in the resampled world "
                                    f"({_first_difference(true_view, world_view)})")
    return earlier, resampled, note


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
    """Where two JSON values first differ, as a path (``view.cells[3].face``)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key} present in one only"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items against {len(b)}"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{index}]")
    return f"{path}: {shorten(a, 60)} against {shorten(b, 60)}"
