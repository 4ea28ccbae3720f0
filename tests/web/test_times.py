"""Times in the reader's zone (issue 14 item 5): every moment a ``<time>`` with its UTC
time on hover, in the account's zone when set, else UTC marked for the browser's zone;
deadlines also as "in 2 h 14 min"; the account's zone setting."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.store.tables import Game, User
from spyhouse.web.times import left_text, time_html, valid_zone, zone_names
from tests.web.helpers import Browser, csrf_of, started_game

DEADLINE = datetime(2026, 12, 2, 17, 30, tzinfo=UTC)


def _deadline_at(factory: sessionmaker[Session], game_id: int, clock: FakeClock) -> None:
    """The game's deadline at 17:30 UTC, the page's time 2 h 14 min before."""
    with factory() as db, db.begin():
        db.execute(update(Game).where(Game.id == game_id).values(deadline=DEADLINE))
    clock.set(DEADLINE - timedelta(hours=2, minutes=14))


def _zone(factory: sessionmaker[Session], username: str) -> str | None:
    with factory() as db:
        return db.scalar(select(User.time_zone).where(User.username == username))


def _deadline_line(html: str) -> str:
    match = re.search(r'<p class="deadline">(.*?)</p>', html, re.S)
    assert match, "no deadline line"
    return match.group(1)


def test_a_reader_in_paris_sees_paris_time_with_utc_on_hover(
        alice: Browser, bob: Browser, factory: sessionmaker[Session],
        clock: FakeClock) -> None:
    game_id = started_game(alice, bob, bots=1)
    page = alice.get("/account").text
    response = alice.post("/account/time-zone", {"time_zone": "Europe/Paris",
                                                 "csrf_token": csrf_of(page)})
    assert response.status_code == 303 and response.headers["location"] == "/account?notice=zone"
    assert _zone(factory, "alice") == "Europe/Paris"
    account = alice.get("/account").text
    assert "<option selected>Europe/Paris</option>" in account
    assert '<html lang="en" data-time-zone="Europe/Paris">' in account  # app.js's zone
    _deadline_at(factory, game_id, clock)
    for path in (f"/games/{game_id}/seat", f"/games/{game_id}", "/lobby"):
        html = alice.get(path).text
        assert ('<time datetime="2026-12-02T17:30:00Z" title="Wed 02 Dec 2026 17:30 UTC">'
                "Wed 02 Dec 2026 18:30 CET</time>") in html, path
        assert ">in 2 h 14 min<" in html, path
    # Bob chose no zone: UTC, labelled, marked for the browser's zone (app.js)
    line = _deadline_line(bob.get(f"/games/{game_id}/seat").text)
    assert ('<time datetime="2026-12-02T17:30:00Z" title="Wed 02 Dec 2026 17:30 UTC" '
            'data-local="1">Wed 02 Dec 2026 17:30 UTC</time>') in line
    assert '<strong class="countdown" data-deadline="2026-12-02T17:30:00Z">in 2 h 14 min' in line


def test_back_to_the_browsers_zone_and_unknown_zones_refused(
        alice: Browser, factory: sessionmaker[Session]) -> None:
    token = csrf_of(alice.get("/account").text)
    assert alice.post("/account/time-zone", {"time_zone": "Asia/Kolkata",
                                             "csrf_token": token}).status_code == 303
    refused = alice.post("/account/time-zone", {"time_zone": "Mars/Olympus",
                                                "csrf_token": token})
    assert refused.status_code == 422 and "unknown time zone" in refused.text
    assert _zone(factory, "alice") == "Asia/Kolkata"  # nothing saved
    assert alice.post("/account/time-zone", {"time_zone": "",
                                             "csrf_token": token}).status_code == 303
    assert _zone(factory, "alice") is None
    assert "<option value=\"\" selected>my browser's time zone</option>" in \
        alice.get("/account").text


@pytest.mark.parametrize(("left", "text"), [
    (timedelta(hours=2, minutes=14, seconds=59), "in 2 h 14 min"),
    (timedelta(days=3, hours=4, minutes=5), "in 3 d 4 h"),
    (timedelta(minutes=5, seconds=12), "in 5 min 12 s"),
    (timedelta(seconds=42), "in 42 s"),
    (timedelta(0), "processing…"),
    (timedelta(seconds=-5), "processing…"),
])
def test_how_long_is_left(left: timedelta, text: str) -> None:
    assert left_text(left) == text


def test_time_element_of_a_naive_stored_time_and_the_zone_list() -> None:
    naive = datetime(2026, 7, 1, 9, 5)  # SQLite gives stored UTC times back naive
    html = str(time_html(naive, "America/New_York"))
    assert html == ('<time datetime="2026-07-01T09:05:00Z" title="Wed 01 Jul 2026 09:05 UTC">'
                    "Wed 01 Jul 2026 05:05 EDT</time>")
    assert str(time_html(None, None)) == ""
    assert "Europe/Paris" in zone_names() and "UTC" in zone_names()
    assert valid_zone(" Europe/Paris ") == "Europe/Paris"
    assert valid_zone("Nowhere/Else") is None and valid_zone("") is None
