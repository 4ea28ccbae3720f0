"""Spy vs Spy's pages of a game of hundreds of brotherhoods: the Brotherhood Report a page
at a time (the brotherhoods' and leaders' rows paged, "Disguised as you" and the task
rows on every page), the order form's brotherhood and leader choices as typed fields with
one shared list of names; a game of a few brotherhoods keeps its selects and whole table.

The seat's stored view is made big by wrapping ``play.current_view`` (450 more
brotherhoods and leaders than the real game has), so the pages are the real routes'."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.games.spyvsspy import ui
from spyhouse.games.spyvsspy.pages import report_row_stays
from spyhouse.service import play
from spyhouse.web.render import PAGE_ROWS
from tests.web.helpers import (
    Browser,
    refused_page,
    run_worker,
    saved_orders,
    started_game,
    work_orders,
)

EXTRA = 450


def _extra_name(n: int) -> str:
    return f"Extra {n:04d}"


def _big(view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` with ``EXTRA`` more surviving brotherhoods (seats x1...) and leaders; its
    Brotherhood Report with a row for each of them instead of the real ones, and its
    other rows ("Disguised as you", the tasks) between them, as in a real report."""
    big = dict(view)
    big["directory"] = [*view["directory"], *(
        {"seat": f"x{n}", "bid": 100 + n, "name": _extra_name(n), "player": "Computer",
         "email": "hidden", "spies": 9, "covertness": 5, "gp": 10, "status": "surviving",
         "eliminated": None} for n in range(1, EXTRA + 1))]
    if "leaders" in view:
        big["leaders"] = [*view["leaders"], *(f"Mr Extra {n:04d}" for n in range(1, EXTRA + 1))]
    table = view.get("table")
    if table:
        cells = {letter: "?" for letter in table["columns"]}
        big["table"] = {"columns": table["columns"], "rows": [
            *({"label": _extra_name(n), "kind": "brotherhood", "cells": cells,
               "seat": f"x{n}", "player": "Computer", "email": "hidden", "spies": 9,
               "covertness": 5, "gp": 10} for n in range(1, EXTRA + 1)),
            *(row for row in table["rows"] if report_row_stays(row)),
            *({"label": f"Mr Extra {n:04d}", "kind": "leader", "cells": cells}
              for n in range(1, EXTRA + 1))]}
    return big


@pytest.fixture
def big_views(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = play.current_view
    monkeypatch.setattr(play, "current_view", lambda db, seat: _big(real(db, seat)))
    yield


def _played_turn(alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock) -> int:
    game_id = started_game(alice, bob, bots=1)
    alice.post(f"/games/{game_id}/orders", {**work_orders(), "ready": "1"})
    bob.post(f"/games/{game_id}/orders", {**work_orders(region="D"), "ready": "1"})
    run_worker(app, clock)
    return game_id


def _report_rows(html: str) -> list[str]:
    table = html.split('id="brotherhood-report"')[1].split("</table>")[0]
    return re.findall(r'<th scope="row">([^<]*)</th>', table)


# ---------------------------------------------------------------- the report


def test_a_big_report_pages_its_rows_and_keeps_the_task_rows(
        alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock, big_views: None) -> None:
    game_id = _played_turn(alice, bob, app, clock)
    first = alice.get(f"/games/{game_id}/report").text
    rows = _report_rows(first)
    kept = [label for label in rows if not label.startswith(("Extra ", "Mr Extra", "Bravo",
                                                               "Computer"))]
    assert "Disguised as you" in kept and "WORK" in kept and "COVERT" in kept
    extra = [label for label in rows if label.startswith("Extra ")]
    assert extra == [_extra_name(n) for n in range(1, PAGE_ROWS + 1)]
    assert not any(label.startswith("Mr Extra") for label in rows)
    total = 2 * EXTRA
    assert f"Brotherhood and leader rows 1–200 of {total}" in first
    assert f"({len(kept)} more on every page)" in first
    nav = first.split('id="brotherhood-report-pages"')[1].split("</nav>")[0]
    assert f'href="/games/{game_id}/report?rows=2#brotherhood-report-pages"' in nav
    assert '>201–400</a>' in nav and f">Show all {total}</a>" in nav
    assert 'aria-current="page">1–200</a>' in nav
    second = alice.get(f"/games/{game_id}/report?rows=2").text
    rows2 = _report_rows(second)
    assert [label for label in rows2 if label.startswith("Extra ")] == [
        _extra_name(n) for n in range(PAGE_ROWS + 1, 2 * PAGE_ROWS + 1)]
    assert [label for label in rows2 if label in kept] == kept  # in their place, every page
    everything = _report_rows(alice.get(f"/games/{game_id}/report?rows=all").text)
    assert len(everything) == total + len(kept)
    # a past report by its path pages alike, and keeps its address in the links
    past = alice.get(f"/games/{game_id}/report/1?rows=3").text
    assert f'href="/games/{game_id}/report/1?rows=2#brotherhood-report-pages"' in past


def test_a_small_report_is_whole_without_links(alice: Browser, bob: Browser, app: FastAPI,
                                               clock: FakeClock) -> None:
    game_id = _played_turn(alice, bob, app, clock)
    page = alice.get(f"/games/{game_id}/report").text
    assert 'class="pager"' not in page and "rows=" not in page
    assert alice.get(f"/games/{game_id}/report?rows=2").text == page


# ---------------------------------------------------------------- the host page


def _big_host(view: Mapping[str, Any]) -> dict[str, Any]:
    """The host view with ``EXTRA`` more brotherhoods, each with its secrets and sheet."""
    big = _big(view)
    big["seats"] = {**view["seats"], **{
        f"x{n}": {"leader": f"Mr Extra {n:04d}", "base": "B", "life": 1,
                  "spies": [{"number": 1, "skill": 2, "at": "B"}],
                  "sheet": {"spies": {"1": {"task": "HUNT", "region": "B",
                                            "brotherhood": "s1"}}, "declarations": []}}
        for n in range(1, EXTRA + 1)}}
    return big


def test_a_big_host_page_pages_the_brotherhoods_and_a_small_one_keeps_its_text(
        alice: Browser, bob: Browser, carol: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = carol.create_game()  # carol hosts and holds no seat: the moderator
    assert alice.join(game_id, "Alpha Brotherhood").status_code == 303
    assert bob.join(game_id, "Bravo Brotherhood").status_code == 303
    assert carol.start(game_id).status_code == 303
    small = carol.get(f"/games/{game_id}/host").text
    assert '<pre class="host-text"' in small and "Seats (host only)" in small
    assert 'class="pager"' not in small and "host-seats" not in small
    real = play.host_view
    monkeypatch.setattr(play, "host_view",
                        lambda db, game, entry: _big_host(real(db, game, entry)))
    page = carol.get(f"/games/{game_id}/host").text
    assert '<pre class="host-text"' not in page  # the text of 452 seats is not made
    table = page.split('class="list host-seats"')[1].split("</table>")[0]
    names = re.findall(r"<td>s\d+</td><td>([^<]*)</td>", table)
    assert names == ["Alpha Brotherhood", "Bravo Brotherhood"]
    assert table.count("<tr>") == 1 + PAGE_ROWS  # the head's row and the page's
    assert "Brotherhoods 1–200 of 452" in page
    third = carol.get(f"/games/{game_id}/host?brotherhoods=3").text
    table = third.split('class="list host-seats"')[1].split("</table>")[0]
    assert re.findall(r"<td>(x\d+)</td><td>", table) == [f"x{n}" for n in range(399, 451)]
    assert "<td>Mr Extra 0450</td><td>B Beltram</td>" in table
    assert "#1 HUNT B brotherhood Alpha Brotherhood" in table  # a sheet, with names
    assert f'href="/games/{game_id}/host?brotherhoods=2#host-seats-pages"' in third


# ---------------------------------------------------------------- the order form


def test_a_big_order_form_types_names_from_one_list(
        alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock,
        sessions: sessionmaker[Session], big_views: None) -> None:
    game_id = started_game(alice, bob, bots=1)
    page = alice.get(f"/games/{game_id}/seat").text
    assert page.count('<datalist id="brotherhood-names">') == 1
    assert page.count('<datalist id="leader-names">') == 1
    names = page.split('<datalist id="brotherhood-names">')[1].split("</datalist>")[0]
    assert names.count("<option") == EXTRA + 2 and '<option value="Bravo Brotherhood">' in names
    assert "Alpha Brotherhood" not in names  # not the seat's own
    assert 'name="spy-2-brotherhood" class="brotherhood" list="brotherhood-names"' in page
    assert 'name="spy-2-leader" class="follow" list="leader-names"' in page
    assert 'name="decl-1-brotherhood" list="brotherhood-names"' in page
    assert 'name="decl-1-leader" list="leader-names"' in page
    assert '<select name="spy-2-brotherhood"' not in page and page.count("<option") < 1200
    # a typed name (any case) is the brotherhood it names
    fields = {**work_orders(), "spy-3-task": "HUNT", "spy-3-region": "D",
              "spy-3-brotherhood": "bravo brotherhood"}
    assert alice.post(f"/games/{game_id}/orders", fields).status_code == 303
    saved = saved_orders(sessions, game_id, "s1")
    assert saved["spies"]["3"] == {"task": "HUNT", "region": "D", "brotherhood": "s2"}
    again = alice.get(f"/games/{game_id}/seat").text  # shown by its name
    assert ('name="spy-3-brotherhood" class="brotherhood" list="brotherhood-names" '
            'value="Bravo Brotherhood"') in again
    # a name that is no brotherhood is refused beside its row, the text kept
    fields["spy-3-brotherhood"] = "Nobody Known"
    refused = refused_page(alice, alice.post(f"/games/{game_id}/orders", fields))
    assert "spy 3: no such brotherhood" in refused.text
    assert 'value="Nobody Known"' in refused.text


def test_a_small_order_form_keeps_its_selects(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob, bots=1)
    page = alice.get(f"/games/{game_id}/seat").text
    assert "<datalist" not in page and 'list="' not in page
    assert '<select name="spy-2-brotherhood" class="brotherhood"' in page
    assert '<select name="spy-2-leader" class="follow"' in page


def test_form_reads_typed_names_only_in_a_big_form() -> None:
    directory = [{"seat": f"s{n}", "name": f"Brotherhood {n}", "status": "surviving"}
                 for n in range(1, ui.LIST_CHOICES + 3)]
    view = {"seat": "s1", "directory": directory, "leaders": ["Mr Pink"], "spies": [
        {"number": 1, "leader": True, "skill": 1, "at": "A"},
        {"number": 2, "leader": False, "skill": 1, "at": "A"}]}
    fields = {"spy-1-task": "HUNT", "spy-1-brotherhood": "BROTHERHOOD 7",
              "spy-2-task": "SEARCH", "spy-2-brotherhood": "s9",
              "decl-1-brotherhood": "Brotherhood 12", "decl-1-leader": "Mr Pink",
              "decl-1-region": "B"}
    form = ui.form_from_fields(view, fields)
    assert form.brotherhood_list and not form.leader_list
    sheet = ui.sheet_from_fields(view, fields)
    assert sheet["spies"]["1"]["brotherhood"] == "s7"
    assert sheet["spies"]["2"]["brotherhood"] == "s9"  # a seat id stays one
    assert sheet["declarations"][0]["brotherhood"] == "s12"
    small = {**view, "directory": directory[:3]}
    assert not ui.form_from_fields(small, fields).brotherhood_list
    assert ui.sheet_from_fields(small, fields)["spies"]["1"]["brotherhood"] == "BROTHERHOOD 7"
