"""Players' platform channels: the public thread's posts, the Red channel, private messages.

Posts are not orders: they are not in the record and change no
game state, so they live in their own table (``posts``) and never reach a replay. The
rules only say who may use which channel, through the seat view's ``channels``
(``{"public": "post" | "read", "red": "post", "private": "post" | "read"}``); a game
whose views have no ``channels`` key gets the platform's press when its plugin declares
it (``GamePlugin.press``: a public thread and private messages, off in a "gunboat" game;
a seat its own view shows out of the game only reads), and no channels otherwise. A
view's own ``channels`` always win. Every check reads the seat's
CURRENT view (the snapshot after the last resolved entry), so a player who dies loses
the right to post, and a Red who dies loses the Red channel, from the next page on.

Posting is open while the game runs (also while the host has paused it: talk changes
no state). Once the game is over nothing more may be posted: the rights in a finished
game's views describe the play, not a post-game chat; everything posted stays readable
by whoever could read it, and the Red channel and private messages stay private
(§13.1). Each post keeps ``entry`` (the resolved entries when it was posted), so a
thread can place it after the game's own events of that entry (``interleave``). A
game's moderator (its host, holding no seat) reads every channel on the moderator's page,
which shows every secret anyway (``moderator_posts``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import false, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from spyhouse.core import registry
from spyhouse.core.plugin import PressRules
from spyhouse.service import notify
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound
from spyhouse.store.tables import Game, Post, Report, SeatRow

#: The platform's limit on one post or private message (code points, after trimming).
#: A game's own texts (e.g. an anonymous messaging terminal) have their own option.
MAX_CHARS = 2000
#: The channels a view may name, in the order pages show them.
CHANNELS = ("public", "red", "private")
RIGHTS = ("post", "read")
TITLES = {"public": "Public thread", "red": "Red channel", "private": "Private messages"}
NOTHING_POSTED = "Nothing was posted."

#: Refusals in the game's words, by (channel, the seat's right or None when it has none).
REFUSED: dict[tuple[str, str | None], str] = {
    ("public", "read"): "Dead players may read the thread but not post in it.",
    ("public", None): "This game has no public thread for players.",
    ("red", "read"): "You may read the Red channel but not post in it.",
    ("red", None): "Only living Reds may use the Red channel.",
    ("private", "read"): "Dead players may read their private messages but not send any.",
    ("private", None): "Private messages are off in this game.",
}
#: Control characters other than tab and newline (PostgreSQL text refuses NUL).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_KEY = re.compile(r"^[a-z_]{1,40}$")


@dataclass(frozen=True, slots=True)
class ChannelPost:
    """A post as its readers see it: seats named by handle, seat ids kept for links."""

    id: int
    entry: int
    channel: str
    author: str
    author_seat: str
    to: str | None
    to_seat: str | None
    body: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "entry": self.entry, "channel": self.channel,
                "author": self.author, "author_seat": self.author_seat, "to": self.to,
                "to_seat": self.to_seat, "body": self.body, "at": self.at.isoformat()}


# ---------------------------------------------------------------- rights


def rights_in(view: Mapping[str, Any]) -> dict[str, str]:
    """The view's ``channels`` as ``{channel: "post" | "read"}``, unknown names dropped."""
    raw = view.get("channels")
    if not isinstance(raw, Mapping):
        return {}
    return {name: str(raw[name]) for name in CHANNELS
            if name in raw and raw[name] in RIGHTS}


def press_of(game: Game) -> PressRules | None:
    """The game's press declaration (``GamePlugin.press``), ``None`` for a game without."""
    try:
        return registry.plugin(game.game).press
    except KeyError:
        return None


def no_press(game: Game) -> str | None:
    """Why a game that declares press has none, in the game's words: its option turned it
    off (a "gunboat" game), or fewer than two of its seats are held by people (one person
    against computer players: nobody else would read it); ``None`` otherwise."""
    press = press_of(game)
    if press is None:
        return None
    if not press.on(game.options):
        return press.gunboat
    if sum(1 for seat in game.seats if seat.user_id is not None) < 2:
        return press.alone
    return None


@dataclass(frozen=True, slots=True)
class _Seen:
    """A seat's channels as its current view grants them: ``press`` is set when the
    rights come from the plugin's press declaration rather than the view's own."""

    view: Mapping[str, Any]
    rights: dict[str, str]
    living: Mapping[str, bool]
    press: PressRules | None = None


def _seen(game: Game, seat_id: str, view: Mapping[str, Any]) -> _Seen:
    """The view's own ``channels`` when it has the key (the game's own rules); else, for a
    game declaring press that is on, the public thread and private messages: to post
    while the seat's own view shows it in the game, to read once it is out."""
    if "channels" in view or not view:
        return _Seen(view, rights_in(view), _living(view))
    press = press_of(game)
    if press is None or no_press(game):
        return _Seen(view, {}, {})
    living = {str(seat): bool(alive) for seat, alive in press.living(view).items()}
    right = "post" if living.get(seat_id, True) else "read"
    return _Seen(view, {name: right for name in press.channels}, living, press)


def _current(db: Session, game: Game, seat_id: str,
             view: Mapping[str, Any] | None = None) -> _Seen:
    """The seat's channels from its view after the last resolved entry (``view`` when the
    caller read it already); none before the start and for a seat id that is not a seat
    of ``game`` (a spectator has no channels)."""
    if game.status == "open" or seat_id not in _seat_names(game):
        return _Seen({}, {}, {})
    if view is None:
        view = store.snapshot(db, game.id, game.entry, seat_id)
    return _seen(game, seat_id, view)


def _seat_names(game: Game) -> dict[str, str]:
    return {seat.seat_id: seat.name for seat in game.seats}


def _living(view: Mapping[str, Any]) -> dict[str, bool]:
    """Seat id -> alive, from the view's own roster (seats it does not list count alive)."""
    found: dict[str, bool] = {}
    for row in view.get("players") or ():
        if isinstance(row, Mapping) and "seat" in row:
            found[str(row["seat"])] = row.get("alive") is not False
    return found


def _computers(game: Game) -> set[str]:
    return {seat.seat_id for seat in game.seats if seat.user_id is None}


def _recipients(game: Game, seat_id: str, seen: _Seen) -> list[tuple[str, str]]:
    """The seats ``seat_id`` may write to: living ones, and under press only people."""
    if seen.rights.get("private") != "post":
        return []
    skip = _computers(game) if seen.press is not None else set()
    return [(seat, name) for seat, name in _seat_names(game).items()
            if seat != seat_id and seen.living.get(seat, True) and seat not in skip]


def rights(db: Session, game: Game, seat_id: str) -> dict[str, str]:
    """What ``seat_id`` may do in each channel now, from its current view; a seat id that
    is not a seat of ``game`` (a spectator) has no channels."""
    return _current(db, game, seat_id).rights


def recipients(db: Session, game: Game, seat_id: str) -> list[tuple[str, str]]:
    """``(seat id, handle)`` of every seat ``seat_id`` may send a private message to now:
    the other seats, less those its own view shows dead (or out of the game). Empty
    without the right to send."""
    return _recipients(game, seat_id, _current(db, game, seat_id))


# ---------------------------------------------------------------- posting


def clean_body(body: str) -> str:
    """The text as stored: newlines normalised, control characters dropped, trimmed."""
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text).strip()


def _check_body(body: str) -> str:
    text = clean_body(body)
    if not text:
        raise Invalid("Write something first: the message is empty.",
                      {"body": ["write 1 to 2000 characters"]})
    if len(text) > MAX_CHARS:
        raise Invalid(f"The message is too long: {len(text)} characters, at most {MAX_CHARS}.",
                      {"body": [f"at most {MAX_CHARS} characters"]})
    return text


def _check_addressee(game: Game, seat: SeatRow, seen: _Seen, to_seat: str | None) -> str:
    names = _seat_names(game)
    if not to_seat:
        raise Invalid("Choose who the private message is for.",
                      {"to": ["choose a player"]})
    if to_seat == seat.seat_id:
        raise Invalid("You cannot send a private message to yourself.",
                      {"to": ["choose another player"]})
    if to_seat not in names:
        raise Invalid(f"There is no player {to_seat[:16]} in this game.",
                      {"to": ["choose a player of this game"]})
    if seen.press is not None and to_seat in _computers(game):
        raise Invalid(f"{names[to_seat]} is a computer player: it reads no messages.",
                      {"to": ["choose a player who is a person"]})
    if not seen.living.get(to_seat, True):
        if seen.press is not None:
            raise Invalid(seen.press.addressee_out.format(name=names[to_seat]),
                          {"to": ["choose one still in the game"]})
        raise Invalid(f"{names[to_seat]} is dead: the dead get no private messages.",
                      {"to": ["choose a living player"]})
    return to_seat


def post(db: Session, game: Game, seat: SeatRow, channel: str, body: str, *,
         to_seat: str | None = None, now: datetime) -> ChannelPost:
    """Post ``body`` in ``channel`` as ``seat`` (``to_seat``: the addressee of a private
    message), if the seat's current view grants ``"post"`` there.

    Refused (nothing saved) with ``NotFound`` for a seat of another game, ``Conflict``
    before the start and after the end, ``Forbidden`` without the right to post (and for
    a computer player's seat),
    ``Invalid`` for an unknown channel, an empty or too long text (``MAX_CHARS``), or a
    bad addressee (none, oneself, not in the game, dead in the seat's own view).
    """
    if seat.game_id != game.id:
        raise NotFound("you hold no seat in this game")
    if seat.user_id is None:
        raise Forbidden("A computer player's seat does not post.")
    if game.status == "open":
        raise Conflict("The game has not started yet: the channels open when it does.")
    if game.status == "over":
        raise Conflict("The game is over: nothing more can be posted, and everything "
                       "posted stays readable.")
    if channel not in CHANNELS:
        raise Invalid(f"There is no channel {channel[:16]!r}: the channels are "
                      f"{', '.join(CHANNELS)}.",
                      {"channel": [f"one of {', '.join(CHANNELS)}"]})
    seen = _current(db, game, seat.seat_id)
    granted = seen.rights
    if not granted:
        raise Forbidden(no_press(game) or "This game has no player channels.")
    right = granted.get(channel)
    if right != "post":
        raise Forbidden(_refusal(seen, channel, right))
    text = _check_body(body)
    if channel == "private":
        to_seat = _check_addressee(game, seat, seen, to_seat)
    elif to_seat:
        raise Invalid("Only private messages have an addressee.",
                      {"to": ["leave it empty outside private messages"]})
    row = Post(game_id=game.id, entry=game.entry, channel=channel, seat_id=seat.seat_id,
               to_seat=to_seat if channel == "private" else None, body=text, at=now)
    db.add(row)
    db.flush()
    posted = _out(row, _seat_names(game))
    for addressee in message_recipients(db, game, posted):  # told by mail, if they wish
        notify.private_message(db, game, seat, addressee, now, store.settings_of(db, None))
    return posted


def _refusal(seen: _Seen, channel: str, right: str | None) -> str:
    """Why a seat may not post in ``channel``: the view's rules' words, or the press
    declaration's (a seat out of the game; a channel press does not open)."""
    if seen.press is None:
        return REFUSED[(channel, right)]
    if right == "read":
        return seen.press.out
    return (f"This game's press has no {TITLES[channel].lower()}: it has "
            f"{' and '.join(TITLES[name].lower() for name in seen.press.channels)}.")


def message_recipients(db: Session, game: Game, posted: ChannelPost) -> list[SeatRow]:
    """The seats to tell about a new post (the hook of the "new private message" mail): a
    private message's addressee, if a player (not a computer) holds it and it may read the
    message under ``readable``'s rule; nobody for any other channel. The caller still
    asks the holder's own mail settings (``users.mail_messages``)."""
    if posted.channel != "private" or posted.to_seat is None:
        return []
    seat = next((row for row in game.seats if row.seat_id == posted.to_seat), None)
    if seat is None or seat.user_id is None:
        return []
    if "private" not in rights(db, game, seat.seat_id):
        return []
    return [seat]


# ---------------------------------------------------------------- reading


def _out(row: Post, names: Mapping[str, str]) -> ChannelPost:
    return ChannelPost(id=row.id, entry=row.entry, channel=row.channel,
                       author=names.get(row.seat_id, row.seat_id), author_seat=row.seat_id,
                       to=names.get(row.to_seat, row.to_seat) if row.to_seat else None,
                       to_seat=row.to_seat, body=row.body, at=row.at)


def _readable(db: Session, game: Game, seat_id: str, granted: Mapping[str, str], *,
              upto: int | None, after: int) -> list[ChannelPost]:
    allowed: list[ColumnElement[bool]] = []
    if "public" in granted:
        allowed.append(Post.channel == "public")
    if "red" in granted:
        allowed.append(Post.channel == "red")
    if "private" in granted:
        allowed.append((Post.channel == "private")
                       & or_(Post.seat_id == seat_id, Post.to_seat == seat_id))
    if not allowed:
        return []
    query = select(Post).where(Post.game_id == game.id, or_(false(), *allowed),
                               Post.id > after)
    if upto is not None:
        query = query.where(Post.entry <= upto)
    names = _seat_names(game)
    return [_out(row, names) for row in db.scalars(query.order_by(Post.id))]


def readable(db: Session, game: Game, seat_id: str, *, upto: int | None = None,
             after: int = 0) -> list[ChannelPost]:
    """The posts ``seat_id`` may read now, oldest first: the public ones if its view has
    the public channel, the Red channel's only while its view has ``red``, and the private
    messages sent by or to it if its view has ``private``. A seat id that is not a seat of
    the game (a spectator) reads nothing. ``upto``: only posts made before entry
    ``upto + 1`` resolved (a past report's thread); ``after``: only posts with a larger id
    (polling)."""
    return _readable(db, game, seat_id, rights(db, game, seat_id), upto=upto, after=after)


def moderator_posts(db: Session, game: Game, *, secret: bool,
                    upto: int | None = None) -> list[ChannelPost]:
    """Every post of ``game``, oldest first, for its moderator's page, which holds every
    seat's secrets anyway. ``secret``: with the Red channel and private messages, only for
    the moderator (the host who holds no seat); the players who read that page once the
    game is over get the public posts alone, since those channels stay private after the
    end. ``upto`` as in ``readable``. Never for a seat's own page: use ``readable``."""
    query = select(Post).where(Post.game_id == game.id)
    if not secret:
        query = query.where(Post.channel == "public")
    if upto is not None:
        query = query.where(Post.entry <= upto)
    names = _seat_names(game)
    return [_out(row, names) for row in db.scalars(query.order_by(Post.id))]


@dataclass(frozen=True, slots=True)
class SeatChannels:
    """Everything a page shows of a seat's channels, from one read of its current view."""

    rights: dict[str, str]
    posts: list[ChannelPost]
    recipients: list[tuple[str, str]]


def seat_channels(db: Session, game: Game, seat_id: str, *, upto: int | None = None,
                  after: int = 0, view: Mapping[str, Any] | None = None) -> SeatChannels:
    """``rights``, ``readable`` and ``recipients`` at once (a page or an API answer reads
    the snapshot once). ``view``: the seat's current view, when the page has read it
    already (never a past report's view: rights are always today's)."""
    seen = _current(db, game, seat_id, view)
    return SeatChannels(seen.rights,
                        _readable(db, game, seat_id, seen.rights, upto=upto, after=after),
                        _recipients(game, seat_id, seen))


# ---------------------------------------------------------------- the thread


def log_marks(db: Session, game_id: int, entries: Iterable[int], key: str) -> dict[int, int]:
    """How many items the public view's list ``key`` (the plugin's ``pages.thread_key``)
    held after each of ``entries``: counted in the database, so no snapshot is loaded."""
    wanted = sorted(set(entries))
    if not wanted:
        return {}
    if not _KEY.match(key):
        raise ValueError(f"not a view key: {key!r}")
    if db.get_bind().dialect.name == "postgresql":
        length = func.json_array_length(Report.view[key])
    else:
        length = func.json_array_length(Report.view, f"$.{key}")
    rows = db.execute(select(Report.entry, length).where(
        Report.game_id == game_id, Report.seat_id == store.PUBLIC_KEY,
        Report.entry.in_(wanted)))
    return {int(entry): int(count or 0) for entry, count in rows}


def interleave(events: Sequence[Mapping[str, Any]], posts: Iterable[ChannelPost],
               marks: Mapping[int, int]) -> list[dict[str, Any]]:
    """The public thread: the game's events with each public post placed after the events
    of the entry it was posted at (``marks``: events after each entry). A post is
    ``{"kind": "post", "turn": <the turn of the event before it>, "text": "Author: body",
    "post": ChannelPost}``; events are copied as they are."""
    out: list[dict[str, Any]] = []
    done = 0
    turn = events[0].get("turn") if events else None
    for item in sorted((p for p in posts if p.channel == "public"),
                       key=lambda p: (p.entry, p.id)):
        stop = min(marks.get(item.entry, len(events)), len(events))
        while done < stop:
            out.append(dict(events[done]))
            turn = events[done].get("turn", turn)
            done += 1
        out.append({"kind": "post", "turn": turn, "text": f"{item.author}: {item.body}",
                    "post": item})
    out.extend(dict(event) for event in events[done:])
    return out


def thread(db: Session, game: Game, events: Sequence[Mapping[str, Any]],
           posts: Iterable[ChannelPost], key: str) -> list[dict[str, Any]]:
    """``interleave`` with the marks read from the public snapshots' list ``key``."""
    public = [p for p in posts if p.channel == "public"]
    marks = log_marks(db, game.id, (p.entry for p in public), key)
    return interleave(events, public, marks)


__all__ = ["CHANNELS", "MAX_CHARS", "NOTHING_POSTED", "TITLES", "ChannelPost", "SeatChannels",
           "clean_body", "interleave", "log_marks", "message_recipients",
           "moderator_posts", "no_press", "post", "press_of", "readable", "recipients", "rights",
           "rights_in", "seat_channels", "thread"]
