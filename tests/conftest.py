"""Database fixtures shared by the store, service, worker, mail and web tests.

``db`` is a session on a fresh, migrated database per test: a SQLite file
(copied from one migrated template per test session, so a test does not pay for
the migrations), or, for tests marked ``@pytest.mark.postgres``, the PostgreSQL
database named by ``SPYHOUSE_TEST_DATABASE_URL`` with its ``public`` schema
dropped, recreated and migrated (those tests skip when the variable is unset).
PostgreSQL tests hold a file lock for their whole run, so parallel test
processes (pytest-xdist) take turns on the one database.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import accounts
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, migrate, session_factory

PG_ENV = "SPYHOUSE_TEST_DATABASE_URL"
PG_LOCK = Path(tempfile.gettempdir()) / "spyhouse-postgres-tests.lock"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"postgres: runs against PostgreSQL ({PG_ENV}); skipped when it is unset")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated SQLite file per test session, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


def _reset_postgres(url: str) -> None:
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        migrate(engine)
    finally:
        engine.dispose()


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path,
                 sqlite_template: Path) -> Iterator[str]:
    """The URL of this test's fresh database (PostgreSQL for ``postgres`` tests)."""
    if request.node.get_closest_marker("postgres") is None:
        path = tmp_path / "spyhouse.db"
        shutil.copyfile(sqlite_template, path)
        yield f"sqlite:///{path}"
        return
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set")
    with PG_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _reset_postgres(url)
            yield url
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def factory(engine: Engine) -> sessionmaker[Session]:
    return session_factory(engine)


@pytest.fixture
def db(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session for the test; the test commits (or not) as a request handler would."""
    session = factory()
    yield session
    session.rollback()
    session.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, base_url="http://spyhouse.test",
                    mail_retry_s=60.0, worker_interval_s=0.01)


@pytest.fixture(autouse=True)
def cheap_hasher(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2id with small parameters: the tests hash many passwords (the real ones are
    the library's defaults, which only ``accounts.hasher`` chooses)."""
    fast = PasswordHasher(time_cost=1, memory_cost=256, parallelism=1)
    monkeypatch.setattr(accounts, "hasher", lambda: fast)
    monkeypatch.setattr(accounts, "_dummy_hash", lambda: fast.hash("dummy-password"))
