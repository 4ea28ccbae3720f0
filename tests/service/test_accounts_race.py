"""Two sign-ups for one name at once: the second is told the name is taken, never a 500."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.service.accounts import sign_up
from spyhouse.service.errors import Invalid

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _race(factory: sessionmaker[Session]) -> list[BaseException | None]:
    """A signs up "ann" and holds the row uncommitted while B signs up "Ann"; then A
    commits. B either sees A's row at its check or collides at its insert."""
    outcome: list[BaseException | None] = []
    first = factory()
    sign_up(first, "ann", "ann@example.org", "a long enough password", NOW)

    def second() -> None:
        with factory() as session:
            try:
                sign_up(session, "Ann", "ann2@example.org", "a long enough password", NOW)
                session.commit()
                outcome.append(None)
            except BaseException as error:  # the test reports whatever it was
                session.rollback()
                outcome.append(error)

    thread = threading.Thread(target=second)
    thread.start()
    thread.join(0.5)  # B is now blocked on A's uncommitted name (or already done)
    first.commit()
    first.close()
    thread.join(30)
    return outcome


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres",
                                                            marks=pytest.mark.postgres)])
def test_concurrent_sign_up_of_one_name_is_refused_cleanly(
        factory: sessionmaker[Session], backend: str) -> None:
    outcome = _race(factory)
    assert len(outcome) == 1
    assert isinstance(outcome[0], Invalid)
    assert outcome[0].fields == {"username": ["taken"]}
