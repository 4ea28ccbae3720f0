"""A seat's pages: the order form, ready, turn reports, re-sending secrets, API tokens.

Every handler takes ``UserSeat``: the seat the logged-in user holds in the game
of the URL (``service.play.seat_of_user``), so another user gets 404 and never
the data. Pages are built from the seat's own view (spec §8.5) without its
``secrets``, which are only ever mailed (§4).
"""

from __future__ import annotations

import secrets
from types import ModuleType
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.service import games, play
from spyhouse.service.errors import Conflict, OrdersRefused, ServiceError
from spyhouse.store.tables import SeatRow
from spyhouse.web.deps import CurrentUser, Db, FormFields, Now, UserSeat, check_csrf
from spyhouse.web.pages_games import schedule_text, ui_module
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


def _order_form_module(game: str) -> ModuleType | None:
    """The game's ``ui`` module if it maps this page's order form (a game with its own
    pages may have a ``ui`` module for the create-game options only)."""
    module = ui_module(game)
    return module if module is not None and hasattr(module, "form_from_sheet") else None

NOTICES = {
    "saved": "Your orders are saved. You can change them until the deadline.",
    "ready": "Your orders are marked final (ready).",
    "unready": "Your orders are no longer marked final.",
    "secrets": "Your secrets were sent again, to your own e-mail address only.",
    "revoked": "The token was revoked.",
    "quick": "Your game against the computer has started. Give your orders!",
}
NOTHING_SAVED = "Nothing was saved: your previous orders stay in force."


def _notice(request: Request) -> str | None:
    return NOTICES.get(request.query_params.get("notice", ""))


def _seat_context(db: Session, seat: SeatRow) -> dict[str, Any]:
    game = seat.game_row
    view = play.current_view(db, seat) if game.status != "open" else None
    return {"game": game, "seat": seat, "view": view,
            "title": registry.get(game.game).spec.title,
            "schedule_text": schedule_text(game)}


def _can_order(context: dict[str, Any]) -> bool:
    view = context["view"]
    return bool(context["game"].status == "running" and view is not None
                and "me" in view and view.get("game_over") is None)


def _seat_page(request: Request, db: Session, seat: SeatRow, *,
               fields: dict[str, str] | None = None, errors: list[str] | None = None,
               top: list[str] | None = None, status: int = 200) -> Response:
    context = _seat_context(db, seat)
    module = _order_form_module(seat.game_row.game)
    form = None
    orders = None
    if _can_order(context) and module is not None:
        orders = play.get_orders(db, seat)
        if fields is not None:
            form = module.form_from_fields(context["view"], fields)
            module.place_messages(form, errors=errors or [])
        else:
            form = module.form_from_sheet(context["view"], orders.data)
            module.place_messages(form, warnings=orders.warnings)
        form.errors[:0] = top or []
    context.update({"form": form, "orders": orders, "notice": _notice(request),
                    "page_errors": [*(top or []), *(errors or [])] if form is None else [],
                    "request_key": secrets.token_urlsafe(16),
                    "nothing_saved": NOTHING_SAVED if fields is not None else None})
    return render(request, f"{seat.game_row.game}/seat.html", context, status=status)


@router.get("/games/{game_id}/seat")
def seat_page(request: Request, db: Db, seat: UserSeat) -> Response:
    return _seat_page(request, db, seat)


@router.post("/games/{game_id}/orders")
def submit_orders(request: Request, db: Db, seat: UserSeat, when: Now,
                  fields: FormFields) -> Response:
    module = _order_form_module(seat.game_row.game)
    view = play.current_view(db, seat)
    if module is None:
        raise Conflict("this game has no order form")
    sheet = module.sheet_from_fields(view, fields)
    try:
        entry = fields.get("entry", "")
        play.submit_orders(db, seat, sheet, now=when, ready=fields.get("ready") == "1",
                           request_key=fields.get("request_key") or None,
                           entry=int(entry) if entry.isdecimal() else None)
    except OrdersRefused as exc:
        db.rollback()
        return _seat_page(request, db, seat, fields=fields, errors=exc.messages,
                          status=error_status(exc))
    except ServiceError as exc:
        db.rollback()
        return _seat_page(request, db, seat, fields=fields, top=[exc.message],
                          status=error_status(exc))
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice=saved", 303)


@router.post("/games/{game_id}/ready")
def mark_ready(request: Request, db: Db, seat: UserSeat, when: Now,
               ready: Annotated[str, Form()] = "1") -> Response:
    want = ready == "1"
    try:
        play.set_ready(db, seat, want, now=when)
    except ServiceError as exc:
        db.rollback()
        return _seat_page(request, db, seat, top=[exc.message], status=error_status(exc))
    return RedirectResponse(
        f"/games/{seat.game_id}/seat?notice={'ready' if want else 'unready'}", 303)


# ---------------------------------------------------------------- reports


def _report_page(request: Request, db: Session, seat: SeatRow, entry: int | None) -> Response:
    game = seat.game_row
    if game.status == "open":
        raise Conflict("the game has not started yet")
    if entry is None or entry == game.entry:
        view = play.current_view(db, seat)
        entry = game.entry
    else:
        view = play.report(db, seat, entry)
    return render(request, f"{game.game}/report.html", {
        "game": game, "seat": seat, "view": view, "entry": entry,
        "entries": list(range(game.entry, -1, -1)),
        "title": registry.get(game.game).spec.title})


@router.get("/games/{game_id}/report")
def report_page(request: Request, db: Db, seat: UserSeat,
                entry: int | None = None) -> Response:
    return _report_page(request, db, seat, entry)


@router.get("/games/{game_id}/report/{entry}")
def past_report_page(request: Request, entry: int, db: Db, seat: UserSeat) -> Response:
    return _report_page(request, db, seat, entry)


@router.post("/games/{game_id}/secrets")
def resend_secrets(db: Db, seat: UserSeat, user: CurrentUser, when: Now) -> Response:
    games.resend_secrets(db, user, seat.game_id, when)
    return RedirectResponse(f"/games/{seat.game_id}/seat?notice=secrets", 303)


# ---------------------------------------------------------------- API tokens


def _tokens_page(request: Request, db: Session, seat: SeatRow, *, new_token: str | None = None,
                 error: str | None = None, status: int = 200) -> Response:
    return render(request, "tokens.html", {
        "game": seat.game_row, "seat": seat, "tokens": play.tokens_of(db, seat),
        "new_token": new_token, "error": error, "notice": _notice(request),
        "api_base": str(request.base_url).rstrip("/")}, status=status)


@router.get("/games/{game_id}/tokens")
def tokens_page(request: Request, db: Db, seat: UserSeat) -> Response:
    return _tokens_page(request, db, seat)


@router.post("/games/{game_id}/tokens")
def create_token(request: Request, db: Db, seat: UserSeat, when: Now,
                 label: Annotated[str, Form()] = "") -> Response:
    try:
        raw = play.create_token(db, seat, label.strip()[:80], when)
    except ServiceError as exc:
        db.rollback()
        return _tokens_page(request, db, seat, error=exc.message, status=error_status(exc))
    return _tokens_page(request, db, seat, new_token=raw)


@router.post("/games/{game_id}/tokens/{token_id}/revoke")
def revoke_token(token_id: int, db: Db, seat: UserSeat, when: Now) -> Response:
    play.revoke_token(db, seat, token_id, when)
    return RedirectResponse(f"/games/{seat.game_id}/tokens?notice=revoked", 303)
