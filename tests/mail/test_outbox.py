"""Mail (mail/outbox.py, mail/messages.py): the outbox, SMTP delivery with retries
against a real SMTP server on loopback, the log when no server is configured, and
what each mail may hold (spec §4, §8.3 item 6)."""

from __future__ import annotations

import logging
import smtplib
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import Message as EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.games.spyvsspy.pages import SpyVsSpyPages, secret_lines
from spyhouse.mail import messages
from spyhouse.mail.outbox import (
    LogMailer,
    SmtpMailer,
    Undeliverable,
    backoff,
    build_message,
    deliver_pending,
    judge,
    mailer_for,
)
from spyhouse.service import play
from spyhouse.service import records as store
from spyhouse.settings import Settings
from spyhouse.store.tables import OutboxMail
from spyhouse.worker import run_once
from tests.service.helpers import mails, started_game


class Inbox:
    """An aiosmtpd handler that keeps every message it receives (and its envelope's
    recipients), refusing the recipients named in ``refuse`` with their answer."""

    def __init__(self, refuse: dict[str, str] | None = None) -> None:
        self.received: list[EmailMessage] = []
        self.envelopes: list[list[str]] = []
        self.refuse = refuse or {}
        self.asked: list[str] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        self.asked.append(address)
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(message_from_bytes(envelope.content))
        self.envelopes.append(list(envelope.rcpt_tos))
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
    assert refused.attempts == 1 and refused.last_error == "550 no such user"
    assert refused.failed_at == clock.now()  # a 5xx answer: never tried again


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


# ---------------------------------------------------------------- mail that cannot go


@contextmanager
def smtp_server(handler: Inbox, port: int) -> Iterator[Inbox]:
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler
    finally:
        controller.stop()


def _raw_mail(db: Session, now: datetime, *, to_addr: str, subject: str = "Hello",
              body: str = "Hello.", user_id: int | None = None,
              game_id: int | None = None) -> OutboxMail:
    """An outbox row as it may have been stored before subjects and addresses were
    checked (written straight to the table, as an old release did)."""
    mail = OutboxMail(kind="turn", to_addr=to_addr, subject=subject, body=body,
                      created_at=now, attempts=0, next_attempt_at=now, user_id=user_id,
                      game_id=game_id)
    db.add(mail)
    db.commit()
    return mail


def test_a_5xx_answer_fails_the_mail_with_its_reason_and_the_batch_goes_on(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        smtp_port: int) -> None:
    settings = smtp_settings(smtp_port)
    _game, users = started_game(db, clock.now())  # player1's secrets mail is first
    refusing = Inbox({users[0].email: "550 mailbox unavailable"})
    with smtp_server(refusing, smtp_port):
        assert run_once(factory, clock, settings, mailer_for(settings)) == 1
        assert refusing.envelopes == [[users[1].email]]  # the next mail still went
        db.expire_all()
        refused, sent = mails(db, "secrets")
        assert (refused.failed_at, refused.attempts) == (clock.now(), 1)
        assert refused.last_error == "550 mailbox unavailable" and refused.sent_at is None
        assert sent.sent_at == clock.now() and sent.failed_at is None
        clock.advance(hours=48)  # failed for good: never asked for again
        asked = len(refusing.asked)
        assert deliver_pending(factory, mailer_for(settings), clock.now(), settings) == 0
        assert len(refusing.asked) == asked
    db.expire_all()
    assert mails(db, "secrets")[0].attempts == 1


def test_a_5xx_answer_to_the_data_fails_that_mail_only(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        smtp_port: int) -> None:
    class RefusesSecrets(Inbox):
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            if b"Your secrets" in envelope.content and not self.envelopes:
                self.envelopes.append([])
                return "554 5.6.0 message content rejected"
            return await super().handle_DATA(server, session, envelope)

    settings = smtp_settings(smtp_port)
    started_game(db, clock.now())
    with smtp_server(RefusesSecrets(), smtp_port) as handler:
        assert run_once(factory, clock, settings, mailer_for(settings)) == 1
    assert len(handler.received) == 1
    db.expire_all()
    refused, sent = mails(db, "secrets")
    assert refused.failed_at is not None and sent.sent_at is not None
    assert refused.last_error == "554 5.6.0 message content rejected"


def test_a_4xx_answer_is_tried_again_until_the_cap_then_failed(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        smtp_port: int) -> None:
    settings = smtp_settings(smtp_port).with_(mail_max_attempts=3)
    _game, users = started_game(db, clock.now())
    busy = Inbox({users[0].email: "450 4.2.1 mailbox busy, try later"})
    with smtp_server(busy, smtp_port):
        assert run_once(factory, clock, settings, mailer_for(settings)) == 1  # the other
        db.expire_all()
        waiting = mails(db, "secrets")[0]
        assert waiting.failed_at is None and waiting.attempts == 1
        assert waiting.last_error == "450 4.2.1 mailbox busy, try later"
        assert waiting.next_attempt_at == clock.now() + timedelta(seconds=60)
        for wait in (61, 121):
            clock.advance(seconds=wait)
            run_once(factory, clock, settings, mailer_for(settings))
        db.expire_all()
        given_up = mails(db, "secrets")[0]
        assert given_up.attempts == 3 and given_up.failed_at == clock.now()
        assert given_up.last_error == ("450 4.2.1 mailbox busy, try later "
                                       "(given up after 3 attempts)")
        clock.advance(hours=24)
        assert deliver_pending(factory, mailer_for(settings), clock.now(), settings) == 0
        assert busy.asked.count(users[0].email) == 3


def test_a_server_that_stays_down_gives_the_mail_up_after_the_cap(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        smtp_port: int) -> None:
    settings = smtp_settings(smtp_port).with_(mail_max_attempts=2)  # nothing listens
    started_game(db, clock.now())
    for wait in (0, 61, 60):  # the first mail, the second (waiting longer), the first
        clock.advance(seconds=wait)
        run_once(factory, clock, settings, mailer_for(settings))
    db.expire_all()
    first, second = mails(db, "secrets")
    assert first.failed_at == clock.now() and first.attempts == 2
    assert "Connection refused" in (first.last_error or "")
    assert "(given up after 2 attempts)" in (first.last_error or "")
    assert second.failed_at is None and second.attempts == 1  # still waiting its turn


def test_a_title_with_a_line_break_stored_before_the_check_still_mails_one_line(
        db: Session, clock: FakeClock, factory: sessionmaker[Session], inbox: Inbox,
        smtp_port: int) -> None:
    """Issue 11 item 2: a game title stored with CR LF gives mail whose subject is one
    line, with no extra header and no extra recipient."""
    from spyhouse.service import games
    from tests.service.helpers import make_user, new_game, seat_players

    users = [make_user(db, f"player{n}", clock.now()) for n in (1, 2)]
    game = new_game(db, users[0], clock.now())
    game.title = "Evil\r\nBcc: attacker@example.test"  # as an old release stored it
    seat_players(db, game, users, clock.now())
    games.start_game(db, users[0], game.id, clock.now())
    db.commit()
    settings = smtp_settings(smtp_port)
    assert run_once(factory, clock, settings, mailer_for(settings)) == 2
    assert inbox.envelopes == [[users[0].email], [users[1].email]]
    for message in inbox.received:
        assert message["Subject"] == ("[Evil Bcc: attacker@example.test] Your secrets: "
                                      "keep them to yourself")
        assert message["Bcc"] is None and message["To"] in {u.email for u in users}
    assert all(m.sent_at is not None and m.failed_at is None for m in mails(db))


def test_a_mail_whose_header_cannot_be_built_fails_alone(
        db: Session, clock: FakeClock, factory: sessionmaker[Session], inbox: Inbox,
        smtp_port: int) -> None:
    bad = _raw_mail(db, clock.now(), to_addr="ann@example.org\r\nBcc: attacker@example.test")
    listed = _raw_mail(db, clock.now(), to_addr="ann@example.org, attacker@example.test")
    old = _raw_mail(db, clock.now(), to_addr="bob@example.org",
                    subject="[Evil\r\nBcc: attacker@example.test] Turn 1 processed")
    settings = smtp_settings(smtp_port)
    assert deliver_pending(factory, mailer_for(settings), clock.now(), settings) == 1
    assert inbox.envelopes == [["bob@example.org"]]
    assert inbox.received[0]["Subject"] == "[Evil Bcc: attacker@example.test] Turn 1 processed"
    db.expire_all()
    for refused in (db.get(OutboxMail, bad.id), db.get(OutboxMail, listed.id)):
        assert refused is not None and refused.failed_at == clock.now()
        assert refused.last_error == "the address is not a valid e-mail address"
    assert db.get(OutboxMail, old.id).sent_at == clock.now()  # type: ignore[union-attr]


def test_a_mailer_that_cannot_build_a_header_fails_that_mail_and_the_batch_goes_on(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    """The issue's own failure: a ``ValueError`` from building one mail once stopped
    the batch for everyone and was retried for ever."""
    class Strict:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def send(self, to_addr: str, subject: str, body: str) -> None:
            if to_addr.startswith("player1"):
                raise ValueError("Header values may not contain linefeed or carriage "
                                 "return characters")
            self.sent.append(to_addr)

    started_game(db, clock.now())
    strict = Strict()
    assert deliver_pending(factory, strict, clock.now(), Settings()) == 1
    assert strict.sent == ["player2@example.org"]
    db.expire_all()
    failed = mails(db, "secrets")[0]
    assert failed.failed_at == clock.now() and failed.last_error == (
        "the mail could not be built: Header values may not contain linefeed or carriage "
        "return characters")


def test_an_unforeseen_error_is_tried_again_and_does_not_stop_the_batch(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    class Flaky:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def send(self, to_addr: str, subject: str, body: str) -> None:
            if to_addr.startswith("player1"):
                raise RuntimeError("something odd")
            self.sent.append(to_addr)

    started_game(db, clock.now())
    flaky = Flaky()
    assert deliver_pending(factory, flaky, clock.now(), Settings(mail_retry_s=60)) == 1
    db.expire_all()
    waiting = mails(db, "secrets")[0]
    assert waiting.failed_at is None and waiting.last_error == "RuntimeError: something odd"
    assert waiting.next_attempt_at == clock.now() + timedelta(seconds=60)


def test_a_reason_never_holds_the_address(db: Session, clock: FakeClock,
                                          factory: sessionmaker[Session]) -> None:
    class Echo:
        def send(self, to_addr: str, subject: str, body: str) -> None:
            raise smtplib.SMTPRecipientsRefused(
                {to_addr: (550, f"5.1.1 <{to_addr.upper()}>: Recipient unknown".encode())})

    mail = _raw_mail(db, clock.now(), to_addr="ann@example.org")
    deliver_pending(factory, Echo(), clock.now(), Settings())
    db.expire_all()
    failed = db.get(OutboxMail, mail.id)
    assert failed is not None
    assert failed.last_error == "550 5.1.1 <the address>: Recipient unknown"


@pytest.mark.parametrize(("exc", "permanent", "server_down"), [
    (smtplib.SMTPSenderRefused(550, b"sender refused", "gm@spyhouse.test"), True, False),
    (smtplib.SMTPSenderRefused(451, b"try later", "gm@spyhouse.test"), False, False),
    (smtplib.SMTPDataError(552, b"too big"), True, False),
    (smtplib.SMTPDataError(421, b"closing"), False, True),
    (smtplib.SMTPRecipientsRefused({"a@b.c": (452, b"full")}), False, False),
    (smtplib.SMTPConnectError(554, b"go away"), False, True),
    (smtplib.SMTPServerDisconnected("gone"), False, True),
    (smtplib.SMTPNotSupportedError("SMTPUTF8 not supported by server"), True, False),
    (ConnectionRefusedError(111, "Connection refused"), False, True),
    (TimeoutError("timed out"), False, True),
    (Undeliverable("the address is not a valid e-mail address"), True, False),
    (UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed"), True, False),
    (RuntimeError("x"), False, False),
])
def test_each_failure_is_judged(exc: Exception, permanent: bool, server_down: bool) -> None:
    verdict = judge(exc)
    assert (verdict.permanent, verdict.server_down) == (permanent, server_down)
    assert verdict.reason


def test_subjects_are_one_line_whatever_they_were_given() -> None:
    assert messages.header_text("a\r\nb\tc\u2028d\x85e\x00f  g") == "a b c d e f g"
    assert len(messages.header_text("x" * 500)) == messages.MAX_SUBJECT
    notice = messages.turn_message(title="Evil\r\nBcc: attacker@example.test", game_id=1,
                                   turn=1, base_url="http://x", deadline=None)
    assert notice.subject == "[Evil Bcc: attacker@example.test] Turn 1 processed"
    message = build_message(sender="gm@spyhouse.test", to_addr="ann@example.org",
                            subject="a\r\nBcc: attacker@example.test", body="Hi\r\n.\r\n")
    raw = message.as_bytes()
    assert b"\r\nBcc:" not in raw and raw.count(b"Subject:") == 1


@pytest.mark.parametrize("address", [
    "ann@example.org\r\nBcc: x@example.test", "ann@example.org, x@example.test",
    "Ann <ann@example.org>", '"ann"@example.org', "ann(x)@example.org", "ann@exämple.org",
    "ann", "ann@@example.org", "ann@example.org\x00"])
def test_only_one_plain_address_can_be_a_recipient(address: str) -> None:
    assert messages.address_problem(address) is not None
    with pytest.raises(Undeliverable):
        build_message(sender="gm@spyhouse.test", to_addr=address, subject="s", body="b")
