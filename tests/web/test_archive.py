"""The archive, record downloads and imports on the site (issue 13 items 2 and 4): for
each game, simulate, verify, import with the command line, then read it on the site."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from spyhouse.cli import main
from spyhouse.clock import FakeClock
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.service import archive, play
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game, SeatRow, User
from tests.service.test_archive import SMALL, changed_order, finished
from tests.web.helpers import Browser, started_game, visitor

IMPORTED = re.compile(r"imported game (\d+): (.+) \(head ([0-9a-f]{64})\)")


def _has_route(app: FastAPI, path: str) -> bool:
    return any(getattr(route, "path", None) == path for route in app.routes)


@pytest.mark.parametrize("game", registry.names())
def test_simulate_verify_import_and_read_it_on_the_site(
        game: str, tmp_path: Path, database_url: str, app: FastAPI, anon: Browser,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    players, seed = SMALL[game]
    assert main(["simulate", game, "--players", str(players), "--turns", "300",
                 "--seed", str(seed), "--out", str(path), "-q"]) == 0
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    assert main(["import", str(path), "--db", database_url]) == 0
    match = IMPORTED.search(capsys.readouterr().out)
    assert match, "import prints the game's id, title and head"
    game_id, title, head = int(match.group(1)), match.group(2), match.group(3)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert head == written["head"]

    listing = anon.get("/archive")
    assert listing.status_code == 200
    row = re.search(rf'<tr id="archive-{game_id}">(.*?)</tr>', listing.text, re.S)
    assert row, "the archive lists the imported game"
    assert title in row.group(1) and head[:12] in row.group(1)
    assert f'title="{head}"' in row.group(1) and f'value="{head}"' in row.group(1)
    assert f'href="/games/{game_id}/replay"' in row.group(1)
    page = anon.get(f"/games/{game_id}")
    assert page.status_code == 200 and 'id="imported"' in page.text
    assert f'href="/games/{game_id}/record.json"' in page.text
    assert 'href="/archive"' in page.text

    download = anon.get(f"/games/{game_id}/record.json")
    assert download.status_code == 200
    assert download.headers["content-disposition"] == \
        f'attachment; filename="spyhouse-{game_id}.json"'
    assert json.loads(download.text) == written
    assert records.head(records.loads(download.text)) == head
    api = anon.get(f"/api/v1/games/{game_id}/record")
    assert api.status_code == 200 and api.json() == written

    if _has_route(app, "/games/{game_id}/replay/{entry}"):  # the replay (helper's route)
        perspectives = ["public", "host", *(seat["id"] for seat in written["seats"])]
        for entry in range(len(written["turns"]) + 1):
            for who in perspectives:
                answer = anon.get(f"/games/{game_id}/replay/{entry}?as={who}")
                assert answer.status_code == 200, (entry, who, answer.status_code)


@pytest.mark.parametrize("game", registry.names())
def test_a_changed_order_fails_verify_and_import_names_it(
        game: str, tmp_path: Path, database_url: str, app: FastAPI,
        capsys: pytest.CaptureFixture[str]) -> None:
    text, entry = changed_order(finished(game))
    path = tmp_path / "changed.json"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"spyhouse: {path}: entry {entry}: hash does not match")
    assert main(["import", str(path), "--db", database_url]) == 1
    assert capsys.readouterr().err.strip() == line
    with app.state.web.factory() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 0


def test_import_as_a_user_with_a_title(
        tmp_path: Path, database_url: str, app: FastAPI, alice: Browser,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(finished("spyorlie").dumps(), encoding="utf-8")
    assert main(["import", str(path), "--db", database_url, "--as", "alice",
                 "--title", "Cup final"]) == 0
    out = capsys.readouterr().out
    match = IMPORTED.search(out)
    assert match and match.group(2) == "Cup final"
    assert main(["import", str(path), "--db", database_url, "--as", "nobody"]) == 1
    assert capsys.readouterr().err.strip() == "spyhouse: there is no account 'nobody'"
    page = alice.get(f"/games/{match.group(1)}")
    assert "Host controls" in page.text  # alice hosts it


def _import(browser: Browser, name: str, content: bytes, title: str = "") -> object:
    return browser.client.post("/import", data={"csrf_token": browser.csrf(),
                                                 "title": title},
                               files={"record": (name, content, "application/json")})


def test_the_upload_form(app: FastAPI, alice: Browser, anon: Browser) -> None:
    assert anon.get("/import").status_code == 303  # log in first
    form = alice.get("/import")
    assert form.status_code == 200
    assert 'enctype="multipart/form-data"' in form.text
    assert re.search(r'<label>Record file[^<]*<input type="file" name="record"', form.text)
    good = finished("kingdoms").dumps().encode("utf-8")
    answer = _import(alice, "r.json", good, title="From home")
    assert answer.status_code == 303, answer.text  # type: ignore[attr-defined]
    location = answer.headers["location"]  # type: ignore[attr-defined]
    assert re.fullmatch(r"/games/\d+\?notice=imported", location)
    page = alice.get(location)
    assert "From home" in page.text and "The record is imported" in page.text
    with app.state.web.factory() as db:
        made = db.scalar(select(Game).where(Game.title == "From home"))
        assert made is not None and made.imported and made.host.username == "alice"


@pytest.mark.parametrize("content, message", [
    (b"{", "not JSON: "),
    (b"\xff\xfe", "not a record: the file is not UTF-8 text"),
    (None, "entry "),
    (b" " * (records.MAX_BYTES + 1), records.TOO_BIG),
])
def test_a_refused_upload_shows_the_line_on_the_form_and_makes_nothing(
        content: bytes | None, message: str, app: FastAPI, alice: Browser) -> None:
    if content is None:
        content = changed_order(finished("spyvsspy"))[0].encode("utf-8")
    answer = _import(alice, "r.json", content, title="Kept")
    assert answer.status_code == 422  # type: ignore[attr-defined]
    text = answer.text  # type: ignore[attr-defined]
    error = re.search(r'<p class="error" role="alert" id="import-error">([^<]*)</p>', text)
    assert error and error.group(1).startswith(message.replace("'", "&#39;"))
    assert 'value="Kept"' in text  # the typed title stays
    with app.state.web.factory() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 0


def test_an_upload_needs_a_file_and_the_forms_token(app: FastAPI, alice: Browser) -> None:
    answer = alice.client.post("/import", data={"csrf_token": alice.csrf()},
                               files={"other": ("x", b"", "text/plain")})
    assert answer.status_code == 422 and "Choose a record file" in answer.text
    answer = alice.client.post("/import", files={
        "record": ("r.json", finished("spyorlie").dumps().encode(), "application/json")})
    assert answer.status_code == 403


def test_record_downloads_before_and_after_the_end(
        app: FastAPI, clock: FakeClock, alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)  # alice hosts and plays s1
    carol, anon, hank = visitor(app, "carol"), visitor(app), visitor(app, "hank")
    paths = (f"/games/{game_id}/record.json", f"/api/v1/games/{game_id}/record")
    for browser in (alice, bob, carol, anon, hank):
        for path in paths:
            assert browser.get(path).status_code == 404, (browser.username, path)
    with transaction(app.state.web.factory) as db:  # a host who holds no seat
        row = db.get(Game, game_id)
        assert row is not None
        hank_user = db.scalar(select(User).where(User.username == "hank"))
        assert hank_user is not None
        row.host_id = hank_user.id
    answer = hank.get(paths[0])
    assert answer.status_code == 200 and json.loads(answer.text)["game"] == "spyvsspy"
    assert hank.get(f"/games/{game_id}").text.count(f"/games/{game_id}/record.json") == 1
    assert hank.get(paths[1]).status_code == 404  # the API: not before the end
    with transaction(app.state.web.factory) as db:
        row = db.get(Game, game_id)
        assert row is not None
        row.status = "over"
    for browser in (alice, bob, carol, anon, hank):
        for path in paths:
            assert browser.get(path).status_code == 200, (browser.username, path)
    with transaction(app.state.web.factory) as db:
        row = db.get(Game, game_id)
        assert row is not None
        row.public = False
    for browser in (carol, anon):
        for path in paths:
            assert browser.get(path).status_code == 404
    assert bob.get(paths[0]).status_code == 200 and hank.get(paths[0]).status_code == 200
    assert bob.get(paths[1]).status_code == 404  # the API's member is a seat's token
    with transaction(app.state.web.factory) as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == "s2"))
        assert seat is not None
        token = play.create_token(db, seat, "bot", clock.now())
    answer = anon.get(paths[1], headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json()["head"]
    assert anon.get(paths[1], headers={"Authorization": "Bearer shs_nope"}).status_code == 403
    assert anon.get(paths[1], headers={"Authorization": "Basic abc"}).status_code == 401


def test_the_archive_page_filters_and_pages(app: FastAPI, clock: FakeClock,
                                            anon: Browser) -> None:
    with transaction(app.state.web.factory) as db:
        host = archive.import_host(db, None, clock.now())
        duel = finished("spyorlie").dumps()
        for number in range(archive.ARCHIVE_ROWS + 2):
            archive.import_record(db, duel, host, clock.now(), title=f"Duel {number}")
            clock.advance(seconds=1)
        archive.import_record(db, finished("spyvsspy").dumps(), host, clock.now(),
                              title="Spies")
    first = anon.get("/archive")
    assert first.status_code == 200
    titles = re.findall(r'<a href="/games/\d+">([^<]+)</a>', first.text)
    assert titles[:3] == ["Spies", "Duel 51", "Duel 50"] and len(titles) == 50
    assert 'aria-label="Archive: pages"' in first.text and "?rows=2#archive-pages" in first.text
    second = anon.get("/archive?rows=2")
    assert re.findall(r'<a href="/games/\d+">([^<]+)</a>', second.text) == [
        "Duel 2", "Duel 1", "Duel 0"]
    only = anon.get("/archive?game=spyvsspy")
    assert re.findall(r'<a href="/games/\d+">([^<]+)</a>', only.text) == ["Spies"]
    assert '<option value="spyvsspy" selected>' in only.text
    name = finished("spyvsspy").seats[1].name
    by_player = anon.get("/archive", params={"player": name.upper()})
    assert re.findall(r'<a href="/games/\d+">([^<]+)</a>', by_player.text) == ["Spies"]
    none = anon.get("/archive", params={"player": "no one at all"})
    assert "No finished public game matches" in none.text
    assert anon.get("/archive?game=chess").status_code == 200  # an unknown game: all


def test_the_archive_is_linked(alice: Browser, bob: Browser, anon: Browser) -> None:
    assert 'href="/archive"' in alice.get("/lobby").text
    assert 'href="/archive"' in anon.get("/archive").text
    assert 'href="/import"' in alice.get("/archive").text
    assert 'href="/import"' not in anon.get("/archive").text
