"""The in-process worker of ``spyhouse serve``: a daemon thread running the worker loop.

``spyhouse.worker.run_forever`` processes due turns, ends spent pauses and sends
the outbox every ``settings.worker_interval_s`` seconds (at once again after a
round that did work); ``stop()`` ends it and waits for the thread.
"""

from __future__ import annotations

import threading

from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import Clock
from spyhouse.mail.outbox import Mailer, mailer_for
from spyhouse.settings import Settings
from spyhouse.worker import run_forever, run_once


class WorkerThread:
    def __init__(self, factory: sessionmaker[Session], clock: Clock, settings: Settings,
                 mailer: Mailer | None = None) -> None:
        self.factory = factory
        self.clock = clock
        self.settings = settings
        self.mailer = mailer or mailer_for(settings)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_pass(self) -> int:
        """One round of the worker (turns processed + mails sent)."""
        return run_once(self.factory, self.clock, self.settings, self.mailer)

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=run_forever, args=(self.factory, self.clock, self.settings, self.mailer),
            kwargs={"stop": self._stop}, name="spyhouse-worker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
