"""The create-game form's Infiltration options (declared in ``games/infiltration/plugin.py``):
the pace, a custom pace's own lengths in minutes, and the §2 choices a moderator makes;
each bad answer is named in the form's terms and no game is created."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.core.errors import OptionsError
from spyhouse.games.infiltration.options import parse_options
from spyhouse.games.infiltration.plugin import PLUGIN
from spyhouse.store.tables import Game
from tests.web.helpers import Browser, refused_form


def test_defaults_leave_the_engine_defaults() -> None:
    assert PLUGIN.options_from_form({}) == {}  # forum pace, the engine's own defaults
    with pytest.raises(OptionsError, match="Pace: choose one of forum, fast, custom"):
        PLUGIN.options_from_form({"option-pace": "nonsense"})
    assert PLUGIN.options_from_form({"option-pace": "fast", "option-early_close": "yes"}) == {
        "pace": "fast"}  # forum and fast set early close themselves


def test_custom_pace_in_minutes_becomes_seconds() -> None:
    options = PLUGIN.options_from_form({
        "option-pace": "custom", "option-class_deadline": "10",
        "option-movement_deadline": "5",
        "option-decision_deadline": "15", "option-early_close": "yes",
        "option-class_mode": "random", "option-reveal_red_count": "no",
        "option-phantoms": "no", "option-private_messages": "no", "option-reds": "2"})
    assert options == {"pace": "custom", "class_deadline": 600, "movement_deadline": 300,
                       "decision_deadline": 900, "early_close": True, "class_mode": "random",
                       "reveal_red_count": False, "phantoms": False,
                       "private_messages": False, "reds": 2}
    parsed = parse_options(options)
    assert (parsed.movement_deadline, parsed.early_close) == (300, True)


@pytest.mark.parametrize(("fields", "message"), [
    ({"option-pace": "custom", "option-class_deadline": "10",
      "option-movement_deadline": "5"},
     "Decision phase: give it a whole number from 1 to 10080"),
    ({"option-pace": "custom", "option-class_deadline": "0",
      "option-movement_deadline": "5", "option-decision_deadline": "5"},
     "Class selection: a whole number from 1 to 10080"),
    ({"option-reds": "six"}, "Reds: a whole number from 1 to 5"),
])
def test_bad_answers_are_named(fields: dict[str, str], message: str) -> None:
    with pytest.raises(OptionsError) as refused:
        PLUGIN.options_from_form(fields)
    assert str(refused.value) == message


def _create(browser: Browser, **options: str) -> int:
    data = {"game": "infiltration", "title": "Night shift", "max_seats": "",
            "schedule": "interval", "interval_hours": "48", "weekday": "Wednesday",
            "time": "20:00", "zone": "Pacific/Auckland"}
    data.update({f"option-{key}": value for key, value in options.items()})
    return browser.post("/games", data).status_code


def test_the_form_offers_the_options_and_stores_them(alice: Browser,
                                                     sessions: sessionmaker[Session]) -> None:
    form = alice.get("/games/new").text
    assert 'name="option-movement_deadline"' in form and 'value="custom"' in form
    assert _create(alice, pace="custom", class_deadline="4", movement_deadline="3",
                   decision_deadline="6") == 303
    with sessions() as db:
        game = db.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None and game.options == {
            "pace": "custom", "class_deadline": 240, "movement_deadline": 180,
            "decision_deadline": 360}


def test_a_bad_answer_creates_nothing(alice: Browser, sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        before = len(db.scalars(select(Game)).all())
    response = alice.post("/games", {
        "game": "infiltration", "title": "Night shift", "max_seats": "",
        "schedule": "interval", "interval_hours": "48", "option-pace": "custom"})
    page = refused_form(alice, response, "/games/new")
    assert "Class selection: give it a whole number from 1 to 10080" in page.text
    with sessions() as db:
        assert len(db.scalars(select(Game)).all()) == before
