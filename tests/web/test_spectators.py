"""Spectators (issue 13 item 1): anyone may watch a public game, logged in or not, and
sees the public view while it runs; a private game answers 404 to everyone else."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import bots, registry
from spyhouse.service import games, play
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game
from tests.platform.test_conformance_routes import (
    build_table,
    play_one_entry,
    spectators_secrets,
    templates_text,
)
from tests.web.helpers import Browser, started_game, visitor


def _forms(secret: str) -> set[str]:
    return {secret, html.escape(secret), html.escape(secret, quote=False),
            json.dumps(secret)[1:-1]}


def _cells(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=False)


@pytest.mark.parametrize("game", registry.names())
def test_a_spectator_of_a_running_game_sees_the_public_view_and_no_secret(
        game: str, app: FastAPI, clock: FakeClock) -> None:
    table = build_table(app, clock, game)
    factory: sessionmaker[Session] = app.state.web.factory
    with transaction(factory) as db:
        host = db.scalar(select(Game).where(Game.id == table.game_id))
        assert host is not None
        games.start_game(db, host.host, table.game_id, clock.now())
    bot = bots.make_bot(game, table.strategies[0], "s1", 20261130)
    play_one_entry(app, clock, table, bot)
    chrome = templates_text(game)
    secrets = {s for s in spectators_secrets(factory, table.game_id) if s not in chrome}
    assert secrets, "the seats' views hold nothing a spectator may not read: a blind test"
    with factory() as db:
        row = db.get(Game, table.game_id)
        assert row is not None and row.status == "running"
        public = play.public_view(db, row.id)
        names = {seat.seat_id: seat.name for seat in row.seats}
    plugin = registry.plugin(game)
    shown = plugin.pages.public(public, names)
    news = plugin.pages.news(public)
    gid = table.game_id
    for who in ("anonymous", "outsider"):
        browser = table.browsers[who]
        page = browser.get(f"/games/{gid}")
        assert page.status_code == 200, (who, page.text[:300])
        assert 'id="spectator"' in page.text
        if shown is not None:  # the public table, from the public view
            for cell in shown.rows[0]:
                assert _cells(cell) in page.text
        for line in news:
            assert _cells(line) in page.text
        bodies = [page.text]
        for path in (f"/games/{gid}/record.json", f"/api/v1/games/{gid}/record",
                     f"/games/{gid}/host", f"/games/{gid}/report", f"/games/{gid}/state",
                     f"/games/{gid}/seat", f"/api/v1/games/{gid}"):
            answer = browser.get(path)
            assert answer.status_code in (303, 401, 404), (who, path, answer.status_code)
            bodies.append(answer.text)
        found = sorted(secret for secret in secrets for text in bodies
                       if any(form in text for form in _forms(secret)))
        assert not found, f"{who} read a seat's secret: {found[:10]}"


def test_a_private_game_is_its_members_alone(app: FastAPI, clock: FakeClock,
                                             alice: Browser, bob: Browser) -> None:
    game_id = alice.create_game()
    with transaction(app.state.web.factory) as db:
        row = db.get(Game, game_id)
        assert row is not None
        row.public = False
    carol, anon = visitor(app, "carol"), visitor(app)
    assert carol.get(f"/games/{game_id}").status_code == 200  # open: found, to join
    assert bob.join(game_id, "Bravo Brotherhood").status_code == 303
    assert alice.join(game_id, "Alpha Brotherhood").status_code == 303
    assert alice.start(game_id).status_code == 303
    for outsider in (carol, anon):
        for path in (f"/games/{game_id}", f"/games/{game_id}/record.json",
                     f"/api/v1/games/{game_id}/record"):
            assert outsider.get(path).status_code == 404, path
    for member in (alice, bob):
        page = member.get(f"/games/{game_id}")
        assert page.status_code == 200
        assert "private: only its players and host may watch" in page.text
        assert 'id="spectator"' not in page.text


def test_the_create_form_makes_public_or_private_games(app: FastAPI, alice: Browser) -> None:
    form = alice.get("/games/new").text
    assert re.search(r'<input type="checkbox" name="public" value="1"\s+checked>', form)
    assert "Public game: anyone may watch" in form
    base = {"game": "spyvsspy", "schedule": "all_submitted", "option-variant": "classic",
            "option-base_choice": "random"}
    made = {}
    for title, extra in (("Open door", {}), ("Closed door", {"public": "0"})):
        answer = alice.post("/games", {**base, "title": title, **extra})
        assert answer.status_code == 303, answer.text
        made[title] = int(answer.headers["location"].split("/")[2].split("?")[0])
    with app.state.web.factory() as db:
        assert db.get(Game, made["Open door"]).public is True
        assert db.get(Game, made["Closed door"]).public is False
    # the browser posts the hidden 0 and then the ticked box's 1: the last one counts
    response = alice.client.post("/games", data={
        **base, "title": "Ticked", "csrf_token": alice.csrf(), "public": ["0", "1"]})
    assert response.status_code == 303
    with app.state.web.factory() as db:
        ticked = db.scalar(select(Game).where(Game.title == "Ticked"))
        assert ticked is not None and ticked.public is True


def test_a_logged_out_visitor_reads_a_public_games_page(
        app: FastAPI, clock: FakeClock, alice: Browser, bob: Browser, anon: Browser) -> None:
    game_id = alice.create_game()
    page = anon.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert f'href="/login?next=/games/{game_id}"' in page.text  # no join form, a log-in
    assert 'action="/games/' not in page.text
    game_id = started_game(alice, bob)
    page = anon.get(f"/games/{game_id}")
    assert page.status_code == 200 and "You are watching" in page.text
    assert "Host controls" not in page.text and "/seat" not in page.text
    assert anon.get("/games/999999").status_code == 404
