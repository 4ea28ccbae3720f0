"""First come, first served per game in the process: the writers of one game queue here.

``hold(db, game_id)`` is taken before the database lock (``records.lock_game``) by a
use case that writes to a game (``play.submit_orders``); it is kept until the
session's transaction ends (commit or rollback, where the database lock ends too), so
the requests of one game in this process reach the database one at a time, in the
order they arrived, instead of all waiting inside the database (SQLite's busy timeout
polls and serves whoever polls first). Different games never wait for each other
here. The lock is only an order of service, never a guarantee: the database lock is
what keeps a change correct (several processes share one database), so a writer that
waited ``WAIT_S`` goes on to the database lock without it.
"""

from __future__ import annotations

import itertools
import logging
import threading
import weakref
from collections import deque
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

log = logging.getLogger("spyhouse.service")

#: How long a writer queues behind the others of its game before it goes on to the
#: database lock without its turn (the old behaviour): a session that holds a game and
#: is never ended must not stall the game's other writers for long.
WAIT_S = 5.0

_HELD = "spyhouse.gamelocks.held"


class FairLock:
    """A lock handed to its waiters in arrival order (``threading.Lock`` is not fair).
    It is not tied to a thread: a request may end its transaction on another thread of
    the pool than the one that acquired it."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._waiters: deque[threading.Event] = deque()

    def acquire(self, timeout: float) -> bool:
        """Take the lock after those that asked before; ``False`` after ``timeout`` s."""
        with self._mutex:
            if not self._held and not self._waiters:
                self._held = True
                return True
            ticket = threading.Event()
            self._waiters.append(ticket)
        if ticket.wait(timeout):
            return True
        with self._mutex:
            if ticket.is_set():  # handed over just as the wait ended
                return True
            self._waiters.remove(ticket)
            return False

    def release(self) -> None:
        """Hand the lock to the longest waiter, or free it."""
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().set()  # still held: now by that waiter
            else:
                self._held = False

    def waiting(self) -> int:
        with self._mutex:
            return len(self._waiters)


_registry_lock = threading.Lock()
#: (database, game id) -> [its lock, how many sessions hold or wait for it]
_locks: dict[tuple[int, int], list[Any]] = {}
_databases: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_numbers = itertools.count(1)


def database_token(db: Session) -> int:
    """A number for the database ``db`` talks to, unique in this process (one per engine):
    game ids of two databases (e.g. two tests) never meet in a memo or a lock."""
    bind = db.get_bind()
    engine = getattr(bind, "engine", bind)
    with _registry_lock:
        token = _databases.get(engine)
        if token is None:
            token = next(_numbers)
            _databases[engine] = token
        return token


def _lock_for(key: tuple[int, int]) -> FairLock:
    with _registry_lock:
        slot = _locks.get(key)
        if slot is None:
            slot = _locks[key] = [FairLock(), 0]
        slot[1] += 1
        lock: FairLock = slot[0]
        return lock


def _done_with(key: tuple[int, int]) -> None:
    with _registry_lock:
        slot = _locks[key]
        slot[1] -= 1
        if slot[1] == 0:
            del _locks[key]


def hold(db: Session, game_id: int) -> None:
    """Queue for ``game_id`` behind this process's earlier writers of it, and keep it
    until ``db``'s transaction ends. A session that holds the game already goes on."""
    db.connection()  # a transaction whose end releases it (autobegun, as a query would)
    held: dict[tuple[int, int], FairLock | None] = db.info.setdefault(_HELD, {})
    key = (database_token(db), game_id)
    if key in held:
        return
    lock = _lock_for(key)
    if lock.acquire(WAIT_S):
        held[key] = lock
    else:
        log.warning("game %s: waited %.0f s for its earlier writers; going on", game_id, WAIT_S)
        held[key] = None


def waiting(db: Session, game_id: int) -> int:
    """How many writers of ``game_id`` wait in this process (for tests and diagnostics)."""
    key = (database_token(db), game_id)
    with _registry_lock:
        slot = _locks.get(key)
    return 0 if slot is None else slot[0].waiting()


@event.listens_for(Session, "after_transaction_end")
def _release(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is not None:  # a savepoint: the transaction goes on
        return
    held = session.info.pop(_HELD, None)
    if not held:
        return
    for key, lock in held.items():
        if lock is not None:
            lock.release()
        _done_with(key)
