"""The worker loop: end spent pauses, process due turns, let the computer players
give their next orders, queue the deadline reminders (``service/reminders.py``),
deliver mail, sleep, repeat.

Each game's turn is processed in its own transaction, so one game's failure (a
bug, a lost connection) rolls back that game alone, is logged, and is tried
again on the next round; other games go on. A round processes at most one
entry per game, so a worker that was down catches up on missed deadlines one
entry per round, each with its own snapshots and mail, until none is due.
Several workers may run against one PostgreSQL database: the game row claim
(``FOR UPDATE SKIP LOCKED``) and the outbox lease keep every turn and every
mail to one worker.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import Clock
from spyhouse.mail.outbox import Mailer, deliver_pending
from spyhouse.service import games, reminders, turns
from spyhouse.settings import Settings
from spyhouse.store.db import transaction

log = logging.getLogger("spyhouse.worker")


def run_once(factory: sessionmaker[Session], clock: Clock, settings: Settings,
             mailer: Mailer) -> int:
    """One round; returns the number of turns processed plus mails sent."""
    now = clock.now()
    with transaction(factory) as db:
        paused = games.paused_games_due(db, now)
    for game_id in paused:
        try:
            with transaction(factory) as db:
                games.end_expired_pause(db, game_id, now, settings=settings)
        except Exception:
            log.exception("ending the pause of game %d failed; will retry", game_id)
    with transaction(factory) as db:
        due = turns.due_games(db, now)
    done = 0
    for game_id in due:
        try:
            with transaction(factory) as db:
                if turns.process_turn(db, game_id, now, settings=settings):
                    done += 1
                    log.info("game %d: turn processed", game_id)
        except Exception:
            log.exception("processing game %d failed; rolled back, will retry", game_id)
    move_bots(factory, clock)
    try:
        reminders.send_reminders(factory, clock.now(), settings)
    except Exception:
        log.exception("deadline reminders failed; will retry")
    try:
        done += deliver_pending(factory, mailer, clock.now(), settings)
    except Exception:
        log.exception("mail delivery failed; will retry")
    return done


def move_bots(factory: sessionmaker[Session], clock: Clock) -> None:
    """Every computer player awaited without orders gets them, each game in its own
    transaction (after a turn, or one a crash left without them)."""
    with transaction(factory) as db:
        waiting = turns.games_awaiting_bots(db)
    for game_id in waiting:
        try:
            with transaction(factory) as db:
                moved = turns.move_bots(db, game_id, clock.now())
            if moved:
                log.info("game %d: %d computer players gave their orders", game_id, moved)
        except Exception:
            log.exception("computer players of game %d failed; rolled back, will retry",
                          game_id)


def run_forever(factory: sessionmaker[Session], clock: Clock, settings: Settings,
                mailer: Mailer, *, stop: threading.Event | None = None) -> None:
    """Rounds every ``settings.worker_interval_s`` seconds until ``stop`` is set; a
    round that did work is followed at once by another (catching up)."""
    stop = stop or threading.Event()
    log.info("worker started (every %.1f s)", settings.worker_interval_s)
    while not stop.is_set():
        try:
            busy = run_once(factory, clock, settings, mailer) > 0
        except Exception:  # the database is unreachable: wait and try again
            log.exception("worker round failed")
            busy = False
        if not busy:
            stop.wait(settings.worker_interval_s)
    log.info("worker stopped")
