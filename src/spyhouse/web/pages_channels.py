"""Players' platform channels on pages: the post form's route and the data of the
``_channels.html`` partial a game's page includes.

``POST /games/{id}/posts`` (form ``channel``, ``body``, ``to`` for a private message,
``next``) goes through ``deps.check_csrf`` and ``deps.UserSeat``, so only the seat's
holder posts, as that seat, and anybody else gets 404. Posted: 303 back to ``next``
when it is a local path (else the seat page). Refused: nothing posted; back to the
seat or report page the form was on (303, ``web/flash.py``: post/redirect/get), whose
channel box shows the message, "Nothing was posted." and the typed text, once; from
anywhere else, or without the right to post there, the refusal's page at the POST's
address (403, 409, 422) with the typed text, so nothing typed is lost. What a seat may
read or post comes from ``service.channels``, which reads the seat's own current view
and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.service import channels
from spyhouse.service.channels import CHANNELS, MAX_CHARS, NOTHING_POSTED, ChannelPost
from spyhouse.service.errors import ServiceError
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web import flash
from spyhouse.web.deps import Db, FormFields, Now, UserSeat, check_csrf
from spyhouse.web.pages_account import safe_next
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

TITLES = channels.TITLES
READ_ONLY = {name: channels.REFUSED[(name, "read")] for name in channels.CHANNELS}
OVER = "The game is over: nothing more can be posted."


@dataclass(slots=True)
class ChannelBox:
    """One channel as the partial shows it: its readable posts (unless ``in_thread``: the
    page shows them among the game's events) and, if the seat may post, a form (``body``,
    ``to``, ``error``: a refused post's typed text and message)."""

    channel: str
    title: str
    right: str
    posts: list[ChannelPost]
    recipients: list[tuple[str, str]]
    in_thread: bool
    can_post: bool
    note: str | None = None
    show_posts: bool = True
    body: str = ""
    to: str = ""
    error: str | None = None


@dataclass(slots=True)
class Chat:
    """The partial's data: ``boxes`` in channel order; ``thread``: the game's public events
    with the public posts placed among them (``service.channels.interleave``)."""

    game_id: int
    boxes: list[ChannelBox]
    thread: list[dict[str, Any]] = field(default_factory=list)
    next: str | None = None
    max_chars: int = MAX_CHARS
    #: why there are no boxes, in the game's words ("No press in this game (gunboat).")
    note: str | None = None

    def box(self, channel: str) -> ChannelBox | None:
        return next((box for box in self.boxes if box.channel == channel), None)


def chat_context(db: Session, game: Game, seat: SeatRow, *,
                 events: Sequence[Mapping[str, Any]] | None = None,
                 thread_key: str | None = None, upto: int | None = None,
                 view: Mapping[str, Any] | None = None) -> Chat:
    """What the seat may read and post, from its current view. ``events``: the page's
    public events (``thread_key``: the public view's list they come from, for placing the
    posts by entry); ``upto``: a past report's entry (only posts made until the entry
    after it resolved, and no forms); ``view``: the seat's current view if the page has
    it (read once)."""
    mine = channels.seat_channels(db, game, seat.seat_id, upto=upto, view=view)
    granted, posts = mine.rights, mine.posts
    current = upto is None or upto >= game.entry
    running = game.status in ("running", "paused")
    boxes = []
    for name in CHANNELS:
        right = granted.get(name)
        if right is None:
            continue
        note = READ_ONLY[name] if right == "read" else (OVER if game.status == "over"
                                                        else None)
        boxes.append(ChannelBox(
            channel=name, title=TITLES[name], right=right,
            posts=[p for p in posts if p.channel == name],
            recipients=mine.recipients if name == "private" else [],
            in_thread=name == "public" and events is not None,
            can_post=right == "post" and running and current, note=note if current else None))
    thread: list[dict[str, Any]] = [dict(event) for event in events or ()]
    if events is not None and thread_key is not None and "public" in granted:
        thread = channels.thread(db, game, events, posts, thread_key)
    return Chat(game_id=game.id, boxes=boxes, thread=thread,
                note=None if boxes else channels.no_press(game))


#: A refused post's kind of stashed form (``web/flash.py``).
REFUSED_POST = "post"


def post_pages(game_id: int) -> tuple[str, str]:
    """The pages whose channel boxes show a refused post after the redirect."""
    return f"/games/{game_id}/seat", f"/games/{game_id}/report"


def show_refused_post(request: Request, chat: Chat | None, path: str) -> None:
    """Put the refused post stashed for ``path`` (a page of ``post_pages``) back in its
    box of ``chat``: the typed text, the recipient and the message."""
    if chat is None or request.method != "GET":
        return
    data = flash.take(request, path=path, kind=REFUSED_POST)
    box = chat.box(str(data.get("channel", ""))) if data is not None else None
    if data is None or box is None or not box.can_post:
        return
    box.body = str(data.get("body", ""))
    box.to = str(data.get("to", ""))
    box.error = str(data.get("error", ""))


def back_path(target: str, game_id: int) -> str:
    """``target`` without its fragment if it is a local path, else the seat page."""
    path = target.split("#", 1)[0]
    if path and safe_next(path) == path:
        return path
    return f"/games/{game_id}/seat"


@router.post("/games/{game_id}/posts")
def post_route(request: Request, db: Db, seat: UserSeat, when: Now,
               fields: FormFields) -> Response:
    channel = fields.get("channel", "").strip()
    body = fields.get("body", "")
    to = fields.get("to", "").strip() or None
    back = back_path(fields.get("next", ""), seat.game_id)
    try:
        channels.post(db, seat.game_row, seat, channel, body, to_seat=to, now=when)
    except ServiceError as exc:
        db.rollback()  # nothing was posted
        box = chat_context(db, seat.game_row, seat).box(channel)
        if back in post_pages(seat.game_id) and box is not None and box.can_post:
            response = RedirectResponse(f"{back}#chat-{channel}", 303)
            if flash.stash(request, response, path=back, kind=REFUSED_POST,
                           data={"channel": channel, "body": body, "to": to or "",
                                 "error": exc.message},
                           secure=request.app.state.web.settings.cookie_secure):
                return response
        return _refused(request, db, seat, channel, body, to, back, exc)
    anchor = f"#chat-{channel}" if channel in CHANNELS else ""
    return RedirectResponse(back + anchor, 303)


def _refused(request: Request, db: Session, seat: SeatRow, channel: str, body: str,
             to: str | None, back: str, exc: ServiceError) -> Response:
    """The refusal, with the typed text in the form again (or, without the right to post
    there, in a read-only box to copy)."""
    game = seat.game_row
    chat = chat_context(db, game, seat)
    chat.next = back
    box = chat.box(channel)
    if box is not None:
        box.posts = []
        box.show_posts = False
        box.in_thread = False
        box.body = body
        box.to = to or ""
        box.error = exc.message
    return render(request, "post_refused.html", {
        "game": game, "seat": seat, "chat": chat, "box": box, "message": exc.message,
        "nothing_posted": NOTHING_POSTED, "typed": body, "back": back},
        status=error_status(exc))


__all__ = ["REFUSED_POST", "ChannelBox", "Chat", "back_path", "chat_context", "post_pages",
           "router", "show_refused_post"]
