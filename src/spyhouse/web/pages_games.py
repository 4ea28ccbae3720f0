"""Game pages: the lobby, creating a game, the game page, joining and the host's controls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.core import bots, registry
from spyhouse.core.errors import OptionsError
from spyhouse.core.plugin import GamePlugin, OptionField, options_from_form
from spyhouse.mail import outbox
from spyhouse.service import archive, demo, games, notify, play, quick, schedule
from spyhouse.service.errors import Invalid, NotFound, ServiceError
from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.web import flash
from spyhouse.web.deps import (
    CurrentUser,
    Db,
    FormFields,
    GameId,
    MaybeUser,
    Now,
    Web,
    WebContext,
    check_csrf,
)
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {
    "reset": "Your new password is set and you are logged in; "
             "every other session was logged out and your seats' API tokens were revoked "
             "(make new ones on a seat's tokens page).",
    "created": "The game is created. Invite players to join, then start it.",
    "joined": "You joined the game.",
    "bot": "A computer player took a seat.",
    "started": "The game has started: open your seat to give orders.",
    "paused": "The game is paused.",
    "resumed": "The game is running again.",
    "extended": "The deadline was extended; every player was told.",
    "process": "The turn will be processed now.",
    "quick": "Your game against the computer has started. Give your orders!",
    "welcome": "Welcome! Your account is ready.",
    "setup": "Your choice is saved (it stays secret).",
    "imported": "The record is imported: this is its game, finished and in the archive.",
}
WEEKDAY_DEFAULT = "Wednesday"


def notice(request: Request) -> str | None:
    return NOTICES.get(request.query_params.get("notice", ""))


def own_deadlines(game: str) -> bool:
    """Whether the game gives each step its own length (``GameSpec.phase_deadlines``), so
    the host's schedule sets none of its deadlines."""
    return registry.get(game).spec.phase_deadlines


def schedule_text(game: Game) -> str:
    """The game's deadlines in words. A game whose steps have their own lengths does not
    follow the schedule, so the schedule's words would be false there; the option that
    sets its pace, if it has one, is named."""
    plugin = registry.plugin(game.game)
    if own_deadlines(game.game):
        named = ""
        field = next((f for f in plugin.options if f.key == plugin.pace_option), None)
        if field is not None:
            pace = (game.options or {}).get(field.key, field.default)
            named = f" ({field.key}: {pace})" if isinstance(pace, str) and pace else ""
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
    open_games = [g for g in games.open_games(db) if g.id not in mine_ids]
    return render(request, "lobby.html", {"mine": [my_game_row(db, user, g) for g in mine],
                                          "open_games": open_games,
                                          "quick_offers": quick_offers(request),
                                          "titles": game_titles(),
                                          "notice": notice(request),
                                          "schedule_text": schedule_text})


def game_titles() -> dict[str, str]:
    return {plugin.name: plugin.ruleset().spec.title for plugin in registry.plugins()}


def my_game_row(db: Session, user: User, game: Game) -> dict[str, Any]:
    """A row of "My games": the game's kind, where it stands for this user ("your move",
    "waiting", "over" with the result), the game's own count of steps, the links."""
    plugin = registry.plugin(game.game)
    seat = next((s for s in game.seats if s.user_id == user.id), None)
    state = {"open": "waiting for players", "paused": "paused"}.get(game.status, "")
    result = None
    if game.status == "over":
        state = "over"
        public = play.public_view(db, game.id)
        found = plugin.pages.result(public, {s.seat_id: s.name for s in game.seats})
        result = found.line if found is not None else None
    elif game.status == "running":
        if seat is None:
            state = "running (you host)"
        elif play.may_order(game, seat):
            state = "your move"
        else:
            state = "waiting for the others"
    # a record entry is one of the game's own steps (a turn, a phase, a move), so the
    # count reads right in every game without replaying anything
    played = f"{game.entry} {plugin.words.turn}{'' if game.entry == 1 else 's'}"
    return {"game": game, "kind": game_titles().get(game.game, game.game), "seat": seat,
            "state": state, "result": result,
            "progress": played if game.status != "open" else "",
            "links": seat is not None and game.status in ("running", "paused")}


def quick_offers(request: Request) -> list[demo.Offer]:
    """The one-click games against the computer: each game's plugin ``quick``, the demo's
    game first, then by name."""
    first = request.app.state.web.settings.demo_game
    offers = [demo.Offer(plugin.name, plugin.quick) for plugin in registry.plugins()
              if plugin.quick is not None]
    return sorted(offers, key=lambda offer: offer.game != first)


@router.get("/play/{game}")
def quick_page(request: Request, game: str, db: Db, user: CurrentUser) -> Response:
    """A game against the computer with the choices its offer gives: the computer's
    strategy and the offered options (e.g. a board's size)."""
    offer = next((o for o in quick_offers(request) if o.game == game), None)
    if offer is None:
        raise NotFound("no such game against the computer")
    plugin = registry.plugin(game)
    fields = [f for f in plugin.options if f.key in offer.quick.option_keys]
    return render(request, "quick.html", {
        "offer": offer, "title": plugin.ruleset().spec.title, "fields": fields,
        "running": quick.latest_against_computer(db, user, game), "values": {}})


@router.post("/games/quick")
def quick_game(request: Request, db: Db, user: CurrentUser, when: Now,
               fields: FormFields) -> Response:
    """A game against computer players that starts at once: the offer of the game the
    form names (the demo game's when it names none), with the player's choices."""
    wanted = fields.get("game", "") or request.app.state.web.settings.demo_game
    offer = next((o for o in quick_offers(request) if o.game == wanted), None)
    if offer is None:
        raise NotFound("no such game against the computer")
    plugin = registry.plugin(wanted)
    offered = [f for f in plugin.options if f.key in offer.quick.option_keys]
    try:
        options = {**offer.quick.options, **_options(plugin, offered, fields)}
    except Invalid as exc:
        return render(request, "quick.html", {
            "offer": offer, "title": plugin.ruleset().spec.title, "fields": offered,
            "running": None, "values": fields, "error": exc.message},
            status=error_status(exc))
    strategy = fields.get("strategy", "")
    game = demo.quick_game(db, user, now=when, offer=offer, options=options,
                           strategy=strategy or None)
    return RedirectResponse(f"/games/{game.id}/seat?notice=quick", 303)


def _options(plugin: GamePlugin, declared: list[OptionField] | None,
             fields: dict[str, str]) -> dict[str, Any]:
    """The options of a form's answers: all of the game's (its own conversion where it
    has one), or only the ``declared`` fields a quick game offers; ``Invalid`` naming the
    option when refused."""
    try:
        if declared is None:
            return plugin.options_from_form(fields)
        return options_from_form(declared, fields)
    except OptionsError as exc:  # e.g. a pasted map that does not hold together
        raise Invalid(str(exc), {"options": [str(exc)]}) from None


# ---------------------------------------------------------------- create


def _create_context(request: Request, values: dict[str, str], error: str | None,
                    fields: dict[str, list[str]] | None = None) -> dict[str, Any]:
    names = web_games()
    # each game's declared options in a group of their own; only the chosen game's group
    # is shown (the others are hidden and disabled, and the page's script swaps them)
    option_groups = [(name, registry.get(name).spec.title, registry.plugin(name).options)
                     for name in names]
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
def new_game_page(request: Request, user: CurrentUser, game: str = "") -> Response:
    chosen = game if game in web_games() else (web_games() or [""])[0]
    if not game and request.app.state.web.settings.demo_game in web_games():
        chosen = request.app.state.web.settings.demo_game
    values = {"game": chosen, "title": f"{user.username}'s game", "schedule": "weekly",
              "weekday": WEEKDAY_DEFAULT, "time": "20:00", "zone": "Pacific/Auckland",
              "interval_hours": "24", "max_seats": "", "public": "1"}
    refused = flash.take(request, path=NEW_GAME, kind=REFUSED_CREATE)
    if refused is not None:  # a refused form, as it was sent, with its message (once)
        values = {str(k): str(v) for k, v in (refused.get("values") or {}).items()}
        context = _create_context(request, values, str(refused.get("error") or ""),
                                  refused.get("fields") or None)
    else:
        context = _create_context(request, values, None)
    return flash.shown(request, render(request, "game_new.html", context), NEW_GAME,
                       REFUSED_CREATE)


#: The create form's page, and its refused form's kind (``web/flash.py``).
NEW_GAME = "/games/new"
REFUSED_CREATE = "create"
#: A refused join form's kind, shown on the game's page.
REFUSED_JOIN = "join"


def _stash_refused(request: Request, path: str, kind: str, data: dict[str, Any]
                   ) -> Response | None:
    """Post/redirect/get for a refused page form: 303 to ``path``, which shows ``data``
    once; ``None`` when it is too big to carry (the caller answers at the POST)."""
    response = RedirectResponse(path, 303)
    secure = request.app.state.web.settings.cookie_secure
    return response if flash.stash(request, response, path=path, kind=kind, data=data,
                                   secure=secure) else None


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


def web_games() -> list[str]:
    """The games that can be hosted here: every registered game."""
    return registry.names()


def public_from_fields(fields: dict[str, str]) -> bool:
    """The form's "public game" box: a hidden ``public=0`` comes before the checkbox's
    ``public=1`` (the last value counts), so an unticked box says private, and a form
    without the field at all (a script's) keeps the default, public."""
    return fields.get("public", "1") not in ("0", "", "off", "no", "false")


@router.post("/games")
def create_game(request: Request, db: Db, user: CurrentUser, when: Now,
                fields: FormFields) -> Response:
    values = {key: value for key, value in fields.items() if key != "csrf_token"}
    game_name = values.get("game", "")
    try:
        if game_name not in web_games():
            raise Invalid("unknown game", {"game": ["unknown game"]})
        options = _options(registry.plugin(game_name), None, values)
        game = games.create_game(
            db, user, game=game_name, title=values.get("title", "").strip(),
            options=options, schedule=schedule_for(game_name, values),
            max_seats=_max_seats(values.get("max_seats", "")), now=when,
            public=public_from_fields(values))
    except ServiceError as exc:
        db.rollback()
        fields_errors = getattr(exc, "fields", None)
        redirect = _stash_refused(request, NEW_GAME, REFUSED_CREATE, {
            "values": values, "error": exc.message, "fields": fields_errors or {}})
        if redirect is not None:
            return redirect
        return render(request, "game_new.html",
                      _create_context(request, values, exc.message, fields_errors),
                      status=error_status(exc))
    return RedirectResponse(f"/games/{game.id}?notice=created", 303)


# ---------------------------------------------------------------- the game page


def my_seat(db: Session, user: User | None, game_id: int) -> SeatRow | None:
    if user is None:
        return None
    try:
        return play.seat_of_user(db, user, game_id)
    except NotFound:
        return None


def game_context(db: Session, user: User | None, game: Game, web: Web) -> dict[str, Any]:
    """The game page for ``user`` (``None``: a visitor who is not logged in). Everything
    here comes from the public view, the seats' public rows and the news, so a spectator
    of a public game reads what every player reads; a seat's own view is only ever on its
    seat and report pages."""
    seat = my_seat(db, user, game.id)
    public = play.public_view(db, game.id) if game.status != "open" else None
    options = game.options or {}
    plugin = registry.plugin(game.game)
    try:
        strategies = bots.bot_names(game.game)
    except KeyError:
        strategies = []
    names = {s.seat_id: s.name for s in game.seats}
    setup = plugin.seat_setup
    is_host = user is not None and game.host_id == user.id
    failed_count, failed_mail = (outbox.failed_mail_of_game(db, game.id) if is_host
                                 else (0, []))
    return {
        "game": game,
        "title": plugin.ruleset().spec.title,
        "words": plugin.words,
        "seat": seat,
        "is_host": is_host,
        "public": public,
        "table": plugin.pages.public(public, names) if public is not None else None,
        "news": plugin.pages.news(public) if public is not None else [],
        "result": plugin.pages.result(public, names) if public is not None else None,
        "host_page": game.status != "open" and (
            (is_host and seat is None) or (game.status == "over" and (is_host or seat))),
        "seats": list(game.seats),
        "strategies": strategies,
        "setup": setup if setup is not None and setup.applies(options) else None,
        "schedule_text": schedule_text(game),
        "max_extension": web.settings.max_extension_hours,
        "extension_left": max(0, web.settings.max_extension_hours - game.extended_hours),
        "max_pause_hours": web.settings.max_pause_hours,
        "join_defaults": ({"player": user.username, "show_email": user.email_public}
                          if user is not None else {}),
        "spectator": seat is None and not is_host,
        "timeline": notify.news_of(db, game.id, limit=50),
        "failed_count": failed_count,  # the host's: mail of this game given up, and why
        "failed_mail": failed_mail,
    }


@router.get("/games/{game_id}")
def game_page(request: Request, game_id: GameId, db: Db, user: MaybeUser, web: Web) -> Response:
    """Anyone's page of a public game (logged in or not), a private game's members'
    only (404 for anyone else, as for no game)."""
    game = archive.check_watch(db, game_id, user)
    context = game_context(db, user, game, web)
    context.update({"notice": notice(request), "error": None, "join": {}})
    path = f"/games/{game_id}"
    refused = flash.take(request, path=path, kind=REFUSED_JOIN) if user is not None else None
    if refused is not None:  # a refused join form, as it was sent, with its message (once)
        context.update({"notice": None, "error": str(refused.get("error") or ""),
                        "join": {str(k): str(v) for k, v in
                                 (refused.get("join") or {}).items()}})
    return flash.shown(request, render(request, "game.html", context), path, REFUSED_JOIN)


def _game_error(request: Request, db: Session, user: User, game_id: int, web: Web,
                exc: ServiceError, join: dict[str, str] | None = None) -> Response:
    db.rollback()  # a refused use case leaves nothing behind
    game = games.get_game(db, game_id)
    context = game_context(db, user, game, web)
    context.update({"notice": None, "error": exc.message, "join": join or {}})
    return render(request, "game.html", context, status=error_status(exc))


@router.post("/games/{game_id}/join")
def join(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now, web: Web,
         name: Annotated[str, Form()] = "", player: Annotated[str, Form()] = "",
         show_email: Annotated[str, Form()] = "",
         choice: Annotated[str, Form(alias="setup")] = "") -> Response:
    values = {"name": name, "player": player, "show_email": show_email, "setup": choice}
    try:
        games.join_game(db, user, game_id, name=name.strip(),
                        player=player.strip() or user.username,
                        show_email=show_email in ("1", "on", "yes", "true"),
                        choice=choice.strip() or None, now=when)
    except ServiceError as exc:
        db.rollback()
        games.get_game(db, game_id)  # no such game: 404, as before
        redirect = _stash_refused(request, f"/games/{game_id}", REFUSED_JOIN,
                                  {"error": exc.message, "join": values})
        return redirect or _game_error(request, db, user, game_id, web, exc, values)
    return RedirectResponse(f"/games/{game_id}?notice=joined", 303)


@router.post("/games/{game_id}/setup")
def change_setup(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now,
                 web: Web, choice: Annotated[str, Form(alias="setup")] = "") -> Response:
    """The player's own secret choice before the start (the plugin's ``seat_setup``)."""
    try:
        games.change_setup(db, user, game_id, choice.strip() or None, when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=setup", 303)


@router.post("/games/{game_id}/bots")
def add_bot(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now, web: Web,
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
def start(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now,
          web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.start_game(db, user, game_id, when), "started")


@router.post("/games/{game_id}/pause")
def pause(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now,
          web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.pause_game(db, user, game_id, when), "paused")


@router.post("/games/{game_id}/resume")
def resume(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now,
           web: Web) -> Response:
    return _host_action(request, db, user, game_id, web,
                        lambda: games.resume_game(db, user, game_id, when), "resumed")


@router.post("/games/{game_id}/extend")
def extend(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now, web: Web,
           hours: Annotated[str, Form()] = "") -> Response:
    try:
        if not hours.strip().isdecimal():
            raise Invalid("the extension is a whole number of hours", {"hours": ["hours"]})
        games.extend_deadline(db, user, game_id, int(hours), when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=extended", 303)


@router.post("/games/{game_id}/process")
def process(request: Request, game_id: GameId, db: Db, user: CurrentUser, when: Now,
            web: Web) -> Response:
    try:
        games.request_processing(db, user, game_id, when)
    except ServiceError as exc:
        return _game_error(request, db, user, game_id, web, exc)
    return RedirectResponse(f"/games/{game_id}?notice=process", 303)
