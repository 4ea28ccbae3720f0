"""The replay stepper, once for every game: a game entry by entry, from one perspective.

- ``GET /games/{id}/replay``: where a reader starts (a finished game at its set-up, a
  running one at its latest entry), or the chooser's answer (``?entry=N&as=P``): a 303
  to the entry's page;
- ``GET /games/{id}/replay/{entry}?as=<seat id>|host|public``: the game after record
  entry ``entry`` as that perspective saw it, in the game's own layout: a seat's view
  through the game's report template, the host view through its host template (every
  card face, every secret), the public view as the game page shows it (the game's
  public table, news and result). First, previous, next and last are plain links
  (``rel="prev"``/``"next"``; ``static/replay.js`` adds the arrow keys), the entry and
  the perspective a labelled form. Where the reader may read the host view, the game's
  explanation of the entry (``pages.explain``) follows: "Why it happened".

Who reads what is one dependency, ``deps.ReplayAccess``: everything after the end for
anyone who may read the game; while it runs, the public view, a seat holder's own seat
and the seatless host's host view. Each page is made from its perspective's stored view
alone. The game's templates are extended, not copied (``replay.html`` extends the one
``replay.inner`` names and wraps its content); they hide their own past-entry links when
``replay`` is set, since those lead to the seat's and the host's own pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.core.plugin import Explanation, GamePlugin, GameResult
from spyhouse.service import play
from spyhouse.service import records as store
from spyhouse.service.errors import NotFound
from spyhouse.store.tables import Game, SeatRow, TurnRow
from spyhouse.web.deps import (
    MAX_ID,
    REPLAY_CLOSED,
    REPLAY_HOST,
    REPLAY_PUBLIC,
    Db,
    EntryNo,
    ReplayAccess,
    ReplayPass,
    check_csrf,
)
from spyhouse.web.pages_seat import HostText
from spyhouse.web.render import render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

#: The template the public perspective is drawn with (the game has none of its own).
PUBLIC_TEMPLATE = "replay_public.html"

Perspective = Annotated[str | None, Query(alias="as", max_length=64,
                                          description="a seat id, host or public")]


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of the perspective chooser."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Step:
    """One of the first/previous/next/last links; ``href`` ``None``: not here (the
    first entry has no previous one)."""

    name: str
    label: str
    href: str | None
    rel: str = ""
    key: str = ""


@dataclass(frozen=True, slots=True)
class Replay:
    """What the replay's own templates read (``replay`` in the context): the template
    it extends, where the reader stands and where they may go."""

    inner: str
    entry: int
    last: int
    over: bool
    perspective: str
    perspective_label: str
    choices: tuple[Choice, ...]
    entries: tuple[tuple[int, str], ...]
    position: str
    steps: tuple[Step, ...]
    explain: bool
    explanations: tuple[Explanation, ...]
    result: GameResult | None


def href(game_id: int, entry: int, perspective: str) -> str:
    return f"/games/{game_id}/replay/{entry}?{urlencode({'as': perspective})}"


def default_perspective(access: ReplayPass) -> str:
    """The reader's own seat if they have one, else the host view if open, else public."""
    if access.own_seat is not None and access.may_read(access.own_seat):
        return access.own_seat
    return REPLAY_HOST if access.host else REPLAY_PUBLIC


def entry_label(plugin: GamePlugin, entry: int) -> str:
    """"Set-up" or "Turn 3", in the game's word."""
    return "Set-up" if entry == 0 else f"{plugin.words.turn.capitalize()} {entry}"


def position(plugin: GamePlugin, entry: int, last: int, over: bool) -> str:
    """"Turn 3 of 7" (while the game runs: "of 7 so far"); entry 0 is the set-up."""
    if entry == 0:
        return f"Set-up, before {plugin.words.turn} 1"
    return f"{plugin.words.turn.capitalize()} {entry} of {last}{'' if over else ' so far'}"


def choices(access: ReplayPass, seats: Sequence[SeatRow], plugin: GamePlugin
            ) -> tuple[Choice, ...]:
    """The perspectives the reader may choose: theirs first, then the host's, the public
    view and the other seats in seat order."""
    found = [Choice(row.seat_id, f"{row.name} ({plugin.words.seat}"
                                 f"{', yours' if row.seat_id == access.own_seat else ''})")
             for row in seats if access.may_read(row.seat_id)]
    own = [choice for choice in found if choice.key == access.own_seat]
    rest = [choice for choice in found if choice.key != access.own_seat]
    host = [Choice(REPLAY_HOST, f"The host's view: every {plugin.words.seat}'s secrets")] \
        if access.host else []
    return (*own, *host, Choice(REPLAY_PUBLIC, "The public view: what anyone watching saw"),
            *rest)


def steps(game_id: int, entry: int, last: int, perspective: str) -> tuple[Step, ...]:
    def to(number: int) -> str | None:
        return href(game_id, number, perspective) if 0 <= number <= last and \
            number != entry else None

    return (Step("first", "First", to(0)),
            Step("prev", "Previous", to(entry - 1), rel="prev", key="ArrowLeft"),
            Step("next", "Next", to(entry + 1), rel="next", key="ArrowRight"),
            Step("last", "Last", to(last)))


def orders_of(db: Session, game: Game, entry: int) -> Mapping[str, Any] | None:
    """The orders the record holds for ``entry`` (seat id -> orders, as resolved), or
    ``None`` for the set-up. One row, not the whole record: a stored entry never changes."""
    if entry == 0:
        return None
    orders = db.scalar(select(TurnRow.orders).where(TurnRow.game_id == game.id,
                                                    TurnRow.entry == entry))
    return dict(orders) if orders is not None else None


def _seat_context(db: Session, game: Game, plugin: GamePlugin, row: SeatRow,
                  entry: int) -> tuple[str, dict[str, Any]]:
    """The seat's own report after ``entry`` (its view without mailed-only keys), as the
    report page gives it to the game's template."""
    view = play.report(db, row, entry)
    return plugin.template(plugin.pages.report_template), {
        "seat": row, "view": view, "chat": None, **plugin.pages.report(view, entry)}


def _host_context(game: Game, plugin: GamePlugin, seats: Sequence[SeatRow],
                  view: Mapping[str, Any], entry: int) -> tuple[str, dict[str, Any]]:
    """The host view after ``entry`` as the host page gives it to the game's template, as
    a page of the past: no orders in, no channels (talk never reaches a replay)."""
    host_text = HostText(plugin.text.host, view) if plugin.text.host is not None else None
    return plugin.template(plugin.pages.host_template), {
        "view": view, "current": False, "seats": list(seats), "orders_in": {},
        "awaiting": set(), "orders_count": [], "moderator": False, "host_text": host_text,
        "chat": None, **plugin.pages.host(view, entry)}


def replay_page(request: Request, db: Session, access: ReplayPass, entry: int,
                asked: str | None) -> Response:
    game = access.game
    perspective = asked if asked is not None else default_perspective(access)
    if not 0 <= entry <= access.upto or not access.may_read(perspective):
        raise NotFound(REPLAY_CLOSED)
    plugin = registry.plugin(game.game)
    seats = list(game.seats)
    names = {row.seat_id: row.name for row in seats}
    over = game.status == "over"
    public: Mapping[str, Any] | None = None
    host_view: Mapping[str, Any] | None = None
    context: dict[str, Any]
    if perspective == REPLAY_PUBLIC:
        public = store.snapshot(db, game.id, entry, store.PUBLIC_KEY)
        inner = PUBLIC_TEMPLATE
        context = {"view": public, "table": plugin.pages.public(public, names),
                   "news": plugin.pages.news(public)}
        label = "The public view"
    elif perspective == REPLAY_HOST:
        host_view = play.host_view(db, game, entry)
        inner, context = _host_context(game, plugin, seats, host_view, entry)
        label = "The host's view"
    else:
        row = next(row for row in seats if row.seat_id == perspective)
        inner, context = _seat_context(db, game, plugin, row, entry)
        label = f"{row.name}'s view"
    explanations: list[Explanation] = []
    if access.explain:
        if host_view is None:
            host_view = play.host_view(db, game, entry)
        explanations = plugin.pages.explain(host_view, orders_of(db, game, entry), entry)
    result = None
    if over and entry == access.upto:
        if public is None:
            public = store.snapshot(db, game.id, entry, store.PUBLIC_KEY)
        result = plugin.pages.result(public, names)
    replay = Replay(
        inner=inner, entry=entry, last=access.upto, over=over, perspective=perspective,
        perspective_label=label, choices=choices(access, seats, plugin),
        entries=tuple((number, entry_label(plugin, number)) for number in
                      range(access.upto + 1)),
        position=position(plugin, entry, access.upto, over),
        steps=steps(game.id, entry, access.upto, perspective), explain=access.explain,
        explanations=tuple(explanations), result=result)
    return render(request, "replay.html", {
        "game": game, "entry": entry, "entries": list(range(access.upto, -1, -1)),
        "title": plugin.ruleset().spec.title, "words": plugin.words, "names": names,
        "seats": seats, **context, "replay": replay})


@router.get("/games/{game_id}/replay")
def replay_start(access: ReplayAccess, perspective: Perspective = None,
                 entry: Annotated[int | None, Query(ge=0, le=MAX_ID)] = None) -> Response:
    """A finished game starts at its set-up, a running one at its latest entry; the
    chooser's form lands here too (``entry``, ``as``) and is sent on to the entry's page."""
    game = access.game
    if entry is None:
        entry = 0 if game.status == "over" else access.upto
    target = f"/games/{game.id}/replay/{entry}"
    if perspective is not None:
        target += "?" + urlencode({"as": perspective})
    return RedirectResponse(target, 303)


@router.get("/games/{game_id}/replay/{entry}")
def replay_entry(request: Request, entry: EntryNo, db: Db, access: ReplayAccess,
                 perspective: Perspective = None) -> Response:
    return replay_page(request, db, access, entry, perspective)


__all__ = ["Replay", "default_perspective", "href", "replay_page", "router"]
