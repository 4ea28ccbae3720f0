"""The player's notebook: ``GET /games/{id}/notebook``, what a seat can deduce from its own
past views alone, for games whose pages keep one (``GamePages.notebook_template``).

A page of its own, linked from the seat page, so the seat page stays quick in a big game.
The route takes ``UserSeat`` (another user gets 404, never the data) and hands the game's
pure reader (``GamePages.notebook_read``) that seat's stored views after entries 0..N, read
by its own seat key only (``play.own_views``; ``service.notebooks`` keeps the notes, so a
new entry costs one view): the notebook can say nothing the seat's own reports did not.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from spyhouse.core import registry
from spyhouse.service import notebooks
from spyhouse.service.errors import NotFound
from spyhouse.web.deps import Db, UserSeat, check_csrf, started_game
from spyhouse.web.render import render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


@router.get("/games/{game_id}/notebook")
def notebook_page(request: Request, db: Db, seat: UserSeat) -> Response:
    game = started_game(seat)
    plugin = registry.plugin(game.game)
    template = plugin.pages.notebook_template
    if template is None:
        raise NotFound("this game keeps no notebook")
    notes = notebooks.notes_of(db, seat, plugin.pages.notebook_read)
    return render(request, plugin.template(template), {
        "game": game, "seat": seat, "entry": game.entry, "title": plugin.ruleset().spec.title,
        "words": plugin.words, **plugin.pages.notebook(notes)})


__all__ = ["router"]
