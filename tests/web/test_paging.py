"""Long tables a page at a time (``web.render.Pager``, ``templates/_pager.html``): page 2
holds rows 201-400, the links keep the other query values, rows kept on every page stay,
``?rows=all`` shows everything, and a table of at most a page is shown as it always was.
The game page and the host page of a game with more seats than a page, through the app."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request

from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.web.render import PAGE_ROWS, Pager
from tests.web.helpers import Browser

NOW = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)


def request(path: str = "/games/7/report", query: str = "") -> Request:
    return Request({"type": "http", "method": "GET", "path": path,
                    "query_string": query.encode(), "headers": []})


def test_a_short_table_is_whole_and_has_no_links() -> None:
    rows = list(range(PAGE_ROWS))
    page = Pager(request(query="rows=2"))(rows)
    assert page.rows == rows and not page.paged and page.links == []
    assert page.first == 1 and page.last == PAGE_ROWS


def test_page_two_holds_rows_201_to_400_and_links_keep_the_query() -> None:
    rows = [f"row {n}" for n in range(1, 451)]
    page = Pager(request(query="entry=1&rows=2"))(rows, anchor="t-pages")
    assert page.paged and page.number == 2 and page.total == 450
    assert page.rows == [f"row {n}" for n in range(201, 401)]
    assert (page.first, page.last) == (201, 400)
    assert [link.label for link in page.links] == ["1–200", "201–400", "401–450"]
    assert [link.current for link in page.links] == [False, True, False]
    assert page.links[2].href == "/games/7/report?entry=1&rows=3#t-pages"
    assert page.previous == "/games/7/report?entry=1&rows=1#t-pages"
    assert page.next == "/games/7/report?entry=1&rows=3#t-pages"
    assert page.all_href == "/games/7/report?entry=1&rows=all#t-pages"
    last = Pager(request(query="rows=3"))(rows)
    assert last.rows == rows[400:] and last.next is None and (last.first, last.last) == (401, 450)


def test_all_rows_and_unknown_pages() -> None:
    rows = list(range(1, 451))
    everything = Pager(request(query="rows=all"))(rows)
    assert everything.everything and everything.rows == rows
    assert everything.previous is None and everything.next is None
    assert not any(link.current for link in everything.links)
    for query in ("", "rows=0", "rows=x", "rows=-1"):
        assert Pager(request(query=query))(rows).rows == rows[:PAGE_ROWS], query
    assert Pager(request(query="rows=99"))(rows).rows == rows[400:]  # the last page
    other = Pager(request(query="rows=2"))(rows, param="places")  # another table's param
    assert other.number == 1


def test_kept_rows_are_on_every_page_in_their_place() -> None:
    rows: list[dict[str, Any]] = ([{"kind": "b", "n": n} for n in range(1, 301)]
                                  + [{"kind": "task", "n": n} for n in range(3)]
                                  + [{"kind": "b", "n": n} for n in range(301, 451)])
    page = Pager(request(query="rows=2"))(rows, keep=lambda row: row["kind"] == "task")
    assert page.total == 450 and page.kept == 3
    shown = [(row["kind"], row["n"]) for row in page.rows]
    assert shown == ([("b", n) for n in range(201, 301)] + [("task", n) for n in range(3)]
                     + [("b", n) for n in range(301, 401)])
    third = Pager(request(query="rows=3"))(rows, keep=lambda row: row["kind"] == "task")
    assert [row["n"] for row in third.rows if row["kind"] == "task"] == [0, 1, 2]


# ---------------------------------------------------------------- through the app


def _big_open_game(factory: sessionmaker[Session], host: str, seats: int) -> int:
    """An open Spy vs Spy game of ``host`` with ``seats`` computer players."""
    from spyhouse.service import games

    with factory() as db, db.begin():
        user = db.scalar(select(User).where(User.username == host))
        assert user is not None
        game = games.create_game(db, user, game="spyvsspy", title="A big game",
                                 options={"base_choice": "random"},
                                 schedule={"interval_hours": 48}, max_seats=None, now=NOW)
        db.add_all(SeatRow(game_id=game.id, seat_id=f"s{n}", position=n, user_id=None,
                           bot="economist", name=f"Computer {n:04d}", player="Computer",
                           public_email=None, setup={}, created_at=NOW)
                   for n in range(1, seats + 1))
        return game.id


def _rows(html: str) -> list[str]:
    """The first cells of a page's table body rows."""
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    return re.findall(r"<tr><td>[^<]*</td><td>([^<]*)</td>", body)


def test_game_page_of_many_seats_pages_them(alice: Browser, app: FastAPI,
                                            factory: sessionmaker[Session]) -> None:
    game_id = _big_open_game(factory, "alice", 450)
    first = alice.get(f"/games/{game_id}").text
    assert _rows(first) == [f"Computer {n:04d}" for n in range(1, 201)]
    assert 'id="seats-pages"' in first and "Rows 1–200 of 450" in first
    assert f'href="/games/{game_id}?rows=2#seats-pages"' in first
    assert f'href="/games/{game_id}?rows=all#seats-pages">Show all 450</a>' in first
    second = alice.get(f"/games/{game_id}?rows=2").text
    assert _rows(second) == [f"Computer {n:04d}" for n in range(201, 401)]
    assert f'<a href="/games/{game_id}?rows=2#seats-pages" aria-current="page">201–400</a>' \
        in second
    assert "<tr><td>201</td>" in second  # the numbers go on from the page before
    assert len(_rows(alice.get(f"/games/{game_id}?rows=all").text)) == 450


def test_game_page_of_few_seats_is_unchanged(alice: Browser, app: FastAPI,
                                             factory: sessionmaker[Session]) -> None:
    game_id = _big_open_game(factory, "alice", PAGE_ROWS)
    page = alice.get(f"/games/{game_id}").text
    assert len(_rows(page)) == PAGE_ROWS
    assert 'class="pager"' not in page and "rows=" not in page
    assert alice.get(f"/games/{game_id}?rows=2").text == page  # the parameter is ignored


def test_host_page_pages_whose_orders_are_in(alice: Browser, app: FastAPI,
                                             factory: sessionmaker[Session]) -> None:
    """The host page of a running game of 210 seats, its host holding no seat."""
    from spyhouse.service import games

    game_id = _big_open_game(factory, "alice", PAGE_ROWS + 10)
    with factory() as db, db.begin():
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        games.start_game(db, user, game_id, NOW)
        game = db.get(Game, game_id)
        assert game is not None and game.status == "running"
    page = alice.get(f"/games/{game_id}/host?rows=2").text
    section = page.split("<h2>Whose orders are in</h2>")[1].split("</section>")[0]
    assert "final: 210" in section  # the bots' orders are in, counted over every page
    assert 'id="orders-in-pages"' in section and "Rows 201–210 of 210" in section
    names = re.findall(r"<tr><td>(Computer \d+)</td>", section)
    assert names == [f"Computer {n:04d}" for n in range(201, 211)]
    first = alice.get(f"/games/{game_id}/host").text
    assert len(re.findall(r"<tr><td>Computer \d+</td>", first.split(
        "<h2>Whose orders are in</h2>")[1].split("</section>")[0])) == PAGE_ROWS
