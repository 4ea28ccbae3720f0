"""Deadline schedules: pure functions of (schedule, start or last deadline, time).

A schedule is a platform setting of each game, never a rules option (the rules
read no clock; spec §2 "Decision"). Three forms, stored as JSON in
``games.schedule``:

- ``{"weekly": {"weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}}``:
  a wall-clock time in an IANA zone, so deadlines follow the zone's daylight
  saving (Wednesday 20:00 in Auckland is 07:00 UTC in summer, 08:00 in winter);
- ``{"interval_hours": n}``: the start + k·n hours, k = 1, 2, …;
- ``"all_submitted"``: no deadline; a turn is due once every awaited seat has marked
  its orders final (a saved draft waits).

First deadline: the first scheduled time at least 24 h after the start (players
need time to read their secrets). Each later deadline: the first scheduled time
strictly after the previous deadline, so a worker that was down catches up one
missed deadline at a time and the weekly rhythm never drifts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FIRST_DEADLINE_GAP = timedelta(hours=24)
MAX_INTERVAL_HOURS = 24 * 28
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class ScheduleError(ValueError):
    """A schedule that cannot be used; the message is for the host's form."""


@dataclass(frozen=True, slots=True)
class Weekly:
    weekday: int  # Monday = 0, as ``date.weekday()``
    at: time
    zone: str

    def to_json(self) -> dict[str, Any]:
        return {"weekly": {"weekday": WEEKDAYS[self.weekday],
                           "time": self.at.strftime("%H:%M"), "zone": self.zone}}


@dataclass(frozen=True, slots=True)
class Interval:
    hours: int

    def to_json(self) -> dict[str, Any]:
        return {"interval_hours": self.hours}


@dataclass(frozen=True, slots=True)
class AllSubmitted:
    def to_json(self) -> str:
        return "all_submitted"


Schedule = Weekly | Interval | AllSubmitted


def parse_schedule(data: Any) -> Schedule:
    """A typed schedule from its JSON form; ``ScheduleError`` says what is wrong."""
    if data == "all_submitted":
        return AllSubmitted()
    if not isinstance(data, dict) or len(data) != 1:
        raise ScheduleError('a schedule is {"weekly": {...}}, {"interval_hours": n} '
                            'or "all_submitted"')
    if "interval_hours" in data:
        hours = data["interval_hours"]
        if not isinstance(hours, int) or isinstance(hours, bool) or not (
                1 <= hours <= MAX_INTERVAL_HOURS):
            raise ScheduleError(f"interval_hours must be a whole number from 1 to "
                                f"{MAX_INTERVAL_HOURS}")
        return Interval(hours)
    weekly = data.get("weekly")
    if not isinstance(weekly, dict) or set(weekly) != {"weekday", "time", "zone"}:
        raise ScheduleError("a weekly schedule needs exactly weekday, time and zone")
    day = weekly["weekday"]
    names = [name.casefold() for name in WEEKDAYS]
    if not isinstance(day, str) or day.strip().casefold() not in names:
        raise ScheduleError(f"unknown weekday {day!r}: use an English day name")
    clock = weekly["time"]
    match = _TIME.match(clock.strip()) if isinstance(clock, str) else None
    if match is None:
        raise ScheduleError(f"time {clock!r} must be 24-hour HH:MM")
    zone = weekly["zone"]
    if not isinstance(zone, str) or not zone.strip():
        raise ScheduleError("zone must be an IANA time zone name such as Pacific/Auckland")
    try:
        ZoneInfo(zone.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"unknown time zone {zone!r}") from None
    return Weekly(names.index(day.strip().casefold()),
                  time(int(match.group(1)), int(match.group(2))), zone.strip())


def normalize(data: Any) -> Any:
    """The schedule's canonical JSON (day names capitalised, "H:MM" padded)."""
    return parse_schedule(data).to_json()


def _weekly_at_or_after(schedule: Weekly, threshold: datetime, *, strict: bool) -> datetime:
    """The first weekly time ≥ ``threshold`` (> when ``strict``), as aware UTC.

    Candidates are built in the zone's wall clock day by day, so a daylight saving
    change between two deadlines moves the UTC instant, not the local time. A time
    that falls in a spring-forward gap resolves as zoneinfo reads it (fold=0: the
    offset before the change), i.e. one hour later on the wall clock.
    """
    zone = ZoneInfo(schedule.zone)
    local = threshold.astimezone(zone)
    start: date = local.date() - timedelta(days=1)
    for offset in range(9):
        day = start + timedelta(days=offset)
        if day.weekday() != schedule.weekday:
            continue
        candidate = datetime.combine(day, schedule.at, tzinfo=zone).astimezone(UTC)
        if candidate > threshold or (not strict and candidate == threshold):
            return candidate
    raise AssertionError("unreachable: a weekday recurs within 9 days")  # pragma: no cover


def _interval_after(schedule: Interval, anchor: datetime, threshold: datetime,
                    *, strict: bool) -> datetime:
    """The first ``anchor + k·n h`` (k ≥ 1) that is ≥ ``threshold`` (> when ``strict``)."""
    step = timedelta(hours=schedule.hours)
    k = max(1, -(-(threshold - anchor) // step))  # ceiling division of timedeltas
    candidate = anchor + k * step
    if strict and candidate <= threshold:
        candidate += step
    return candidate.astimezone(UTC)


def first_deadline(schedule: Schedule, started_at: datetime) -> datetime | None:
    """The first scheduled time at least 24 h after ``started_at`` (spec §2); ``None``
    for ``all_submitted``."""
    threshold = started_at + FIRST_DEADLINE_GAP
    if isinstance(schedule, Weekly):
        return _weekly_at_or_after(schedule, threshold, strict=False)
    if isinstance(schedule, Interval):
        return _interval_after(schedule, started_at, threshold, strict=False)
    return None


def next_deadline(schedule: Schedule, started_at: datetime,
                  previous: datetime | None) -> datetime | None:
    """The first scheduled time strictly after ``previous`` (the deadline that closed
    the last turn); ``None`` for ``all_submitted``. Without a previous deadline (the
    host made an ``all_submitted``-style close) the first deadline rule applies."""
    if isinstance(schedule, AllSubmitted):
        return None
    if previous is None:
        return first_deadline(schedule, started_at)
    if isinstance(schedule, Weekly):
        return _weekly_at_or_after(schedule, previous, strict=True)
    return _interval_after(schedule, started_at, previous, strict=True)


def describe(schedule: Schedule) -> str:
    """One line for pages: "every Wednesday at 20:00 (Pacific/Auckland)"."""
    if isinstance(schedule, Weekly):
        return (f"every {WEEKDAYS[schedule.weekday]} at {schedule.at.strftime('%H:%M')} "
                f"({schedule.zone})")
    if isinstance(schedule, Interval):
        return f"every {schedule.hours} hours" if schedule.hours != 1 else "every hour"
    return "as soon as every player has marked their orders final"
