"""The clock, injected: rules never read it; services, the worker and pages get one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock for tests: it stands still until moved."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when
