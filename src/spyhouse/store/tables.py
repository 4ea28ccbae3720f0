"""The tables. A game's record is ``games`` (seed, options) + ``seats`` + ``turns``;
``reports`` are snapshots of every view after each entry, served to pages and
checked against a replay."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy import (
    false as sa_false,
)
from sqlalchemy import (
    true as sa_true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps them naive, as UTC)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use UTC-aware datetimes")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, datetime: UTCDateTime}


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    email: Mapped[str] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    #: the default for each new seat's "show my e-mail address": private unless the
    #: player opts in (issue 14)
    email_public: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: an IANA time zone ("Europe/Paris"); ``None``: the browser's
    time_zone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the mails the player wants: turn processed, deadline reminders (``reminder_hours``
    #: before, for seats without final orders), new private messages, game start and end
    mail_turn: Mapped[bool] = mapped_column(Boolean, default=True, server_default=sa_true())
    mail_reminder: Mapped[bool] = mapped_column(Boolean, default=True,
                                                server_default=sa_true())
    reminder_hours: Mapped[int] = mapped_column(Integer, default=12, server_default="12")
    mail_messages: Mapped[bool] = mapped_column(Boolean, default=True,
                                                server_default=sa_true())
    mail_game: Mapped[bool] = mapped_column(Boolean, default=True, server_default=sa_true())


class WebSession(Base):
    """A log-in: the cookie holds a random token; only its SHA-256 is stored."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    user: Mapped[User] = relationship(lazy="joined")


class LoginAttempt(Base):
    """Failed log-ins, per key (user name or client address), for rate limiting."""

    __tablename__ = "login_attempts"
    __table_args__ = (Index("ix_login_attempts_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class PasswordReset(Base):
    """A "forgot your password" link: the mail holds a random token; only its SHA-256 is
    stored, so a stolen database opens no account. Used once, valid for an hour."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Game(Base):
    """One hosted game. ``entry`` counts resolved record entries; ``deadline`` is when the
    next one is due (``None``: as soon as every awaited seat is ready, or not running)."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_status_deadline", "status", "deadline"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(16), default="open")  # open running paused over
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: ``{"weekly": {...}}``, ``{"interval_hours": n}`` or ``"all_submitted"``
    schedule: Mapped[dict[str, Any] | str] = mapped_column(JSON, default=dict)
    min_seats: Mapped[int] = mapped_column(Integer, default=2)
    max_seats: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entry: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    paused_remaining_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paused_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    extended_hours: Mapped[int] = mapped_column(Integer, default=0)
    #: seconds the current turn has spent paused (capped by ``max_pause_hours``); the
    #: pause under way began at ``paused_at``.
    paused_s: Mapped[int] = mapped_column(Integer, default=0)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: the seat ids the open record entry awaits (``Ruleset.awaiting``), kept so that
    #: due checks and order refusals need no replay.
    awaiting: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: when the open entry may close before its deadline (``Ruleset.early_close``):
    #: ``"ready"`` (every awaited seat marked READY), ``"submitted"`` (every awaited seat
    #: has orders) or ``"never"``; ``None``: the platform's rule for the game's schedule.
    close_when: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: bumped whenever a seat's header row (name, player, e-mail, set-up) changes after
    #: the start: the order path's memo of the state is keyed on the game row alone
    #: (``records.state_at``)
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: anyone may watch (the public view during play, everything after the end)
    public: Mapped[bool] = mapped_column(Boolean, default=True, server_default=sa_true())
    #: created from a record file (``spyhouse import``), not played on this server
    imported: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())

    host: Mapped[User] = relationship(lazy="joined")
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game_row", order_by="SeatRow.position", cascade="all, delete-orphan")


class SeatRow(Base):
    """A seat: held by a user, or played by a bot (``bot`` names the strategy)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(80))
    public_email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # e.g. {"base": "B"}
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: the open entry this seat was last reminded of its deadline (a reminder goes once)
    reminded_entry: Mapped[int | None] = mapped_column(Integer, nullable=True)

    game_row: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(lazy="joined")


class ApiToken(Base):
    """A per-seat API token; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_row_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"),
                                             index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    seat: Mapped[SeatRow] = relationship(lazy="joined")


class OrderDraft(Base):
    """A seat's accepted orders for record entry ``entry`` (the one being played)."""

    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("game_id", "seat_id", "entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[str] = mapped_column(String(16))
    entry: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    request_key: Mapped[str | None] = mapped_column(String(80), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TurnRow(Base):
    """One resolved record entry: the orders as resolved (``null`` = no-show) and the
    entry's hash in the record's chain."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    entry: Mapped[int] = mapped_column(Integer)
    orders: Mapped[dict[str, Any]] = mapped_column(JSON)
    processed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: the entry's hash in the game's chain (``service.records.stored_chain``), checked
    #: when the record is loaded; ``NULL`` for entries processed before migration 0007
    chain: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)


class Report(Base):
    """A snapshot after record entry ``entry``: one seat's part of its view (``*host``
    the host's, without the seats' own views; ``*public`` the spectators' whole view).
    A part is the whole view unless the entry has a ``ViewShare`` to join it with."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("game_id", "entry", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    entry: Mapped[int] = mapped_column(Integer)
    seat_id: Mapped[str] = mapped_column(String(16))
    view: Mapped[dict[str, Any]] = mapped_column(JSON)


class ViewShare(Base):
    """What every stored view of one entry is built from once (``Ruleset.stored_views``'
    ``shared``): never served as it is, only joined with a reader's own part in
    ``reports`` (``Ruleset.joined_view``). Games whose views share nothing have none."""

    __tablename__ = "view_shares"
    __table_args__ = (UniqueConstraint("game_id", "entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    entry: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class News(Base):
    """A game's public timeline: starts, processed turns, the host's pauses, resumptions
    and extensions. Every player sees every line; no line holds a secret."""

    __tablename__ = "news"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    entry: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class Post(Base):
    """A player's message in one of a game's platform channels (``Ruleset`` views name
    them: ``public``, ``red``, ``private``). Posts are not orders: they are not in the
    record and change no game state. ``entry`` is the number of resolved record entries
    when it was posted, so a thread can interleave posts with the game's own events."""

    __tablename__ = "posts"
    __table_args__ = (Index("ix_posts_game_channel", "game_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    entry: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(16))
    seat_id: Mapped[str] = mapped_column(String(16))
    #: the addressee of a ``private`` message; ``None`` in the other channels
    to_seat: Mapped[str | None] = mapped_column(String(16), nullable=True)
    body: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class OutboxMail(Base):
    """Mail written in the transaction that caused it; the worker sends it, with retries.
    ``failed_at``: given up (it cannot be built, it was refused for good, or it ran out
    of attempts), ``last_error`` says why; such a row is never tried again."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_pending", "sent_at", "next_attempt_at"),
                      Index("ix_outbox_game_failed", "game_id", "failed_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"),
                                                nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True,
                                                index=True)
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
