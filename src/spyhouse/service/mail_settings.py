"""A player's mail settings: which game mails they get, how early a deadline reminder
comes, whether new seats show their address; and the one-click unsubscribe.

The settings page saves all of them at once (``save``); a signed unsubscribe link
(``mail/unsubscribe.py``) turns one topic off without a log-in (``unsubscribe``).
Account-security mails are not settings: they always go.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from spyhouse.mail.unsubscribe import TOPICS, Topic
from spyhouse.service.errors import Invalid
from spyhouse.service.reminders import MAX_HOURS, MIN_HOURS
from spyhouse.store.tables import User


@dataclass(frozen=True, slots=True)
class MailChoices:
    """What the settings form sends: each topic on or off, the reminder's hours (as
    typed), the default of "show my e-mail address" for new seats."""

    on: frozenset[str]
    reminder_hours: str
    email_public: bool


def reminder_hours(text: str) -> int:
    """The hours before a deadline a reminder comes: a whole number from 1 to 72."""
    text = text.strip()
    if not text.isdigit() or not MIN_HOURS <= int(text) <= MAX_HOURS:
        raise Invalid(f"The reminder comes between {MIN_HOURS} and {MAX_HOURS} hours before "
                      f"a deadline: give a whole number of hours from {MIN_HOURS} to "
                      f"{MAX_HOURS}.", {"reminder_hours": [f"{MIN_HOURS} to {MAX_HOURS}"]})
    return int(text)


def save(db: Session, user: User, choices: MailChoices) -> None:
    """Save every setting, or (``Invalid``) none of them."""
    hours = reminder_hours(choices.reminder_hours)
    for topic in TOPICS.values():
        setattr(user, topic.column, topic.name in choices.on)
    user.reminder_hours = hours
    user.email_public = choices.email_public


def unsubscribe(db: Session, user_id: int, topic: Topic) -> User | None:
    """Turn ``topic`` off for the user a checked token names; ``None`` when no such
    account is left (nothing to change)."""
    user = db.get(User, user_id)
    if user is None:
        return None
    setattr(user, topic.column, False)
    return user


def is_on(user: User, topic: Topic) -> bool:
    return bool(getattr(user, topic.column))


__all__ = ["MailChoices", "is_on", "reminder_hours", "save", "unsubscribe"]
