"""Fixtures for the web tests (tests/games/conftest.py shares them with the games' page
tests): the app on this test's fresh migrated database
(``database_url`` and ``engine`` of ``tests/conftest.py``: a SQLite copy of one migrated
template, or PostgreSQL for tests marked ``postgres``), a ``FakeClock``, and browsers."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.settings import Settings
from spyhouse.web.app import create_app
from tests.web.helpers import Browser, visitor


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, base_url="http://testserver", demo=False)


@pytest.fixture
def app(settings: Settings, clock: FakeClock, engine: Engine) -> FastAPI:
    return create_app(settings, clock, engine=engine)


@pytest.fixture
def factory(app: FastAPI) -> sessionmaker[Session]:
    made: sessionmaker[Session] = app.state.web.factory
    return made


@pytest.fixture
def sessions(factory: sessionmaker[Session]) -> sessionmaker[Session]:
    """The app's own session factory (the name the games' page tests use)."""
    return factory


@pytest.fixture
def anon(app: FastAPI) -> Browser:
    return Browser(TestClient(app, follow_redirects=False))


@pytest.fixture
def alice(app: FastAPI) -> Browser:
    browser = Browser(TestClient(app, follow_redirects=False))
    browser.sign_up("alice")
    return browser


@pytest.fixture
def bob(app: FastAPI) -> Browser:
    browser = Browser(TestClient(app, follow_redirects=False))
    browser.sign_up("bob")
    return browser


@pytest.fixture
def carol(app: FastAPI) -> Browser:
    return visitor(app, "carol")

