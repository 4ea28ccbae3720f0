"""Password reset by e-mail (service/password_reset.py): a link per request, kept only as
a SHA-256, valid one hour and once; using it ends every session and other link; the
request tells nobody whether an account exists, and mails an account at most three
times an hour."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.mail import messages
from spyhouse.service import accounts, games, password_reset, play
from spyhouse.service.errors import Forbidden, Invalid, TooManyAttempts
from spyhouse.settings import Settings
from spyhouse.store.tables import LoginAttempt, PasswordReset, User
from tests.service.helpers import mails, new_game, started_game

OLD = "the old password"
NEW = "a brand new password"
LINK = re.compile(r"http://spyhouse\.test/reset/(\S+)")


@pytest.fixture
def ann(db: Session, clock: FakeClock) -> User:
    user = accounts.sign_up(db, "Ann", "ann@example.org", OLD, clock.now())
    db.commit()
    return user


def tokens(db: Session) -> list[str]:
    """The tokens of the queued reset mails, oldest first (read from the links)."""
    found = []
    for mail in mails(db, password_reset.MAIL_KIND):
        match = LINK.search(mail.body)
        assert match, mail.body
        found.append(match.group(1))
    return found


def ask(db: Session, clock: FakeClock, settings: Settings, who: str = "ann") -> str:
    """Request a link for ``who`` and return the newest token."""
    password_reset.request_reset(db, who, clock.now(), settings)
    db.commit()
    return tokens(db)[-1]


def test_a_request_mails_a_link_whose_token_is_stored_only_as_its_hash(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    token = ask(db, clock, settings, "ANN")  # user names are case-insensitive
    [mail] = mails(db, "password_reset")
    assert (mail.to_addr, mail.user_id) == ("ann@example.org", ann.id)
    assert f"http://spyhouse.test/reset/{token}" in mail.body and "Ann" in mail.body
    [row] = db.scalars(select(PasswordReset)).all()
    assert row.token_hash == accounts.token_hash(token) != token
    assert len(row.token_hash) == 64 and token not in row.token_hash
    assert row.expires_at - row.created_at == password_reset.RESET_VALID
    # by e-mail address too, whatever its case
    password_reset.request_reset(db, " Ann@Example.ORG ", clock.now(), settings)
    assert len(mails(db, "password_reset")) == 2


def test_an_unknown_account_queues_nothing_and_returns_the_same(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    for who in ("nobody", "nobody@example.org", "", "   ", "x" * 300):
        assert password_reset.request_reset(db, who, clock.now(), settings) is None
    assert mails(db) == [] and db.scalars(select(PasswordReset)).all() == []


def test_the_link_sets_the_password_once_and_ends_sessions_and_other_links(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    _cookie, session = accounts.open_session(db, ann, clock.now(), settings)
    first = ask(db, clock, settings)
    second = ask(db, clock, settings)
    assert password_reset.check_reset(db, second, clock.now()).id == ann.id
    user = password_reset.reset_password(db, second, NEW, clock.now())
    db.commit()
    assert user.id == ann.id
    assert accounts.authenticate(db, "ann", NEW, "1.2.3.4", clock.now(), settings).id == ann.id
    with pytest.raises(accounts.LoginFailed):
        accounts.authenticate(db, "ann", OLD, "1.2.3.4", clock.now(), settings)
    db.refresh(session)
    assert session.revoked_at == clock.now()
    for used in (second, first):  # the used link, and the other open one
        with pytest.raises(Invalid) as refused:
            password_reset.reset_password(db, used, "yet another password", clock.now())
        assert refused.value.message == password_reset.LINK_USED
        assert "token" in refused.value.fields


def test_a_link_expires_after_exactly_one_hour(db: Session, clock: FakeClock,
                                              settings: Settings, ann: User) -> None:
    token = ask(db, clock, settings)
    clock.advance(minutes=59, seconds=59)
    assert password_reset.check_reset(db, token, clock.now()).id == ann.id
    clock.advance(seconds=1)
    for attempt in (lambda: password_reset.check_reset(db, token, clock.now()),
                    lambda: password_reset.reset_password(db, token, NEW, clock.now())):
        with pytest.raises(Invalid, match="expired or was already used"):
            attempt()


def test_unknown_links_and_bad_passwords_are_refused_and_change_nothing(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    for bad in ("", "not-a-token", "x" * 500):
        with pytest.raises(Invalid) as refused:
            password_reset.reset_password(db, bad, NEW, clock.now())
        assert refused.value.message == password_reset.LINK_UNKNOWN
    token = ask(db, clock, settings)
    with pytest.raises(Invalid) as refused:
        password_reset.reset_password(db, token, "short", clock.now())
    assert "password" in refused.value.fields
    db.rollback()
    # the link is still good after a refused password
    assert password_reset.reset_password(db, token, NEW, clock.now()).id == ann.id


def test_three_mails_an_hour_per_account_at_most(db: Session, clock: FakeClock,
                                                settings: Settings, ann: User) -> None:
    for _ in range(5):
        password_reset.request_reset(db, "ann", clock.now(), settings)
    assert len(mails(db, "password_reset")) == password_reset.RESETS_PER_HOUR == 3
    clock.advance(minutes=59)
    password_reset.request_reset(db, "ann@example.org", clock.now(), settings)
    assert len(mails(db, "password_reset")) == 3
    clock.advance(minutes=1, seconds=1)  # the first three are now more than an hour old
    password_reset.request_reset(db, "ann", clock.now(), settings)
    assert len(mails(db, "password_reset")) == 4


def test_a_reset_clears_the_failed_log_ins_of_the_account(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    for n in range(settings.login_free_failures):
        with pytest.raises(accounts.LoginFailed):
            accounts.authenticate(db, "ann", f"guess {n} wrong", "10.0.0.9", clock.now(),
                                  settings)
    with pytest.raises(TooManyAttempts):  # that address must wait now
        accounts.authenticate(db, "ann", OLD, "10.0.0.9", clock.now(), settings)
    password_reset.reset_password(db, ask(db, clock, settings), NEW, clock.now())
    assert db.scalars(select(LoginAttempt).where(
        LoginAttempt.key.in_(("user:ann", "pair:ann|10.0.0.9")))).all() == []
    assert db.scalars(select(LoginAttempt).where(  # the address's own count stays
        LoginAttempt.key == "addr:10.0.0.9")).all() != []
    assert accounts.authenticate(db, "ann", NEW, "10.0.0.9", clock.now(), settings).id == ann.id


def test_a_deleted_account_takes_its_links_with_it(db: Session, clock: FakeClock,
                                                  settings: Settings, ann: User) -> None:
    ask(db, clock, settings)
    for mail in mails(db):
        db.delete(mail)  # the outbox keeps no cascade to users
    db.delete(ann)
    db.commit()
    assert db.scalars(select(PasswordReset)).all() == []


@pytest.mark.postgres
def test_the_link_lifecycle_on_postgresql(db: Session, clock: FakeClock, settings: Settings,
                                          ann: User) -> None:
    test_the_link_sets_the_password_once_and_ends_sessions_and_other_links(
        db, clock, settings, ann)
    clock.advance(hours=2)
    before = len(mails(db, "password_reset"))
    for _ in range(5):
        password_reset.request_reset(db, "ann@example.org", clock.now(), settings)
    assert len(mails(db, "password_reset")) - before == password_reset.RESETS_PER_HOUR


# ---------------------------------------------------------------- the same work either way


class Recorder:
    """What a request did: every SQL statement sent (its text; the values may differ),
    and the tokens hashed and mails written."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, db: Session) -> None:
        self.statements: list[str] = []
        self.calls: list[str] = []
        self.engine = db.get_bind()
        event.listen(self.engine, "before_cursor_execute", self._statement)
        hash_of, write = accounts.token_hash, messages.password_reset_message

        def token_hash(token: str) -> str:
            self.calls.append("token_hash")
            return hash_of(token)

        def message(**kwargs: Any) -> messages.Message:
            self.calls.append("password_reset_message")
            return write(**kwargs)

        monkeypatch.setattr(accounts, "token_hash", token_hash)
        monkeypatch.setattr(messages, "password_reset_message", message)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.statements.append(statement)

    def run(self, db: Session, clock: FakeClock, settings: Settings,
            who: str) -> tuple[list[str], list[str]]:
        self.statements.clear()
        self.calls.clear()
        password_reset.request_reset(db, who, clock.now(), settings)
        done = (list(self.statements), list(self.calls))
        db.commit()
        return done

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)


def test_a_request_does_the_same_work_whether_or_not_an_account_gets_a_mail(
        db: Session, clock: FakeClock, settings: Settings, ann: User,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A mailed link, a throttled account, no such account: the same statements in the
    same order, one token hashed and one mail written each; only the rows differ."""
    recorder = Recorder(monkeypatch, db)
    try:
        mailed = recorder.run(db, clock, settings, "ann")
        for _ in range(password_reset.RESETS_PER_HOUR - 1):
            recorder.run(db, clock, settings, "Ann")
        throttled = recorder.run(db, clock, settings, "ANN")
        unknown = recorder.run(db, clock, settings, "nobody")
        by_mail = recorder.run(db, clock, settings, "nobody@example.org")
        clock.advance(hours=1)
        by_mail_mailed = recorder.run(db, clock, settings, "ann@example.org")
    finally:
        recorder.close()
    assert mailed == throttled == unknown
    assert by_mail == by_mail_mailed
    statements, calls = mailed
    assert calls == ["password_reset_message", "token_hash"]
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    assert len(inserts) == 2 and all("SELECT" in s.upper() for s in inserts)
    # and only the accounts that were due a mail got one
    assert len(mails(db, password_reset.MAIL_KIND)) == password_reset.RESETS_PER_HOUR + 1
    assert len(db.scalars(select(PasswordReset)).all()) == password_reset.RESETS_PER_HOUR + 1
    assert {mail.to_addr for mail in mails(db)} == {"ann@example.org"}


def test_a_reset_revokes_every_api_token_of_the_account(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    game, (host, _guest) = started_game(db, clock.now())
    mine = games.join_game(db, ann, new_game(db, host, clock.now()).id, name="Ann's Own",
                           player="Ann", show_email=False, choice=None, now=clock.now())
    seats = {seat.user_id: seat for seat in game.seats}
    theirs = play.create_token(db, seats[host.id], "host's bot", clock.now())
    ann_tokens = [play.create_token(db, mine, "bot", clock.now()),
                  play.create_token(db, mine, "script", clock.now())]
    db.commit()
    password_reset.reset_password(db, ask(db, clock, settings), NEW, clock.now())
    db.commit()
    for token in ann_tokens:
        with pytest.raises(Forbidden, match="revoked"):
            play.seat_of_token(db, token, clock.now())
    assert all(row.revoked_at == clock.now() for row in play.tokens_of(db, mine))
    assert play.seat_of_token(db, theirs, clock.now()).id == seats[host.id].id  # not ann's


@pytest.mark.postgres
def test_the_same_work_either_way_and_the_revoked_tokens_on_postgresql(
        db: Session, clock: FakeClock, settings: Settings, ann: User,
        monkeypatch: pytest.MonkeyPatch) -> None:
    test_a_request_does_the_same_work_whether_or_not_an_account_gets_a_mail(
        db, clock, settings, ann, monkeypatch)
    clock.advance(hours=2)
    test_a_reset_revokes_every_api_token_of_the_account(db, clock, settings, ann)
