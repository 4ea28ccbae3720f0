"""One-line fields (service/text.py, issue 11 item 2): every user-supplied string that can
reach a mail header or a one-line field is refused at input with one clear error when it
holds a line break or another control character; post bodies keep their lines."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import deliver_pending
from spyhouse.service import accounts, channels, games
from spyhouse.service.errors import Invalid
from spyhouse.service.text import line_problem
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, SeatRow
from tests.service.helpers import count, mails, make_user, new_game, started_game

#: A line break, or another control character, in every form that may carry one.
BAD = [
    ("Evil\r\nBcc: attacker@example.test", "may not hold a line break"),
    ("Evil\nBcc: attacker@example.test", "may not hold a line break"),
    ("Evil\rBcc: attacker@example.test", "may not hold a line break"),
    ("Evil\u2028Bcc: attacker@example.test", "may not hold a line break"),
    ("Evil\u2029Bcc", "may not hold a line break"),
    ("Evil\x85Bcc", "may not hold a line break"),
    ("Evil\x00Bcc", "may not hold control characters"),
    ("Evil\tBcc", "may not hold control characters"),
    ("Evil\x1b[31mBcc", "may not hold control characters"),
    ("Evil\x7fBcc", "may not hold control characters"),
    ("Evil\x9bBcc", "may not hold control characters"),
    ("Evil\ud800Bcc", "may not hold control characters"),
]


@pytest.mark.parametrize(("text", "problem"), BAD)
def test_line_breaks_and_control_characters_are_named(text: str, problem: str) -> None:
    assert line_problem(text) == problem


@pytest.mark.parametrize("text", ["Lantern Street", "Toady's Mob", "Café Noir — 2", "東京",
                                  "Zwölf Affen 🐒", "a\u00a0b", "👩\u200d👩\u200d👧"])
def test_ordinary_titles_and_names_are_one_line(text: str) -> None:
    assert line_problem(text) is None


@pytest.mark.parametrize(("title", "problem"), BAD)
def test_a_title_with_a_line_break_is_refused_and_nothing_is_created(
        db: Session, clock: FakeClock, title: str, problem: str) -> None:
    host = make_user(db, "host", clock.now())
    with pytest.raises(Invalid) as refused:
        games.create_game(db, host, game="spyvsspy", title=title, options={},
                          schedule="all_submitted", max_seats=None, now=clock.now())
    assert refused.value.message == f"the title {problem}"
    assert refused.value.fields == {"title": [problem]}
    assert count(db, Game) == 0


def test_surrounding_white_space_is_trimmed_not_refused(db: Session, clock: FakeClock) -> None:
    host = make_user(db, "host", clock.now())
    game = games.create_game(db, host, game="spyvsspy", title="\r\n Lantern Street \n",
                             options={}, schedule="all_submitted", max_seats=None,
                             now=clock.now())
    assert game.title == "Lantern Street"


@pytest.mark.parametrize(("field", "text"), [
    ("name", "Mad\r\nBobs"), ("name", "Mad\u2028Bobs"), ("name", "Mad\x00Bobs"),
    ("player", "Ann\r\nBcc: attacker@example.test"), ("player", "Ann\x1b[2J"),
    ("player", "Ann\u2029Smith")])
def test_seat_and_player_names_with_a_line_break_are_refused(
        db: Session, clock: FakeClock, field: str, text: str) -> None:
    host = make_user(db, "host", clock.now())
    game = new_game(db, host, clock.now())
    given = {"name": "Mad Bobs", "player": "Ann", field: text}
    with pytest.raises(Invalid) as refused:
        games.join_game(db, host, game.id, name=given["name"], player=given["player"],
                        show_email=False, now=clock.now())
    assert list(refused.value.fields) == [field]
    assert "line break" in refused.value.message or "control" in refused.value.message
    assert count(db, SeatRow) == 0


@pytest.mark.parametrize(("username", "email", "field"), [
    ("ann\r\nBcc", "ann@example.org", "username"),
    ("ann\n", "ann\n@example.org", "email"),
    ("ann", "ann@example.org\r\nBcc: attacker@example.test", "email"),
    ("ann", "ann@example.org\nBcc: attacker@example.test", "email"),
    ("ann", "ann\x00@example.org", "email"),
    ("ann", "ann@exam\u2028ple.org", "email"),
    ("ann", "ann,attacker@example.test", "email"),
    ("ann", "Ann <ann@example.org>", "email"),
    ("ann", '"ann"@example.org', "email"),
    ("ann", "ann(x)@example.org", "email"),
    ("ann", "ann@exämple.org", "email"),
])
def test_sign_up_refuses_what_cannot_be_one_address_or_name(
        db: Session, clock: FakeClock, username: str, email: str, field: str) -> None:
    with pytest.raises(Invalid) as refused:
        accounts.sign_up(db, username, email, "a long enough password", clock.now())
    assert list(refused.value.fields) == [field]


def test_sign_up_takes_an_ordinary_address(db: Session, clock: FakeClock) -> None:
    user = accounts.sign_up(db, "ann", " Ann.Smith+spy@mail.example.org ",
                            "a long enough password", clock.now())
    assert user.email == "Ann.Smith+spy@mail.example.org"


def test_post_bodies_keep_their_lines() -> None:
    assert channels.clean_body("Line one\r\nLine two\n\nLine four") == (
        "Line one\nLine two\n\nLine four")


def test_secrets_can_be_asked_for_again_at_once_when_the_mail_failed(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    class Refusing:
        def send(self, to_addr: str, subject: str, body: str) -> None:
            raise ValueError("cannot be built")

    game, users = started_game(db, clock.now())
    deliver_pending(factory, Refusing(), clock.now(), Settings())
    db.expire_all()
    assert all(m.failed_at is not None for m in mails(db, "secrets"))
    again = games.resend_secrets(db, users[1], game.id, clock.now())
    assert again.failed_at is None and again.to_addr == users[1].email
