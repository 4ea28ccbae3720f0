"""Benchmark: one Spy vs Spy turn of N brotherhoods through the server's own path.

The script prepares, in a child process (so its memory and its caches are not
the measured process's), a started Spy vs Spy game on a real database: a fresh
SQLite file in a temporary folder by default, or the database of ``--db URL``
(migrated; a new game is added to it). The game has ``--brotherhoods`` seats:
``--humans`` of them players (a user each, no orders: no-shows who still get
the turn mail), the others computer players (``--bot``, inserted in bulk as
``games.add_bot`` would insert them); ``games.start_game`` then snapshots turn
0, mails the secrets and fills every bot's orders (ready), as the server does.

The parent process then times ONE turn as the worker runs it: a transaction
(``store.db.transaction``) around ``spyhouse.service.turns.process_turn`` at
the deadline, committed. It reports

- wall seconds from opening the session to the end of the commit;
- peak RSS of the measuring process (``resource.getrusage`` ``ru_maxrss``), and
  its RSS just before the turn (imports, engine: the floor);
- the bytes the turn stored: SQLite, the growth of the database file after a
  full checkpoint (``PRAGMA wal_checkpoint(TRUNCATE)`` before and after) and
  the write-ahead log's size at the commit; PostgreSQL, the growth of
  ``pg_database_size``; on both, the summed size of the turn's report rows;
- the split of the wall time: claim and load (claim, drafts, record, state),
  resolve (``records.step``), views (``records.write_views``: the rules'
  ``stored_views``, the JSON encoding and the INSERTs of the shared part and
  every reader's part), next turn (the game row and every bot's next orders,
  each bot's view built for it alone), mail and news, commit.

The split is taken by wrapping those functions of the modules ``process_turn``
calls, so the path timed is the server's. Writes JSON to
``bench/results/spyvsspy_server_turn_<N>.json``; the last line printed is
``RESULT brotherhoods=<N> seconds=<wall> peak_mb=<peak RSS> stored_mb=<stored>
bots_seconds=<the computer players' next orders>``: the worker moves them right after
the turn, in a transaction of their own (``turns.move_bots``), timed apart.

    python bench/spyvsspy_server_turn.py --brotherhoods 1000 [--db URL] [--humans 10]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import resource
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

import spyhouse
from benchgame import add_bots_and_start, bench_game, migrated, prepare_in_child
from spyhouse.service import records as store
from spyhouse.service import turns
from spyhouse.settings import Settings
from spyhouse.store.db import is_sqlite, make_engine, session_factory, transaction
from spyhouse.store.tables import Game, Report, ViewShare

RESULTS = Path(__file__).resolve().parent / "results"


# ---------------------------------------------------------------- prepare (child process)


def prepare(database_url: str, brotherhoods: int, humans: int, bot: str) -> dict[str, Any]:
    """A started game of ``brotherhoods`` seats; its id and the time its turn is due."""
    with migrated(database_url) as (factory, settings):
        now = datetime.now(UTC)
        with transaction(factory) as db:
            game, users, _seats = bench_game(
                db, humans, title=f"Server turn benchmark ({brotherhoods})", now=now)
            host = users[0]
            deadline = add_bots_and_start(db, game, host, first=humans + 1,
                                          last=brotherhoods, bot=bot, name="Bench Bots",
                                          now=now, settings=settings)
            return {"game_id": game.id,
                    "due": (deadline + timedelta(seconds=1)).isoformat()}


# ---------------------------------------------------------------- measure


class Split:
    """Seconds spent in each wrapped step of ``process_turn``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        began = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - began

    def wrap(self, module: Any, attribute: str, name: str,
             after: Callable[..., None] | None = None) -> None:
        original: Callable[..., Any] = getattr(module, attribute)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.part(name):
                result = original(*args, **kwargs)
                if after is not None:
                    after(*args, **kwargs)
                return result

        setattr(module, attribute, timed)


def rss_mb() -> float:
    """The process's resident set now (MB), from /proc (Linux)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def sqlite_sizes(engine: Engine, path: Path) -> tuple[int, int]:
    """(database file, write-ahead log) in bytes after a full checkpoint."""
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    wal = Path(f"{path}-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


def wal_size(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size if wal.exists() else 0


def database_size(engine: Engine) -> int:
    with engine.connect() as connection:
        size: int = connection.execute(text("SELECT pg_database_size(current_database())")
                                       ).scalar_one()
        return size


def report_bytes(engine: Engine, game_id: int, entry: int) -> tuple[int, int]:
    """(rows, summed JSON text bytes) of the snapshots of ``entry``: every reader's part
    and the entry's shared part (``view_shares``), counted as one more row."""
    total_rows = total_bytes = 0
    for table, column in ((Report.__tablename__, "view"), (ViewShare.__tablename__, "data")):
        size = (f"octet_length({column}::text)" if engine.dialect.name == "postgresql"
                else f"length(CAST({column} AS BLOB))")
        with engine.connect() as connection:
            rows, total = connection.execute(
                text(f"SELECT count(*), coalesce(sum({size}), 0) FROM {table} "
                     "WHERE game_id = :game AND entry = :entry"),
                {"game": game_id, "entry": entry}).one()
        total_rows += int(rows)
        total_bytes += int(total)
    return total_rows, total_bytes


def measure(database_url: str, game_id: int, due: datetime) -> dict[str, Any]:
    settings = Settings(database_url=database_url, demo=False)
    engine = make_engine(database_url)
    sqlite_path = Path(database_url.split("///", 1)[1]) if is_sqlite(database_url) else None
    try:
        factory = session_factory(engine)
        factory.configure(info={"settings": settings})
        before: dict[str, int] = {}
        if sqlite_path is not None:
            before["file"], before["wal"] = sqlite_sizes(engine, sqlite_path)
        else:
            before["database"] = database_size(engine)

        split = Split()

        split.wrap(store, "load_record", "claim and load")
        split.wrap(store, "state_of", "claim and load")
        split.wrap(store, "step", "resolve")
        split.wrap(store, "write_views", "views: stored parts, written")
        split.wrap(turns, "_move_on", "next entry opened")
        split.wrap(turns, "_tell_players", "mail and news")

        floor_mb = rss_mb()
        peak_before = peak_mb()
        wal_at_commit = 0
        began = time.perf_counter()
        with transaction(factory) as db:
            processed = turns.process_turn(db, game_id, due, settings=settings)
            inside = time.perf_counter() - began
            commit_began = time.perf_counter()
        wall = time.perf_counter() - began
        commit = time.perf_counter() - commit_began
        peak = peak_mb()
        if not processed:
            raise RuntimeError(f"game {game_id} was not processed (not due, or held)")
        bots_began = time.perf_counter()
        with transaction(factory) as db:  # as the worker does next, in a transaction of its own
            moved = turns.move_bots(db, game_id, due)
        bots_wall = time.perf_counter() - bots_began
        bots_peak = peak_mb()
        if sqlite_path is not None:
            wal_at_commit = wal_size(sqlite_path)

        after: dict[str, int] = {}
        if sqlite_path is not None:
            after["file"], after["wal"] = sqlite_sizes(engine, sqlite_path)
            stored = after["file"] - before["file"]
        else:
            after["database"] = database_size(engine)
            stored = after["database"] - before["database"]
        with factory() as db:
            game = db.get(Game, game_id)
            entry = game.entry if game is not None else -1
        rows, row_bytes = report_bytes(engine, game_id, entry)
        named = sum(split.seconds.values())
        parts = dict(split.seconds)
        parts["other (claim, drafts, turn row)"] = max(0.0, inside - named)
        parts["commit"] = commit
        return {
            "seconds": wall, "split_s": parts, "rss_before_mb": floor_mb,
            "bots_seconds": bots_wall, "bots_moved": moved, "bots_peak_rss_mb": bots_peak,
            "peak_rss_mb": peak, "peak_rss_before_mb": peak_before,
            "stored_bytes": stored, "wal_at_commit_bytes": wal_at_commit,
            "sizes_before": before, "sizes_after": after,
            "report_rows": rows, "report_bytes": row_bytes, "entry": entry,
        }
    finally:
        engine.dispose()


# ---------------------------------------------------------------- main


def next_due(database_url: str, game_id: int) -> datetime:
    engine = make_engine(database_url)
    try:
        with session_factory(engine)() as db:
            game = db.get(Game, game_id)
            if game is None or game.deadline is None:
                raise RuntimeError(f"game {game_id} has no next deadline")
            return game.deadline
    finally:
        engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--brotherhoods", type=int, required=True, help="seats of the game")
    parser.add_argument("--db", default=None,
                        help="database URL (default: a SQLite file in a temporary folder)")
    parser.add_argument("--humans", type=int, default=10,
                        help="seats of players (no orders; they get the turn mail)")
    parser.add_argument("--bot", default="economist", help="the other seats' computer player")
    parser.add_argument("--out", type=Path, default=None, help="JSON results file")
    parser.add_argument("--warm", action="store_true",
                        help="then a second turn in the same process: its state and its "
                             "bots already in memory, as in a server that ran the first")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 2 <= args.brotherhoods <= 10_000 or not 1 <= args.humans <= args.brotherhoods:
        parser.error("--brotherhoods from 2 to 10000, --humans from 1 to --brotherhoods")

    if args.prepare:  # the child: print what the parent needs as one JSON line
        print(json.dumps(prepare(args.db, args.brotherhoods, args.humans, args.bot)))
        return 0

    with tempfile.TemporaryDirectory(prefix="spyhouse-turn-") as folder:
        database_url = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
        began = time.perf_counter()
        made = prepare_in_child(__file__, args.brotherhoods, args.humans, args.bot,
                                database_url)
        if made is None:
            return 1
        print(f"prepared game {made['game_id']}: {args.brotherhoods} brotherhoods "
              f"({args.humans} players, {args.brotherhoods - args.humans} x {args.bot}), "
              f"started ({time.perf_counter() - began:.1f} s, in a child process)", flush=True)
        figures = measure(database_url, int(made["game_id"]), datetime.fromisoformat(made["due"]))
        if args.warm:
            figures["warm"] = measure(database_url, int(made["game_id"]),
                                      next_due(database_url, int(made["game_id"])))

    db_kind = "sqlite" if is_sqlite(database_url) else "postgresql"
    print(f"one turn through process_turn, committed ({db_kind}):")
    for name, seconds in figures["split_s"].items():
        print(f"  {name:<32} {seconds:8.2f} s")
    print(f"  {'wall':<32} {figures['seconds']:8.2f} s")
    warm = figures.get("warm")
    if warm is not None:
        print(f"a second turn, warm (same process): {warm['seconds']:.2f} s, peak RSS "
              f"{warm['peak_rss_mb']:.0f} MB; its bots' orders {warm['bots_seconds']:.2f} s, "
              f"peak RSS {warm['bots_peak_rss_mb']:.0f} MB")
    print(f"memory: RSS {figures['rss_before_mb']:.0f} MB before the turn, peak "
          f"{figures['peak_rss_mb']:.0f} MB")
    print(f"then the computer players' next orders (turns.move_bots, its own transaction, "
          f"as the worker runs it): {figures['bots_moved']} sheets in "
          f"{figures['bots_seconds']:.2f} s, peak RSS {figures['bots_peak_rss_mb']:.0f} MB")
    print(f"stored: {figures['stored_bytes'] / 1e6:.1f} MB database growth"
          + (f", write-ahead log {figures['wal_at_commit_bytes'] / 1e6:.1f} MB at the commit"
             if db_kind == "sqlite" else "")
          + f"; {figures['report_rows']} report rows of entry {figures['entry']}, "
          f"{figures['report_bytes'] / 1e6:.1f} MB of JSON "
          f"({figures['report_bytes'] / max(1, figures['report_rows']) / 1e3:.0f} kB a row)")
    result = {
        "benchmark": "spyvsspy_server_turn",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "spyhouse": str(Path(spyhouse.__file__).parent),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "load_average": os.getloadavg(),
        "database": db_kind, "brotherhoods": args.brotherhoods, "humans": args.humans,
        "bot": args.bot, **figures,
    }
    out = args.out or RESULTS / f"spyvsspy_server_turn_{args.brotherhoods}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"results: {out}")
    print(f"RESULT brotherhoods={args.brotherhoods} seconds={figures['seconds']:.2f} "
          f"peak_mb={figures['peak_rss_mb']:.0f} "
          f"stored_mb={figures['stored_bytes'] / 1e6:.1f} "
          f"bots_seconds={figures['bots_seconds']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
