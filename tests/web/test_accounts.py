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
from spyhouse.settings import Settings
from spyhouse.store.tables import User, WebSession
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


def test_rate_limit_per_user_name(alice: Browser, app: FastAPI, clock: FakeClock) -> None:
    alice.log_out()
    limit = app.state.web.settings.login_attempts
    for _ in range(limit):
        assert alice.post("/login", {"username": "alice",
                                     "password": "bad password"}).status_code == 403
    blocked = alice.post("/login", {"username": "alice", "password": PASSWORD})
    assert blocked.status_code == 429 and "too many" in blocked.text
    clock.advance(seconds=app.state.web.settings.login_window_s + 1)
    assert alice.log_in("alice").status_code == 303


@pytest.mark.postgres
def test_accounts_and_rate_limit_on_postgresql(alice: Browser, app: FastAPI,
                                               clock: FakeClock) -> None:
    test_rate_limit_per_user_name(alice, app, clock)


def test_rate_limit_per_client_address(alice: Browser, bob: Browser, app: FastAPI) -> None:
    """Failures spread over many user names from one address are limited too."""
    alice.log_out()
    limit = app.state.web.settings.login_attempts
    for n in range(limit):
        alice.post("/login", {"username": f"guess{n}", "password": "bad password"})
    blocked = alice.post("/login", {"username": "alice", "password": PASSWORD})
    assert blocked.status_code == 429


def test_rate_limit_service(factory: sessionmaker[Session], app: FastAPI,
                            clock: FakeClock) -> None:
    settings = app.state.web.settings
    with factory() as db:
        accounts.sign_up(db, "gina", "g@example.org", PASSWORD, clock.now())
        db.commit()
    for _ in range(settings.login_attempts):
        with factory() as db:
            try:
                accounts.authenticate(db, "gina", "nope nope", "10.0.0.1", clock.now(), settings)
            except accounts.LoginFailed:
                db.commit()
    with factory() as db:
        try:
            accounts.authenticate(db, "gina", PASSWORD, "10.0.0.2", clock.now(), settings)
        except Exception as exc:
            assert type(exc).__name__ == "TooManyAttempts"
        else:
            raise AssertionError("the rate limit did not hold")


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
