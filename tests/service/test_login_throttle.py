"""Log-in throttling (service/accounts.py ``authenticate``): growing delays per (user
name, address) pair and per address, never a lock-out of the account; argon2 runs
only for an attempt that is allowed; the owner is mailed about repeated failures at
most once an hour, never with a password."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail import messages
from spyhouse.service import accounts
from spyhouse.service.errors import ServiceError
from spyhouse.settings import Settings
from spyhouse.store.tables import LoginAttempt, OutboxMail, User
from tests.service.helpers import mails

PASSWORD = "the right password"


@pytest.fixture
def ann(db: Session, clock: FakeClock) -> User:
    user = accounts.sign_up(db, "Ann", "ann@example.org", PASSWORD, clock.now())
    db.commit()
    return user


def fail(db: Session, clock: FakeClock, settings: Settings, address: str,
         username: str = "ann", password: str = "a wrong password") -> None:
    with pytest.raises(accounts.LoginFailed):
        accounts.authenticate(db, username, password, address, clock.now(), settings)


def delay(db: Session, clock: FakeClock, settings: Settings, address: str,
          username: str = "ann", password: str = PASSWORD) -> accounts.LoginDelayed:
    with pytest.raises(accounts.LoginDelayed) as refused:
        accounts.authenticate(db, username, password, address, clock.now(), settings)
    return refused.value


def test_client_buckets() -> None:
    assert accounts.client_bucket("203.0.113.9") == "203.0.113.9"
    assert accounts.client_bucket(" 2001:db8:1:2:3:4:5:6 ") == "2001:db8:1:2::/64"
    assert accounts.client_bucket("2001:db8:1:2::ffff") == "2001:db8:1:2::/64"
    assert accounts.client_bucket("fe80::1%eth0") == "fe80::/64"
    assert accounts.client_bucket("::ffff:198.51.100.7") == "198.51.100.7"
    assert accounts.client_bucket("testclient") == "testclient"
    assert accounts.client_bucket("") == "unknown"
    assert len(accounts.client_bucket("x" * 500)) == 64


def test_delays_double_up_to_the_cap(settings: Settings) -> None:
    free = settings.login_free_failures
    assert [accounts.delay_after(n, free, settings) for n in range(free)] == [0] * free
    assert [accounts.delay_after(free + n, free, settings) for n in range(5)] == [
        2, 4, 8, 16, 32]
    assert accounts.delay_after(free + 100, free, settings) == settings.login_max_delay_s
    assert accounts.delay_after(10**9, free, settings) == settings.login_max_delay_s


def test_the_pair_waits_and_another_address_does_not(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    for _ in range(settings.login_free_failures):
        fail(db, clock, settings, "203.0.113.9")
    refused = delay(db, clock, settings, "203.0.113.9")
    assert refused.retry_after == 2 and refused.until == clock.now() + timedelta(seconds=2)
    assert refused.status == 429
    assert "try again in 2 seconds (at 12:00:02 UTC)" in refused.message
    # an IPv6 client and the owner elsewhere are not slowed down
    assert accounts.authenticate(db, "ann", PASSWORD, "198.51.100.7", clock.now(),
                                 settings).id == ann.id
    # the same /64 is the same address
    for _ in range(settings.login_free_failures):
        fail(db, clock, settings, "2001:db8::1")
    delay(db, clock, settings, "2001:db8::2")
    assert accounts.authenticate(db, "ann", PASSWORD, "2001:db8:0:1::1", clock.now(),
                                 settings).id == ann.id


def test_a_delayed_attempt_costs_no_argon2(db: Session, clock: FakeClock, settings: Settings,
                                           ann: User, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(settings.login_free_failures):
        fail(db, clock, settings, "203.0.113.9")
    calls: list[Any] = []
    real = accounts.hasher()

    class Counting:
        def verify(self, *args: Any) -> bool:
            calls.append(args)
            return real.verify(*args)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    monkeypatch.setattr(accounts, "hasher", lambda: Counting())
    for _ in range(50):
        delay(db, clock, settings, "203.0.113.9")
    assert calls == []
    clock.advance(seconds=2)
    fail(db, clock, settings, "203.0.113.9")
    assert len(calls) == 1
    # refused attempts do not count: the wait grew by one failure only
    assert delay(db, clock, settings, "203.0.113.9").retry_after == 4


def test_unknown_user_names_are_delayed_alike(db: Session, clock: FakeClock,
                                             settings: Settings, ann: User) -> None:
    """A made-up name behaves as a real one, so the delays tell nobody who exists."""
    for name in ("nobody", "x" * 300):
        for _ in range(settings.login_free_failures):
            fail(db, clock, settings, "203.0.113.9", username=name)
        assert delay(db, clock, settings, "203.0.113.9", username=name).retry_after == 2
    assert all(len(key) <= 120 for key in db.scalars(select(LoginAttempt.key)))
    assert mails(db) == []


def test_a_success_forgets_the_pair_but_not_the_address(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    for _ in range(settings.login_free_failures - 1):
        fail(db, clock, settings, "203.0.113.9")
    accounts.authenticate(db, "ann", PASSWORD, "203.0.113.9", clock.now(), settings)
    keys = list(db.scalars(select(LoginAttempt.key)))
    assert "pair:ann|203.0.113.9" not in keys
    assert keys.count("addr:203.0.113.9") == settings.login_free_failures - 1
    for _ in range(settings.login_free_failures):  # a fresh allowance
        fail(db, clock, settings, "203.0.113.9")


def test_the_address_limit_covers_every_account(db: Session, clock: FakeClock,
                                               settings: Settings, ann: User) -> None:
    settings = settings.with_(login_address_failures=12)
    for n in range(12):
        fail(db, clock, settings, "203.0.113.9", username=f"name{n}")
    refused = delay(db, clock, settings, "203.0.113.9", username="fresh-name")
    assert refused.retry_after == 2 and "from your address" in refused.message
    assert accounts.authenticate(db, "ann", PASSWORD, "198.51.100.7", clock.now(),
                                 settings).id == ann.id


def test_failures_are_forgotten_after_the_window(db: Session, clock: FakeClock,
                                                settings: Settings, ann: User) -> None:
    for _ in range(settings.login_free_failures):
        fail(db, clock, settings, "203.0.113.9")
    clock.advance(seconds=settings.login_window_s)
    assert accounts.authenticate(db, "ann", PASSWORD, "203.0.113.9", clock.now(),
                                 settings).id == ann.id
    assert "addr:203.0.113.9" not in list(db.scalars(select(LoginAttempt.key)))


def test_the_owner_is_told_once_an_hour_without_the_passwords(
        db: Session, clock: FakeClock, settings: Settings, ann: User) -> None:
    limit = settings.login_notify_failures
    for n in range(limit - 1):  # spread over addresses: no delay, but all counted
        fail(db, clock, settings, f"203.0.113.{n % 3}", password=f"secret guess {n}")
    assert mails(db, accounts.NOTICE_KIND) == []
    fail(db, clock, settings, "198.51.100.7", password="secret guess last")
    [mail] = mails(db, accounts.NOTICE_KIND)
    assert (mail.to_addr, mail.user_id) == ("ann@example.org", ann.id)
    assert mail.subject == "Failed log-ins to your account Ann"
    assert f"{limit} failed log-ins to your spyhouse account \"Ann\"" in mail.body
    assert "203.0.113.0 (3)" in mail.body and "198.51.100.7 (1)" in mail.body
    assert "your password was not guessed" in mail.body
    assert "secret guess" not in mail.body and "http://spyhouse.test/account" in mail.body
    for n in range(3 * limit):  # more within the hour: no second mail
        clock.advance(seconds=50)
        fail(db, clock, settings, f"192.0.2.{n}")
    assert len(mails(db, accounts.NOTICE_KIND)) == 1
    clock.advance(minutes=59)
    for n in range(limit):  # still going an hour after the mail: told again
        fail(db, clock, settings, f"192.0.2.{n}")
    assert len(mails(db, accounts.NOTICE_KIND)) == 2


def test_a_few_failures_mail_nobody(db: Session, clock: FakeClock, settings: Settings,
                                    ann: User) -> None:
    for n in range(settings.login_notify_failures - 1):
        clock.advance(minutes=1)
        fail(db, clock, settings, f"203.0.113.{n}")
    clock.advance(minutes=59)  # the first failures are more than an hour old
    fail(db, clock, settings, "203.0.113.200")
    assert db.scalars(select(OutboxMail)).all() == []


def test_the_notice_builder() -> None:
    one = messages.login_failures_message(username="Ann", failures=12,
                                          addresses=[("203.0.113.9", 12)],
                                          account_url="http://x/account")
    assert one.body.startswith(
        "12 failed log-ins to your spyhouse account \"Ann\" from 203.0.113.9 in the last hour.")
    assert "if it was not you, there is nothing to do" in one.body.lower()
    many = messages.login_failures_message(
        username="Ann", failures=30, addresses=[(f"192.0.2.{n}", 30 - n) for n in range(7)],
        account_url="http://x/account")
    assert "  192.0.2.0 (30)" in many.body and "192.0.2.5" not in many.body
    assert "and 2 other addresses" in many.body
    assert "\n" not in many.subject


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres",
                                                            marks=pytest.mark.postgres)])
def test_concurrent_guesses_are_judged_one_at_a_time(
        factory: sessionmaker[Session], clock: FakeClock, settings: Settings,
        monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """Guesses sent at once cannot all pass one check: with one free failure left, of six
    concurrent wrong guesses from one address one is judged and five are delayed."""
    with factory() as db:
        accounts.sign_up(db, "ann", "ann@example.org", PASSWORD, clock.now())
        for _ in range(settings.login_free_failures - 1):
            fail(db, clock, settings, "203.0.113.9")
        db.commit()
    real_verify = accounts._verify

    def slow_verify(password_hash: str, password: str) -> bool:
        time.sleep(0.2)  # argon2 at full cost: the window a race would need
        return real_verify(password_hash, password)

    monkeypatch.setattr(accounts, "_verify", slow_verify)
    start = threading.Barrier(6)
    outcome: list[str] = []

    def guess() -> None:
        start.wait()
        with factory() as db:
            try:
                accounts.authenticate(db, "ann", "a wrong password", "203.0.113.9",
                                      clock.now(), settings)
            except ServiceError as error:
                outcome.append(type(error).__name__)
            db.commit()

    threads = [threading.Thread(target=guess) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcome) == ["LoginDelayed"] * 5 + ["LoginFailed"]
