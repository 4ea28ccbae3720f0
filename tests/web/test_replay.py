"""The replay stepper (``web/pages_replay.py``, ``deps.replay_access``): every game, played to
the end by its own computer players beside one person (alice) with a host who holds no seat
(hank) and an outsider (olga), as the route conformance test builds it.

After the end every entry answers 200 from every perspective, for anyone, logged out
included, and holds the other seats' secrets; while the game runs a spectator gets the
public view only, a seat holder their own seat too, the seatless host the host view too,
and no page any of them can reach holds another seat's secret. A private game is 404 to
everyone but its host and players. "Why it happened" is shown exactly where the host view
is readable.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import bots, registry
from spyhouse.service import games
from spyhouse.service import records as store
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game, Report, SeatRow
from tests.platform.test_conformance_routes import (
    MAX_ENTRIES,
    Table,
    _forms,
    _status,
    _strings,
    _user,
    build_table,
    others_secrets,
    play_one_entry,
)
from tests.web.helpers import Browser

WHY = 'id="replay-why"'
#: The registered games (the route conformance test's fifth game is registered only there).
GAMES = sorted(registry.names())
#: Games whose seats' secrets are too short for the string search (Spy or Lie's card faces
#: are one letter): ``test_every_card_face_is_shown_after_the_end`` checks the board.
SHORT_SECRETS = {"spyorlie"}
CARD = '<polygon class="sol-card'
FACE = '<text class="sol-face"'


@dataclass
class Played:
    """A game of the table and the browsers: anonymous, outsider (olga), alice, host."""

    table: Table
    seats: list[str]

    @property
    def game_id(self) -> int:
        return self.table.game_id

    def browser(self, identity: str) -> Browser:
        return self.table.browsers[identity]


def _started(app: FastAPI, clock: FakeClock, game: str) -> tuple[Played, bots.Bot]:
    factory: sessionmaker[Session] = app.state.web.factory
    table = build_table(app, clock, game)
    with transaction(factory) as db:
        games.start_game(db, _user(db, "hank"), table.game_id, clock.now())
        seats = list(db.scalars(select(SeatRow.seat_id).where(SeatRow.game_id == table.game_id)
                                .order_by(SeatRow.position)))
    bot = bots.make_bot(game, table.strategies[0], "s1", 20261130)
    return Played(table, seats), bot


def _to_the_end(app: FastAPI, clock: FakeClock, played: Played, bot: bots.Bot) -> None:
    factory: sessionmaker[Session] = app.state.web.factory
    for _ in range(MAX_ENTRIES):
        if _status(factory, played.game_id)[0] == "over":
            break
        play_one_entry(app, clock, played.table, bot)
    assert _status(factory, played.game_id)[0] == "over"
    for identity, browser in played.table.browsers.items():  # sessions outlived by deadlines
        if browser.username is not None and browser.get("/account").status_code != 200:
            fresh = Browser(TestClient(app, follow_redirects=False))
            assert fresh.log_in(browser.username).status_code == 303
            played.table.browsers[identity] = fresh


def _set_private(app: FastAPI, game_id: int) -> None:
    with transaction(app.state.web.factory) as db:
        row = db.get(Game, game_id)
        assert row is not None
        row.public = False


def _page(browser: Browser, game_id: int, entry: int, perspective: str | None = None) -> str:
    query = "" if perspective is None else f"?as={perspective}"
    response = browser.get(f"/games/{game_id}/replay/{entry}{query}")
    assert response.status_code == 200, (entry, perspective, response.text[:400])
    return response.text


def _status_of(browser: Browser, game_id: int, entry: int, perspective: str) -> int:
    return browser.get(f"/games/{game_id}/replay/{entry}?as={perspective}").status_code


def _known_to(factory: sessionmaker[Session], game_id: int, keys: set[str]) -> set[str]:
    """The strings of the stored views of ``keys`` (every entry so far), keys included."""
    known: set[str] = set()
    with factory() as db:
        for entry, key in db.execute(select(Report.entry, Report.seat_id)
                                     .where(Report.game_id == game_id)):
            if key in keys:
                _strings(store.snapshot(db, game_id, entry, key), known, keys=True)
    return known


def _secret_strings(factory: sessionmaker[Session], game_id: int) -> set[str]:
    """Every string of a seat's view or the host view (values only), any entry so far."""
    found: set[str] = set()
    with factory() as db:
        for entry, key in db.execute(select(Report.entry, Report.seat_id)
                                     .where(Report.game_id == game_id)):
            if key != store.PUBLIC_KEY:
                _strings(store.snapshot(db, game_id, entry, key), found, keys=False)
    return found


def _shown(text: str) -> str:
    """What a replay page shows of the game: the perspective's page and the explanations,
    not the stepper's own words around them (the bar names seats and perspectives)."""
    start = text.index('id="replay-view"')
    return text[start:text.index("</main>", start)]


def _holding(pages: dict[str, str], secrets: set[str]) -> list[str]:
    return [f"{where}: holds {secret!r}" for where, text in pages.items()
            for secret in sorted(secrets)
            if any(form in _shown(text) for form in _forms(secret))]


# ---------------------------------------------------------------- after the end


@pytest.fixture(params=GAMES)
def finished(request: pytest.FixtureRequest, app: FastAPI, clock: FakeClock
             ) -> Iterator[tuple[Played, set[str]]]:
    """A finished game, and the other seats' secrets as they stood after entry 1."""
    played, bot = _started(app, clock, request.param)
    play_one_entry(app, clock, played.table, bot)
    secrets = others_secrets(app.state.web.factory, played.game_id)
    _to_the_end(app, clock, played, bot)
    yield played, secrets


def test_every_entry_from_every_perspective_after_the_end(
        finished: tuple[Played, set[str]], app: FastAPI) -> None:
    played, secrets = finished
    anon = played.browser("anonymous")
    last = _status(app.state.web.factory, played.game_id)[1]
    start = anon.get(f"/games/{played.game_id}/replay")
    assert start.status_code == 303
    assert start.headers["location"] == f"/games/{played.game_id}/replay/0"
    pages: dict[str, str] = {}
    for entry in range(last + 1):
        for perspective in ["public", "host", *played.seats]:
            text = _page(anon, played.game_id, entry, perspective)
            assert WHY in text, "after the end anyone reads the explanations"
            pages[f"{entry} as {perspective}"] = text
    assert 'rel="prev"' not in pages["0 as public"]
    assert f'href="/games/{played.game_id}/replay/1?as=public" rel="next"' in pages["0 as public"]
    assert 'rel="next"' not in pages[f"{last} as host"]
    assert 'id="replay-result"' in pages[f"{last} as host"]
    assert 'id="replay-result"' not in pages["0 as host"]
    factory: sessionmaker[Session] = app.state.web.factory
    hidden = _secret_strings(factory, played.game_id) - _known_to(
        factory, played.game_id, {store.PUBLIC_KEY})
    if played.table.game not in SHORT_SECRETS:
        assert _holding(pages, secrets | hidden), \
            "after the end the seats' secrets are there to read"
    # after the end, a reader without a seat starts at the host view: every secret
    assert 'data-perspective="host"' in _page(anon, played.game_id, 0)
    # a player starts at their own seat; anyone may step through every seat
    alice = played.browser("alice")
    assert 'data-perspective="s1"' in _page(alice, played.game_id, last)
    outsider = played.browser("outsider")
    assert _status_of(outsider, played.game_id, last, played.seats[-1]) == 200
    assert _status_of(anon, played.game_id, last + 1, "public") == 404
    assert _status_of(anon, played.game_id, 0, "nobody") == 404


def test_a_private_game_is_read_by_its_host_and_players_only(
        finished: tuple[Played, set[str]], app: FastAPI) -> None:
    played, _ = finished
    _set_private(app, played.game_id)
    for identity in ("anonymous", "outsider"):
        browser = played.browser(identity)
        assert browser.get(f"/games/{played.game_id}/replay").status_code == 404
        for perspective in ("public", "host", "s1"):
            assert _status_of(browser, played.game_id, 0, perspective) == 404
    for identity in ("alice", "host"):
        for perspective in ("public", "host", *played.seats):
            assert _status_of(played.browser(identity), played.game_id, 1, perspective) == 200


def test_every_card_face_is_shown_after_the_end(app: FastAPI, clock: FakeClock) -> None:
    """Spy or Lie's replay is its static board: before the end a spectator sees no face and
    a player only the faces their own view holds; after it, every card's face."""
    played, bot = _started(app, clock, "spyorlie")
    for _ in range(4):
        play_one_entry(app, clock, played.table, bot)
    anon, alice = played.browser("anonymous"), played.browser("alice")
    entry = _status(app.state.web.factory, played.game_id)[1]
    assert FACE not in _page(anon, played.game_id, entry)
    mine = _page(alice, played.game_id, entry)
    assert 0 < mine.count(FACE) < mine.count(CARD), "alice sees her own faces, not RED's"
    _to_the_end(app, clock, played, bot)
    for perspective in ("host", "s1", "s2"):
        board = _page(anon, played.game_id, entry, perspective)
        assert board.count(CARD) == mine.count(CARD)
        if perspective == "host":
            assert board.count(FACE) == board.count(CARD), "every face, after the end"
    last = _status(app.state.web.factory, played.game_id)[1]
    board = _page(anon, played.game_id, last, "host")
    assert board.count(FACE) == board.count(CARD) > 0


# ---------------------------------------------------------------- during play


@pytest.mark.parametrize("game", GAMES)
def test_during_play_each_reader_steps_through_what_they_may_know(
        game: str, app: FastAPI, clock: FakeClock) -> None:
    factory: sessionmaker[Session] = app.state.web.factory
    played, bot = _started(app, clock, game)
    game_id = played.game_id
    anon, olga = played.browser("anonymous"), played.browser("outsider")
    alice, hank = played.browser("alice"), played.browser("host")
    for browser in (anon, olga, alice, hank):
        assert _status_of(browser, game_id, 0, "public") == 200
    play_one_entry(app, clock, played.table, bot)
    play_one_entry(app, clock, played.table, bot)
    status, entry = _status(factory, game_id)
    assert status == "running" and entry == 2

    start = anon.get(f"/games/{game_id}/replay")
    assert start.headers["location"] == f"/games/{game_id}/replay/2"  # the latest
    chosen = anon.get(f"/games/{game_id}/replay?entry=1&as=public")
    assert chosen.headers["location"] == f"/games/{game_id}/replay/1?as=public"

    expected = {  # identity -> perspective -> status
        "anonymous": {"public": 200, "host": 404, "s1": 404, "s2": 404},
        "outsider": {"public": 200, "host": 404, "s1": 404, "s2": 404},
        "alice": {"public": 200, "host": 404, "s1": 200, "s2": 404},
        "host": {"public": 200, "host": 200, "s1": 404, "s2": 404},
    }
    pages: dict[str, dict[str, str]] = {identity: {} for identity in expected}
    for identity, answers in expected.items():
        browser = played.browser(identity)
        for number in range(entry + 1):
            for perspective, want in answers.items():
                response = browser.get(f"/games/{game_id}/replay/{number}?as={perspective}")
                assert response.status_code == want, (identity, number, perspective)
                if want == 200:
                    pages[identity][f"{number} as {perspective}"] = response.text
                    assert (WHY in response.text) == (identity == "host"), (identity, perspective)
        assert browser.get(f"/games/{game_id}/replay/{entry + 1}?as=public").status_code == 404
        default = _page(browser, game_id, entry)
        mine = {"alice": "s1", "host": "host"}.get(identity, "public")
        assert f'data-perspective="{mine}"' in default
        pages[identity]["default"] = default

    # nothing another seat or the host knows reaches a reader who may not know it
    public = _known_to(factory, game_id, {store.PUBLIC_KEY})
    spectators = _secret_strings(factory, game_id) - public
    assert spectators, "the seats' views hold nothing to look for: the check is blind"
    assert not _holding(pages["anonymous"] | pages["outsider"], spectators)
    others = others_secrets(factory, game_id)  # may be empty: alice's views know them
    assert not _holding(pages["alice"], others)


@pytest.mark.parametrize("game", ["spyvsspy"])
def test_nothing_to_replay_before_the_start(game: str, app: FastAPI, clock: FakeClock) -> None:
    table = build_table(app, clock, game)
    for identity in ("anonymous", "alice", "host"):
        browser = table.browsers[identity]
        assert browser.get(f"/games/{table.game_id}/replay").status_code == 404
        assert browser.get(f"/games/{table.game_id}/replay/0").status_code == 404
    assert table.browsers["anonymous"].get("/games/999999/replay/0").status_code == 404


def test_the_stepper_is_usable_without_script(app: FastAPI, clock: FakeClock) -> None:
    """Plain links and a labelled GET form: first/previous/next/last, the entry and the
    perspective; a finished game's entries are named in the game's words."""
    played, bot = _started(app, clock, "spyvsspy")
    play_one_entry(app, clock, played.table, bot)
    text = _page(played.browser("host"), played.game_id, 1, "host")
    assert '<label for="replay-entry">Turn</label>' in text
    assert '<label for="replay-as">Perspective</label>' in text
    assert re.search(r'<form method="get" action="/games/\d+/replay"', text)
    assert f'href="/games/{played.game_id}/replay/0?as=host" rel="prev"' in text
    assert 'id="replay-next" aria-disabled="true"' in text
    assert "Turn 1 of 1 so far" in html.unescape(text)
    assert '<script src="/static/replay.js" defer></script>' in text
