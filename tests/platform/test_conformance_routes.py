"""The route conformance test every registered game must pass, the fifth included.

One game is built through the service layer: one person's seat (alice) against the
game's own computer players, a host who holds no seat (hank) and an outsider (olga).
At three moments (set-up before the start, mid-game after one processed entry, and
after the end) EVERY page and API route of the app is requested, as every identity
(anonymous, outsider, seat holder, host): no answer may be a 5xx. And no answer made
for alice before the end may hold another seat's secret: a string of some other seat's
view, or the host view, that is neither in alice's own views nor in the public ones. And
no answer made mid-game for a spectator (anonymous, or the outsider, of this public
game) may hold a string of any seat's view or the host view that no public view holds.
"""

from __future__ import annotations

import html
import json
import traceback
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import bots, registry
from spyhouse.core.bots import Bot
from spyhouse.service import games, play, turns
from spyhouse.service import records as store
from spyhouse.service.errors import ServiceError
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game, Report, SeatRow, User
from spyhouse.web import app as web_app
from tests.platform.sealedbid.plugin import PLUGIN as SEALEDBID
from tests.web.helpers import Browser

GAMES = sorted({*registry.names(), SEALEDBID.name})
#: Modules whose POST routes are a seat's (or the API's): they are posted too, with
#: bodies that change nothing a moment depends on (refused, drafts, ready = 0).
SEAT_MODULES = ("spyhouse.web.pages_seat", "spyhouse.web.pages_channels", "spyhouse.web.api")
MAX_ENTRIES = 400
#: the identities that watch the game (it is public): they read its public view alone
SPECTATORS = ("anonymous", "outsider")
MIN_SECRET = 5
ALICE = "AliceSeat"


# ---------------------------------------------------------------- the routes


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str
    module: str

    @property
    def api(self) -> bool:
        return self.path.startswith("/api/v1/games") or self.path == "/api/v1/seat"


def _leaves(routes: Iterable[Any]) -> Iterator[Any]:
    """Every route of the app, through included routers (FastAPI keeps them nested)."""
    for route in routes:
        nested = getattr(route, "effective_candidates", None)
        if callable(nested):
            yield from _leaves(nested())
        elif getattr(route, "routes", None) is not None and not hasattr(route, "methods"):
            continue  # a mount (static files)
        else:
            yield route


def app_routes(app: FastAPI) -> list[Route]:
    found = []
    for route in _leaves(app.routes):
        methods = getattr(route, "methods", None) or set()
        endpoint = getattr(route, "endpoint", None)
        module = getattr(endpoint, "__module__", "") or ""
        for method in sorted(methods - {"HEAD", "OPTIONS"}):
            found.append(Route(method, route.path, module))
    return found


def _fill(path: str, values: Mapping[str, str]) -> str:
    for key, value in values.items():
        path = path.replace("{" + key + "}", value)
    assert "{" not in path, f"no value for a parameter of {path}"
    return path


# ---------------------------------------------------------------- the game


@dataclass(slots=True)
class Table:
    """The game under test and the people around it."""

    game: str
    game_id: int
    token: str
    spare_token_id: int
    strategies: tuple[str, ...]
    browsers: dict[str, Browser] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    bodies: list[tuple[str, str]] = field(default_factory=list)  # alice's, mid-game
    #: the spectators' (anonymous, outsider), mid-game
    watched: list[tuple[str, str]] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # where -> status


def _user(db: Session, name: str) -> User:
    user = db.scalar(select(User).where(User.username == name))
    assert user is not None
    return user


def _alice_seat(db: Session, game_id: int) -> SeatRow:
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                           SeatRow.seat_id == "s1"))
    assert seat is not None and seat.user_id is not None
    return seat


def build_table(app: FastAPI, clock: FakeClock, game: str) -> Table:
    browsers = {"anonymous": Browser(TestClient(app, follow_redirects=False))}
    for identity, name in (("outsider", "olga"), ("alice", "alice"), ("host", "hank")):
        browser = Browser(TestClient(app, follow_redirects=False))
        browser.sign_up(name)
        browsers[identity] = browser
    factory: sessionmaker[Session] = app.state.web.factory
    plugin = registry.plugin(game)
    strategies = plugin.bots.strategies if plugin.bots else ()
    assert strategies, f"{game} has no computer players"
    now = clock.now()
    with transaction(factory) as db:
        hank, alice = _user(db, "hank"), _user(db, "alice")
        row = games.create_game(db, hank, game=game, title="Conformance", options={},
                                schedule={"interval_hours": 24}, max_seats=None, now=now,
                                seed=20261130)
        seat = games.join_game(db, alice, row.id, name=ALICE, player="alice",
                               show_email=False, now=now)
        for index in range(max(row.min_seats, 2) - 1):
            games.add_bot(db, hank, row.id, strategy=strategies[index % len(strategies)],
                          now=now)
        token = play.create_token(db, seat, "conformance", now)
        play.create_token(db, seat, "spare", now)
        spare = next(t.id for t in play.tokens_of(db, seat) if t.label == "spare")
        game_id = row.id
    return Table(game, game_id, token, spare, tuple(strategies), browsers)


def _status(factory: sessionmaker[Session], game_id: int) -> tuple[str, int]:
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None
        return game.status, game.entry


def play_one_entry(app: FastAPI, clock: FakeClock, table: Table, bot: Bot) -> None:
    """Alice gives her bot's orders, final, if she is awaited; the entry is processed,
    at its deadline if nothing closes it earlier."""
    factory: sessionmaker[Session] = app.state.web.factory
    with transaction(factory) as db:
        game = db.get(Game, table.game_id)
        assert game is not None
        seat = _alice_seat(db, table.game_id)
        if play.may_order(game, seat):
            sheet = bot.act(store.snapshot(db, game.id, game.entry, seat.seat_id))
            if sheet is not None:
                try:
                    play.submit_orders(db, seat, sheet, now=clock.now(), ready=True)
                except ServiceError as exc:
                    db.rollback()
                    table.problems.append(f"entry {game.entry + 1}: the game's own bot's "
                                          f"sheet was refused: {exc.message}")
    with transaction(factory) as db:
        processed = turns.process_turn(db, table.game_id, clock.now())
        turns.move_bots(db, table.game_id, clock.now())
    if processed:
        return
    with factory() as db:
        game = db.get(Game, table.game_id)
        assert game is not None
        if game.status == "over":
            return  # a live server's own worker (browser tests) processed it meanwhile
        assert game.deadline is not None, \
            f"entry {game.entry + 1} neither closes nor has a deadline"
        deadline, entry = game.deadline, game.entry
    clock.set(max(clock.now(), deadline) + timedelta(seconds=1))
    with transaction(factory) as db:
        done = turns.process_turn(db, table.game_id, clock.now())
        turns.move_bots(db, table.game_id, clock.now())
    if not done:  # only a live server's own worker may have processed it meanwhile
        assert _status(factory, table.game_id)[1] > entry, "a due entry stays open"


# ---------------------------------------------------------------- the requests


Body = tuple[dict[str, Any] | None, dict[str, str]]


def _bodies(route: Route, table: Table, open_entry: int, *, last: bool) -> list[Body]:
    """(form or JSON body, headers) to send to ``route``; ``[]``: not sent."""
    if route.method == "GET":
        return [(None, {})]
    if route.module not in SEAT_MODULES:
        return []  # account and host controls: no harmless body to post
    suffix = route.path.removeprefix("/api/v1").removeprefix("/games/{game_id}")
    sent: dict[str, list[Body]]
    if route.api:
        sent = {"/orders": [({"orders": None, "ready": False}, {}),
                            ({"orders": {}, "ready": False}, {})],
                "/ready": [({"ready": False}, {})],
                "/posts": [({"channel": "public", "body": "Hello from the probe"}, {})]}
        return sent.get(suffix, [({}, {})])
    json_accept = {"accept": "application/json"}
    sent = {
        "/play": [({}, {})],
        "/orders": [({"entry": "999999"}, {}), ({"entry": "999999"}, json_accept),
                    ({"entry": str(open_entry)}, {})],
        "/check": [({"entry": str(open_entry)}, {})],
        "/ready": [({"ready": "0"}, {})],
        "/computer": [({"strategy": table.strategies[0]}, {}),
                      ({"strategy": table.strategies[0]}, json_accept)],
        "/rematch": [({}, {})] if last else [],
        "/secrets": [({}, {})],
        "/tokens": [({"label": "probe"}, {})],
        "/tokens/{token_id}/revoke": [({}, {})],
        "/posts": [({"channel": "public", "body": "Hello from the probe"}, {})],
    }
    return sent.get(suffix, [({}, {})])


def _order(route: Route) -> tuple[int, int]:
    """GETs first, then "play now" (before any orders are saved, so it plays nothing),
    then the other posts, and a rematch (which starts a new game) last of all."""
    if route.method == "GET":
        return (0, 0)
    return (1, {"/games/{game_id}/play": 0, "/games/{game_id}/rematch": 2}.get(route.path, 1))


def request_everything(app: FastAPI, table: Table, moment: str, *, last: bool = False) -> None:
    factory: sessionmaker[Session] = app.state.web.factory
    _status_now, entry = _status(factory, table.game_id)
    entries = sorted({0, entry, entry + 1})
    routes = sorted(app_routes(app), key=_order)
    for identity, browser in table.browsers.items():
        csrf = browser.csrf()
        for route in routes:
            for number in entries if "{entry}" in route.path else [entry]:
                path = _fill(route.path, {"game_id": str(table.game_id), "entry": str(number),
                                          "game": table.game, "token": "no-such-token",
                                          "token_id": str(table.spare_token_id)})
                for body, headers in _bodies(route, table, entry + 1, last=last):
                    _request(browser, table, moment, identity, route, path, body,
                             dict(headers), csrf)


def _request(browser: Browser, table: Table, moment: str, identity: str, route: Route,
             path: str, body: dict[str, Any] | None, headers: dict[str, str], csrf: str) -> None:
    if route.api:
        if identity == "alice":
            headers["authorization"] = f"Bearer {table.token}"
        elif identity == "outsider":
            headers["authorization"] = "Bearer shs_not-a-token"
    where = f"{moment} · {identity} · {route.method} {path}"
    if route.method != "GET":
        where += f" {json.dumps(body, sort_keys=True)}" + (" (JSON wanted)" if headers.get(
            "accept") else "")
    if route.path.endswith("/events"):
        return  # a live stream does not end; who hears what: tests/web/test_events.py
    try:
        if route.method == "GET":
            response = browser.client.get(path, headers=headers)
        elif route.api:
            response = browser.client.request(route.method, path, json=body, headers=headers)
        else:
            response = browser.client.request(route.method, path,
                                              data={**(body or {}), "csrf_token": csrf},
                                              headers=headers)
    except Exception:
        table.problems.append(f"{where}: raised\n{traceback.format_exc(limit=-6)}")
        return
    table.answers[where] = response.status_code
    if response.status_code >= 500:
        table.problems.append(f"{where}: {response.status_code} {response.text[:300]}")
    if identity == "alice" and moment == "mid-game":
        table.bodies.append((where, response.text))
    if identity in SPECTATORS and moment == "mid-game" and (
            path.startswith((f"/games/{table.game_id}/", f"/api/v1/games/{table.game_id}/"))
            or path in (f"/games/{table.game_id}", f"/api/v1/games/{table.game_id}")):
        table.watched.append((where, response.text))  # the game's own routes


# ---------------------------------------------------------------- the secrets


def _strings(value: Any, out: set[str], *, keys: bool) -> None:
    """The strings of a view, walking its JSON: its values, and with ``keys`` its keys."""
    if isinstance(value, str):
        if len(value) >= MIN_SECRET:
            out.add(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if keys:
                _strings(str(key), out, keys=keys)
            _strings(item, out, keys=keys)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out, keys=keys)


def others_secrets(factory: sessionmaker[Session], game_id: int) -> set[str]:
    """The strings of other seats' views and the host view (every entry so far) that
    are neither in alice's views nor in the public views. Keys are the views' vocabulary
    ("hands", "sheet"): only values count as another seat's data, while a string
    anywhere in alice's or the public views (a room named by a key) is known to her."""
    theirs: set[str] = set()
    known: set[str] = set()
    with factory() as db:
        for entry, key in db.execute(select(Report.entry, Report.seat_id)
                                     .where(Report.game_id == game_id)):
            view = store.snapshot(db, game_id, entry, key)
            if key in ("s1", store.PUBLIC_KEY):
                _strings(view, known, keys=True)
            else:
                _strings(view, theirs, keys=False)
    return theirs - known


def spectators_secrets(factory: sessionmaker[Session], game_id: int) -> set[str]:
    """The strings of every seat's view and the host view (every entry so far) that no
    public view holds: what a spectator must not read before the end."""
    theirs: set[str] = set()
    public: set[str] = set()
    with factory() as db:
        for entry, key in db.execute(select(Report.entry, Report.seat_id)
                                     .where(Report.game_id == game_id)):
            view = store.snapshot(db, game_id, entry, key)
            if key == store.PUBLIC_KEY:
                _strings(view, public, keys=True)
            else:
                _strings(view, theirs, keys=False)
    return theirs - public


def templates_text(game: str) -> str:
    """The text of the platform's templates and the game's own: a string written there (a
    word of a page's own prose, "secret") is no sign of a leak when a page shows it."""
    folders = [Path(web_app.__file__).resolve().parent / "templates"]
    plugin = registry.plugin(game)
    if plugin.templates is not None:
        folders.append(Path(plugin.templates))
    return "\n".join(path.read_text(encoding="utf-8") for folder in folders
                     for path in sorted(folder.rglob("*.html")))


def _forms(secret: str) -> set[str]:
    return {secret, html.escape(secret), html.escape(secret, quote=False),
            json.dumps(secret)[1:-1]}


def leaks(table: Table, secrets: set[str], bodies: list[tuple[str, str]] | None = None
          ) -> list[str]:
    found = []
    for where, text in table.bodies if bodies is None else bodies:
        for secret in sorted(secrets):
            if any(form in text for form in _forms(secret)):
                found.append(f"{where}: holds {secret!r}")
    return found


# ---------------------------------------------------------------- the test


#: (moment, identity, page) -> the status every game's page must answer: the probe did
#: reach the pages, and the platform's one rule of who reads what holds for every game.
EXPECTED = {
    ("mid-game", "anonymous", "seat"): 303, ("mid-game", "outsider", "seat"): 404,
    ("mid-game", "alice", "seat"): 200, ("mid-game", "host", "seat"): 404,
    ("mid-game", "alice", "report/1"): 200, ("mid-game", "outsider", "report/1"): 404,
    ("mid-game", "alice", "host"): 404, ("mid-game", "host", "host"): 200,
    ("mid-game", "outsider", "host"): 404, ("after the end", "alice", "host"): 200,
    ("after the end", "host", "host"): 200, ("after the end", "outsider", "host"): 404,
    ("after the end", "alice", "seat"): 200,
    ("mid-game", "anonymous", ""): 200, ("mid-game", "outsider", ""): 200,
    ("after the end", "anonymous", "record.json"): 200,
    ("mid-game", "anonymous", "record.json"): 404, ("mid-game", "host", "record.json"): 200,
}


def _unexpected(table: Table) -> list[str]:
    wrong = []
    for (moment, identity, page), status in EXPECTED.items():
        where = f"{moment} · {identity} · GET /games/{table.game_id}{'/' if page else ''}{page}"
        if table.answers.get(where) != status:
            wrong.append(f"{where}: {table.answers.get(where)}, not {status}")
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_every_route_answers_and_keeps_the_other_seats_secrets(
        game: str, app: FastAPI, clock: FakeClock) -> None:
    factory: sessionmaker[Session] = app.state.web.factory
    table = build_table(app, clock, game)
    request_everything(app, table, "set-up")

    with transaction(factory) as db:
        games.start_game(db, _user(db, "hank"), table.game_id, clock.now())
    bot = bots.make_bot(game, table.strategies[0], "s1", 20261130)
    play_one_entry(app, clock, table, bot)
    status, entry = _status(factory, table.game_id)
    assert (status, entry) == ("running", 1), "the game should run on after one entry"
    request_everything(app, table, "mid-game")
    secrets = others_secrets(factory, table.game_id)
    assert secrets, "the other seats' views hold nothing to look for: the probe is blind"
    found = leaks(table, secrets)
    chrome = templates_text(game)
    watched = {secret for secret in spectators_secrets(factory, table.game_id)
               if secret not in chrome}
    assert watched, "the seats' views hold nothing a spectator may not read: a blind probe"
    seen = leaks(table, watched, table.watched)

    for _ in range(MAX_ENTRIES):
        if _status(factory, table.game_id)[0] == "over":
            break
        play_one_entry(app, clock, table, bot)
    assert _status(factory, table.game_id)[0] == "over", f"not over in {MAX_ENTRIES} entries"
    for identity, browser in table.browsers.items():  # weeks of deadlines outlast a session
        if browser.username is not None and browser.get("/account").status_code != 200:
            table.browsers[identity] = Browser(TestClient(app, follow_redirects=False))
            assert table.browsers[identity].log_in(browser.username).status_code == 303
    request_everything(app, table, "after the end", last=True)

    assert not table.problems, "\n".join(table.problems)
    assert not found, "another seat's secret reached alice:\n" + "\n".join(found[:40])
    assert not seen, "a seat's secret reached a spectator:\n" + "\n".join(seen[:40])
    assert not _unexpected(table), "\n".join(_unexpected(table))
