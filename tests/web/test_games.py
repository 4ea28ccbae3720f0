"""The lobby, creating and joining games, computer players, the host's bounded controls."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.store.tables import Game, SeatRow
from tests.web.helpers import Browser, refused_form, run_worker, started_game


def test_lobby_lists_open_and_my_games(alice: Browser, bob: Browser) -> None:
    assert "You are in no game yet" in alice.get("/lobby").text
    game_id = alice.create_game("Open Night")
    page = bob.get("/lobby")
    assert "Open Night" in page.text and f"/games/{game_id}" in page.text
    mine = alice.get("/lobby").text
    assert "My games" in mine and "Open Night" in mine


def test_create_game_form_and_schedules(alice: Browser, factory: sessionmaker[Session]) -> None:
    page = alice.get("/games/new")
    assert page.status_code == 200
    for word in ("base_choice", "variant", "weekly", "interval_hours", "all_submitted"):
        assert word in page.text
    weekly = alice.create_game("Weekly", schedule="weekly", base_choice="random")
    quick = alice.create_game("Quick", schedule="all_submitted")
    hourly = alice.create_game("Hourly", schedule="interval", interval_hours=6)
    with factory() as db:
        assert db.get(Game, weekly).schedule == {  # type: ignore[union-attr]
            "weekly": {"weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}}
        assert db.get(Game, quick).schedule == "all_submitted"  # type: ignore[union-attr]
        assert db.get(Game, hourly).schedule == {"interval_hours": 6}  # type: ignore[union-attr]
        # the declared defaults are left out, so the rules' own defaults apply
        assert db.get(Game, weekly).options == {  # type: ignore[union-attr]
            "base_choice": "random"}


def _create_refused(browser: Browser, form: dict[str, str]) -> str:
    """A refused create form: 303 to the form's page, which shows it with its message."""
    return refused_form(browser, browser.post("/games", form), "/games/new").text


def test_create_game_refusals_show_the_form_again(alice: Browser) -> None:
    bad_zone = _create_refused(alice, {"game": "spyvsspy", "title": "Zoned",
                                       "schedule": "weekly", "weekday": "Wednesday",
                                       "time": "20:00", "zone": "Mars/Olympus"})
    assert "unknown time zone" in bad_zone
    assert 'value="Zoned"' in bad_zone
    no_title = _create_refused(alice, {"game": "spyvsspy", "title": " ",
                                       "schedule": "all_submitted"})
    assert "title" in no_title
    bad_variant = _create_refused(alice, {"game": "spyvsspy", "title": "V",
                                          "option-variant": "spy3",
                                          "schedule": "all_submitted"})
    assert "variant" in bad_variant
    bad_seats = _create_refused(alice, {"game": "spyvsspy", "title": "S", "max_seats": "1",
                                        "schedule": "all_submitted"})
    assert "at least 2" in bad_seats
    bad_game = _create_refused(alice, {"game": "chess", "title": "S",
                                       "schedule": "all_submitted"})
    assert "unknown game" in bad_game
    # shown once: a reload of the form's page is the fresh form, and posts nothing
    assert "unknown game" not in alice.get("/games/new").text


def test_join_with_name_email_choice_and_base(alice: Browser, bob: Browser,
                                              factory: sessionmaker[Session]) -> None:
    game_id = alice.create_game(base_choice="choose")
    page = bob.get(f"/games/{game_id}")
    assert "Join this game" in page.text and 'name="setup"' in page.text
    taken = refused_form(alice, alice.join(game_id, "WORK"), f"/games/{game_id}")
    assert taken.status_code == 200 and "cannot be a brotherhood name" in taken.text
    assert alice.join(game_id, "Alpha", show_email="").status_code == 303
    dup = refused_form(bob, bob.join(game_id, "alpha"), f"/games/{game_id}")
    assert dup.status_code == 200 and "taken" in dup.text
    assert bob.join(game_id, "Bravo", base="D").status_code == 303
    again = refused_form(bob, bob.join(game_id, "Charlie"), f"/games/{game_id}")
    assert again.status_code == 200
    with factory() as db:
        seats = {s.name: s for s in db.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}
    assert seats["Alpha"].public_email is None
    assert seats["Bravo"].public_email == "bob@example.org"
    assert seats["Bravo"].setup == {"base": "D"}
    text = alice.get(f"/games/{game_id}").text
    assert "bob@example.org" in text and "alice@example.org" not in text
    assert ">D<" not in text  # a chosen base is never shown


def test_change_base_before_start(alice: Browser, bob: Browser,
                                  factory: sessionmaker[Session]) -> None:
    game_id = alice.create_game(base_choice="choose")
    bob.join(game_id, "Bravo")
    assert bob.post(f"/games/{game_id}/setup", {"setup": "F"}).status_code == 303
    with factory() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id))
        assert seat is not None and seat.setup == {"base": "F"}


def test_full_game_refuses_joins(alice: Browser, bob: Browser) -> None:
    game_id = alice.create_game(max_seats="2")
    alice.join(game_id, "Alpha")
    alice.add_bot(game_id)
    refused = refused_form(bob, bob.join(game_id, "Bravo"), f"/games/{game_id}")
    assert refused.status_code == 200 and "full" in refused.text


def test_host_adds_bots_and_starts(alice: Browser, bob: Browser,
                                   factory: sessionmaker[Session]) -> None:
    game_id = alice.create_game()
    alice.join(game_id, "Alpha")
    refused = bob.add_bot(game_id)
    assert refused.status_code == 403
    assert alice.add_bot(game_id, "nobody").status_code == 422
    early = alice.start(game_id)
    assert early.status_code == 409 and "at least 2" in early.text
    assert alice.add_bot(game_id, "hunter").status_code == 303
    assert bob.start(game_id).status_code == 403
    assert alice.start(game_id).status_code == 303
    page = alice.get(f"/games/{game_id}").text
    assert "running" in page and "Computer (hunter)" in page
    assert alice.start(game_id).status_code == 409
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.status == "running" and game.deadline is not None


def test_host_controls_are_bounded_and_shown(alice: Browser, bob: Browser, app: FastAPI,
                                             clock: FakeClock,
                                             factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    with factory() as db:
        deadline = db.get(Game, game_id).deadline  # type: ignore[union-attr]
    assert bob.post(f"/games/{game_id}/extend", {"hours": "24"}).status_code == 403
    assert alice.post(f"/games/{game_id}/extend", {"hours": "24"}).status_code == 303
    page = bob.get(f"/games/{game_id}").text
    assert "extended this turn's deadline by 24" in page
    assert "extended" in page.lower() and "Game timeline" in page
    limit = app.state.web.settings.max_extension_hours
    too_far = alice.post(f"/games/{game_id}/extend", {"hours": str(limit)})
    assert too_far.status_code in (409, 422)
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None and deadline is not None
        assert (game.deadline - deadline).total_seconds() == 24 * 3600  # type: ignore[operator]
    assert bob.post(f"/games/{game_id}/pause").status_code == 403
    assert alice.post(f"/games/{game_id}/pause").status_code == 303
    page = bob.get(f"/games/{game_id}").text
    assert "paused" in page
    seat = bob.get(f"/games/{game_id}/seat").text
    assert "paused" in seat and 'id="orders"' not in seat
    assert alice.post(f"/games/{game_id}/resume").status_code == 303
    assert "resumed" in bob.get(f"/games/{game_id}").text
    assert bob.post(f"/games/{game_id}/process").status_code == 403
    assert alice.post(f"/games/{game_id}/process").status_code == 303
    assert run_worker(app, clock) >= 1
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.entry == 1


def test_quick_game_against_the_computer(alice: Browser, app: FastAPI, clock: FakeClock,
                                         factory: sessionmaker[Session]) -> None:
    response = alice.post("/games/quick")
    assert response.status_code == 303 and response.headers["location"].endswith("notice=quick")
    seat_page = alice.get(response.headers["location"]).text
    assert "against the computer" in seat_page and 'id="orders"' in seat_page
    game_id = int(response.headers["location"].split("/")[2])
    fields = {f"spy-{n}-task": "WORK" for n in range(1, 10)}
    fields.update({f"spy-{n}-region": "H" for n in range(1, 10)})
    saved = alice.post(f"/games/{game_id}/orders", fields)  # a draft: never played early
    assert saved.status_code == 303 and saved.headers["location"].endswith("notice=saved")
    run_worker(app, clock)
    with factory() as db:
        waiting = db.get(Game, game_id)
        assert waiting is not None and waiting.entry == 0
    draft = alice.get(f"/games/{game_id}/seat").text
    assert "as a <strong>draft</strong>" in draft and "Play the turn now" in draft
    played = alice.post(f"/games/{game_id}/play")
    assert played.status_code == 303 and played.headers["location"].endswith("notice=played")
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.entry == 1 and len(game.seats) == 5


def test_game_page_unknown_game(alice: Browser) -> None:
    assert alice.get("/games/999").status_code == 404


def test_names_are_escaped_on_every_page(alice: Browser, bob: Browser) -> None:
    game_id = alice.create_game("<script>alert(1)</script>")
    assert alice.join(game_id, "<b>Bold</b> & Co").status_code == 303
    for browser, path in ((alice, "/lobby"), (bob, "/lobby"), (bob, f"/games/{game_id}")):
        text = browser.get(path).text
        assert "<script>alert(1)</script>" not in text
        assert "&lt;script&gt;" in text
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in bob.get(f"/games/{game_id}").text


# ---------------------------------------------------------------- games with their own deadlines


def test_create_form_marks_games_that_ignore_the_schedule(alice: Browser) -> None:
    """Only a ruleset with the ``deadline_seconds`` hook is marked; the note is hidden
    until such a game is chosen (the script shows it and disables the schedule)."""
    page = alice.get("/games/new").text
    assert '<script src="/static/game_new.js" defer></script>' in page
    marked = set(re.findall(r'<option value="(\w+)" (?:selected)?\s*data-own-deadlines="1"',
                            page))
    assert marked and all(callable(getattr(registry.get(name), "deadline_seconds", None))
                          for name in marked)
    assert "spyvsspy" not in marked
    assert re.search(r'id="schedule-note" hidden>', page), "Spy vs Spy is chosen first"
    assert 'id="schedule-fields"' in page
    script = alice.get("/static/game_new.js")
    assert script.status_code == 200 and "data-own-deadlines" in script.text
    refused = _create_refused(alice, {"game": "infiltration", "title": " "})
    assert re.search(r'id="schedule-note">', refused), "shown for the chosen game"


def test_a_game_with_its_own_deadlines_needs_no_schedule(
        alice: Browser, factory: sessionmaker[Session]) -> None:
    """The disabled schedule is not posted, or a page without the script posts it half
    filled: an Infiltration game is created all the same on its default schedule, a
    valid schedule is kept, and either way the phase's own length sets the deadline."""
    def create(**fields: str) -> int:
        response = alice.post("/games", {"game": "infiltration", "title": "Night",
                                         "option-pace": "forum", **fields})
        assert response.status_code == 303, response.text
        match = re.match(r"/games/(\d+)", response.headers["location"])
        assert match
        return int(match.group(1))

    missing = create()
    blank = create(schedule="", interval_hours="", time="", zone="")
    half = create(schedule="weekly", time="", zone="")
    hourly = create(schedule="interval", interval_hours="1")
    with factory() as db:
        default = registry.get("infiltration").spec.default_schedule
        for game_id in (missing, blank, half):
            assert db.get(Game, game_id).schedule == default  # type: ignore[union-attr]
        assert db.get(Game, hourly).schedule == {"interval_hours": 1}  # type: ignore[union-attr]
    # a game without its own deadlines still needs a schedule that holds together
    _create_refused(alice, {"game": "spyvsspy", "title": "S", "schedule": "weekly",
                            "time": "", "zone": ""})
    # the hourly schedule is ignored: the first deadline is the class phase's length
    assert alice.join(hourly, "Alice").status_code == 303
    for _ in range(5):
        assert alice.add_bot(hourly, "operative").status_code == 303
    assert alice.start(hourly).status_code == 303
    with factory() as db:
        game = db.get(Game, hourly)
        assert game is not None and game.started_at is not None and game.deadline is not None
        length = registry.get("infiltration").parse_options(game.options).class_deadline
        assert length != 3600
        assert game.deadline - game.started_at == timedelta(seconds=length)


def test_my_games_shows_the_kind_where_it_stands_and_the_result(
        alice: Browser, app: FastAPI, clock: FakeClock) -> None:
    """Three games against the computer read apart: the kind of game, "your move" or
    "waiting", and no orders link once over (issue 10)."""
    for game in ("spyvsspy", "kingdoms", "infiltration"):
        assert alice.post("/games/quick", {"game": game}).status_code == 303
    rows = alice.get("/lobby").text.split('<table class="list my-games">')[1].split("</table>")[0]
    for kind in ("Spy vs Spy", "Kingdoms", "Infiltration"):
        assert f"<td>{kind}</td>" in rows
    assert rows.count("your move") == 3 and "0 turns" in rows and "0 phases" in rows


def test_the_create_form_shows_only_the_chosen_games_options(alice: Browser) -> None:
    page = alice.get("/games/new?game=kingdoms").text
    groups = re.findall(r'<fieldset class="game-options" data-game="(\w+)"([^>]*)>', page)
    shown = [name for name, attrs in groups if "hidden" not in attrs]
    assert shown == ["kingdoms"]
    assert {name for name, _ in groups} == set(registry.names())
    assert 'data-game="spyvsspy" hidden disabled' in page


def test_computer_players_get_distinct_names_of_their_game(alice: Browser,
                                                          factory: sessionmaker[Session]
                                                          ) -> None:
    """No Spy vs Spy brotherhood in another game, no name cut short, no two alike."""
    for game in registry.names():
        response = alice.post("/games", {"game": game, "title": f"{game} names",
                                         "schedule": "interval", "interval_hours": "48"})
        assert response.status_code == 303, (game, response.text[:300])
        game_id = int(response.headers["location"].split("/")[2].split("?")[0])
        strategy = registry.plugin(game).bots.strategies[0]  # type: ignore[union-attr]
        count = min(3, registry.get(game).spec.max_seats or 3)
        for _ in range(count):
            assert alice.add_bot(game_id, strategy).status_code == 303
        with factory() as db:
            names = [s.name for s in db.scalars(select(SeatRow).where(
                SeatRow.game_id == game_id).order_by(SeatRow.position))]
        pool = registry.plugin(game).words.computer_names
        assert len(names) == count and all(name in pool for name in names), (game, names)
        folded = {"".join(c for c in n.casefold() if c.isalnum()) for n in names}
        assert len(folded) == count
