"""Mail (mail/outbox.py, mail/messages.py): the outbox, SMTP delivery with retries
against a real SMTP server on loopback, the log when no server is configured, and
what each mail may hold (spec §4, §8.3 item 6)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes
from email.message import Message as EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.games.spyvsspy.pages import SpyVsSpyPages, secret_lines
from spyhouse.mail import messages
from spyhouse.mail.outbox import LogMailer, SmtpMailer, backoff, deliver_pending, mailer_for
from spyhouse.service import play
from spyhouse.service import records as store
from spyhouse.settings import Settings
from spyhouse.worker import run_once
from tests.service.helpers import mails, started_game


class Inbox:
    """An aiosmtpd handler that keeps every message it receives."""

    def __init__(self) -> None:
        self.received: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(message_from_bytes(envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp_port() -> int:
    return free_port()


@pytest.fixture
def inbox(smtp_port: int) -> Iterator[Inbox]:
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        yield handler
    finally:
        controller.stop()


def smtp_settings(port: int) -> Settings:
    return Settings(smtp_host="127.0.0.1", smtp_port=port, smtp_sender="gm@spyhouse.test",
                    base_url="http://spy.test", mail_retry_s=60.0)


def _body(message: EmailMessage) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")


def test_secrets_and_turn_notice_arrive_over_smtp(
        db: Session, clock: FakeClock, factory: sessionmaker[Session], inbox: Inbox,
        smtp_port: int) -> None:
    settings = smtp_settings(smtp_port)
    game, users = started_game(db, clock.now())
    assert isinstance(mailer_for(settings), SmtpMailer)
    assert run_once(factory, clock, settings, mailer_for(settings)) == 2
    assert [m["To"] for m in inbox.received] == [u.email for u in users]
    host_view = store.snapshot(db, game.id, 0, store.HOST_KEY)
    first = inbox.received[0]
    assert first["From"] == "gm@spyhouse.test"
    assert "Your secrets" in first["Subject"]
    assert f"Your leader: {host_view['seats']['s1']['leader']}" in _body(first)
    clock.set(game.deadline)  # type: ignore[arg-type]
    assert run_once(factory, clock, settings, mailer_for(settings)) == 1 + 2
    notices = inbox.received[2:]
    assert [m["Subject"] for m in notices] == ["[Lantern Street] Turn 1 processed"] * 2
    assert f"http://spy.test/games/{game.id}/report" in _body(notices[0])
    assert all(m.sent_at is not None and m.attempts == 1 for m in mails(db))


def test_with_the_server_down_mail_waits_and_goes_once_it_is_up(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        smtp_port: int) -> None:
    settings = smtp_settings(smtp_port)  # nothing listens there yet
    started_game(db, clock.now())
    assert run_once(factory, clock, settings, mailer_for(settings)) == 0
    db.expire_all()
    first, second = mails(db, "secrets")
    assert first.attempts == 1 and first.sent_at is None
    assert first.last_error is not None and "Connection" in first.last_error
    assert first.next_attempt_at == clock.now() + timedelta(seconds=60)
    assert second.attempts == 0  # the batch stopped at the unreachable server
    clock.advance(seconds=61)  # the longest-waiting mail is tried first
    run_once(factory, clock, settings, mailer_for(settings))
    db.expire_all()
    assert [m.attempts for m in mails(db, "secrets")] == [1, 1]
    clock.advance(seconds=60)
    run_once(factory, clock, settings, mailer_for(settings))
    db.expire_all()
    assert [m.attempts for m in mails(db, "secrets")] == [2, 1]
    assert mails(db, "secrets")[0].next_attempt_at == clock.now() + timedelta(seconds=120)
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        clock.advance(seconds=121)
        assert run_once(factory, clock, settings, mailer_for(settings)) == 2
    finally:
        controller.stop()
    db.expire_all()
    assert len(handler.received) == 2
    first, second = mails(db, "secrets")
    assert (first.attempts, second.attempts) == (3, 2)
    assert first.sent_at == clock.now() and first.last_error is not None  # kept for history
    assert run_once(factory, clock, settings, mailer_for(settings)) == 0  # sent once


def test_backoff_doubles_and_is_capped() -> None:
    settings = Settings(mail_retry_s=30.0)
    assert [backoff(settings, n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert backoff(settings, 40) == timedelta(hours=6)


def test_without_smtp_mail_is_logged_without_its_body_and_kept_for_the_mail_page(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        caplog: pytest.LogCaptureFixture) -> None:
    from spyhouse.mail.outbox import mails_of

    settings = Settings(base_url="http://spy.test")
    assert isinstance(mailer_for(settings), LogMailer)
    game, users = started_game(db, clock.now())
    leader = store.snapshot(db, game.id, 0, store.HOST_KEY)["seats"]["s1"]["leader"]
    with caplog.at_level(logging.INFO, logger="spyhouse.mail"):
        assert run_once(factory, clock, settings, mailer_for(settings)) == 2
    lines = [r.getMessage() for r in caplog.records if r.name == "spyhouse.mail"]
    assert len(lines) == 2 and users[0].email in lines[0] and "Your secrets" in lines[0]
    assert not any(leader in line for line in caplog.text.splitlines())
    [mine] = mails_of(db, users[0].id)
    assert mine.sent_at is not None and leader in mine.body


def test_a_refused_address_fails_alone(db: Session, clock: FakeClock,
                                       factory: sessionmaker[Session]) -> None:
    import smtplib

    class Picky:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def send(self, to_addr: str, subject: str, body: str) -> None:
            if to_addr.startswith("player1"):
                raise smtplib.SMTPRecipientsRefused({to_addr: (550, b"no such user")})
            self.sent.append(to_addr)

    started_game(db, clock.now())
    picky = Picky()
    assert deliver_pending(factory, picky, clock.now(), Settings()) == 1
    assert picky.sent == ["player2@example.org"]
    db.expire_all()
    refused = mails(db, "secrets")[0]
    assert refused.attempts == 1 and "SMTPRecipientsRefused" in (refused.last_error or "")


def test_the_turn_notice_holds_no_secret(db: Session, clock: FakeClock,
                                         factory: sessionmaker[Session]) -> None:
    """Spec §8.3: leader names and bases reach a player only in its own secrets mail."""
    game, users = started_game(db, clock.now(), humans=3)
    clock.set(game.deadline)  # type: ignore[arg-type]
    run_once(factory, clock, Settings(base_url="http://spy.test"), LogMailer())
    host = store.snapshot(db, game.id, 1, store.HOST_KEY)
    secrets = [(s["leader"], s["base"]) for s in host["seats"].values()]
    view = play.current_view(db, play.seat_of_user(db, users[0], game.id))
    region_names = {r["letter"]: f"{r['letter']} {r['name']}" for r in view["regions"]}
    notices = mails(db, "turn")
    assert len(notices) == 3
    for mail in notices:
        for leader, base in secrets:
            assert leader not in mail.body and leader not in mail.subject
            assert region_names[base] not in mail.body
        assert "Your base" not in mail.body
    for mail in mails(db, "secrets"):  # each secrets mail: its own pair only
        own = [(leader, base) for leader, base in secrets if leader in mail.body]
        assert len(own) == 1 and f"Your base: {region_names[own[0][1]]}" in mail.body


def test_message_builders_are_pure_and_read_views_only() -> None:
    view = {"secrets": {"leader": "Mr Pink", "base": "B"}}
    mail = messages.secrets_message(title="T", game_id=7, seat_name="Mad Bobs", player="Ann",
                                    what="your brotherhood's secrets",
                                    lines=secret_lines(view), base_url="http://x/",
                                    deadline=None)
    assert "Your leader: Mr Pink\n  Your base: B Beltram" in mail.body
    assert "your brotherhood's secrets" in mail.body
    assert "http://x/games/7" in mail.body and "Dear Ann" in mail.body
    public = {"game_over": {"winners": ["s1", "s2"]}}
    result = SpyVsSpyPages().result(public, {"s1": "Mad Bobs", "s2": "X"})
    assert result is not None
    over = messages.game_over_message(title="T", game_id=7, turn=9, step="turn",
                                      result=result.line, base_url="http://x")
    assert over.body.startswith('"T" is over after turn 9. Mad Bobs, X are joint winners.')
    notice = messages.turn_message(title="T", game_id=7, turn=3, base_url="http://x",
                                   deadline=None)
    assert notice.subject == "[T] Turn 3 processed"
    assert "as soon as every player has marked their orders final" in notice.body
    long = messages.announcement_message(title="T", game_id=7, text="x" * 300 + ". More.",
                                         base_url="http://x")
    assert len(long.subject) < 120
