"""Games: create, join, add bots, start; the host's bounded powers; lists.

A game is open (seats join), then running (turns are processed on deadlines),
maybe paused by its host, and finally over. Its record is ``games`` (seed,
options) + ``seats`` + ``turns``; ``record_of`` rebuilds it. The seed is drawn
with ``secrets.randbits(63)`` at creation and is never shown before game over.

The host's powers are bounded by the settings: extensions add up to at most
``max_extension_hours`` per turn, pauses to at most ``max_pause_hours`` per turn
(a pause ends by itself when its allowance runs out), and every change is posted
to the game's news and mailed to every player.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from spyhouse.core import bots as bot_registry
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import OptionsError, RecordError
from spyhouse.core.record import Record
from spyhouse.mail import messages
from spyhouse.mail.outbox import queue_mail
from spyhouse.mail.unsubscribe import wants
from spyhouse.service import records as store
from spyhouse.service import schedule as schedules
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound
from spyhouse.service.notify import add_news, announce, players
from spyhouse.service.text import check_line
from spyhouse.service.turns import move_bots, open_turn
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, OutboxMail, SeatRow, User

MAX_TITLE = 80
MAX_PLAYER = 80
RESEND_GAP = timedelta(minutes=10)


def record_of(db: Session, game_id: int) -> Record:
    """The game's record (``spyhouse-record/2``): what ``spyhouse replay`` and ``verify`` read."""
    return store.load_record(db, get_game(db, game_id))


def get_game(db: Session, game_id: int) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound("there is no such game")
    return game


def open_games(db: Session) -> list[Game]:
    """Games taking players, newest first."""
    return list(db.scalars(select(Game).where(Game.status == "open")
                           .order_by(Game.created_at.desc(), Game.id.desc())))


def games_of(db: Session, user: User) -> list[Game]:
    """Games the user plays in or hosts, newest first."""
    seated = select(SeatRow.game_id).where(SeatRow.user_id == user.id)
    return list(db.scalars(select(Game).where(or_(Game.host_id == user.id,
                                                  Game.id.in_(seated)))
                           .order_by(Game.created_at.desc(), Game.id.desc())))


def seats_of(db: Session, game_id: int) -> list[SeatRow]:
    return list(db.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                           .order_by(SeatRow.position)))


# ---------------------------------------------------------------- creating and joining


def create_game(db: Session, host: User, *, game: str, title: str, options: Mapping[str, Any],
                schedule: Any, max_seats: int | None, now: datetime,
                seed: int | None = None, public: bool = True) -> Game:
    """A new open game. ``schedule`` ``None`` takes the game's default (e.g.
    Wednesday 20:00, Pacific/Auckland). ``public``: anyone may watch it (the public
    view during play, everything after the end); else only its members
    (``service.archive``)."""
    if game not in registry.names():
        raise Invalid(f"unknown game {game}", {"game": [f"choose one of "
                                                         f"{', '.join(registry.names())}"]})
    ruleset = registry.get(game)
    title = title.strip()
    if not 1 <= len(title) <= MAX_TITLE:
        raise Invalid("the title needs 1 to 80 characters", {"title": ["1 to 80 characters"]})
    check_line(title, "title", "the title")  # it goes into every mail's subject
    if not isinstance(options, Mapping):
        raise Invalid("options must be an object", {"options": ["must be an object"]})
    try:
        parsed = ruleset.parse_options(options)
    except OptionsError as exc:
        raise Invalid(f"options: {exc}", {"options": [str(exc)]}) from None
    try:
        plan = schedules.normalize(ruleset.spec.default_schedule if schedule is None
                                   else schedule)
    except schedules.ScheduleError as exc:
        raise Invalid(f"schedule: {exc}", {"schedule": [str(exc)]}) from None
    low, most = ruleset.seat_range(parsed)
    caps = [cap for cap in (ruleset.spec.max_seats, most, max_seats) if cap is not None]
    high = min(caps) if caps else None
    if max_seats is not None and (not isinstance(max_seats, int) or max_seats < low):
        raise Invalid(f"this game needs room for at least {low} players",
                      {"max_seats": [f"at least {low}"]})
    if seed is None:
        seed = secrets.randbits(63)
    elif not 0 <= seed < 2**63:
        raise Invalid("the seed is a whole number from 0 to 2^63 - 1", {"seed": ["out of range"]})
    row = Game(game=game, title=title, status="open", host_id=host.id, seed=seed,
               options=dict(options), schedule=plan, min_seats=low, max_seats=high, entry=0,
               extended_hours=0, paused_s=0, awaiting=[], created_at=now,
               public=bool(public))
    db.add(row)
    db.flush()
    return row


def _open_game_locked(db: Session, game_id: int) -> Game:
    game = store.lock_game(db, game_id, "write")
    if game.status != "open":
        raise Conflict("the game has already started")
    return game


def _check_room(game: Game, seats: list[SeatRow]) -> None:
    if game.max_seats is not None and len(seats) >= game.max_seats:
        raise Conflict("the game is full")


def _seat_setup(game: Game, choice: str | None) -> dict[str, Any]:
    """A player's own secret choice before the start (the plugin's ``seat_setup``, e.g.
    a secret starting place), one of its declared choices, or nothing."""
    if choice is None or not choice.strip():
        return {}
    setup = registry.plugin(game.game).seat_setup
    if setup is None:
        raise Invalid("this game has nothing to choose before the start",
                      {"setup": ["not used in this game"]})
    if not setup.applies(game.options or {}):
        raise Invalid(setup.not_chosen, {"setup": [setup.not_chosen]})
    value = choice.strip().upper() if choice.strip().upper() in dict(setup.choices) \
        else choice.strip()
    if value not in dict(setup.choices):
        known = ", ".join(key for key, _ in setup.choices)
        raise Invalid(f"{setup.unknown.format(value=choice.strip())}: choose one of {known}",
                      {"setup": [f"one of {known}"]})
    return {setup.key: value}


def join_game(db: Session, user: User, game_id: int, *, name: str, player: str,
              show_email: bool, choice: str | None = None, now: datetime) -> SeatRow:
    """Take a seat: ``name`` is the seat's public name, checked by the game's rules
    (``Ruleset.seat_name_problem``); ``show_email`` puts the user's address in the directory;
    ``choice``: the player's own secret choice before the start (``seat_setup``)."""
    game = _open_game_locked(db, game_id)
    seats = seats_of(db, game.id)
    if any(seat.user_id == user.id for seat in seats):
        raise Conflict("you already hold a seat in this game")
    _check_room(game, seats)
    check_line(name.strip(), "name", "the name")  # whatever the game's own rule says
    problem = registry.get(game.game).seat_name_problem(name, [seat.name for seat in seats])
    if problem:
        raise Invalid(problem, {"name": [problem]})
    player = player.strip() or user.username
    if len(player) > MAX_PLAYER:
        raise Invalid("the player name is too long", {"player": ["at most 80 characters"]})
    check_line(player, "player", "the player name")
    setup = _seat_setup(game, choice)
    position = max((seat.position for seat in seats), default=0) + 1
    seat = SeatRow(game_id=game.id, seat_id=f"s{position}", position=position, user_id=user.id,
                   bot=None, name=name.strip(), player=player,
                   public_email=user.email if show_email else None, setup=setup,
                   created_at=now)
    db.add(seat)
    db.flush()
    return seat


def change_setup(db: Session, user: User, game_id: int, choice: str | None,
                 now: datetime) -> SeatRow:
    """Change (or clear) the player's own secret choice until the game starts (Spy vs
    a secret starting place)."""
    game = _open_game_locked(db, game_id)
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id,
                                           SeatRow.user_id == user.id))
    if seat is None:
        raise NotFound("you hold no seat in this game")
    seat.setup = _seat_setup(game, choice)
    store.seats_changed(db, game.id)
    return seat


def seat_name_forms(text: str) -> tuple[str, str]:
    """A seat name as written, then as a handle (letters, digits and _ only, at most 16,
    leaving room for a number) for games whose seat names are handles."""
    return text, "".join(c if c.isalnum() else "_" for c in text).strip("_")[:16]


def _alike(name: str) -> str:
    """A name as no other seat's may look: letters and digits only, case folded
    ("Buttmans Brigade" and "Buttmans_Brigade" are alike)."""
    return "".join(c for c in name.casefold() if c.isalnum())


def add_bot(db: Session, host: User, game_id: int, *, strategy: str, now: datetime) -> SeatRow:
    """A computer player in the next seat, with the first free name of the game's own
    kind (its plugin's ``words.computer_names``): a name another seat holds in any form
    (as written, or as a handle) is skipped, so no two seats look alike."""
    game = _open_game_locked(db, game_id)
    if game.host_id != host.id:
        raise Forbidden("only the host can add computer players")
    try:
        known = bot_registry.bot_names(game.game)
    except KeyError:
        known = []
    if strategy not in known:
        raise Invalid(f"unknown computer player {strategy}",
                      {"strategy": [f"choose one of {', '.join(known) or 'none'}"]})
    seats = seats_of(db, game.id)
    _check_room(game, seats)
    taken = [seat.name for seat in seats]
    pool = registry.plugin(game.game).words.computer_names
    rule = registry.get(game.game).seat_name_problem
    alike = {_alike(name) for name in taken}

    def form_of(name: str) -> str | None:
        """The name as written if the rules take it, else as a handle (one form each)."""
        return next((f for f in seat_name_forms(name) if rule(f, ()) is None), None)

    def free(name: str | None) -> bool:
        return name is not None and _alike(name) not in alike and rule(name, taken) is None

    # Each name in the game's one acceptable form; then numbered the same way.
    name = next((f for f in map(form_of, pool) if free(f)), None)
    cycle = 2
    while name is None:
        if cycle > 10_000:
            raise Conflict("no name is left for another computer player")
        name = next((f for n in pool for f in (form_of(f"{n} {cycle}"),) if free(f)), None)
        cycle += 1
    position = max((seat.position for seat in seats), default=0) + 1
    seat = SeatRow(game_id=game.id, seat_id=f"s{position}", position=position, user_id=None,
                   bot=strategy, name=name, player=f"Computer ({strategy})", public_email=None,
                   setup={}, created_at=now)
    db.add(seat)
    db.flush()
    return seat


# ---------------------------------------------------------------- starting


def _host_game(db: Session, host: User, game_id: int, what: str) -> Game:
    game = store.lock_game(db, game_id, "write")
    if game.host_id != host.id:
        raise Forbidden(f"only the host can {what}")
    return game


def start_game(db: Session, host: User, game_id: int, now: datetime, *,
               settings: Settings | None = None) -> Game:
    """Run the setup, snapshot turn 0, mail each player its secrets (spec §4) from its
    own view, fill the bots' first orders and set the first deadline: the ruleset's own
    length of the first entry from now (``deadline_seconds``), else the schedule's."""
    settings = store.settings_of(db, settings)
    game = _host_game(db, host, game_id, "start the game")
    if game.status != "open":
        raise Conflict("the game has already started")
    seats = seats_of(db, game.id)
    if len(seats) < game.min_seats:
        raise Conflict(f"the game needs at least {game.min_seats} players to start")
    record = store.build_record(game, seats, ())
    try:
        ruleset, _rng, state = records.start(record)
    except RecordError as exc:
        raise Conflict(f"the game cannot start: {exc}") from None
    store.remember(record, state)
    store.write_views(db, ruleset, game.id, 0, state, [seat.seat_id for seat in seats])
    plan = schedules.parse_schedule(game.schedule)
    game.status = "running"
    game.started_at = now
    game.entry = 0
    open_turn(game, ruleset, state, now,
              scheduled=schedules.first_deadline(plan, now))
    if not game.awaiting:
        game.status = "over"
        game.finished_at = now
    step = registry.plugin(game.game).words.turn
    announce_start = (f"The game has started with {len(seats)} players. Orders for {step} 1 "
                      f"are due {messages.format_time(game.deadline)}.")
    add_news(db, game, "start", announce_start, now)
    _tell_start(db, game, ruleset, state, seats, now, settings)
    move_bots(db, game.id, now)  # their first orders, so the game waits only on people
    return game


def _tell_start(db: Session, game: Game, ruleset: Any, state: Any, seats: list[SeatRow],
                now: datetime, settings: Settings) -> None:
    """The start's mail to each player who wants game mail (``mail_game``): the seat's
    secrets, or, for a seat with none, a plain start notice when other people play too
    (alone against the computer the player has just pressed "start" and is at the board).
    A player with game mail off gets neither: the seat page shows the game started and
    mails the secrets again on request (``resend_secrets``, always sent)."""
    people = sum(1 for seat in seats if seat.user_id is not None)
    step = registry.plugin(game.game).words.turn
    for seat, user in players(db, game.id):
        if not wants(user, "secrets"):
            continue
        message = _secrets_message(game, seat, ruleset.view(state, seat.seat_id), settings)
        if message is not None:
            queue_mail(db, kind="secrets", to_addr=user.email, message=message, now=now,
                       user_id=user.id, game_id=game.id)
        elif people > 1:
            start = messages.start_message(
                title=game.title, game_id=game.id, seat_name=seat.name, player=seat.player,
                step=step, base_url=settings.base_url, deadline=game.deadline)
            queue_mail(db, kind="start", to_addr=user.email, message=start, now=now,
                       user_id=user.id, game_id=game.id)


def _secrets_message(game: Game, seat: SeatRow, view: Mapping[str, Any],
                     settings: Settings) -> messages.Message | None:
    """The secrets mail of a seat whose view holds keys its rules only mail (its
    ``mailed_only_keys``), in the game's words; ``None`` when there is nothing to mail."""
    plugin = registry.plugin(game.game)
    hidden = plugin.ruleset().mailed_only_keys
    if not any(key in view for key in hidden) or plugin.text.secrets is None:
        return None
    return messages.secrets_message(
        title=game.title, game_id=game.id, seat_name=seat.name, player=seat.player,
        what=plugin.words.secrets, lines=plugin.text.secrets(view),
        base_url=settings.base_url, deadline=game.deadline)


def resend_secrets(db: Session, user: User, game_id: int, now: datetime, *,
                   settings: Settings | None = None) -> OutboxMail:
    """Mail the player's secrets again, to the player's own address only (spec §4)."""
    settings = store.settings_of(db, settings)
    game = get_game(db, game_id)
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id,
                                           SeatRow.user_id == user.id))
    if seat is None:
        raise NotFound("you hold no seat in this game")
    if game.status == "open":
        raise Conflict("the game has not started yet")
    view = store.snapshot(db, game.id, game.entry, seat.seat_id)
    message = _secrets_message(game, seat, view, settings)
    if message is None:
        raise Conflict(f"you have no secrets left to keep "
                       f"({registry.plugin(game.game).words.secrets})")
    recent = db.scalar(select(func.count()).select_from(OutboxMail).where(
        OutboxMail.user_id == user.id, OutboxMail.game_id == game.id,
        OutboxMail.kind == "secrets", OutboxMail.failed_at.is_(None),
        OutboxMail.created_at > now - RESEND_GAP))
    if recent:
        raise Conflict("your secrets were mailed a few minutes ago; please check your mail")
    return queue_mail(db, kind="secrets", to_addr=user.email, message=message, now=now,
                      user_id=user.id, game_id=game.id)


# ---------------------------------------------------------------- the host's powers


def pause_game(db: Session, host: User, game_id: int, now: datetime, *,
               settings: Settings | None = None) -> Game:
    """Stop the clock. The pause ends by itself once this turn's pause allowance
    (``max_pause_hours``) is spent; the deadline then moves by the time paused."""
    settings = store.settings_of(db, settings)
    game = _host_game(db, host, game_id, "pause the game")
    if game.status != "running":
        raise Conflict("only a running game can be paused")
    if game.deadline is not None and game.deadline <= now:
        raise Conflict(store.TURN_CLOSED)
    allowance = settings.max_pause_hours * 3600 - game.paused_s
    if allowance <= 0:
        raise Conflict(f"this turn has used its {settings.max_pause_hours} hours of pause")
    game.paused_remaining_s = (None if game.deadline is None
                               else int((game.deadline - now).total_seconds()))
    game.status = "paused"
    game.paused_at = now
    game.paused_until = now + timedelta(seconds=allowance)
    game.deadline = None
    announce(db, game, "pause",
             f"The host has paused the game. It resumes by "
             f"{messages.format_time(game.paused_until)} at the latest; the deadline "
             f"moves by the time paused.", now, settings)
    return game


def _resume(db: Session, game: Game, now: datetime, settings: Settings, text: str) -> Game:
    paused_at = game.paused_at or now
    game.paused_s += max(0, int((now - paused_at).total_seconds()))
    game.status = "running"
    game.deadline = (None if game.paused_remaining_s is None
                     else now + timedelta(seconds=game.paused_remaining_s))
    game.paused_at = game.paused_until = None
    game.paused_remaining_s = None
    announce(db, game, "resume", f"{text} Orders are due "
             f"{messages.format_time(game.deadline)}.", now, settings)
    return game


def resume_game(db: Session, host: User, game_id: int, now: datetime, *,
                settings: Settings | None = None) -> Game:
    settings = store.settings_of(db, settings)
    game = _host_game(db, host, game_id, "resume the game")
    if game.status != "paused":
        raise Conflict("the game is not paused")
    return _resume(db, game, now, settings, "The host has resumed the game.")


def paused_games_due(db: Session, now: datetime) -> list[int]:
    """Games whose pause allowance ran out (the worker resumes them)."""
    return list(db.scalars(select(Game.id).where(Game.status == "paused",
                                                 Game.paused_until <= now)
                           .order_by(Game.id)))


def end_expired_pause(db: Session, game_id: int, now: datetime, *,
                      settings: Settings | None = None) -> bool:
    """Resume a game whose pause allowance ran out, as of the moment it ran out."""
    settings = store.settings_of(db, settings)
    game = store.claim_game(db, game_id)
    if game is None or game.status != "paused" or game.paused_until is None \
            or game.paused_until > now:
        return False
    _resume(db, game, game.paused_until, settings,
            "The pause has reached its limit and the game goes on.")
    return True


def extend_deadline(db: Session, host: User, game_id: int, hours: int, now: datetime, *,
                    settings: Settings | None = None) -> Game:
    """Move this turn's deadline later; at most ``max_extension_hours`` in all per turn
    (``game.extended_hours`` counts them and pages show it)."""
    settings = store.settings_of(db, settings)
    if not isinstance(hours, int) or isinstance(hours, bool) or hours < 1:
        raise Invalid("extend by a whole number of hours", {"hours": ["at least 1"]})
    game = _host_game(db, host, game_id, "extend the deadline")
    if game.status not in ("running", "paused"):
        raise Conflict("only a running game has a deadline to extend")
    if (game.status == "running" and game.deadline is None) or (
            game.status == "paused" and game.paused_remaining_s is None):
        raise Conflict("this game has no deadline: turns run when everybody has submitted")
    if game.deadline is not None and game.deadline <= now:
        raise Conflict(store.TURN_CLOSED)
    left = settings.max_extension_hours - game.extended_hours
    if hours > left:
        raise Conflict(f"extensions are capped at {settings.max_extension_hours} hours per "
                       f"turn; {max(left, 0)} hours are left")
    game.extended_hours += hours
    if game.deadline is not None:
        game.deadline += timedelta(hours=hours)
        when = f"Orders are now due {messages.format_time(game.deadline)}."
    else:
        game.paused_remaining_s = (game.paused_remaining_s or 0) + hours * 3600
        when = "The deadline moves when the game resumes."
    announce(db, game, "extend", f"The host has extended this turn's deadline by {hours} "
             f"hours ({game.extended_hours} hours this turn). {when}", now, settings)
    return game


def request_processing(db: Session, host: User, game_id: int, now: datetime, *,
                       settings: Settings | None = None) -> Game:
    """Close the turn now: the worker processes it on its next round."""
    settings = store.settings_of(db, settings)
    game = _host_game(db, host, game_id, "close the turn")
    if game.status != "running":
        raise Conflict("only a running game has a turn to close")
    if game.deadline is None or game.deadline > now:
        game.deadline = now
        announce(db, game, "close", "The host has closed the turn; it is being processed now.",
                 now, settings)
    return game
