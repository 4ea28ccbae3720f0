"""The mails players get, built by pure functions from views (and public facts) only.

A mail is made from what its recipient may know and nothing else: the secrets
mail from the seat's own view (its ``secrets`` key, spec §4), every other mail
from the public view or the host's announcement text. A turn notice never holds
a secret: only the game's title, the turn number and a link to the report page,
so a mail read over someone's shoulder, or a leaky mailbox, gives nothing away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

SIGNATURE = "-- \nspyhouse, the game master\n"


@dataclass(frozen=True, slots=True)
class Message:
    """A mail's subject and plain-text body (the recipient is the outbox row's)."""

    subject: str
    body: str


def game_url(base_url: str, game_id: int, page: str = "") -> str:
    url = f"{base_url.rstrip('/')}/games/{game_id}"
    return f"{url}/{page}" if page else url


def format_time(when: datetime | None) -> str:
    """A deadline as players read it in mail: UTC, to the minute."""
    if when is None:
        return "as soon as every player has marked their orders final"
    return when.astimezone(UTC).strftime("%A %d %B %Y, %H:%M UTC")


def secrets_message(*, title: str, game_id: int, seat_name: str, player: str,
                    what: str, lines: Sequence[str], base_url: str,
                    deadline: datetime | None) -> Message:
    """The private message of a seat's secrets (its view's mailed-only keys): ``lines``
    are the game's own, made from the seat's own view by its text renderer, ``what``
    names them in the game's words. No page ever shows these."""
    lines = [
        f"Dear {player or seat_name},",
        "",
        f"The game \"{title}\" has started and {seat_name} is in it.",
        f"Here are {what}. No page shows them; keep this mail to yourself:",
        "",
        *(f"  {line}" for line in lines),
        "",
        f"Orders for the first turn are due {format_time(deadline)}.",
        f"Your orders and reports: {game_url(base_url, game_id)}",
        "If you lose this mail, ask for it again on that page (it is sent to your own",
        "address only).",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] Your secrets: keep them to yourself", "\n".join(lines))


def turn_message(*, title: str, game_id: int, turn: int, base_url: str,
                 deadline: datetime | None, step: str = "turn") -> Message:
    """A turn (``step``: the game's word for it) was processed: title, number, link. Never
    a secret, by construction: nothing here is read from any view."""
    lines = [
        f"{step.capitalize()} {turn} of \"{title}\" has been processed.",
        "",
        f"Read your report: {game_url(base_url, game_id, 'report')}",
        f"Orders for the next {step} are due {format_time(deadline)}.",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] {step.capitalize()} {turn} processed", "\n".join(lines))


def game_over_message(*, title: str, game_id: int, turn: int, step: str, result: str,
                      base_url: str) -> Message:
    """The game is over: ``result`` is the game's own line from the public view ("Buttmans
    Brigade wins."), ``step`` its word for a turn ("turn", "phase", "move")."""
    lines = [
        f"\"{title}\" is over after {step} {turn}. {result}",
        "",
        f"The final standings and what was secret until now: {game_url(base_url, game_id)}",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] Game over", "\n".join(lines))


def announcement_message(*, title: str, game_id: int, text: str, base_url: str) -> Message:
    """The host paused, resumed, extended or closed the turn: told to every player."""
    lines = [
        text,
        "",
        f"The game: {game_url(base_url, game_id)}",
        "",
        SIGNATURE,
    ]
    headline = text.split(". ")[0].rstrip(".")
    if len(headline) > 100:
        headline = headline[:99] + "…"
    return Message(f"[{title}] {headline}", "\n".join(lines))


def password_reset_message(*, username: str, url: str, valid_minutes: int) -> Message:
    """A "forgot your password" link. It names the account (one address may have
    several) and says what to do when the mail was not asked for: nothing."""
    lines = [
        f"Someone (we hope you) asked to set a new password for the spyhouse account "
        f"\"{username}\".",
        "",
        f"Choose a new password here (the link works once, for {valid_minutes} minutes):",
        url,
        "",
        "If you did not ask for this, ignore this mail: your password stays as it is.",
        "",
        SIGNATURE,
    ]
    return Message(f"Set a new password for {username}", "\n".join(lines))
