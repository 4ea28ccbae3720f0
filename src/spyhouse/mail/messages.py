"""The mails players get, built by pure functions from views (and public facts) only.

A mail is made from what its recipient may know and nothing else: the secrets
mail from the seat's own view (its ``secrets`` key, spec §4), every other mail
from the public view or the host's announcement text. A turn notice never holds
a secret: only the game's title, the turn number and a link to the report page,
so a mail read over someone's shoulder, or a leaky mailbox, gives nothing away.

A subject is always one line: ``Message`` passes it through ``header_text``, which
replaces what cannot go in a header (line breaks, other control characters) by a
space, so a title stored before titles were checked still gives a mail that can be
sent.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.errors import MessageError
from email.headerregistry import Address

SIGNATURE = "-- \nspyhouse, the game master\n"
#: The longest subject kept (the outbox column's size).
MAX_SUBJECT = 200
#: Unicode categories that never go into a header: controls (CR, LF, NUL, NEL …),
#: lone surrogates, line and paragraph separators.
_NOT_IN_HEADER = frozenset({"Cc", "Cs", "Zl", "Zp"})
_SPACES = re.compile(r"\s+")


def header_text(text: str, limit: int = MAX_SUBJECT) -> str:
    """``text`` as one header line: each character that cannot go in a header becomes
    a space, runs of white space one space, at most ``limit`` characters."""
    clean = "".join(" " if unicodedata.category(c) in _NOT_IN_HEADER else c for c in text)
    clean = _SPACES.sub(" ", clean).strip()
    return clean if len(clean) <= limit else clean[:limit - 1].rstrip() + "…"


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be a mail's one recipient, or ``None`` if it can: it must
    be one plain ``local@domain`` (no display name, comment, list or quoting), so a
    ``To:`` header made of it names that one address and nothing else. Only ASCII
    addresses: plain SMTP (no SMTPUTF8) carries no other."""
    if not address.isascii():
        return "not an ASCII address (write its domain as xn--…)"
    try:
        parsed = Address(addr_spec=address)
    except (ValueError, TypeError, IndexError, MessageError):  # defects are ValueErrors
        return "not an e-mail address"
    if parsed.addr_spec != address or not parsed.username or not parsed.domain:
        return "not an e-mail address"
    return None


@dataclass(frozen=True, slots=True)
class Message:
    """A mail's subject and plain-text body (the recipient is the outbox row's). The
    subject is made one header line (``header_text``) whatever it was given."""

    subject: str
    body: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "subject", header_text(self.subject))


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


def start_message(*, title: str, game_id: int, seat_name: str, player: str, step: str,
                  base_url: str, deadline: datetime | None) -> Message:
    """The game started (for a seat that has no secrets to be mailed): title and link."""
    lines = [
        f"Dear {player or seat_name},",
        "",
        f"The game \"{title}\" has started and {seat_name} is in it.",
        f"Orders for {step} 1 are due {format_time(deadline)}.",
        f"Your orders and reports: {game_url(base_url, game_id)}",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] The game has started", "\n".join(lines))


def time_left(left: timedelta) -> str:
    """``5 h 12 min``, ``40 min``, ``2 d 3 h``: how long until a deadline, rounded down
    to the minute (under a minute: ``less than a minute``)."""
    minutes = max(int(left.total_seconds()) // 60, 0)
    if minutes < 1:
        return "less than a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    return f"{mins} min"


def reminder_message(*, title: str, game_id: int, turn: int, step: str, base_url: str,
                     deadline: datetime, now: datetime) -> Message:
    """A seat's orders are not final and its deadline is near. Only the title, the
    number and the time: nothing from any view."""
    left = time_left(deadline - now)
    headline = f"{step.capitalize()} {turn} of \"{title}\" closes in {left}"
    lines = [
        f"{headline}: your orders are not final.",
        "",
        f"It closes {format_time(deadline)}: check your orders and mark them final.",
        f"Your orders: {game_url(base_url, game_id)}",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] {step.capitalize()} {turn} closes in {left}: orders not final",
                   "\n".join(lines))


def private_message_message(*, title: str, game_id: int, sender: str,
                            base_url: str) -> Message:
    """A private message came: who from (the sender seat's public name) and where to
    read it, never its text (a mail can be read over a shoulder; the page needs a
    log-in)."""
    lines = [
        f"{sender} sent you a private message in \"{title}\".",
        "",
        f"Read it and answer: {game_url(base_url, game_id)}",
        "",
        SIGNATURE,
    ]
    return Message(f"[{title}] A private message from {sender}", "\n".join(lines))


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
        "Setting it logs out your other sessions and revokes every API token of your "
        "seats: a bot or script that plays with one needs a new token afterwards.",
        "",
        "If you did not ask for this, ignore this mail: your password stays as it is.",
        "",
        SIGNATURE,
    ]
    return Message(f"Set a new password for {username}", "\n".join(lines))


def login_failures_message(*, username: str, failures: int,
                           addresses: Sequence[tuple[str, int]], account_url: str,
                           hours: int = 1) -> Message:
    """Repeated failed log-ins to an account: how many in the last ``hours``, from which
    client addresses (with their counts, most first; an IPv6 address by its /64), and
    that nothing needs doing. It holds no password: the ones tried are never kept."""
    period = "hour" if hours == 1 else f"{hours} hours"
    shown = list(addresses[:5])
    if len(shown) == 1:
        where = [f"{failures} failed log-ins to your spyhouse account \"{username}\" from "
                 f"{shown[0][0]} in the last {period}."]
    else:
        where = [f"{failures} failed log-ins to your spyhouse account \"{username}\" in the "
                 f"last {period}" + (", from:" if shown else "."),
                 *(f"  {address} ({count})" for address, count in shown)]
        if len(addresses) > len(shown):
            where.append(f"  and {len(addresses) - len(shown)} other addresses")
    lines = [
        *where,
        "",
        "If it was not you, there is nothing to do: your password was not guessed, and you",
        "can log in as usual. Each failure only makes the next attempt from the same",
        "address wait longer.",
        "",
        "If you use this password anywhere else, you may want to change it:",
        account_url,
        "",
        SIGNATURE,
    ]
    return Message(f"Failed log-ins to your account {username}", "\n".join(lines))
