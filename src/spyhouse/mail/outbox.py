"""The outbox: mail is written in the transaction that causes it and sent later.

A processed turn and its notices commit together or not at all, and a mail
server that is down delays mail without blocking a turn. The worker delivers
pending rows: each row is first *leased* in a short transaction (its
``next_attempt_at`` moved past the send), then sent with no database lock held,
then marked sent, or given its error and a retry time that doubles from
``settings.mail_retry_s`` on each failure, until it goes. Several workers never
send a row at the same time; a worker killed between sending and marking may
send a row twice (at least once, never lost).

With no SMTP server configured, mails are "sent" to the log (logger
``spyhouse.mail``: recipient and subject, never the body, which may hold a
player's secrets) and stay readable on the local mail page, which lists a
user's ``outbox`` rows.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Protocol

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.mail.messages import Message
from spyhouse.settings import Settings
from spyhouse.store.db import transaction
from spyhouse.store.tables import OutboxMail

log = logging.getLogger("spyhouse.mail")

#: How long a leased row is left alone by other workers while one sends it.
LEASE = timedelta(minutes=5)
#: The longest wait between two attempts.
MAX_BACKOFF = timedelta(hours=6)
SMTP_TIMEOUT_S = 10.0
#: Failures of one mail (a refused address); any other failure means the server is
#: unreachable or broken, and the rest of the batch waits for the next run.
PER_MAIL_ERRORS = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused,
                   smtplib.SMTPDataError, smtplib.SMTPNotSupportedError, UnicodeError)


class Mailer(Protocol):
    """Sends one mail or raises; ``deliver_pending`` does the bookkeeping."""

    def send(self, to_addr: str, subject: str, body: str) -> None: ...


class SmtpMailer:
    """Plain SMTP (no STARTTLS: a local relay or a server on the same network)."""

    def __init__(self, settings: Settings) -> None:
        if not settings.smtp_host:
            raise ValueError("SmtpMailer needs settings.smtp_host")
        self.host = settings.smtp_host
        self.port = settings.smtp_port
        self.sender = settings.smtp_sender

    def send(self, to_addr: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to_addr
        message["Subject"] = subject
        message["Date"] = format_datetime(datetime.now().astimezone())
        message["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        message.set_content(body)
        with smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT_S) as smtp:
            smtp.send_message(message)


class LogMailer:
    """No SMTP configured: note the mail in the log (recipient and subject only)."""

    def send(self, to_addr: str, subject: str, body: str) -> None:
        log.info("mail to %s: %s (no SMTP server configured; shown on the mail page)",
                 to_addr, subject)


def mailer_for(settings: Settings) -> Mailer:
    return SmtpMailer(settings) if settings.smtp_configured else LogMailer()


def queue_mail(db: Session, *, kind: str, to_addr: str, message: Message, now: datetime,
               user_id: int | None = None, game_id: int | None = None) -> OutboxMail:
    """Add a mail to the outbox in the caller's transaction (it commits with it)."""
    mail = OutboxMail(kind=kind, to_addr=to_addr, subject=message.subject[:200],
                      body=message.body, created_at=now, attempts=0, next_attempt_at=now,
                      user_id=user_id, game_id=game_id)
    db.add(mail)
    return mail


def backoff(settings: Settings, attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: retry_s, 2·retry_s, 4·retry_s, …, capped."""
    wait = timedelta(seconds=settings.mail_retry_s) * (1 << min(max(attempts - 1, 0), 30))
    return min(wait, MAX_BACKOFF)


def pending_ids(db: Session, now: datetime, limit: int) -> list[int]:
    return list(db.scalars(
        select(OutboxMail.id)
        .where(OutboxMail.sent_at.is_(None), OutboxMail.next_attempt_at <= now)
        .order_by(OutboxMail.next_attempt_at, OutboxMail.id).limit(limit)))


def _lease(factory: sessionmaker[Session], mail_id: int,
           now: datetime) -> tuple[str, str, str] | None:
    """Take the row for this worker, or ``None`` if another worker has it or it went."""
    with transaction(factory) as db:
        taken = db.execute(
            update(OutboxMail)
            .where(OutboxMail.id == mail_id, OutboxMail.sent_at.is_(None),
                   OutboxMail.next_attempt_at <= now)
            .values(next_attempt_at=now + LEASE))
        if getattr(taken, "rowcount", 0) != 1:
            return None
        mail = db.get(OutboxMail, mail_id)
        if mail is None:  # pragma: no cover - deleted between the two statements
            return None
        return mail.to_addr, mail.subject, mail.body


def deliver_pending(factory: sessionmaker[Session], mailer: Mailer, now: datetime,
                    settings: Settings, *, limit: int = 100) -> int:
    """Send the mails that are due; returns how many went.

    A connection failure (the server is down) stops the batch after the first mail,
    so an outage costs one attempt per run, not one per pending mail.
    """
    with transaction(factory) as db:
        ids = pending_ids(db, now, limit)
    sent = 0
    for mail_id in ids:
        leased = _lease(factory, mail_id, now)
        if leased is None:
            continue
        to_addr, subject, body = leased
        try:
            mailer.send(to_addr, subject, body)
        except Exception as exc:  # any failure: keep the mail, note why, retry later
            error = f"{type(exc).__name__}: {exc}"[:1000]
            with transaction(factory) as db:
                mail = db.get(OutboxMail, mail_id)
                if mail is not None:
                    mail.attempts += 1
                    mail.last_error = error
                    mail.next_attempt_at = now + backoff(settings, mail.attempts)
            log.warning("mail %d to %s not sent (%s); will retry", mail_id, to_addr, error)
            if not isinstance(exc, PER_MAIL_ERRORS):
                break
            continue
        with transaction(factory) as db:
            mail = db.get(OutboxMail, mail_id)
            if mail is not None:
                mail.attempts += 1
                mail.sent_at = now
        if not isinstance(mailer, LogMailer):
            log.info("mail %d sent to %s: %s", mail_id, to_addr, subject)
        sent += 1
    return sent


def mails_of(db: Session, user_id: int, *, limit: int = 50) -> list[OutboxMail]:
    """A user's mails, newest first: the local mail page (sent or not)."""
    return list(db.scalars(
        select(OutboxMail).where(OutboxMail.user_id == user_id)
        .order_by(OutboxMail.created_at.desc(), OutboxMail.id.desc()).limit(limit)))
