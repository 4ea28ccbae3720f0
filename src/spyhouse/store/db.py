"""Engines, sessions, transactions and migrations.

SQLite (the default, a file under ``var/``) runs in WAL mode with a busy timeout
and foreign keys on; PostgreSQL is used as given. ``finish`` is the one place that
commits (``transaction``'s, and the web's per request): services never do.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite files get their folder, WAL, a busy timeout, FKs."""
    if is_sqlite(url):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            kwargs.setdefault("pool_size", 20)  # more than the web admits at once
            kwargs.setdefault("max_overflow", 20)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False},
                               **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    kwargs.setdefault("pool_size", 20)
    kwargs.setdefault("max_overflow", 20)
    return create_engine(url, pool_pre_ping=True, **kwargs)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def finish(session: Session, *, commit: bool) -> None:
    """End ``session``'s transaction: commit (rolled back if the commit fails), or roll
    back. ``transaction`` ends its unit of work with it, and the web's ``Db`` (which
    ends a request's transaction in the thread its handler ran in) too."""
    if not commit:
        session.rollback()
        return
    try:
        session.commit()
    except BaseException:
        session.rollback()
        raise


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit if the block ends normally, roll back if it raises."""
    session = factory()
    try:
        yield session
    except BaseException:
        finish(session, commit=False)
        raise
    else:
        finish(session, commit=True)
    finally:
        session.close()


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


#: the PostgreSQL advisory lock key that serialises migrations ("spyhouse" in ASCII)
MIGRATION_LOCK = 0x73_70_79_68_6F_75_73_65


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``).

    Several processes may start at once on an empty database (the web server and
    workers): on PostgreSQL each takes a transaction-scoped advisory lock first, so one
    migrates and the others then find the schema current. SQLite's write lock already
    serialises them."""
    from alembic import command

    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
