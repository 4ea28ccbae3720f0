"""What the server benchmarks share to prepare their database: a migrated database with
the app's settings on its sessions, and a Spy vs Spy game of benchmark players joined
through the service layer, as the server itself would make them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from spyhouse.service import accounts, games
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, migrate, session_factory
from spyhouse.store.tables import Game, SeatRow, User

PASSWORD = "bench-password-123"


@contextmanager
def migrated(database_url: str) -> Iterator[tuple[sessionmaker[Session], Settings]]:
    """A migrated database's session factory (sessions carry the settings, as the app's
    do) and those settings; the engine is disposed at the end."""
    settings = Settings(database_url=database_url, demo=False)
    engine = make_engine(database_url)
    try:
        migrate(engine)
        factory = session_factory(engine)
        factory.configure(info={"settings": settings})
        yield factory, settings
    finally:
        engine.dispose()


def bench_game(db: Session, players: int, *, title: str, now: datetime,
               ) -> tuple[Game, list[User], list[SeatRow]]:
    """An open Spy vs Spy game (bases drawn, a 48-hour interval) with ``players``
    new accounts seated in it, the first its host; names unique per run, since a
    database may hold older runs."""
    stamp = f"{os.getpid()}t{int(time.time())}"
    users = [accounts.sign_up(db, f"b{stamp}u{i}", f"b{stamp}u{i}@example.org", PASSWORD,
                              now) for i in range(1, players + 1)]
    game = games.create_game(db, users[0], game="spyvsspy", title=title,
                             options={"base_choice": "random"},
                             schedule={"interval_hours": 48}, max_seats=None, now=now)
    seats = [games.join_game(db, user, game.id, name=f"Bench Brotherhood {i:04d}",
                             player=user.username, show_email=False, now=now)
             for i, user in enumerate(users, start=1)]
    return game, users, seats


def prepare_in_child(script: str, brotherhoods: int, humans: int, bot: str,
                     database_url: str) -> dict[str, Any] | None:
    """Run ``script --prepare`` in a child process (so its memory and caches are not the
    measuring process's) and return the JSON of its last line; ``None`` after printing
    its output when it failed."""
    child = subprocess.run(
        [sys.executable, script, "--prepare", "--brotherhoods", str(brotherhoods),
         "--humans", str(humans), "--bot", bot, "--db", database_url],
        capture_output=True, text=True, check=False)
    if child.returncode != 0:
        print(child.stdout[-2000:], child.stderr[-4000:], file=sys.stderr)
        return None
    made: dict[str, Any] = json.loads(child.stdout.strip().splitlines()[-1])
    return made


def add_bots_and_start(db: Session, game: Game, host: User, *, first: int, last: int,
                       bot: str, name: str, now: datetime, settings: Settings) -> datetime:
    """Seats ``first``..``last`` as computer players (``bot``), inserted in bulk as
    ``games.add_bot`` inserts one and named ``name`` with the seat's number, then the
    game started (its bots' first orders given). Returns its first deadline;
    ``RuntimeError`` if it did not start."""
    db.add_all(SeatRow(game_id=game.id, seat_id=f"s{position}", position=position,
                       user_id=None, bot=bot, name=f"{name} {position:04d}",
                       player=f"Computer ({bot})", public_email=None, setup={},
                       created_at=now)
               for position in range(first, last + 1))
    db.flush()
    started = games.start_game(db, host, game.id, now, settings=settings)
    if started.deadline is None or started.status != "running":
        raise RuntimeError(f"the game did not start: {started.status}")
    return started.deadline
