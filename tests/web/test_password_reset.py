"""Password reset through the site: "Forgot your password?" on the log-in page, the
request form, the mailed link (from the outbox, and over a real SMTP conversation with
aiosmtpd on loopback), the new-password form, then the lobby, logged in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any

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
from spyhouse.worker import run_once
from tests.mail.test_outbox import Inbox, free_port
from tests.web.helpers import PASSWORD, Browser, csrf_of, visitor

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
    # two different passwords: the form again, with the message, without the passwords
    differ = stranger.post(link, {"password": NEW, "password2": NEW + "!"})
    assert differ.status_code == 422 and "differ" in differ.text and NEW not in differ.text
    short = stranger.post(link, {"password": "short", "password2": "short"})
    assert short.status_code == 422 and "at least 8 characters" in short.text
    done = stranger.post(link, {"password": NEW, "password2": NEW})
    assert done.status_code == 303 and done.headers["location"] == "/lobby?notice=reset"
    lobby = stranger.get("/lobby?notice=reset")
    assert lobby.status_code == 200 and "new password is set" in lobby.text
    # the link worked once
    again = stranger.get(link)
    assert again.status_code == 422 and "expired or was already used" in again.text
    again = stranger.post(link, {"password": NEW, "password2": NEW,
                                 "csrf_token": csrf_of(again.text)})  # now the session's
    assert again.status_code == 422 and "expired or was already used" in again.text
    # the old password is refused, the new one works
    assert alice.log_in("alice", PASSWORD).status_code == 403
    assert alice.log_in("alice", NEW).status_code == 303


def test_a_reset_logs_out_every_session(alice: Browser, app: FastAPI,
                                        factory: sessionmaker[Session]) -> None:
    other = visitor(app)
    ask_for_link(other, "ALICE")
    [link] = reset_links(factory)
    assert alice.get("/lobby").status_code == 200
    other.post(link, {"password": NEW, "password2": NEW})
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
        refused = stranger.client.post(link, data={"password": NEW, "password2": NEW, **extra})
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
    done = alice.post(match.group(1), {"password": NEW, "password2": NEW})
    assert done.status_code == 303
    assert alice.get("/lobby").status_code == 200
