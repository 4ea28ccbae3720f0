"""Game pages: the lobby, creating a game, the game page, joining and the host's controls."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.core import bots, registry
from spyhouse.core.errors import OptionsError
from spyhouse.service import demo, games, notify, play, schedule
from spyhouse.service.errors import Invalid, NotFound, ServiceError
from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.web.deps import CurrentUser, Db, FormFields, Now, Web, WebContext, check_csrf
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {
    "reset": "Your new password is set and you are logged in; "
             "every other session was logged out.",
    "created": "The game is created. Invite players to join, then start it.",
    "joined": "You joined the game.",
    "bot": "A computer player took a seat.",
    "started": "The game has started: your secrets are in your mail; "
               "open your seat to give orders.",
    "paused": "The game is paused.",
    "resumed": "The game is running again.",
    "extended": "The deadline was extended; every player was told.",
    "process": "The turn will be processed now.",
    "quick": "Your game against the computer has started. Give your orders!",
    "welcome": "Welcome! Your account is ready.",
    "base": "Your base choice is saved (it stays secret).",
}
WEEKDAY_DEFAULT = "Wednesday"


def ui_module(game: str) -> ModuleType | None:
    """The game's web forms module (``spyhouse.games.<game>.ui``), if it has one."""
    try:
        return importlib.import_module(f"spyhouse.games.{game}.ui")
    except ModuleNotFoundError:
        return None


def notice(request: Request) -> str | None:
    return NOTICES.get(request.query_params.get("notice", ""))


def own_deadlines(game: str) -> bool:
    """Whether the game's ruleset gives each step its own length (the optional
    ``deadline_seconds`` hook), so the host's schedule sets none of its deadlines."""
    return callable(getattr(registry.get(game), "deadline_seconds", None))


def schedule_text(game: Game) -> str:
    """The game's deadlines in words. A ruleset that gives each step its own length
    (the optional ``deadline_seconds`` hook) does not follow the schedule, so the
    schedule's words would be false there; its options' ``pace``, if any, is named."""
    ruleset = registry.get(game.game)
    if own_deadlines(game.game):
        try:
            pace = getattr(ruleset.parse_options(game.options), "pace", None)
        except OptionsError:
            pace = None
        named = f" (pace: {pace})" if isinstance(pace, str) and pace else ""
        return f"each phase has its own deadline, counted from when it opens{named}"
    try:
        return schedule.describe(schedule.parse_schedule(game.schedule))
    except schedule.ScheduleError:
        return str(game.schedule)


# ---------------------------------------------------------------- lobby


@router.get("/lobby")
def lobby(request: Request, db: Db, user: CurrentUser) -> Response:
    mine = games.games_of(db, user)
    mine_ids = {g.id for g in mine}
    seated = {g.id for g in mine if any(s.user_id == user.id for s in g.seats)}
    open_games = [g for g in games.open_games(db) if g.id not in mine_ids]
    return render(request, "lobby.html", {"mine": mine, "open_games": open_games,
                                          "seated": seated,
                                          "quick_offers": quick_offers(request),
                                          "notice": notice(request),
                                          "schedule_text": schedule_text})


def quick_offers(request: Request) -> list[demo.QuickOffer]:
    """The one-click games against the computer: each hostable game's ``ui.QUICK_GAME``,
    the demo's game first, then in the registry's order."""
    offers = []
    for name in web_games(request):
        module = ui_module(name)
        data = getattr(module, "QUICK_GAME", None) if module is not None else None
        if data is not None:
            offers.append(demo.offer_of(name, data))
    return sorted(offers, key=lambda offer: offer.game != demo.GAME)


@router.post("/games/quick")
def quick_game(request: Request, db: Db, user: CurrentUser, when: Now,
               fields: FormFields) -> Response:
    """A game against computer players that starts at once: Spy vs Spy against four,
    or the offer of the game the form names."""
    wanted = fields.get("game", demo.GAME)
    offer = next((o for o in quick_offers(request) if o.game == wanted), None)
    if offer is None:
        raise NotFound("no such game against the computer")
    game = demo.quick_game(db, user, now=when, offer=offer)
    return RedirectResponse(f"/games/{game.id}/seat?notice=quick", 303)


# ---------------------------------------------------------------- create


def _create_context(request: Request, values: dict[str, str], error: str | None,
                    fields: dict[str, list[str]] | None = None) -> dict[str, Any]:
    names = web_games(request)
    option_groups = []  # every game's options, each under its title: the chosen game's apply
    for name in names:
        module = ui_module(name)
        if module is not None and hasattr(module, "option_fields"):
            option_groups.append((registry.get(name).spec.title, module.option_fields()))
    return {
        "values": values,
        "error": error,
        "fields": fields or {},
        "game_names": [(name, registry.get(name).spec.title) for name in names],
        "own_deadlines": {name for name in names if own_deadlines(name)},
        "option_groups": option_groups,
        "weekdays": schedule.WEEKDAYS,
    }


@router.get("/games/new")
def new_game_page(request: Request, user: CurrentUser) -> Response:
    values = {"game": "spyvsspy", "title": f"{user.username}'s game", "schedule": "weekly",
              "weekday": WEEKDAY_DEFAULT, "time": "20:00", "zone": "Pacific/Auckland",
              "interval_hours": "24", "max_seats": ""}
    return render(request, "game_new.html", _create_context(request, values, None))


def schedule_from_fields(fields: dict[str, str]) -> Any:
    kind = fields.get("schedule", "weekly")
    if kind == "all_submitted":
        return "all_submitted"
    if kind == "interval":
        text = fields.get("interval_hours", "").strip()
        if not text.isdecimal():
            raise Invalid("the interval must be a whole number of hours",
                          {"interval_hours": ["a whole number of hours"]})
        return {"interval_hours": int(text)}
    if kind != "weekly":
        raise Invalid("choose a schedule", {"schedule": ["choose one"]})
    return {"weekly": {"weekday": fields.get("weekday", WEEKDAY_DEFAULT).strip(),
                       "time": fields.get("time", "").strip(),
                       "zone": fields.get("zone", "").strip()}}


def schedule_for(game: str, fields: dict[str, str]) -> Any:
    """The schedule the form asks for. A game with deadlines of its own does not follow
    it, so its form may leave it out (the page's script disables it) or half filled:
    then the game keeps its ruleset's default schedule (``None``) rather than being
    refused over fields it ignores."""
    if not own_deadlines(game):
        return schedule_from_fields(fields)
    try:
        return schedule.normalize(schedule_from_fields(fields)) if fields.get("schedule") \
            else None
    except (Invalid, schedule.ScheduleError):
        return None


def _max_seats(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdecimal() or int(text) < 2:
        raise Invalid("the number of seats is a whole number of at least 2 (or blank)",
                      {"max_seats": ["at least 2, or blank for no limit"]})
    return int(text)


def web_games(request: Request) -> list[str]:
    """The games that can be hosted here: those whose seat page exists (a game whose web
    pages are still to come is playable on the command line only)."""
    web: WebContext = request.app.state.web
    available = set(web.templates.env.list_templates())
    return [name for name in registry.names() if f"{name}/seat.html" in available]


@router.post("/games")
def create_game(request: Request, db: Db, user: CurrentUser, when: Now,
                fields: FormFields) -> Response:
    values = {key: value for key, value in fields.items() if key != "csrf_token"}
    game_name = values.get("game", "spyvsspy")
    try:
        if game_name not in web_games(request):
            raise Invalid("unknown game", {"game": ["unknown game"]})
        module = ui_module(game_name)
        try:
            options = module.options_from_fields(values) if module else {}
        except OptionsError as exc:  # e.g. a pasted map that does not hold together
            raise Invalid(str(exc), {"options": [str(exc)]}) from None
        game = games.create_game(
            db, user, game=game_name, title=values.get("title", "").strip(),
            options=options, schedule=schedule_for(game_name, values),
            max_seats=_max_seats(values.get("max_seats", "")), now=when)
    except ServiceError as exc:
        db.rollback()
        fields_errors = getattr(exc, "fields", None)
        return render(request, "game_new.html",
                      _create_context(request, values, exc.message, fields_errors),
                      status=error_status(exc))
    return RedirectResponse(f"/games/{game.id}?notice=created", 303)


# ---------------------------------------------------------------- the game page


def my_seat(db: Session, user: User, game_id: int) -> SeatRow | None:
    try:
        return play.seat_of_user(db, user, game_id)
    except NotFound:
        return None


def game_context(db: Session, user: User, game: Game, web: Web) -> dict[str, Any]:
    seat = my_seat(db, user, game.id)
    public = play.public_view(db, game.id) if game.status != "open" else None
    options = game.options or {}
    try:
        strategies = bots.bot_names(game.game)
    except KeyError:
        strategies = []
    return {
        "game": game,
        "title": registry.get(game.game).spec.title,
        "seat": seat,
        "is_host": game.host_id == user.id,
        "public": public,
        "seats": list(game.seats),
        "strategies": strategies,
        "choose_base": options.get("base_choice", "choose") == "choose",
        "regions": getattr(ui_module(game.game), "REGION_CHOICES", ()),
        "schedule_text": schedule_text(game),
        "max_extension": web.settings.max_extension_hours,
        "extension_left": max(0, web.settings.max_extension_hours - game.extended_hours),
        "max_pause_hours": web.settings.max_pause_hours,
        "join_defaults": {"player": user.username, "show_email": user.email_public},
        "timeline": notify.news_of(db, game.id, limit=50),
    }


@router.get("/games/{game_id}")
def game_page(request: Request, game_id: int, db: Db, user: CurrentUser, web: Web) -> Response:
    game = games.get_game(db, game_id)
    context = game_context(db, user, game, web)
    context.update({"notice": notice(request), "error": None, "join": {}})
    return render(request, "game.html", context)


def _game_error(request: Request, db: Session, user: User, game_id: int, web: Web,
                exc: ServiceError, join: dict[str, str] | None = None) -> Response:
    db.rollback()  # a refused use case leaves nothing behind
    game = games.get_game(db, game_id)
    context = game_context(db, user, game, web)
    context.update({"notice": None, "error": exc.message, "join": join or {}})
    return render(request, "game.html", context, status=error_status(exc))


@router.post("/games/{game_id}/join")
def join(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now, web: Web,
         name: Annotated[str, Form()] = "", player: Annotated[str, Form()] = "",
         show_email: Annotated[str, Form()] = "",
         base: Annotated[str, Form()] = "") -> Response:
    values = {"name": name, "player": player, "show_email": show_email, "base": base}
    try:
        games.join_game(db, user, game_id, name=name.strip(),
                        player=player.strip() or user.username,
                        show_email=show_email in ("1", "on", "yes", "true"),
                        base=base.strip() or None, now=when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc, values)
    return RedirectResponse(f"/games/{game_id}?notice=joined", 303)


@router.post("/games/{game_id}/base")
def change_base(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now, web: Web,
                base: Annotated[str, Form()] = "") -> Response:
    try:
        games.change_base(db, user, game_id, base.strip() or None, when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=base", 303)


@router.post("/games/{game_id}/bots")
def add_bot(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now, web: Web,
            strategy: Annotated[str, Form()] = "") -> Response:
    try:
        games.add_bot(db, user, game_id, strategy=strategy, now=when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=bot", 303)


def _host_action(request: Request, db: Session, user: User, game_id: int, web: WebContext,
                 action: Callable[[], object], notice: str) -> Response:
    """Run one host control; back to the game page with its notice, or its error shown."""
    try:
        action()
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice={notice}", 303)


@router.post("/games/{game_id}/start")
def start(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now,
          web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.start_game(db, user, game_id, when), "started")


@router.post("/games/{game_id}/pause")
def pause(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now,
          web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.pause_game(db, user, game_id, when), "paused")


@router.post("/games/{game_id}/resume")
def resume(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now,
           web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.resume_game(db, user, game_id, when), "resumed")


@router.post("/games/{game_id}/extend")
def extend(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now, web: Web,
           hours: Annotated[str, Form()] = "") -> Response:
    try:
        if not hours.strip().isdecimal():
            raise Invalid("the extension is a whole number of hours", {"hours": ["hours"]})
        games.extend_deadline(db, user, game_id, int(hours), when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=extended", 303)


@router.post("/games/{game_id}/process")
def process(request: Request, game_id: int, db: Db, user: CurrentUser, when: Now,
            web: Web) -> Response:
    try:
        games.request_processing(db, user, game_id, when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=process", 303)
