"""A browser-like wrapper around ``TestClient`` and small helpers for the web tests."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import httpx2
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import play
from spyhouse.settings import Settings
from spyhouse.store.tables import SeatRow
from spyhouse.worker import run_once

PASSWORD = "correct horse battery"
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(html: str) -> str:
    match = _CSRF.search(html)
    assert match, "no CSRF token on the page"
    return match.group(1)


class Browser:
    """One visitor: its own cookie jar; forms are posted with the page's CSRF token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.username: str | None = None
        self._csrf: str | None = None

    # plain requests

    def get(self, path: str, **kwargs: Any) -> httpx2.Response:
        response: httpx2.Response = self.client.get(path, **kwargs)
        return response

    def csrf(self, path: str = "/login") -> str:
        if self._csrf is None:
            page = self.get(path if self.username is None else "/account")
            self._csrf = csrf_of(page.text)
        return self._csrf

    def post(self, path: str, data: Mapping[str, Any] | None = None, *,
             token: bool = True) -> httpx2.Response:
        form = dict(data or {})
        if token:
            form.setdefault("csrf_token", self.csrf())
        response: httpx2.Response = self.client.post(path, data=form)
        return response

    # accounts

    def sign_up(self, username: str, password: str = PASSWORD,
                email: str | None = None) -> httpx2.Response:
        response = self.post("/signup", {"username": username, "password": password,
                                         "password2": password,
                                         "email": email or f"{username}@example.org"})
        assert response.status_code == 303, response.text
        self.username = username
        self._csrf = None
        return response

    def log_in(self, username: str, password: str = PASSWORD) -> httpx2.Response:
        response = self.post("/login", {"username": username, "password": password})
        if response.status_code == 303:
            self.username = username
            self._csrf = None
        return response

    def log_out(self) -> httpx2.Response:
        response = self.post("/logout")
        self.username = None
        self._csrf = None
        return response

    # games

    def create_game(self, title: str = "Test game", *, schedule: str = "interval",
                    interval_hours: int = 48, base_choice: str = "random",
                    max_seats: str = "") -> int:
        response = self.post("/games", {
            "game": "spyvsspy", "title": title, "max_seats": max_seats,
            "option-base_choice": base_choice, "option-variant": "classic",
            "schedule": schedule, "interval_hours": str(interval_hours),
            "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"})
        assert response.status_code == 303, response.text
        match = re.match(r"/games/(\d+)", response.headers["location"])
        assert match
        return int(match.group(1))

    def join(self, game_id: int, name: str, **extra: str) -> httpx2.Response:
        if "base" in extra:  # Spy vs Spy's secret setup choice (the plugin's seat_setup)
            extra["setup"] = extra.pop("base")
        data = {"name": name, "player": self.username or "", "show_email": "1", **extra}
        return self.post(f"/games/{game_id}/join", data)

    def add_bot(self, game_id: int, strategy: str = "economist") -> httpx2.Response:
        return self.post(f"/games/{game_id}/bots", {"strategy": strategy})

    def start(self, game_id: int) -> httpx2.Response:
        return self.post(f"/games/{game_id}/start")


def work_orders(spies: range = range(1, 10), region: str = "H") -> dict[str, str]:
    """The order form with every spy WORKing in ``region``."""
    fields: dict[str, str] = {}
    for n in spies:
        fields[f"spy-{n}-task"] = "WORK"
        fields[f"spy-{n}-region"] = region
    return fields


def run_worker(app: FastAPI, clock: FakeClock) -> int:
    """One round of the worker, with a mailer that keeps nothing."""
    factory: sessionmaker[Session] = app.state.web.factory
    settings: Settings = app.state.web.settings
    return run_once(factory, clock, settings, NullMailer())


class NullMailer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []

    def send(self, to_addr: str, subject: str, body: str) -> None:
        self.sent.append((to_addr, subject, body))


def started_game(host: Browser, guest: Browser, *, bots: int = 0, **create: Any) -> int:
    """A running game: ``host`` and ``guest`` joined (seats s1, s2), ``bots`` bots after."""
    game_id = host.create_game(**create)
    assert host.join(game_id, "Alpha Brotherhood").status_code == 303
    assert guest.join(game_id, "Bravo Brotherhood").status_code == 303
    for _ in range(bots):
        assert host.add_bot(game_id).status_code == 303
    response = host.start(game_id)
    assert response.status_code == 303, response.text
    return game_id


def row_html(html: str, row_id: str) -> str:
    """The HTML of the table row ``<tr id="row_id">`` of a page."""
    match = re.search(rf'<tr id="{re.escape(row_id)}"[^>]*>(.*?)</tr>', html, re.S)
    assert match, f"no row {row_id}"
    return match.group(1)


def selected(html: str, name: str) -> str | None:
    """The selected option (or checked radio) value of the field ``name`` on a page."""
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', html, re.S)
    if select:
        option = re.search(r'<option(?: value="([^"]*)")?\s+selected>([^<]*)</option>',
                           select.group(1))
        if option:
            return option.group(1) if option.group(1) is not None else option.group(2)
        return None
    radio = re.search(rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)" checked>',
                      html)
    return radio.group(1) if radio else None


def visitor(app: FastAPI, name: str | None = None) -> Browser:
    """A browser on ``app``; signed up (and logged in) as ``name`` when given."""
    browser = Browser(TestClient(app, follow_redirects=False))
    if name is not None:
        browser.sign_up(name)
    return browser


def saved_orders(sessions: sessionmaker[Session], game_id: int, seat_id: str) -> Any:
    """The orders saved for a seat's open entry (``None`` when none), read afresh."""
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        return play.get_orders(db, seat).data


def refused_page(browser: Browser, response: httpx2.Response) -> httpx2.Response:
    """A refused seat form (orders, ready) answers 303 to the seat page (post/redirect/get),
    which shows the form again with its messages: that page, as the browser gets it."""
    assert response.status_code == 303, response.status_code
    path = response.request.url.path.rsplit("/", 1)[0] + "/seat"
    assert response.headers["location"] == path
    page = browser.get(path)
    assert page.status_code == 200
    return page


def refused_form(browser: Browser, response: httpx2.Response, path: str) -> httpx2.Response:
    """A refused page form (a new game, joining) answers 303 to its page ``path``
    (post/redirect/get), which shows the form as sent with its message: that page."""
    assert response.status_code == 303, response.status_code
    assert response.headers["location"] == path
    page = browser.get(path)
    assert page.status_code == 200
    return page
