"""The rules of the games, for anyone: ``GET /rules`` (every game with a rules page) and
``GET /rules/{game}`` (the game's own page, ``core.plugin.RulesPage``).

Rules are public: a visitor weighing whether to sign up reads them as a player does, so
neither route needs a log-in. The platform knows no game's rules: it renders the template
the plugin names, from the game's own folder, with the game's title, words and one-line
order help (the same lines the game's order form shows beside each choice).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from spyhouse.core import registry
from spyhouse.core.plugin import GamePlugin
from spyhouse.service.errors import NotFound
from spyhouse.web.deps import MaybeUser
from spyhouse.web.render import render

router = APIRouter(include_in_schema=False)


def _with_rules(name: str) -> GamePlugin:
    """The plugin of ``name`` if it has a rules page; ``NotFound`` otherwise (an unknown
    name and a game without rules read the same)."""
    try:
        plugin = registry.plugin(name)
    except KeyError:
        raise NotFound("There are no rules of that game here.") from None
    if plugin.rules is None:
        raise NotFound("There are no rules of that game here.")
    return plugin


@router.get("/rules")
def rules_index(request: Request, user: MaybeUser) -> Response:
    """Every game's rules, one link each, with the game's one line about itself."""
    games = [{"title": plugin.ruleset().spec.title, "href": f"/rules/{plugin.name}",
              "blurb": plugin.words.blurb}
             for plugin in registry.plugins() if plugin.rules is not None]
    return render(request, "rules_index.html", {"games": games})


@router.get("/rules/{game}")
def rules_page(request: Request, game: str, user: MaybeUser) -> Response:
    """The game's rules page, from its own template (``user``: the page's header names
    a logged-in reader, as on every page)."""
    plugin = _with_rules(game)
    assert plugin.rules is not None
    return render(request, plugin.template(plugin.rules.template), {
        "title": plugin.ruleset().spec.title, "words": plugin.words,
        "order_help": plugin.rules.order_help, "rules_game": plugin.name})


__all__ = ["router"]
