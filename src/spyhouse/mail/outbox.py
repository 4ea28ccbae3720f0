"""The outbox: mail is written in the transaction that causes it and sent later.

A processed turn and its notices commit together or not at all, and a mail
server that is down delays mail without blocking a turn. The worker delivers
pending rows: each row is first *leased* in a short transaction (its
``next_attempt_at`` moved past the send), then sent with no database lock held,
then marked sent, or given its error. Several workers never send a row at the
same time; a worker killed between sending and marking may send a row twice (at
least once, never lost).

A failure is judged (``judge``) as one of three:

- **permanent**: the mail cannot be built (a header that cannot be made, an
  address that is not one plain address: ``Undeliverable``), or the server refused
  it for good (a 5xx answer to the sender, the recipient or the data, or a mail
  the server cannot take). The row is marked failed (``failed_at``) with its reason
  and never tried again; the game's host and the addressee see the reason.
- **temporary**: a 4xx answer, or anything unforeseen. The row is tried again after
  a wait that doubles from ``settings.mail_retry_s``, and is failed after
  ``settings.mail_max_attempts`` attempts.
- **server down**: no connection, a dropped one, a refused greeting or log-in
  (temporary too). The rest of the batch waits for the next run, so an outage
  costs one attempt per run, not one per pending mail.

Any other mail's failure never stops the batch. A reason never holds the
addressee's address (it is replaced by "the address"), since the host reads it.

Headers are built with the ``email`` package's SMTP policy: the subject as one line
(``messages.header_text``, also for rows stored before titles were checked), the
recipient as one ``Address`` and the SMTP envelope naming that address only. A game
mail gets its one-click unsubscribe headers and link (``mail/unsubscribe.py``) as it
is sent, from the row's kind and user: the stored row needs no header column, and a
key change reaches mail still waiting.

With no SMTP server configured, mails are "sent" to the log (logger
``spyhouse.mail``: recipient and subject, never the body, which may hold a
player's secrets) and stay readable on the local mail page, which lists a
user's ``outbox`` rows.
"""

from __future__ import annotations

import logging
import re
import smtplib
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.errors import MessageError
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Protocol

from sqlalchemy import and_, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.mail import unsubscribe
from spyhouse.mail.messages import Message, address_problem, header_text
from spyhouse.mail.unsubscribe import Unsubscribe
from spyhouse.settings import Settings
from spyhouse.store.db import transaction
from spyhouse.store.tables import OutboxMail, SeatRow, User

log = logging.getLogger("spyhouse.mail")

#: How long a leased row is left alone by other workers while one sends it.
LEASE = timedelta(minutes=5)
#: The longest wait between two attempts.
MAX_BACKOFF = timedelta(hours=6)
SMTP_TIMEOUT_S = 10.0
MAX_REASON = 500
#: Failures that say the server cannot be reached or will not talk to us at all: the
#: rest of the batch waits for the next run (``judge``).
SERVER_DOWN = (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError,
               smtplib.SMTPHeloError, smtplib.SMTPAuthenticationError)
#: Errors of building a mail (a mailer that builds its own message may raise these).
BUILD_ERRORS = (ValueError, TypeError, UnicodeError, MessageError)


class Undeliverable(Exception):
    """A mail that can never go as it is (it cannot be built, or its address is not
    one plain address): failed at once, never retried. The message is the reason."""


class Mailer(Protocol):
    """Sends one mail or raises; ``deliver_pending`` does the bookkeeping."""

    def send(self, to_addr: str, subject: str, body: str) -> None: ...


def build_message(*, sender: str, to_addr: str, subject: str, body: str,
                  unsubscribe: Unsubscribe | None = None) -> EmailMessage:
    """The mail as it goes out, built with the ``email`` package's SMTP policy; the
    subject made one header line; a game mail's one-click unsubscribe headers and link
    (``unsubscribe``). ``Undeliverable`` (with the reason) when it cannot be built."""
    if address_problem(to_addr) is not None:
        raise Undeliverable("the address is not a valid e-mail address")
    try:
        message = EmailMessage(policy=policy.SMTP)
        message["From"] = sender
        message["To"] = Address(addr_spec=to_addr)
        message["Subject"] = header_text(subject)
        message["Date"] = format_datetime(datetime.now().astimezone())
        message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
        if unsubscribe is not None:
            for name, value in unsubscribe.headers().items():
                message[name] = value
            body = body + unsubscribe.footer()
        message.set_content(body)
        message.as_bytes()  # every part can be written out (a lone surrogate cannot)
    except BUILD_ERRORS as exc:
        raise Undeliverable(f"the mail could not be built: {exc}") from exc
    return message


class SmtpMailer:
    """Plain SMTP (no STARTTLS: a local relay or a server on the same network)."""

    def __init__(self, settings: Settings) -> None:
        if not settings.smtp_host:
            raise ValueError("SmtpMailer needs settings.smtp_host")
        self.host = settings.smtp_host
        self.port = settings.smtp_port
        self.sender = settings.smtp_sender

    def send(self, to_addr: str, subject: str, body: str,
             unsubscribe: Unsubscribe | None = None) -> None:
        message = build_message(sender=self.sender, to_addr=to_addr, subject=subject,
                                body=body, unsubscribe=unsubscribe)
        with smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT_S) as smtp:
            # The envelope names the one addressee, whatever the headers say.
            smtp.send_message(message, to_addrs=[to_addr])


class LogMailer:
    """No SMTP configured: note the mail in the log (recipient and subject only). The
    mail is built as for SMTP, so a mail that could not go fails here too."""

    def __init__(self, sender: str = "spyhouse@localhost") -> None:
        self.sender = sender

    def send(self, to_addr: str, subject: str, body: str,
             unsubscribe: Unsubscribe | None = None) -> None:
        build_message(sender=self.sender, to_addr=to_addr, subject=subject, body=body,
                      unsubscribe=unsubscribe)
        log.info("mail to %s: %s (no SMTP server configured; shown on the mail page)",
                 to_addr, header_text(subject))


def mailer_for(settings: Settings) -> Mailer:
    return SmtpMailer(settings) if settings.smtp_configured else LogMailer(settings.smtp_sender)


def queue_mail(db: Session, *, kind: str, to_addr: str, message: Message, now: datetime,
               user_id: int | None = None, game_id: int | None = None) -> OutboxMail:
    """Add a mail to the outbox in the caller's transaction (it commits with it)."""
    mail = OutboxMail(kind=kind, to_addr=to_addr, subject=header_text(message.subject),
                      body=message.body, created_at=now, attempts=0, next_attempt_at=now,
                      user_id=user_id, game_id=game_id)
    db.add(mail)
    return mail


def backoff(settings: Settings, attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: retry_s, 2·retry_s, 4·retry_s, …, capped."""
    wait = timedelta(seconds=settings.mail_retry_s) * (1 << min(max(attempts - 1, 0), 30))
    return min(wait, MAX_BACKOFF)


# ---------------------------------------------------------------- judging a failure


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a failed send means: its reason (for the host and the addressee, without
    the address), whether it can never go, whether the server is down."""

    reason: str
    permanent: bool
    server_down: bool = False


def _answer(code: int, text: bytes | str) -> str:
    words = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return f"{code} {header_text(words, MAX_REASON)}".strip()


def judge(exc: BaseException) -> Verdict:
    """Permanent, temporary or server down (the module's docstring)."""
    if isinstance(exc, Undeliverable):
        return Verdict(str(exc), permanent=True)
    if isinstance(exc, SERVER_DOWN):
        if isinstance(exc, smtplib.SMTPResponseException):
            reason = f"the mail server refused us: {_answer(exc.smtp_code, exc.smtp_error)}"
        else:
            reason = f"the mail server closed the connection: {exc}"
        return Verdict(reason, permanent=False, server_down=True)
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        answers = list(exc.recipients.values())
        reason = "; ".join(_answer(code, text) for code, text in answers) or "refused"
        return Verdict(reason, permanent=bool(answers) and all(c >= 500 for c, _ in answers))
    if isinstance(exc, smtplib.SMTPResponseException):  # sender or data refused
        reason = _answer(exc.smtp_code, exc.smtp_error)
        if exc.smtp_code == 421:  # "service not available": the server is going away
            return Verdict(reason, permanent=False, server_down=True)
        return Verdict(reason, permanent=exc.smtp_code >= 500)
    if isinstance(exc, smtplib.SMTPNotSupportedError):  # e.g. it needs SMTPUTF8
        return Verdict(f"the mail server cannot take this mail: {exc}", permanent=True)
    if isinstance(exc, smtplib.SMTPException):
        return Verdict(f"{type(exc).__name__}: {exc}", permanent=False)
    if isinstance(exc, OSError):  # refused, unreachable, timed out
        return Verdict(f"the mail server cannot be reached: {exc}", permanent=False,
                       server_down=True)
    if isinstance(exc, BUILD_ERRORS):  # a mailer that built the mail itself
        return Verdict(f"the mail could not be built: {exc}", permanent=True)
    return Verdict(f"{type(exc).__name__}: {exc}", permanent=False)


def _without_address(reason: str, to_addr: str) -> str:
    """The reason as the host may read it: the addressee's address taken out."""
    if to_addr:
        reason = re.sub(re.escape(to_addr), "the address", reason, flags=re.IGNORECASE)
    return header_text(reason, MAX_REASON) or "unknown"


# ---------------------------------------------------------------- delivering


def pending_ids(db: Session, now: datetime, limit: int) -> list[int]:
    return list(db.scalars(
        select(OutboxMail.id)
        .where(OutboxMail.sent_at.is_(None), OutboxMail.failed_at.is_(None),
               OutboxMail.next_attempt_at <= now)
        .order_by(OutboxMail.next_attempt_at, OutboxMail.id).limit(limit)))


@dataclass(frozen=True, slots=True)
class Leased:
    """A row taken for sending: what goes out, and whose kind of mail it is."""

    to_addr: str
    subject: str
    body: str
    kind: str
    user_id: int | None


def _lease(factory: sessionmaker[Session], mail_id: int, now: datetime) -> Leased | None:
    """Take the row for this worker, or ``None`` if another worker has it or it went."""
    with transaction(factory) as db:
        taken = db.execute(
            update(OutboxMail)
            .where(OutboxMail.id == mail_id, OutboxMail.sent_at.is_(None),
                   OutboxMail.failed_at.is_(None), OutboxMail.next_attempt_at <= now)
            .values(next_attempt_at=now + LEASE))
        if getattr(taken, "rowcount", 0) != 1:
            return None
        mail = db.get(OutboxMail, mail_id)
        if mail is None:  # pragma: no cover - deleted between the two statements
            return None
        return Leased(mail.to_addr, mail.subject, mail.body, mail.kind, mail.user_id)


def _note_failure(factory: sessionmaker[Session], mail_id: int, now: datetime,
                  settings: Settings, verdict: Verdict, to_addr: str) -> bool:
    """Count the attempt and keep the reason; fail the row when the failure is permanent
    or the attempts are spent, else set its next attempt. ``True`` when failed."""
    reason = _without_address(verdict.reason, to_addr)
    with transaction(factory) as db:
        mail = db.get(OutboxMail, mail_id)
        if mail is None:  # pragma: no cover - deleted while it was sent
            return True
        mail.attempts += 1
        failed = verdict.permanent or mail.attempts >= settings.mail_max_attempts
        if failed and not verdict.permanent:
            reason = f"{reason} (given up after {mail.attempts} attempts)"
        mail.last_error = reason[:1000]
        if failed:
            mail.failed_at = now
        else:
            mail.next_attempt_at = now + backoff(settings, mail.attempts)
    return failed


def _send(mailer: Mailer, mail: Leased, link: Unsubscribe | None) -> None:
    """Our own mailers put a game mail's unsubscribe headers and link on it; any other
    ``Mailer`` (a test's) gets the stored mail as it is."""
    if isinstance(mailer, SmtpMailer | LogMailer):
        mailer.send(mail.to_addr, mail.subject, mail.body, unsubscribe=link)
    else:
        mailer.send(mail.to_addr, mail.subject, mail.body)


def deliver_pending(factory: sessionmaker[Session], mailer: Mailer, now: datetime,
                    settings: Settings, *, limit: int = 100) -> int:
    """Send the mails that are due; returns how many went.

    A mail that fails is judged (``judge``): failed for good, or tried again later. Only
    a server that is down stops the batch after its first mail; no other failure of one
    mail keeps the next from going.
    """
    with transaction(factory) as db:
        ids = pending_ids(db, now, limit)
    sent = 0
    for mail_id in ids:
        leased = _lease(factory, mail_id, now)
        if leased is None:
            continue
        to_addr, subject = leased.to_addr, leased.subject
        try:
            _send(mailer, leased, unsubscribe.for_mail(settings, leased.kind, leased.user_id))
        except Exception as exc:  # judged: the row keeps why, and when to try again
            verdict = judge(exc)
            failed = _note_failure(factory, mail_id, now, settings, verdict, to_addr)
            log.warning("mail %d to %s not sent (%s: %s); %s", mail_id, to_addr,
                        type(exc).__name__, _without_address(verdict.reason, to_addr),
                        "given up" if failed else "will retry")
            if verdict.server_down:
                break
            continue
        with transaction(factory) as db:
            mail = db.get(OutboxMail, mail_id)
            if mail is not None:
                mail.attempts += 1
                mail.sent_at = now
        if not isinstance(mailer, LogMailer):
            log.info("mail %d sent to %s: %s", mail_id, to_addr, header_text(subject))
        sent += 1
    return sent


# ---------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class FailedMail:
    """A mail of a game that was given up, as its host reads it: the addressee by the
    player's name in the game (never the address), the kind of mail, the reason."""

    addressee: str
    kind: str
    reason: str
    at: datetime


def failed_mail_of_game(db: Session, game_id: int, *,
                        limit: int = 10) -> tuple[int, list[FailedMail]]:
    """How many of the game's mails were given up, and the newest ``limit`` of them."""
    failed = and_(OutboxMail.game_id == game_id, OutboxMail.failed_at.is_not(None))
    count = int(db.scalar(select(func.count()).select_from(OutboxMail).where(failed)) or 0)
    if not count:
        return 0, []
    rows = db.execute(
        select(OutboxMail, SeatRow.player, User.username)
        .outerjoin(SeatRow, and_(SeatRow.game_id == OutboxMail.game_id,
                                 SeatRow.user_id == OutboxMail.user_id))
        .outerjoin(User, User.id == OutboxMail.user_id)
        .where(failed).order_by(OutboxMail.failed_at.desc(), OutboxMail.id.desc())
        .limit(limit))
    return count, [FailedMail(addressee=player or username or "a player", kind=mail.kind,
                              reason=mail.last_error or "unknown",
                              at=mail.failed_at or mail.created_at)
                   for mail, player, username in rows]


def mails_of(db: Session, user_id: int, *, limit: int = 50) -> list[OutboxMail]:
    """A user's mails, newest first: the local mail page (sent or not)."""
    return list(db.scalars(
        select(OutboxMail).where(OutboxMail.user_id == user_id)
        .order_by(OutboxMail.created_at.desc(), OutboxMail.id.desc()).limit(limit)))
