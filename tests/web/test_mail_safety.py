"""Issue 11 item 2 on the pages: a line break in a game title, a seat or player name or
an address is a form error and creates nothing; mail that could not be delivered is
shown with its reason to the game's host (game page) and to its addressee (/mail)."""

from __future__ import annotations

import html
import smtplib

from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.worker import run_once
from tests.web.helpers import PASSWORD, Browser, refused_form

ATTACK = "Evil\r\nBcc: attacker@example.test"


def _count(factory: sessionmaker[Session], table: type[object]) -> int:
    with factory() as db:
        return int(db.scalar(select(func.count()).select_from(table)) or 0)


def test_the_title_attack_gives_a_form_error_and_creates_nothing(
        alice: Browser, factory: sessionmaker[Session]) -> None:
    for title in (ATTACK, "Evil\u2028Bcc: attacker@example.test", "Evil\x00"):
        page = refused_form(alice, alice.post("/games", {"game": "spyvsspy", "title": title,
                                                         "schedule": "all_submitted"}),
                            "/games/new")
        text = html.unescape(page.text)
        assert text.count("the title may not hold") == 1  # one clear error, at the top
        assert "<form" in page.text and 'name="title"' in page.text  # the form again
    assert _count(factory, Game) == 0
    assert alice.create_game("Evil Bcc") > 0  # the same words on one line are fine


def test_a_line_break_in_a_seat_or_player_name_is_a_form_error(
        alice: Browser, bob: Browser, factory: sessionmaker[Session]) -> None:
    game_id = alice.create_game("Lantern Street")
    for data in ({"name": "Mad\r\nBobs", "player": "bob"},
                 {"name": "Mad Bobs", "player": "Bob\r\nBcc: attacker@example.test"}):
        page = refused_form(bob, bob.post(f"/games/{game_id}/join", data),
                            f"/games/{game_id}")
        assert "may not hold a line break" in html.unescape(page.text)
    assert _count(factory, SeatRow) == 0


def test_sign_up_refuses_an_address_with_a_line_break(
        anon: Browser, factory: sessionmaker[Session]) -> None:
    page = anon.post("/signup", {"username": "mallory", "password": PASSWORD,
                                 "password2": PASSWORD,
                                 "email": "m@example.org\r\nBcc: attacker@example.test"})
    assert page.status_code == 422
    assert "the e-mail address may not hold a line break" in html.unescape(page.text)
    listed = anon.post("/signup", {"username": "mallory", "password": PASSWORD,
                                   "password2": PASSWORD,
                                   "email": "m,attacker@example.test"})
    assert listed.status_code == 422 and "not an e-mail address" in listed.text
    assert _count(factory, User) == 0


class RefusesBob:
    """A mail server that answers 550 for bob's address and takes the rest."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, to_addr: str, subject: str, body: str) -> None:
        if to_addr.startswith("bob@"):
            raise smtplib.SMTPRecipientsRefused(
                {to_addr: (550, f"5.1.1 <{to_addr}> mailbox unavailable".encode())})
        self.sent.append(to_addr)


def test_the_host_and_the_addressee_see_undelivered_mail_and_why(
        app: FastAPI, alice: Browser, bob: Browser, clock: FakeClock,
        factory: sessionmaker[Session]) -> None:
    game_id = alice.create_game("Lantern Street")
    assert alice.join(game_id, "Alpha Brotherhood").status_code == 303
    assert bob.join(game_id, "Bravo Brotherhood", player="Bobby",
                    show_email="").status_code == 303
    assert alice.start(game_id).status_code == 303
    settings: Settings = app.state.web.settings
    mailer = RefusesBob()
    run_once(factory, clock, settings, mailer)
    assert mailer.sent == ["alice@example.org"]
    host_page = html.unescape(alice.get(f"/games/{game_id}").text)
    host_controls = host_page[host_page.index("Host controls"):]
    assert "1 mail could not be delivered" in host_controls
    assert "Bobby (secrets): 550 5.1.1 <the address> mailbox unavailable" in host_controls
    assert "bob@example.org" not in host_page  # the host never reads a hidden address
    assert "could not be delivered" not in bob.get(f"/games/{game_id}").text
    mail_page = html.unescape(bob.get("/mail").text)
    assert "could not be delivered: 550 5.1.1 <the address> mailbox unavailable" in mail_page
    assert "could not be delivered" not in alice.get("/mail").text
