"""Times as each reader reads them: one ``<time>`` element per moment, in the reader's
time zone, with the UTC time on hover; deadlines also as "in 2 h 14 min".

The account's ``users.time_zone`` (an IANA name) is applied on the server; without one
(``NULL``, and for visitors) the server writes UTC, labelled, and marks the element
``data-local`` so ``static/app.js`` rewrites it in the browser's own zone
(``Intl.DateTimeFormat``). Without script the page still reads right: UTC, said so.
Every template prints a moment through ``when`` (the ``<time>``) and a deadline's
distance through ``countdown`` (kept up by the page's countdown script), so no page has
its own format.
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

#: The one format of a moment, the same as the script's (``app.js``, ``formatMoment``).
FORMAT = "%a %d %b %Y %H:%M"
#: The countdown once the deadline has passed (the script says the same).
PASSED = "processing…"


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this machine knows (the system's data, else ``tzdata``),
    sorted: the account page's choices and the only names a setting may hold."""
    return tuple(sorted(name for name in zoneinfo.available_timezones()
                        if "/" in name or name == "UTC"))


def valid_zone(name: str | None) -> str | None:
    """``name`` when it is a known zone, else ``None`` (the browser's zone)."""
    name = (name or "").strip()
    return name if name and name in set(zone_names()) else None


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of a stored name, ``None`` for none or one this machine no longer knows."""
    if not name:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def _aware(value: datetime) -> datetime:
    """Stored times are UTC; SQLite gives them back naive."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utc_text(value: datetime | None) -> str:
    """A moment in UTC, labelled: the hover text, and the text without a zone."""
    return "" if value is None else _aware(value).strftime(FORMAT) + " UTC"


def local_text(value: datetime, zone: zoneinfo.ZoneInfo) -> str:
    """A moment in ``zone``, with the zone's abbreviation (CET, NZDT) or offset."""
    moment = _aware(value).astimezone(zone)
    label = moment.strftime("%Z") or moment.strftime("%z")
    return f"{moment.strftime(FORMAT)} {label}"


def iso_utc(value: datetime | None) -> str:
    """The machine-readable moment of ``<time datetime>``: UTC, ``Z``."""
    return "" if value is None else _aware(value).strftime("%Y-%m-%dT%H:%M:%SZ")


def time_html(value: datetime | None, zone_name: str | None) -> Markup:
    """``<time datetime="…Z" title="… UTC">`` in ``zone_name``'s time, or in UTC marked
    for the browser's zone (``data-local``) when the reader has chosen none."""
    if value is None:
        return Markup("")
    zone = zone_of(zone_name)
    utc = utc_text(value)
    if zone is None:
        return Markup('<time datetime="{}" title="{}" data-local="1">{}</time>').format(
            iso_utc(value), utc, utc)
    return Markup('<time datetime="{}" title="{}">{}</time>').format(
        iso_utc(value), utc, local_text(value, zone))


def left_text(left: timedelta) -> str:
    """A deadline's distance as a reader says it: "in 2 h 14 min", "in 3 d 4 h",
    "in 5 min 12 s" (the same words as the countdown script's)."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return PASSED
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"in {days} d {hours} h"
    if hours:
        return f"in {hours} h {minutes} min"
    if minutes:
        return f"in {minutes} min {secs} s"
    return f"in {secs} s"


def countdown_html(deadline: datetime | None, now: datetime, tag: str = "span") -> Markup:
    """The deadline's distance at page time, in an element the countdown script keeps up."""
    if deadline is None:
        return Markup("")
    return Markup('<{} class="countdown" data-deadline="{}">{}</{}>').format(
        Markup(tag), iso_utc(deadline), left_text(_aware(deadline) - _aware(now)), Markup(tag))


def _reader_zone(context: Context) -> str | None:
    user = context.get("user")
    return getattr(user, "time_zone", None)


@pass_context
def when_filter(context: Context, value: datetime | None) -> Markup:
    """``{{ moment | when }}``: the moment's ``<time>`` in the reader's zone."""
    return time_html(value, _reader_zone(context))


@pass_context
def countdown_global(context: Context, deadline: datetime | None, tag: str = "span") -> Markup:
    """``{{ countdown(game.deadline) }}``: "in 2 h 14 min", from the page's ``now``."""
    now = context.get("now")
    if not isinstance(now, datetime):
        now = datetime.now(UTC)
    return countdown_html(deadline, now, tag)


def install(env: Any) -> None:
    """The filters and globals of times, on a Jinja environment."""
    env.filters["when"] = when_filter
    env.filters["utc"] = utc_text
    env.globals["countdown"] = countdown_global
    env.globals["time_zones"] = zone_names


__all__ = ["PASSED", "countdown_html", "install", "left_text", "time_html", "utc_text",
           "valid_zone", "zone_names", "zone_of"]

