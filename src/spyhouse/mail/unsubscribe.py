"""Which mails a player wants, and the signed one-click links that turn a kind off.

Every game mail belongs to one *topic* the player switches on or off on the mail
settings page (``/account/mail``): a processed turn, a deadline reminder, a private
message, the game's start and end (with the host's announcements). Each such mail
carries ``List-Unsubscribe`` (an ``https`` link to ``/unsubscribe/TOKEN``) and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058), and the same link at
the foot of its body. The token names the user and the topic and is signed with the
server's key (HMAC-SHA-256, ``settings.secret_key``), so it can be neither guessed nor
changed to name someone else; it needs no table and never expires (all it can do is
turn a mail off).

Account-security mails (a password-reset link, failed log-ins) belong to no topic:
they are sent whatever the settings say and carry no unsubscribe header, since one
could not honestly unsubscribe from them (RFC 8058 is for mail one may stop).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from spyhouse.settings import Settings
from spyhouse.store.tables import User


@dataclass(frozen=True, slots=True)
class Topic:
    """A kind of mail the player may turn off: its ``users`` column, and its label,
    which completes "Mail me when …"."""

    name: str
    column: str
    label: str


TOPICS: dict[str, Topic] = {topic.name: topic for topic in (
    Topic("turn", "mail_turn", "a turn is processed"),
    Topic("reminder", "mail_reminder", "a deadline is near and my orders are not final"),
    Topic("messages", "mail_messages", "someone sends me a private message"),
    Topic("game", "mail_game", "a game starts or ends, or its host pauses, extends or "
                               "closes a turn"),
)}

#: The outbox kinds and their topics. Kinds not named here (``password_reset``,
#: ``login_failures``) are account security: always sent, no unsubscribe.
KIND_TOPIC: dict[str, str] = {
    "turn": "turn",
    "reminder": "reminder",
    "message": "messages",
    "secrets": "game",
    "start": "game",
    "game_over": "game",
    "announcement": "game",
}

#: The key of this process, when the settings give none (tests, a one-process run).
_PROCESS_KEY = secrets.token_bytes(32)
_SIG_BYTES = 16


def topic_of(kind: str) -> Topic | None:
    name = KIND_TOPIC.get(kind)
    return TOPICS[name] if name is not None else None


def wants(user: User, kind: str) -> bool:
    """Whether ``user`` wants mail of outbox ``kind`` (a security mail: always)."""
    topic = topic_of(kind)
    return topic is None or bool(getattr(user, topic.column))


def _key(settings: Settings) -> bytes:
    return settings.secret_key.encode() if settings.secret_key else _PROCESS_KEY


def _signature(settings: Settings, user_id: int, topic: str) -> str:
    mac = hmac.new(_key(settings), f"unsubscribe:{user_id}:{topic}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:_SIG_BYTES]).decode().rstrip("=")


def make_token(settings: Settings, user_id: int, topic: str) -> str:
    """``USER.TOPIC.SIGNATURE``: URL-safe, no secret in it but the signature."""
    if topic not in TOPICS:
        raise ValueError(f"no mail topic {topic!r}")
    return f"{user_id}.{topic}.{_signature(settings, user_id, topic)}"


def read_token(settings: Settings, token: str) -> tuple[int, Topic] | None:
    """The user id and topic a token names, or ``None`` if it is malformed, names no
    topic or its signature does not match (tampered, or made with another key)."""
    parts = token.split(".")
    if len(parts) != 3 or not parts[0].isdigit() or len(parts[0]) > 18:
        return None
    user_text, topic, given = parts
    if topic not in TOPICS:
        return None
    user_id = int(user_text)
    if not hmac.compare_digest(given.encode(), _signature(settings, user_id, topic).encode()):
        return None
    return user_id, TOPICS[topic]


def unsubscribe_url(settings: Settings, user_id: int, topic: str) -> str:
    return f"{settings.base_url.rstrip('/')}/unsubscribe/{make_token(settings, user_id, topic)}"


def settings_url(settings: Settings) -> str:
    return f"{settings.base_url.rstrip('/')}/account/mail"


@dataclass(frozen=True, slots=True)
class Unsubscribe:
    """What a game mail carries to stop its kind: the headers and the body's foot."""

    url: str
    topic: Topic
    settings_url: str

    def headers(self) -> dict[str, str]:
        return {"List-Unsubscribe": f"<{self.url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}

    def footer(self) -> str:
        return (f"\nYour mail settings say: mail me when {self.topic.label}.\n"
                f"Stop these mails (one click): {self.url}\n"
                f"All your mail settings: {self.settings_url}\n")


def for_mail(settings: Settings, kind: str, user_id: int | None) -> Unsubscribe | None:
    """The unsubscribe link of an outbox row, or ``None`` for a security mail or a mail
    to no account."""
    topic = topic_of(kind)
    if topic is None or user_id is None:
        return None
    return Unsubscribe(unsubscribe_url(settings, user_id, topic.name), topic,
                       settings_url(settings))
