"""The lobby's one-click games against the computer: Spy vs Spy's, and every game whose
web forms module offers one (``ui.QUICK_GAME``): Infiltration against five computer
players at the quick pace, Kingdoms against three computer countries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.store.tables import Game
from tests.web.helpers import Browser, visitor

OFFERS = [("spyvsspy", "Play Spy vs Spy against the computer", 5),
          ("infiltration", "Play Infiltration against five computer players", 6),
          ("kingdoms", "Play Kingdoms against the computer", 4)]


def test_the_lobby_offers_each_game_against_the_computer(alice: Browser) -> None:
    lobby = alice.get("/lobby").text
    for game, label, _seats in OFFERS:
        assert f'name="game" value="{game}"' in lobby and label in lobby
    assert lobby.index(OFFERS[0][1]) < lobby.index(OFFERS[1][1])  # Spy vs Spy's comes first


@pytest.mark.parametrize(("game", "label", "seats"), OFFERS)
def test_one_click_starts_the_game(alice: Browser, factory: sessionmaker[Session],
                                   game: str, label: str, seats: int) -> None:
    response = alice.post("/games/quick", {"game": game})
    assert response.status_code == 303 and response.headers["location"].endswith("notice=quick")
    game_id = int(response.headers["location"].split("/")[2])
    page = alice.client.get(response.headers["location"], follow_redirects=True)
    assert page.status_code == 200
    with factory() as db:
        row = db.get(Game, game_id)
        assert row is not None and row.game == game and row.status == "running"
        assert len(row.seats) == seats and sum(s.bot is not None for s in row.seats) == seats - 1
        assert "vs the computer" in row.title


def test_infiltration_quick_game_runs_at_the_quick_pace(alice: Browser,
                                                       factory: sessionmaker[Session]) -> None:
    response = alice.post("/games/quick", {"game": "infiltration"})
    game_id = int(response.headers["location"].split("/")[2])
    with factory() as db:
        row = db.get(Game, game_id)
        assert row is not None and row.options == {"pace": "fast"}
        assert row.deadline is not None and row.started_at is not None
        assert row.deadline - row.started_at == timedelta(seconds=300)  # class selection


def test_a_handle_the_game_refuses_is_made_acceptable(app: FastAPI,
                                                      factory: sessionmaker[Session]) -> None:
    """A user name with '.' is no Infiltration handle: the seat gets one with '_'."""
    dotty = visitor(app, "j.doe-smith")
    response = dotty.post("/games/quick", {"game": "infiltration"})
    game_id = int(response.headers["location"].split("/")[2])
    with factory() as db:
        row = db.get(Game, game_id)
        assert row is not None and row.seats[0].name == "j_doe_smith"


def test_an_unknown_offer_is_404(alice: Browser) -> None:
    assert alice.post("/games/quick", {"game": "chess"}).status_code == 404
    assert alice.get("/play/chess").status_code == 404
