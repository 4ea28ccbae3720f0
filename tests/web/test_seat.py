"""A seat's pages: the order form (drafts, messages by row, deadline), ready, the turn
report (the seed's sample sheet), past reports, secrets, API tokens and the mail page."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import play
from spyhouse.service import records as store
from spyhouse.store.tables import Game, OutboxMail, SeatRow
from tests.web.helpers import (
    Browser,
    refused_page,
    row_html,
    run_worker,
    selected,
    started_game,
    work_orders,
)


def _seat(factory: sessionmaker[Session], game_id: int, seat_id: str) -> SeatRow:
    with factory() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        db.expunge(seat)
        return seat


def _secrets(factory: sessionmaker[Session], game_id: int, seat_id: str) -> dict[str, str]:
    with factory() as db:
        secrets: dict[str, str] = store.snapshot(db, game_id, 0, seat_id)["secrets"]
        return secrets


def test_seat_page_shows_form_deadline_and_countdown(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob, bots=1)
    page = alice.get(f"/games/{game_id}/seat").text
    assert 'id="orders"' in page and 'class="countdown"' in page and "data-deadline=" in page
    for n in range(1, 10):
        assert f'id="spy-{n}"' in page
    assert 'class="badge">Leader<' in row_html(page, "spy-1")
    assert 'name="spy-1-leader"' not in page  # leaders never FOLLOW (V8)
    assert 'name="spy-2-leader"' in page
    assert "Bravo Brotherhood" in row_html(page, "spy-2")  # brotherhood choices
    assert 'id="declaration-1"' in page and "Mr " in row_html(page, "declaration-1")
    assert "Nothing was saved" not in page


def test_secrets_never_on_any_page(alice: Browser, bob: Browser, app: FastAPI,
                                   clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob, bots=1)
    secrets = _secrets(factory, game_id, "s1")
    leader = secrets["leader"]
    pages = [f"/games/{game_id}", f"/games/{game_id}/seat", f"/games/{game_id}/report",
             f"/games/{game_id}/report/0", f"/games/{game_id}/tokens", "/lobby"]
    for path in pages:  # not even in choice lists: those hold the other leaders only
        assert leader not in alice.get(path).text, path
    # the secrets mail is on the owner's mail page only
    assert f"Your leader: {leader}" in alice.get("/mail").text
    assert f"Your leader: {leader}" not in bob.get("/mail").text


def test_orders_saved_as_draft_and_changeable(alice: Browser, bob: Browser,
                                              factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    response = alice.post(f"/games/{game_id}/orders", work_orders())
    assert response.status_code == 303
    page = alice.get(response.headers["location"]).text
    assert "Your orders are saved" in page and "draft" in page
    assert selected(page, "spy-4-task") == "WORK" and selected(page, "spy-4-region") == "H"
    changed = {**work_orders(), "spy-4-task": "TRAIN", "spy-4-region": "A"}
    assert alice.post(f"/games/{game_id}/orders", changed).status_code == 303
    with factory() as db:
        state = play.get_orders(db, _seat(factory, game_id, "s1"))
    assert state.data["spies"]["4"] == {"task": "TRAIN", "region": "A"}
    assert state.ready is False


def test_parameters_a_task_does_not_take_are_dropped(alice: Browser, bob: Browser,
                                                     factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    fields = {**work_orders(), "spy-5-task": "RECRUIT", "spy-5-region": "H",
              "spy-5-brotherhood": "s2"}
    assert alice.post(f"/games/{game_id}/orders", fields).status_code == 303
    with factory() as db:
        state = play.get_orders(db, _seat(factory, game_id, "s1"))
    assert state.data["spies"]["5"] == {"task": "RECRUIT"}


def test_refused_orders_save_nothing_and_show_errors_by_row(alice: Browser, bob: Browser,
                                                            factory: sessionmaker[Session]
                                                            ) -> None:
    game_id = started_game(alice, bob)
    assert alice.post(f"/games/{game_id}/orders", work_orders()).status_code == 303
    bad = {**work_orders(), "spy-3-task": "WORK", "spy-3-region": "",
           "spy-2-task": "FOLLOW", "spy-2-region": "",
           "spy-6-task": "RECRUIT", "spy-7-task": "RECRUIT", "spy-8-task": "RECRUIT",
           "decl-1-brotherhood": "s1", "decl-1-leader": "Mr Pink", "decl-1-region": "A",
           "decl-3-brotherhood": "s2", "decl-3-leader": "Mr Nobody", "decl-3-region": "B"}
    response = refused_page(alice, alice.post(f"/games/{game_id}/orders", bad))
    page = response.text
    assert "Nothing was saved" in page
    assert "spy 3: WORK needs a region" in row_html(page, "spy-3")
    assert "spy 2: no such leader to follow" in row_html(page, "spy-2")
    assert "spy 3" not in row_html(page, "spy-4")
    assert "RECRUIT: 3 recruits cost 27 gp, you have 20 gp" in page.split('id="spy-1"')[0]
    assert "declaration 1: you cannot declare on yourself" in row_html(page, "declaration-1")
    # the second filled declaration is form row 3: its message goes there
    assert "declaration 2: no such leader" in row_html(page, "declaration-3")
    assert row_html(page, "declaration-2").count("error") == 0
    # the form shows what was submitted
    assert selected(page, "spy-2-task") == "FOLLOW"
    # ... and the previous draft is untouched
    with factory() as db:
        state = play.get_orders(db, _seat(factory, game_id, "s1"))
    assert state.data["spies"]["3"] == {"task": "WORK", "region": "H"}
    assert state.data["declarations"] == []


def test_warnings_shown_next_to_rows(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    fields = work_orders(range(2, 9))
    fields.update({"spy-1-task": "HIDE", "spy-1-region": "C"})
    response = alice.post(f"/games/{game_id}/orders", fields)
    assert response.status_code == 303
    page = alice.get(f"/games/{game_id}/seat").text
    assert "spy 9 has no orders: it will WORK in a random region" in row_html(page, "spy-9")
    assert "Leaders cannot HIDE, he will WORK in C Cathedral" in row_html(page, "spy-1")


def test_orders_after_the_deadline_are_refused(alice: Browser, bob: Browser,
                                               clock: FakeClock,
                                               factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    with factory() as db:
        deadline = db.get(Game, game_id).deadline  # type: ignore[union-attr]
    assert deadline is not None
    clock.set(deadline)
    response = refused_page(alice, alice.post(f"/games/{game_id}/orders", work_orders()))
    assert "the turn is closed" in response.text and "Nothing was saved" in response.text
    with factory() as db:
        assert play.get_orders(db, _seat(factory, game_id, "s1")).data is None


def test_stale_form_for_a_processed_turn_is_refused(alice: Browser, bob: Browser,
                                                    app: FastAPI, clock: FakeClock) -> None:
    game_id = started_game(alice, bob)
    alice.post(f"/games/{game_id}/process")
    run_worker(app, clock)
    response = refused_page(alice, alice.post(f"/games/{game_id}/orders",
                                              {**work_orders(), "entry": "1"}))
    assert "the turn is closed" in response.text


def test_repeated_request_key_changes_nothing_twice(alice: Browser, bob: Browser,
                                                    factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    first = {**work_orders(), "request_key": "form-1"}
    assert alice.post(f"/games/{game_id}/orders", first).status_code == 303
    retry = {**work_orders(region="A"), "request_key": "form-1"}
    assert alice.post(f"/games/{game_id}/orders", retry).status_code == 303
    with factory() as db:
        state = play.get_orders(db, _seat(factory, game_id, "s1"))
    assert state.data["spies"]["1"]["region"] == "H"


def test_ready_toggle(alice: Browser, bob: Browser, factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    early = refused_page(alice, alice.post(f"/games/{game_id}/ready", {"ready": "1"}))
    assert "save your orders first" in early.text
    alice.post(f"/games/{game_id}/orders", work_orders())
    assert alice.post(f"/games/{game_id}/ready", {"ready": "1"}).status_code == 303
    page = alice.get(f"/games/{game_id}/seat").text
    assert "marked final" in page and "Not final yet" in page
    with factory() as db:
        assert play.get_orders(db, _seat(factory, game_id, "s1")).ready is True
    assert alice.post(f"/games/{game_id}/ready", {"ready": "0"}).status_code == 303
    with factory() as db:
        assert play.get_orders(db, _seat(factory, game_id, "s1")).ready is False


def test_all_ready_closes_the_turn_early(alice: Browser, bob: Browser, app: FastAPI,
                                         clock: FakeClock,
                                         factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob, bots=1)
    alice.post(f"/games/{game_id}/orders", {**work_orders(), "ready": "1"})
    run_worker(app, clock)
    with factory() as db:
        assert db.get(Game, game_id).entry == 0  # type: ignore[union-attr]
    bob.post(f"/games/{game_id}/orders", {**work_orders(region="D"), "ready": "1"})
    run_worker(app, clock)
    with factory() as db:
        assert db.get(Game, game_id).entry == 1  # type: ignore[union-attr]


def test_report_page_is_the_sample_sheet(alice: Browser, bob: Browser, app: FastAPI,
                                         clock: FakeClock) -> None:
    game_id = started_game(alice, bob, bots=2)
    before = alice.get(f"/games/{game_id}/report").text
    assert "report after setup (turn 0)" in before and "Brotherhood Report" not in before
    alice.post(f"/games/{game_id}/orders", {**work_orders(), "ready": "1"})
    bob.post(f"/games/{game_id}/orders", {**work_orders(region="D"), "ready": "1"})
    run_worker(app, clock)
    page = alice.get(f"/games/{game_id}/report").text
    assert "report after turn 1" in page
    table = page.split('id="brotherhood-report"')[1].split("</table>")[0]
    assert "Brotherhood &amp; Task" in table and "Region Spy Report" in table
    for header in ("Player", "Email", "Spies", "Covertness", "gp"):
        assert f">{header}<" in table
    assert '<td class="unseen">?</td>' in table
    assert "Disguised as you" in table and ">WORK<" in table and ">COVERT<" in table
    assert ">HIDE<" not in table
    assert "Bravo Brotherhood" in table and "bob@example.org" in table
    assert "Alpha Brotherhood<" not in table  # own brotherhood is never a row
    assert "Nspies" in page and "Covertness" in page and "Life" in page
    assert "earned 9 gp" in page  # the leader's WORK in H
    assert "Region quick ref" in page and "Industrial" in page
    past = alice.get(f"/games/{game_id}/report/0").text
    assert "report after setup (turn 0)" in past
    assert alice.get(f"/games/{game_id}/report?entry=0").text.count("setup (turn 0)") >= 1
    assert alice.get(f"/games/{game_id}/report/5").status_code == 404


def test_resend_secrets_to_own_address_only(alice: Browser, bob: Browser,
                                            factory: sessionmaker[Session],
                                            clock: FakeClock) -> None:
    game_id = started_game(alice, bob)
    clock.advance(minutes=30)
    response = alice.post(f"/games/{game_id}/secrets")
    assert response.status_code == 303 and response.headers["location"].endswith("secrets")
    with factory() as db:
        mails = db.scalars(select(OutboxMail).where(OutboxMail.kind == "secrets")).all()
    assert sorted(m.to_addr for m in mails) == ["alice@example.org", "alice@example.org",
                                                 "bob@example.org"]
    again = alice.post(f"/games/{game_id}/secrets")
    assert again.status_code == 409


def test_tokens_page_create_shown_once_and_revoke(alice: Browser, bob: Browser,
                                                  factory: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    page = alice.get(f"/games/{game_id}/tokens")
    assert page.status_code == 200 and "No tokens yet" in page.text
    created = alice.post(f"/games/{game_id}/tokens", {"label": "my bot"})
    assert created.status_code == 200
    token = created.text.split('<pre id="new-token">')[1].split("</pre>")[0]
    assert token.startswith("shs_")
    listed = alice.get(f"/games/{game_id}/tokens").text
    assert "my bot" in listed and token not in listed and "active" in listed
    api = alice.client.get(f"/api/v1/games/{game_id}/view",
                           headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 200
    with factory() as db:
        token_id = play.tokens_of(db, _seat(factory, game_id, "s1"))[0].id
    assert alice.post(f"/games/{game_id}/tokens/{token_id}/revoke").status_code == 303
    assert "revoked" in alice.get(f"/games/{game_id}/tokens").text
    api = alice.client.get(f"/api/v1/games/{game_id}/view",
                           headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 403


def test_mail_page_lists_only_my_mail(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    mine = alice.get("/mail").text
    assert "alice@example.org" in mine and "bob@example.org" not in mine
    assert "Your secrets" in mine
    theirs = bob.get("/mail").text
    assert "alice@example.org" not in theirs
    assert f"/games/{game_id}" in theirs


def test_seat_page_before_start(alice: Browser, bob: Browser) -> None:
    game_id = alice.create_game()
    alice.join(game_id, "Alpha")
    page = alice.get(f"/games/{game_id}/seat")  # before the start: the game page says so
    assert page.status_code == 303 and page.headers["location"] == f"/games/{game_id}"
    assert alice.get(f"/games/{game_id}/report").status_code == 409


def test_elimination_and_game_over_pages(alice: Browser, bob: Browser, app: FastAPI,
                                         clock: FakeClock,
                                         factory: sessionmaker[Session]) -> None:
    """Bob declares Alpha correctly (its secrets read from Alpha's own snapshot, as a test
    may): Alpha is eliminated, the game is over, and every page still renders."""
    game_id = started_game(alice, bob)
    alpha = _secrets(factory, game_id, "s1")
    alice.post(f"/games/{game_id}/orders", {**work_orders(), "ready": "1"})
    declare = {**work_orders(), "decl-1-brotherhood": "s1", "decl-1-leader": alpha["leader"],
               "decl-1-region": alpha["base"], "ready": "1"}
    assert bob.post(f"/games/{game_id}/orders", declare).status_code == 303
    run_worker(app, clock)
    game_page = alice.get(f"/games/{game_id}").text
    assert "Game over" in game_page and "Game seed" in game_page
    assert alpha["leader"] in game_page  # revealed at game over, as the spec says
    seat = alice.get(f"/games/{game_id}/seat").text
    assert "The game is over" in seat and 'id="orders"' not in seat
    report = alice.get(f"/games/{game_id}/report").text
    assert "Alpha Brotherhood eliminated: correctly declared by Bravo Brotherhood" in report
    assert "The game is over" in report and "Brotherhoods" in report
    assert "Final standings" in report and "Game seed" in report
    winner = bob.get(f"/games/{game_id}/report").text
    assert "correct: you receive 20 gp and a Life" in winner
    refused = refused_page(alice, alice.post(f"/games/{game_id}/orders", work_orders()))
    assert "the game is over" in refused.text
