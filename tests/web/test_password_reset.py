"""Password reset through the site: "Forgot your password?" on the log-in page, the
request form, the mailed link (from the outbox, and over a real SMTP conversation with
aiosmtpd on loopback), the new-password form, then the lobby, logged in."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from pathlib import Path
from typing import Any

import httpx2
import pytest
from aiosmtpd.controller import Controller
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import SmtpMailer, mailer_for
from spyhouse.service import password_reset
from spyhouse.settings import Settings
from spyhouse.store.tables import OutboxMail
from spyhouse.web import access_log
from spyhouse.worker import run_once
from tests.mail.test_outbox import Inbox, free_port
from tests.serving import Running, uvicorn_thread
from tests.web.helpers import PASSWORD, Browser, csrf_of, started_game, visitor
from tests.web.test_api import api, make_token

NEW = "a brand new password"
LINK = re.compile(r"http://testserver(/reset/[A-Za-z0-9_-]+)")


def reset_links(factory: sessionmaker[Session]) -> list[str]:
    """The paths of the reset links in the outbox, oldest first."""
    with factory() as db:
        bodies = db.scalars(select(OutboxMail.body).where(OutboxMail.kind == "password_reset")
                            .order_by(OutboxMail.id)).all()
    links = []
    for body in bodies:
        match = LINK.search(body)
        assert match, body
        links.append(match.group(1))
    return links


def set_password(browser: Browser, link: str, password: str = NEW,
                 password2: str | None = None, **extra: Any) -> httpx2.Response:
    """Post the new-password form of ``link`` as the page does: the token in the body,
    to ``/reset/password`` (never in the address)."""
    form = browser.get(link).text if "csrf_token" not in extra else ""
    if form:
        assert 'action="/reset/password"' in form and link not in form
    fields = {"token": link.rsplit("/", 1)[1], "password": password,
              "password2": password if password2 is None else password2, **extra}
    return browser.post("/reset/password", fields)


def ask_for_link(browser: Browser, who: str) -> str:
    page = browser.get("/reset")
    assert page.status_code == 200 and 'name="username_or_email"' in page.text
    answer = browser.post("/reset", {"username_or_email": who})
    assert answer.status_code == 200
    assert password_reset.REQUEST_ANSWER in answer.text
    assert f'value="{who}"' in answer.text  # what was typed stays
    return answer.text


def test_forgot_password_from_the_log_in_page_to_the_lobby(
        alice: Browser, app: FastAPI, factory: sessionmaker[Session]) -> None:
    alice.log_out()
    stranger = visitor(app)
    assert 'href="/reset"' in stranger.get("/login").text
    ask_for_link(stranger, "alice@example.org")
    [link] = reset_links(factory)
    form = stranger.get(link)
    assert form.status_code == 200 and "alice" in form.text
    assert "API token of your seats revoked" in form.text  # said before it is done
    # two different passwords: the form again, with the message, without the passwords
    differ = set_password(stranger, link, NEW, NEW + "!")
    assert differ.status_code == 422 and "differ" in differ.text and NEW not in differ.text
    short = set_password(stranger, link, "short")
    assert short.status_code == 422 and "at least 8 characters" in short.text
    done = set_password(stranger, link)
    assert done.status_code == 303 and done.headers["location"] == "/lobby?notice=reset"
    lobby = stranger.get("/lobby?notice=reset")
    assert lobby.status_code == 200 and "new password is set" in lobby.text
    assert "API tokens were revoked" in lobby.text
    # the link worked once
    again = stranger.get(link)
    assert again.status_code == 422 and "expired or was already used" in again.text
    again = set_password(stranger, link, csrf_token=csrf_of(again.text))  # the session's
    assert again.status_code == 422 and "expired or was already used" in again.text
    # the old address of the form takes nothing any more (it had the token in its path)
    assert stranger.post(link, {"password": NEW, "password2": NEW}).status_code == 405
    # the old password is refused, the new one works
    assert alice.log_in("alice", PASSWORD).status_code == 403
    assert alice.log_in("alice", NEW).status_code == 303


def test_a_reset_logs_out_every_session(alice: Browser, app: FastAPI,
                                        factory: sessionmaker[Session]) -> None:
    other = visitor(app)
    ask_for_link(other, "ALICE")
    [link] = reset_links(factory)
    assert alice.get("/lobby").status_code == 200
    assert set_password(other, link).status_code == 303
    assert alice.get("/lobby").status_code == 303  # sent to log in


def test_an_unknown_account_gets_the_same_answer_and_no_mail(
        alice: Browser, app: FastAPI, factory: sessionmaker[Session]) -> None:
    stranger = visitor(app)
    known = ask_for_link(stranger, "alice")
    unknown = ask_for_link(stranger, "nobody")
    assert known.replace("alice", "") == unknown.replace("nobody", "")
    assert len(reset_links(factory)) == 1
    empty = stranger.post("/reset", {"username_or_email": "  "})
    assert empty.status_code == 422 and "user name or your e-mail" in empty.text


def test_an_expired_or_made_up_link_offers_a_new_one(
        alice: Browser, app: FastAPI, clock: FakeClock,
        factory: sessionmaker[Session]) -> None:
    stranger = visitor(app)
    made_up = stranger.get("/reset/not-a-real-token")
    assert made_up.status_code == 422 and "not valid" in made_up.text
    assert 'action="/reset"' in made_up.text
    ask_for_link(stranger, "alice")
    [link] = reset_links(factory)
    clock.advance(hours=1)
    expired = stranger.get(link)
    assert expired.status_code == 422 and "expired or was already used" in expired.text


def test_the_reset_forms_refuse_a_missing_or_wrong_csrf_token(
        alice: Browser, app: FastAPI, factory: sessionmaker[Session]) -> None:
    stranger = visitor(app)
    for extra in ({}, {"csrf_token": "forged"}):
        refused = stranger.client.post("/reset", data={"username_or_email": "alice", **extra})
        assert refused.status_code == 403 and "CSRF" in refused.text
    assert reset_links(factory) == []
    ask_for_link(stranger, "alice")
    [link] = reset_links(factory)
    for extra in ({}, {"csrf_token": "forged"}):
        refused = stranger.client.post("/reset/password", data={
            "token": link.rsplit("/", 1)[1], "password": NEW, "password2": NEW, **extra})
        assert refused.status_code == 403 and "CSRF" in refused.text
    assert stranger.get(link).status_code == 200  # the link is still unused
    assert alice.log_in("alice", PASSWORD).status_code == 303


# ---------------------------------------------------------------- over SMTP


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) on loopback that keeps what it receives."""
    handler, port = Inbox(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def _body(message: Any) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")


def test_the_reset_link_arrives_over_smtp_and_works(
        alice: Browser, app: FastAPI, clock: FakeClock, settings: Settings,
        factory: sessionmaker[Session], smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    alice.log_out()
    ask_for_link(alice, "alice")
    mail_settings = settings.with_(smtp_host="127.0.0.1", smtp_port=port,
                                   smtp_sender="gm@spyhouse.test")
    mailer = mailer_for(mail_settings)
    assert isinstance(mailer, SmtpMailer)
    assert run_once(factory, clock, mail_settings, mailer) == 1
    [received] = inbox.received
    message = message_from_bytes(received.as_bytes())
    assert (message["To"], message["From"]) == ("alice@example.org", "gm@spyhouse.test")
    assert "alice" in message["Subject"]
    match = LINK.search(_body(message))
    assert match, _body(message)
    assert "revokes every API token" in _body(message)
    done = set_password(alice, match.group(1))
    assert done.status_code == 303
    assert alice.get("/lobby").status_code == 200


# ---------------------------------------------------------------- API tokens and logs


def test_a_reset_revokes_the_accounts_api_tokens(
        alice: Browser, bob: Browser, app: FastAPI, factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    mine, theirs = make_token(alice, game_id), make_token(bob, game_id)
    assert api(app, mine).get("/api/v1/seat").status_code == 200
    ask_for_link(visitor(app), "alice")
    [link] = reset_links(factory)
    assert set_password(visitor(app), link).status_code == 303
    refused = api(app, mine).get("/api/v1/seat")
    assert refused.status_code == 403 and "revoked" in refused.json()["detail"]
    assert api(app, theirs).get("/api/v1/seat").status_code == 200  # bob's still works
    tokens = alice.get(f"/games/{game_id}/tokens")
    assert tokens.status_code == 303  # alice was logged out by the reset, too


@pytest.mark.parametrize(("line", "logged"), [
    ("GET /reset/Abc-123_x HTTP/1.1", "GET /reset/[redacted] HTTP/1.1"),
    ("GET /reset/Abc-123_x?utm=mail HTTP/1.1", "GET /reset/[redacted]?utm=mail HTTP/1.1"),
    ("POST /reset/password HTTP/1.1", "POST /reset/password HTTP/1.1"),
    ("GET /reset/passwordAbc HTTP/1.1", "GET /reset/[redacted] HTTP/1.1"),
    ("GET /reset HTTP/1.1", "GET /reset HTTP/1.1"),
    ("GET /lobby?next=/reset/Abc HTTP/1.1", "GET /lobby?next=/reset/[redacted] HTTP/1.1"),
])
def test_the_access_log_filter_redacts_reset_paths(line: str, logged: str) -> None:
    assert access_log.redact(line) == logged
    record = logging.LogRecord(access_log.ACCESS_LOGGER, logging.INFO, __file__, 1,
                               '%s - "%s" %d', ("127.0.0.1:5", line, 200), None)
    assert access_log.RedactSecrets().filter(record)
    assert record.getMessage() == f'127.0.0.1:5 - "{logged}" 200'


@contextmanager
def served_as_serve(app: FastAPI) -> Iterator[Running]:
    """The app under uvicorn, logging as ``spyhouse serve`` does: uvicorn's own logging
    set-up, its access log on, our filter on it (installed before uvicorn, as there)."""
    from spyhouse.web.limits import UVICORN_OPTIONS

    installed = access_log.redact_access_log()
    try:
        with uvicorn_thread(app, log_level="info", **UVICORN_OPTIONS) as running:
            yield running
    finally:
        logging.getLogger(access_log.ACCESS_LOGGER).removeFilter(installed)


def test_no_log_record_of_a_real_server_holds_a_reset_token(
        alice: Browser, app: FastAPI, factory: sessionmaker[Session],
        caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    alice.log_out()
    caplog.set_level(logging.DEBUG)
    with served_as_serve(app) as served, httpx2.Client(base_url=served.url) as client:
        # every logger's records, uvicorn's too (its loggers do not propagate to the root)
        for name in ("uvicorn", access_log.ACCESS_LOGGER):
            logging.getLogger(name).addHandler(caplog.handler)
        try:
            csrf = csrf_of(client.get("/reset").text)
            asked = client.post("/reset", data={"username_or_email": "alice",
                                                "csrf_token": csrf})
            assert asked.status_code == 200
            [link] = reset_links(factory)
            token = link.rsplit("/", 1)[1]
            page = client.get(link)
            assert page.status_code == 200 and 'action="/reset/password"' in page.text
            done = client.post("/reset/password", data={
                "token": token, "password": NEW, "password2": NEW, "csrf_token": csrf})
            assert done.status_code == 303
            assert client.get(link).status_code == 422  # used
        finally:
            for name in ("uvicorn", access_log.ACCESS_LOGGER):
                logging.getLogger(name).removeHandler(caplog.handler)
    # the server's records: everything but this test's own HTTP client (httpx2 logs the
    # URLs it fetches, as a browser's history keeps them)
    server = [record for record in caplog.records
              if not record.name.startswith(("httpx2", "httpcore2"))]
    lines = [caplog.handler.format(record) for record in server]
    printed = capsys.readouterr()
    access = [line for line in lines if "HTTP/1.1" in line]
    assert len(access) >= 5, lines  # the access log was on, and captured
    assert sum("GET /reset/[redacted]" in line for line in access) == 2
    assert any("POST /reset/password" in line for line in access)
    for text in (*lines, *(record.getMessage() for record in server),
                 printed.out, printed.err):
        assert token not in text


def test_spyhouse_serve_puts_the_filter_on_the_access_log(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.web.test_deploy import _serve

    logger = logging.getLogger(access_log.ACCESS_LOGGER)
    monkeypatch.setattr(logger, "filters", [])  # put back as it was afterwards
    for _ in range(2):  # serving twice (as a test may) adds it once
        status, _seen, _err = _serve(monkeypatch, tmp_path)
        assert status == 0
    assert [type(f) for f in logger.filters] == [access_log.RedactSecrets]
