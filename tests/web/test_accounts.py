"""Sign-up, log-in, log-out, password change, the rate limit and sessions (DESIGN "Web")."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import accounts
from spyhouse.service.errors import TooManyAttempts
from spyhouse.settings import Settings
from spyhouse.store.tables import OutboxMail, User, WebSession
from spyhouse.web.app import create_app
from spyhouse.web.deps import CSRF_COOKIE, SESSION_COOKIE
from tests.web.helpers import PASSWORD, Browser


def test_home_and_health_are_public(anon: Browser) -> None:
    assert anon.get("/healthz").text == "ok"
    page = anon.get("/")
    assert page.status_code == 200
    assert "Sign up" in page.text


def test_sign_up_logs_in_and_sets_a_safe_cookie(anon: Browser,
                                                factory: sessionmaker[Session]) -> None:
    response = anon.sign_up("carol")
    assert response.headers["location"] == "/lobby?notice=welcome"
    cookie = next(c for c in response.headers.get_list("set-cookie")
                  if c.startswith(SESSION_COOKIE))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    raw = cookie.split(";")[0].split("=", 1)[1]
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "carol"))
        assert user is not None and user.password_hash.startswith("$argon2id$")
        assert PASSWORD not in user.password_hash
        stored = db.scalars(select(WebSession)).one()
        assert stored.id == accounts.token_hash(raw) and stored.id != raw
    lobby = anon.get("/lobby")
    assert lobby.status_code == 200 and "carol" in lobby.text


def test_secure_cookies_when_configured(settings: Settings, clock: FakeClock,
                                       engine: Engine) -> None:
    app = create_app(settings.with_(cookie_secure=True), clock, engine=engine)
    browser = Browser(TestClient(app, follow_redirects=False, base_url="https://testserver"))
    first = browser.get("/login")
    assert "Secure" in first.headers["set-cookie"]
    response = browser.sign_up("dave")
    cookie = next(c for c in response.headers.get_list("set-cookie")
                  if c.startswith(SESSION_COOKIE))
    assert "Secure" in cookie


def test_sign_up_refusals(anon: Browser) -> None:
    anon.sign_up("erin")
    other = Browser(TestClient(anon.client.app, follow_redirects=False))
    taken = other.post("/signup", {"username": "ERIN", "email": "e@example.org",
                                   "password": PASSWORD, "password2": PASSWORD})
    assert taken.status_code == 422 and "taken" in taken.text
    short = other.post("/signup", {"username": "frank", "email": "f@example.org",
                                   "password": "short", "password2": "short"})
    assert short.status_code == 422 and "at least 8" in short.text
    differ = other.post("/signup", {"username": "frank", "email": "f@example.org",
                                    "password": PASSWORD, "password2": PASSWORD + "x"})
    assert differ.status_code == 422 and "differ" in differ.text
    bad_mail = other.post("/signup", {"username": "frank", "email": "nope",
                                      "password": PASSWORD, "password2": PASSWORD})
    assert bad_mail.status_code == 422 and "e-mail" in bad_mail.text
    bad_name = other.post("/signup", {"username": "a b", "email": "f@example.org",
                                      "password": PASSWORD, "password2": PASSWORD})
    assert bad_name.status_code == 422


def test_log_out_revokes_the_session(alice: Browser, factory: sessionmaker[Session]) -> None:
    raw = alice.client.cookies.get(SESSION_COOKIE)
    assert raw
    response = alice.log_out()
    assert response.status_code == 303
    with factory() as db:
        stored = db.get(WebSession, accounts.token_hash(raw))
        assert stored is not None and stored.revoked_at is not None
    # the old cookie is worth nothing, even when replayed
    replay = TestClient(alice.client.app, follow_redirects=False)
    replay.cookies.set(SESSION_COOKIE, raw)
    assert replay.get("/lobby").status_code == 303


def test_log_in_with_next_and_wrong_password(alice: Browser) -> None:
    alice.log_out()
    wrong = alice.post("/login", {"username": "alice", "password": "wrong password"})
    assert wrong.status_code == 403
    assert accounts.LOGIN_FAILED in wrong.text
    unknown = alice.post("/login", {"username": "nobody", "password": "wrong password"})
    assert unknown.status_code == 403 and accounts.LOGIN_FAILED in unknown.text
    ok = alice.post("/login", {"username": "ALICE", "password": PASSWORD,
                               "next": "/account"})
    assert ok.status_code == 303 and ok.headers["location"] == "/account"


def test_log_in_never_redirects_off_site(alice: Browser) -> None:
    for target in ("//evil.example/", "https://evil.example/", "\\\\evil"):
        browser = Browser(TestClient(alice.client.app, follow_redirects=False))
        response = browser.post("/login", {"username": "alice", "password": PASSWORD,
                                           "next": target})
        assert response.headers["location"] == "/lobby"


ATTACKER = ("203.0.113.9", 50000)
OWNER = ("198.51.100.7", 50001)


def browser_at(app: FastAPI, client: tuple[str, int]) -> Browser:
    """A visitor whose requests come from the address ``client``."""
    return Browser(TestClient(app, follow_redirects=False, client=client))


def notices(factory: sessionmaker[Session]) -> list[OutboxMail]:
    with factory() as db:
        return list(db.scalars(select(OutboxMail)
                               .where(OutboxMail.kind == accounts.NOTICE_KIND)
                               .order_by(OutboxMail.id)))


def guess(browser: Browser, clock: FakeClock, username: str, password: str) -> int:
    """One attempt made as soon as it is allowed: waits out a 429's ``Retry-After``
    (moving the clock) and returns the status of the attempt that was judged."""
    response = browser.post("/login", {"username": username, "password": password})
    if response.status_code == 429:
        clock.advance(seconds=int(response.headers["retry-after"]))
        response = browser.post("/login", {"username": username, "password": password})
    return response.status_code


def test_failures_slow_the_address_down_with_growing_delays(
        alice: Browser, app: FastAPI, clock: FakeClock) -> None:
    alice.log_out()
    settings = app.state.web.settings
    attacker = browser_at(app, ATTACKER)
    for _ in range(settings.login_free_failures):
        assert attacker.post("/login", {"username": "alice",
                                        "password": "bad password"}).status_code == 403
    waits = []
    for _ in range(4):
        delayed = attacker.post("/login", {"username": "alice", "password": "bad password"})
        assert delayed.status_code == 429
        wait = int(delayed.headers["retry-after"])
        assert f"try again in {wait} seconds" in delayed.text
        waits.append(wait)
        clock.advance(seconds=wait - 1)  # a second early: still refused
        assert attacker.post("/login", {"username": "alice",
                                        "password": "bad password"}).status_code == 429
        clock.advance(seconds=1)
        assert attacker.post("/login", {"username": "alice",
                                        "password": "bad password"}).status_code == 403
    assert waits == [2, 4, 8, 16]
    # the right password from that address waits too, then works, and the pair's
    # failures are forgotten: the next wrong password is judged at once
    delayed = attacker.post("/login", {"username": "alice", "password": PASSWORD})
    assert delayed.status_code == 429 and delayed.headers["retry-after"] == "32"
    clock.advance(seconds=32)
    assert attacker.log_in("alice").status_code == 303
    attacker.log_out()
    assert attacker.post("/login", {"username": "alice",
                                    "password": "bad password"}).status_code == 403


def test_twenty_wrong_passwords_never_lock_the_owner_out(
        alice: Browser, app: FastAPI, clock: FakeClock,
        factory: sessionmaker[Session]) -> None:
    """The attack of issue 11: an opponent guessing a public user name before a deadline."""
    alice.log_out()
    attacker = browser_at(app, ATTACKER)
    statuses = [guess(attacker, clock, "alice", f"guess number {n}") for n in range(20)]
    assert statuses == [403] * 20
    assert attacker.post("/login", {"username": "alice",
                                    "password": PASSWORD}).status_code == 429
    owner = browser_at(app, OWNER)
    assert owner.log_in("alice").status_code == 303
    [mail] = notices(factory)
    assert mail.to_addr == "alice@example.org"
    assert "203.0.113.9" in mail.body and "password was not guessed" in mail.body
    assert "guess number" not in mail.body + mail.subject
    # the owner's log-in forgot nothing of the attacker's: still delayed
    assert attacker.post("/login", {"username": "alice",
                                    "password": PASSWORD}).status_code == 429


@pytest.mark.postgres
def test_log_in_throttling_on_postgresql(alice: Browser, app: FastAPI, clock: FakeClock,
                                        factory: sessionmaker[Session]) -> None:
    test_twenty_wrong_passwords_never_lock_the_owner_out(alice, app, clock, factory)


def test_one_address_cannot_spray_many_accounts(settings: Settings, clock: FakeClock,
                                               engine: Engine) -> None:
    """Failures spread over many user names from one address are slowed down too, and
    only that address is."""
    app = create_app(settings.with_(login_address_failures=8), clock, engine=engine)
    owner = browser_at(app, OWNER)
    owner.sign_up("alice")
    owner.log_out()
    sprayer = browser_at(app, ATTACKER)
    for n in range(8):  # one or two guesses per name: no pair reaches its limit
        user = f"guess{n // 2}"
        assert sprayer.post("/login", {"username": user,
                                       "password": "bad password"}).status_code == 403
    delayed = sprayer.post("/login", {"username": "someone", "password": "bad password"})
    assert delayed.status_code == 429 and delayed.headers["retry-after"] == "2"
    assert "from your address" in delayed.text
    assert sprayer.log_in("alice").status_code == 429  # not even a right password
    assert owner.log_in("alice").status_code == 303  # another address is not slowed
    clock.advance(seconds=2)
    assert sprayer.post("/login", {"username": "other",
                                   "password": "bad password"}).status_code == 403
    assert sprayer.post("/login", {"username": "other2",
                                   "password": "bad password"}).headers["retry-after"] == "4"


def test_rate_limit_service(factory: sessionmaker[Session], app: FastAPI,
                            clock: FakeClock) -> None:
    settings = app.state.web.settings
    with factory() as db:
        accounts.sign_up(db, "gina", "g@example.org", PASSWORD, clock.now())
        db.commit()
    for _ in range(settings.login_free_failures):
        with factory() as db:
            with pytest.raises(accounts.LoginFailed):
                accounts.authenticate(db, "gina", "nope nope", "10.0.0.1", clock.now(),
                                      settings)
            db.commit()
    with factory() as db:
        with pytest.raises(TooManyAttempts) as delayed:
            accounts.authenticate(db, "gina", PASSWORD, "10.0.0.1", clock.now(), settings)
        assert isinstance(delayed.value, accounts.LoginDelayed)
        assert delayed.value.retry_after == 2
        # another address is not slowed down
        assert accounts.authenticate(db, "gina", PASSWORD, "10.0.0.2", clock.now(),
                                     settings).username == "gina"


def test_change_password(alice: Browser, factory: sessionmaker[Session]) -> None:
    other = Browser(TestClient(alice.client.app, follow_redirects=False))
    assert other.log_in("alice").status_code == 303
    wrong = alice.post("/account/password", {"old_password": "not it",
                                             "new_password": "new password 1",
                                             "new_password2": "new password 1"})
    assert wrong.status_code == 422 and "current password is wrong" in wrong.text
    ok = alice.post("/account/password", {"old_password": PASSWORD,
                                          "new_password": "new password 1",
                                          "new_password2": "new password 1"})
    assert ok.status_code == 303
    assert alice.get("/lobby").status_code == 200  # this session stays
    assert other.get("/lobby").status_code == 303  # the other one was logged out
    alice.log_out()
    assert alice.log_in("alice").status_code == 403
    assert alice.log_in("alice", "new password 1").status_code == 303


def test_email_privacy_setting(alice: Browser, factory: sessionmaker[Session]) -> None:
    page = alice.get("/account")
    assert "show my e-mail" in page.text.lower() or "Show my e-mail" in page.text
    assert alice.post("/account/privacy", {}).status_code == 303
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None and user.email_public is False
    alice.post("/account/privacy", {"email_public": "1"})
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None and user.email_public is True


def test_pre_session_csrf_cookie(anon: Browser) -> None:
    page = anon.get("/signup")
    assert CSRF_COOKIE in page.headers.get("set-cookie", "")
    assert anon.get("/healthz").headers.get("set-cookie") is None


def test_session_expires(alice: Browser, app: FastAPI, clock: FakeClock) -> None:
    clock.advance(days=app.state.web.settings.session_days + 1)
    assert alice.get("/lobby").status_code == 303
