"""The mails players get, built by pure functions from views (and public facts) only.

A mail is made from what its recipient may know and nothing else: the secrets
mail from the seat's own view (its ``secrets`` key, spec §4), every other mail
from the public view or the host's announcement text. A turn notice never holds
a secret: only the game's title, the turn number and a link to the report page,
so a mail read over someone's shoulder, or a leaky mailbox, gives nothing away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

SIGNATURE = "-- \nspyhouse, the game master\n"
FIRST_SECRETS = {"leader": 0, "base": 1}


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
        return "as soon as every player has submitted orders"
    return when.astimezone(UTC).strftime("%A %d %B %Y, %H:%M UTC")


def _region_name(view: Mapping[str, Any], letter: str) -> str:
    for region in view.get("regions") or ():
        if isinstance(region, Mapping) and region.get("letter") == letter:
            return f"{letter} {region.get('name')}"
    return letter


def _secret_lines(view: Mapping[str, Any]) -> list[str]:
    """The seat's own secrets, one line each ("Your leader: Mr Pink"): the leader, the
    base, then any other key in name order."""
    secrets = view.get("secrets")
    if not isinstance(secrets, Mapping):
        return []
    lines = []
    for key in sorted(secrets, key=lambda k: (FIRST_SECRETS.get(k, len(FIRST_SECRETS)), k)):
        value = secrets[key]
        if key == "base" and isinstance(value, str):
            value = _region_name(view, value)
        lines.append(f"  Your {key}: {value}")
    return lines


def secrets_message(*, title: str, game_id: int, seat_name: str, player: str,
                    view: Mapping[str, Any], base_url: str,
                    deadline: datetime | None) -> Message:
    """The private message of spec §4: the seat's own leader name and base region,
    built from ``view["secrets"]`` of its own view. No page ever shows these."""
    lines = [
        f"Dear {player or seat_name},",
        "",
        f"The game \"{title}\" has started and {seat_name} is in it.",
        "Here are your brotherhood's secrets. No page shows them; keep this mail to",
        "yourself:",
        "",
        *_secret_lines(view),
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
                 deadline: datetime | None) -> Message:
    """A turn was processed: title, turn number, link. Never a secret, by construction:
    nothing here is read from any view."""
    lines = [
        f"Turn {turn} of \"{title}\" has been processed.",
        "",
        f"Read your report: {game_url(base_url, game_id, 'report')}",
        f"Orders for the next turn are due {format_time(deadline)}.",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] Turn {turn} processed", "\n".join(lines))


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    rows: Sequence[Any] = view.get("directory") or ()
    return {row["seat"]: str(row.get("name", row["seat"])) for row in rows
            if isinstance(row, Mapping) and "seat" in row}


def game_over_message(*, title: str, game_id: int, turn: int,
                      public_view: Mapping[str, Any], base_url: str) -> Message:
    """The game is over: the winners by name, from the public view's ``game_over``."""
    over = public_view.get("game_over")
    names = _names(public_view)
    winners = [names.get(seat, seat) for seat in (over or {}).get("winners", ())] \
        if isinstance(over, Mapping) else []
    if len(winners) == 1:
        result = f"{winners[0]} wins."
    elif winners:
        result = f"{', '.join(winners)} are joint winners."
    else:
        result = "Nobody wins."
    lines = [
        f"\"{title}\" is over after turn {turn}. {result}",
        "",
        f"The final report, the standings and every brotherhood's secrets: "
        f"{game_url(base_url, game_id, 'report')}",
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
