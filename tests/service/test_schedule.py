"""Deadline schedules (service/schedule.py): spec §2 "Decision"s on schedules and the
first deadline; Pacific/Auckland daylight saving."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core import registry
from spyhouse.service import schedule as s

AUCKLAND = {"weekly": {"weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}}


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_spy_vs_spy_default_is_wednesday_8pm_new_zealand_time() -> None:
    default = registry.get("spyvsspy").spec.default_schedule
    assert s.normalize(default) == AUCKLAND
    assert s.describe(s.parse_schedule(default)) == \
        "every Wednesday at 20:00 (Pacific/Auckland)"


@pytest.mark.parametrize("data, canonical", [
    ("all_submitted", "all_submitted"),
    ({"interval_hours": 24}, {"interval_hours": 24}),
    ({"weekly": {"weekday": " wednesday", "time": "8:05", "zone": "Europe/Paris"}},
     {"weekly": {"weekday": "Wednesday", "time": "08:05", "zone": "Europe/Paris"}}),
])
def test_the_three_forms_normalise(data: Any, canonical: Any) -> None:
    assert s.normalize(data) == canonical


@pytest.mark.parametrize("data, message", [
    ("weekly", "a schedule is"),
    ({"interval_hours": 0}, "interval_hours must be a whole number"),
    ({"interval_hours": True}, "interval_hours must be a whole number"),
    ({"interval_hours": 1.5}, "interval_hours must be a whole number"),
    ({"weekly": {"weekday": "Wed", "time": "20:00", "zone": "UTC"}}, "unknown weekday"),
    ({"weekly": {"weekday": "Monday", "time": "24:00", "zone": "UTC"}}, "must be 24-hour"),
    ({"weekly": {"weekday": "Monday", "time": "20:00", "zone": "Mars/Olympus"}},
     "unknown time zone"),
    ({"weekly": {"weekday": "Monday", "time": "20:00"}}, "needs exactly"),
    ({"weekly": {}, "interval_hours": 2}, "a schedule is"),
])
def test_bad_schedules_are_refused_with_a_reason(data: Any, message: str) -> None:
    with pytest.raises(s.ScheduleError, match=message):
        s.parse_schedule(data)


def test_first_weekly_deadline_is_at_least_24_hours_after_the_start() -> None:
    """Wednesday 2 December 2026, 20:00 NZDT is 07:00 UTC. A start 25 h before gets
    it; a start 23.5 h before waits a week (spec §2, first deadline Decision)."""
    plan = s.parse_schedule(AUCKLAND)
    assert s.first_deadline(plan, utc(2026, 12, 1, 6, 0)) == utc(2026, 12, 2, 7, 0)
    assert s.first_deadline(plan, utc(2026, 12, 1, 7, 0)) == utc(2026, 12, 2, 7, 0)
    assert s.first_deadline(plan, utc(2026, 12, 1, 7, 30)) == utc(2026, 12, 9, 7, 0)


def test_weekly_deadlines_follow_new_zealand_daylight_saving() -> None:
    """NZ summer time ends on Sunday 4 April 2027 (UTC+13 -> +12) and starts on
    Sunday 27 September 2026 (+12 -> +13): 20:00 local stays 20:00 local."""
    plan = s.parse_schedule(AUCKLAND)
    before_end = utc(2027, 3, 31, 7, 0)  # Wednesday 31 March, 20:00 NZDT
    after_end = s.next_deadline(plan, utc(2027, 1, 1), before_end)
    assert after_end == utc(2027, 4, 7, 8, 0)  # Wednesday 7 April, 20:00 NZST
    assert after_end - before_end == timedelta(days=7, hours=1)
    before_start = utc(2026, 9, 23, 8, 0)  # Wednesday 23 September, 20:00 NZST
    after_start = s.next_deadline(plan, utc(2026, 9, 1), before_start)
    assert after_start == utc(2026, 9, 30, 7, 0)  # Wednesday 30 September, 20:00 NZDT
    assert after_start - before_start == timedelta(days=6, hours=23)


def test_next_weekly_deadline_is_strictly_after_the_previous_one() -> None:
    plan = s.parse_schedule(AUCKLAND)
    previous = utc(2026, 12, 2, 7, 0)
    assert s.next_deadline(plan, utc(2026, 11, 30), previous) == utc(2026, 12, 9, 7, 0)
    extended = previous + timedelta(hours=30)  # the host extended it to Thursday
    assert s.next_deadline(plan, utc(2026, 11, 30), extended) == utc(2026, 12, 9, 7, 0)


def test_a_wall_time_in_the_spring_forward_gap_still_gives_one_deadline() -> None:
    """02:30 does not exist in Auckland on Sunday 27 September 2026: the deadline is
    the instant zoneinfo gives it (the offset before the change), 03:30 on the clock."""
    plan = s.parse_schedule({"weekly": {"weekday": "Sunday", "time": "02:30",
                                        "zone": "Pacific/Auckland"}})
    previous = utc(2026, 9, 19, 14, 30)  # Sunday 20 September, 02:30 NZST
    deadline = s.next_deadline(plan, utc(2026, 9, 1), previous)
    assert deadline == utc(2026, 9, 26, 14, 30)
    assert deadline.astimezone(ZoneInfo("Pacific/Auckland")).strftime("%H:%M") == "03:30"


@pytest.mark.parametrize("hours, first", [(1, 24), (5, 25), (24, 24), (48, 48), (7, 28)])
def test_interval_first_deadline_is_the_first_multiple_at_least_24h_on(hours: int,
                                                                      first: int) -> None:
    start = utc(2026, 11, 30, 12, 0)
    plan = s.parse_schedule({"interval_hours": hours})
    assert s.first_deadline(plan, start) == start + timedelta(hours=first)


def test_interval_next_deadline_is_the_next_multiple_after_the_previous() -> None:
    start = utc(2026, 11, 30, 12, 0)
    plan = s.parse_schedule({"interval_hours": 5})
    assert s.next_deadline(plan, start, start + timedelta(hours=25)) == \
        start + timedelta(hours=30)
    # an extension of 2 h moves the turn off the grid; the next is back on it
    assert s.next_deadline(plan, start, start + timedelta(hours=27)) == \
        start + timedelta(hours=30)
    assert s.next_deadline(plan, start, None) == start + timedelta(hours=25)
    assert s.describe(plan) == "every 5 hours"
    assert s.describe(s.parse_schedule({"interval_hours": 1})) == "every hour"


def test_all_submitted_has_no_deadline() -> None:
    plan = s.parse_schedule("all_submitted")
    assert s.first_deadline(plan, utc(2026, 1, 1)) is None
    assert s.next_deadline(plan, utc(2026, 1, 1), utc(2026, 1, 2)) is None
    assert s.describe(plan) == "as soon as every player has marked their orders final"


ZONES = ("Pacific/Auckland", "Europe/London", "America/New_York", "Australia/Lord_Howe",
         "Asia/Kolkata", "UTC", "America/Sao_Paulo")


@settings(max_examples=200, deadline=None)
@given(weekday=st.integers(0, 6), hour=st.integers(0, 23), minute=st.integers(0, 59),
       zone=st.sampled_from(ZONES),
       previous=st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 1, 1),
                             timezones=st.just(UTC)))
def test_weekly_deadlines_keep_the_local_day_and_time_across_any_change(
        weekday: int, hour: int, minute: int, zone: str, previous: datetime) -> None:
    """Property: the next weekly deadline is after the previous one, within a week and
    the largest DST shift, and falls on the schedule's weekday and wall time (or, in
    a spring-forward gap, on the first wall time after it)."""
    plan = s.Weekly(weekday, time(hour, minute), zone)
    deadline = s.next_deadline(plan, previous, previous)
    assert deadline is not None
    assert previous < deadline <= previous + timedelta(days=7, hours=2)
    local = deadline.astimezone(ZoneInfo(zone))
    if (local.hour, local.minute) == (hour, minute):
        assert local.weekday() == weekday
    else:  # the wall time did not exist that day: one gap later on the clock
        gap = datetime.combine(local.date(), time(hour, minute))
        assert timedelta(0) < local.replace(tzinfo=None) - gap <= timedelta(hours=1)
    first = s.first_deadline(plan, previous)
    assert first is not None
    assert previous + timedelta(hours=24) <= first <= previous + timedelta(days=8, hours=2)
