"""The mail settings page (``/account/mail``) and the unsubscribe pages
(``/unsubscribe/{token}``): CSRF everywhere but the one-click route, a GET that changes
nothing, a refused bad link, addresses private by default (issue 14 item 2)."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.mail import unsubscribe
from spyhouse.settings import Settings
from spyhouse.store.tables import User
from spyhouse.web import pages_mail
from spyhouse.web.deps import check_csrf
from tests.platform.test_conformance_routes import _leaves
from tests.web.helpers import Browser, started_game, visitor


def test_a_bad_or_tampered_link_is_refused_and_changes_nothing(
        app: FastAPI, alice: Browser, factory: sessionmaker[Session]) -> None:
    settings: Settings = app.state.web.settings
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        token = unsubscribe.make_token(settings, user.id, "turn")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    anon = visitor(app)
    for path in (f"/unsubscribe/{forged}", "/unsubscribe/nonsense",
                 f"/unsubscribe/{token.replace('.turn.', '.game.')}"):
        assert anon.get(path).status_code == 400
        refused = anon.client.post(path, content=b"List-Unsubscribe=One-Click",
                                   headers={"Content-Type":
                                            "application/x-www-form-urlencoded"})
        assert refused.status_code == 400 and "not valid" in refused.text
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None and user.mail_turn and user.mail_game
    # the confirmation page's own button (a browser, a plain form POST) works too
    page = anon.get(f"/unsubscribe/{token}")
    assert page.status_code == 200 and "csrf_token" not in page.text.split("<main>")[1]
    assert anon.client.post(f"/unsubscribe/{token}").status_code == 200
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None and user.mail_turn is False and user.mail_game is True


def test_other_posts_still_need_their_csrf_token(alice: Browser) -> None:
    refused = alice.post("/account/mail", {"reminder_hours": "5"}, token=False)
    assert refused.status_code == 403


def test_the_settings_page_round_trip(alice: Browser, factory: sessionmaker[Session]) -> None:
    page = alice.get("/account/mail")
    assert page.status_code == 200
    for column in ("mail_turn", "mail_reminder", "mail_messages", "mail_game"):
        assert re.search(rf'name="{column}" value="1"\s+checked', page.text)
    assert 'name="reminder_hours"' in page.text and 'value="12"' in page.text
    assert not re.search(r'name="email_public" value="1"\s+checked', page.text)
    assert 'href="/account/mail"' in alice.get("/account").text
    saved = alice.post("/account/mail", {"mail_turn": "1", "mail_game": "1",
                                         "reminder_hours": "5", "email_public": "1"})
    assert saved.status_code == 303 and saved.headers["location"] == "/account/mail?notice=saved"
    again = alice.get(saved.headers["location"])
    assert "Your mail settings were saved." in again.text
    assert re.search(r'name="mail_turn" value="1"\s+checked', again.text)
    assert not re.search(r'name="mail_reminder" value="1"\s+checked', again.text)
    assert 'value="5"' in again.text
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        assert (user.mail_turn, user.mail_reminder, user.mail_messages, user.mail_game,
                user.reminder_hours, user.email_public) == (True, False, False, True, 5, True)
    for hours in ("0", "73", "abc", "", "2.5"):
        refused = alice.post("/account/mail", {"mail_turn": "1", "reminder_hours": hours})
        assert refused.status_code == 422
        assert "from 1 to 72" in refused.text and 'aria-invalid="true"' in refused.text
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "alice"))
        assert user is not None and user.reminder_hours == 5 and user.mail_game is True


def test_new_accounts_and_the_join_form_keep_the_address_private(
        app: FastAPI, alice: Browser, bob: Browser, factory: sessionmaker[Session]) -> None:
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "bob"))
        assert user is not None and user.email_public is False
        assert (user.mail_turn, user.mail_reminder, user.reminder_hours, user.mail_messages,
                user.mail_game) == (True, True, 12, True, True)
    game_id = alice.create_game()
    page = bob.get(f"/games/{game_id}")
    assert 'name="show_email"' in page.text
    assert not re.search(r'name="show_email" value="1"\s+checked', page.text)
    bob.post("/account/mail", {"reminder_hours": "12", "email_public": "1"})
    assert re.search(r'name="show_email" value="1"\s+checked',
                     bob.get(f"/games/{game_id}").text)


def test_only_the_one_click_unsubscribe_goes_without_the_csrf_check(app: FastAPI) -> None:
    """Every page POST but RFC 8058's one-click route depends on ``check_csrf``."""
    unchecked = sorted(
        route.path for route in _leaves(app.routes)
        if hasattr(route, "dependant") and "POST" in (getattr(route, "methods", None) or ())
        and not route.path.startswith("/api/")
        and not any(dep.call is check_csrf for dep in route.dependant.dependencies))
    assert unchecked == ["/unsubscribe/{token}"]
    checked = [route for route in pages_mail.router.routes if isinstance(route, APIRoute)]
    assert {route.path for route in checked} == {"/account/mail"}


def test_the_local_mail_page_shows_each_game_mail_as_sent(alice: Browser, bob: Browser) -> None:
    """Without SMTP, ``/mail`` shows a game mail with the foot it would be sent with."""
    started_game(alice, bob)
    page = alice.get("/mail").text
    assert "Your secrets" in page
    assert "http://testserver/unsubscribe/" in page and "http://testserver/account/mail" in page
