"""The deadline processor: ``run_once`` processes every due turn and sends due mail;
``run_forever`` repeats it. Run several against one PostgreSQL database."""

from spyhouse.worker.loop import run_forever, run_once

__all__ = ["run_forever", "run_once"]
