"""The store (store/db.py, store/tables.py, migrations): the migrated schema is the
tables' schema, on SQLite and PostgreSQL, and the newest migration goes down and up."""

from __future__ import annotations

from datetime import datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from spyhouse.store.db import alembic_config, migrate
from spyhouse.store.tables import Base, Game, News, User


def _differences(engine: Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"render_as_batch": True})
        return list(compare_metadata(context, Base.metadata))


def test_the_migrated_sqlite_schema_matches_the_tables(engine: Engine) -> None:
    assert _differences(engine) == []


@pytest.mark.postgres
def test_the_migrated_postgresql_schema_matches_the_tables(engine: Engine) -> None:
    assert _differences(engine) == []


def test_the_newest_migration_goes_down_and_up(engine: Engine) -> None:
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    columns = {c["name"] for c in inspect(engine).get_columns("games")}
    assert "awaiting" not in columns and "news" not in inspect(engine).get_table_names()
    migrate(engine)
    assert _differences(engine) == []


def test_the_new_columns_take_their_defaults(db: Session) -> None:
    now = datetime.fromisoformat("2026-11-30T12:00:00+00:00")
    user = User(username="ann", username_key="ann", email="a@example.org", password_hash="x",
                created_at=now)
    db.add(user)
    db.flush()
    game = Game(game="spyvsspy", title="T", host_id=user.id, seed=1, created_at=now)
    db.add(game)
    db.flush()
    db.add(News(game_id=game.id, entry=0, kind="start", text="hello", at=now))
    db.commit()
    db.expire_all()
    fresh = db.get(Game, game.id)
    assert fresh is not None
    assert (fresh.awaiting, fresh.paused_s, fresh.paused_at, fresh.status) == ([], 0, None,
                                                                              "open")


@pytest.mark.postgres
def test_processes_migrating_an_empty_database_at_once_all_succeed(engine: Engine) -> None:
    """Four migrators start together on an empty PostgreSQL schema (a server and its
    workers starting at once): the advisory lock lets one migrate, the rest find it done."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import text

    from spyhouse.store.db import make_engine

    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    url = engine.url.render_as_string(hide_password=False)
    engines = [make_engine(url) for _ in range(4)]
    try:
        with ThreadPoolExecutor(len(engines)) as pool:
            list(pool.map(migrate, engines))  # re-raises any migrator's error
    finally:
        for each in engines:
            each.dispose()
    assert _differences(engine) == []


def test_mail_queued_before_0005_is_still_pending_after_it(engine: Engine) -> None:
    """0005 adds ``outbox.failed_at``: rows written by an older release stay pending."""
    from sqlalchemy import text

    from spyhouse.mail.outbox import pending_ids
    from spyhouse.store.db import session_factory

    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0004")
    assert "failed_at" not in {c["name"] for c in inspect(engine).get_columns("outbox")}
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO outbox (kind, to_addr, subject, body, created_at, attempts, "
            "next_attempt_at) VALUES ('turn', 'ann@example.org', :subject, 'Hi', "
            "'2026-11-30 12:00:00', 3, '2026-11-30 12:00:00')"),
            {"subject": "[Evil\r\nBcc: attacker@example.test] Turn 1 processed"})
    migrate(engine)
    with session_factory(engine)() as db:
        now = datetime.fromisoformat("2026-11-30T13:00:00+00:00")
        assert len(pending_ids(db, now, 10)) == 1
