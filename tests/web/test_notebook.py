"""The player's notebook (issue 14 item 7): ``GET /games/{id}/notebook`` for the seat's
holder only, built by the game's pure builder from that seat's own stored views."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.core import registry
from spyhouse.service import play
from spyhouse.store.tables import SeatRow
from tests.web.helpers import Browser


def _quick(browser: Browser, game: str) -> int:
    response = browser.post("/games/quick", {"game": game})
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    return int(match.group(1))


def _hunt_and_search(game_id: int) -> dict[str, str]:
    """Spy vs Spy orders: HUNT, SEARCH and WORK, so the notebook has evidence to read."""
    fields = {"entry": "", "ready": "1"}
    tasks = ["HUNT", "SEARCH", "HUNT", "SEARCH"]
    for n in range(1, 10):
        task = tasks[n % 4] if n > 1 else "WORK"
        fields[f"spy-{n}-task"] = task
        fields[f"spy-{n}-region"] = "ABCDEFGHI"[n - 1]
    return fields


def _play_turns(browser: Browser, game_id: int, turns: int) -> int:
    """Up to ``turns`` turns against the computer (fewer once the game is over): how many."""
    for played in range(turns):
        response = browser.post(f"/games/{game_id}/orders", _hunt_and_search(game_id))
        if response.status_code == 409 and "the game is over" in response.text:
            return played
        assert response.status_code == 303, response.text
    return turns


def _own_seat(sessions: sessionmaker[Session], game_id: int, seat_id: str = "s1") -> SeatRow:
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        db.expunge(seat)
        return seat


def test_spy_vs_spy_notebook_after_turns(alice: Browser) -> None:
    game_id = _quick(alice, "spyvsspy")
    seat_page = alice.get(f"/games/{game_id}/seat").text
    assert f'href="/games/{game_id}/notebook" id="notebook-link"' in seat_page
    assert _play_turns(alice, game_id, 3) >= 1
    page = alice.get(f"/games/{game_id}/notebook")
    assert page.status_code == 200
    html = page.text
    assert "Notebook of" in html and 'id="nb-summary"' in html
    assert "Rival brotherhoods" in html
    # the HUNT and SEARCH results are among the evidence read
    assert re.search(r"Turn [123]: spy #\d+ (HUNT|SEARCH) [A-I]", html)


def test_infiltration_notebook(alice: Browser) -> None:
    game_id = _quick(alice, "infiltration")
    page = alice.get(f"/games/{game_id}/notebook")
    assert page.status_code == 200
    assert "Known roles" in page.text and "your own team" in page.text
    assert 'id="nb-code"' in page.text and "Who was where" in page.text
    seat_page = alice.get(f"/games/{game_id}/seat").text
    assert f'href="/games/{game_id}/notebook" id="notebook-link"' in seat_page


@pytest.mark.parametrize("game", ["spyvsspy", "infiltration"])
def test_only_the_seats_holder_reads_it(alice: Browser, bob: Browser, anon: Browser,
                                        game: str) -> None:
    game_id = _quick(alice, game)
    assert alice.get(f"/games/{game_id}/notebook").status_code == 200
    assert bob.get(f"/games/{game_id}/notebook").status_code == 404
    assert anon.get(f"/games/{game_id}/notebook").status_code in (303, 401, 404)


def test_a_game_without_a_notebook_answers_404(alice: Browser) -> None:
    assert registry.plugin("kingdoms").pages.notebook_template is None
    game_id = _quick(alice, "kingdoms")
    assert alice.get(f"/games/{game_id}/notebook").status_code == 404


def _spy_on_reads(monkeypatch: pytest.MonkeyPatch, game: str
                  ) -> list[list[dict[str, Any]]]:
    """Every batch of views the game's ``notebook_read`` is handed, as it is handed."""
    pages = registry.plugin(game).pages
    received: list[list[dict[str, Any]]] = []
    original = type(pages).notebook_read

    def spy(self: Any, notes: Any, views: Sequence[Mapping[str, Any]]) -> Any:
        received.append([dict(view) for view in views])
        return original(self, notes, views)

    monkeypatch.setattr(type(pages), "notebook_read", spy)
    return received


def _reports(sessions: sessionmaker[Session], game_id: int, first: int = 0
             ) -> list[dict[str, Any]]:
    """Seat s1's reports after entries ``first``..now, as its report pages show them."""
    seat = _own_seat(sessions, game_id)
    with sessions() as db:
        seat = db.merge(seat)
        return [play.report(db, seat, n) for n in range(first, seat.game_row.entry + 1)]


@pytest.mark.parametrize("game", ["spyvsspy", "infiltration"])
def test_the_reader_gets_exactly_the_seats_own_views(
        alice: Browser, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch,
        game: str) -> None:
    """The platform hands the game's reader the seat's views after entries 0..N, as its
    reports show them (nothing of another seat, no host view, no mailed-only key)."""
    game_id = _quick(alice, game)
    if game == "spyvsspy":
        _play_turns(alice, game_id, 2)
    received = _spy_on_reads(monkeypatch, game)
    assert alice.get(f"/games/{game_id}/notebook").status_code == 200
    assert received == [_reports(sessions, game_id)]
    hidden = registry.get(game).mailed_only_keys
    assert all(not hidden & set(view) for view in received[0])


def test_a_new_turn_reads_only_its_own_view(
        alice: Browser, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """The notes are kept between requests: a reload reads nothing, a new turn one view."""
    game_id = _quick(alice, "spyvsspy")
    received = _spy_on_reads(monkeypatch, "spyvsspy")
    assert alice.get(f"/games/{game_id}/notebook").status_code == 200
    assert alice.get(f"/games/{game_id}/notebook").status_code == 200
    assert len(received) == 1
    assert _play_turns(alice, game_id, 1) == 1
    page = alice.get(f"/games/{game_id}/notebook")
    assert page.status_code == 200
    assert received[1:] == [_reports(sessions, game_id, first=1)]
    assert "Turn 1: spy #" in page.text
