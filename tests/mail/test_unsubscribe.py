"""The player's mail (issue 14 item 2): the settings page, signed one-click unsubscribe
(RFC 8058) and what every game mail carries, over a real SMTP conversation (aiosmtpd on
loopback); each kind of game mail follows its setting; addresses private by default."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail import unsubscribe
from spyhouse.mail.outbox import build_message, mailer_for
from spyhouse.service import channels, games, play
from spyhouse.settings import Settings, secret_key_from_file, settings_from_env
from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.web.access_log import redact
from spyhouse.web.app import create_app
from spyhouse.web.deps import SESSION_COOKIE
from spyhouse.worker import run_once
from tests.mail.test_outbox import Inbox, free_port
from tests.service.helpers import mails, make_user, new_game, seat_players, work_sheet
from tests.web.helpers import visitor

KEY = Settings(secret_key="k" * 40, base_url="http://spy.test")
DAILY = {"interval_hours": 24}


# ---------------------------------------------------------------- the token


def test_a_token_names_the_user_and_the_topic_and_cannot_be_changed() -> None:
    token = unsubscribe.make_token(KEY, 7, "turn")
    found = unsubscribe.read_token(KEY, token)
    assert found is not None and found[0] == 7 and found[1].column == "mail_turn"
    user, topic, signature = token.split(".")
    assert unsubscribe.read_token(KEY, f"8.{topic}.{signature}") is None  # someone else
    assert unsubscribe.read_token(KEY, f"{user}.game.{signature}") is None  # another kind
    assert unsubscribe.read_token(KEY, f"{user}.{topic}.{signature[:-1]}A") is None
    assert unsubscribe.read_token(KEY.with_(secret_key="other"), token) is None
    for bad in ("", "7", "7.turn", "x.turn.abc", "7.nothing.abc", "-1.turn.abc",
                "7.turn.abc.def", "9" * 40 + ".turn.abc"):
        assert unsubscribe.read_token(KEY, bad) is None


def test_the_token_is_kept_out_of_the_access_log() -> None:
    token = unsubscribe.make_token(KEY, 7, "turn")
    assert redact(f'"GET /unsubscribe/{token} HTTP/1.1" 200') == \
        '"GET /unsubscribe/[redacted] HTTP/1.1" 200'
    assert redact('"POST /reset/password HTTP/1.1"') == '"POST /reset/password HTTP/1.1"'


def test_security_mails_have_no_topic_and_game_mails_each_have_one() -> None:
    assert unsubscribe.for_mail(KEY, "password_reset", 1) is None
    assert unsubscribe.for_mail(KEY, "login_failures", 1) is None
    assert unsubscribe.for_mail(KEY, "turn", None) is None  # no account
    for kind, column in [("turn", "mail_turn"), ("reminder", "mail_reminder"),
                         ("message", "mail_messages"), ("secrets", "mail_game"),
                         ("start", "mail_game"), ("game_over", "mail_game"),
                         ("announcement", "mail_game")]:
        link = unsubscribe.for_mail(KEY, kind, 3)
        assert link is not None and link.topic.column == column
        assert link.url.startswith("http://spy.test/unsubscribe/3.")


def test_a_built_game_mail_carries_the_headers_and_the_link() -> None:
    link = unsubscribe.for_mail(KEY, "turn", 3)
    mail = build_message(sender="gm@spy.test", to_addr="a@example.org", subject="s",
                         body="Hello\n", unsubscribe=link)
    assert link is not None
    assert mail["List-Unsubscribe"] == f"<{link.url}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link.url in mail.get_content()
    plain = build_message(sender="gm@spy.test", to_addr="a@example.org", subject="s",
                          body="Hello\n")
    assert plain["List-Unsubscribe"] is None


def test_the_key_is_kept_in_a_file_both_processes_read(tmp_path: object,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path
    path = Path(str(tmp_path)) / "var" / "secret_key"
    first = secret_key_from_file(path)
    assert first and secret_key_from_file(path) == first
    assert path.stat().st_mode & 0o077 == 0  # the owner's alone
    env = {"SPYHOUSE_SECRET_KEY_FILE": str(path)}
    assert settings_from_env(env).secret_key == first
    assert settings_from_env({**env, "SPYHOUSE_SECRET_KEY": "given"}).secret_key == "given"
    assert "given" not in repr(settings_from_env({**env, "SPYHOUSE_SECRET_KEY": "given"}))


# ---------------------------------------------------------------- over SMTP, end to end


@pytest.fixture
def inbox_port() -> Iterator[tuple[Inbox, int]]:
    port = free_port()
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture
def smtp_app(database_url: str, clock: FakeClock, engine: Engine,
             inbox_port: tuple[Inbox, int]) -> FastAPI:
    settings = Settings(database_url=database_url, base_url="http://testserver", demo=False,
                        smtp_host="127.0.0.1", smtp_port=inbox_port[1],
                        smtp_sender="gm@spyhouse.test", secret_key="test-key " * 4)
    return create_app(settings, clock, engine=engine)


def _round(app: FastAPI, clock: FakeClock) -> int:
    settings: Settings = app.state.web.settings
    return run_once(app.state.web.factory, clock, settings, mailer_for(settings))


def _started(db: Session, clock: FakeClock, humans: int = 3) -> tuple[Game, list[User]]:
    users = [make_user(db, f"player{n}", clock.now()) for n in range(1, humans + 1)]
    game = new_game(db, users[0], clock.now(), schedule=DAILY)
    seat_players(db, game, users, clock.now())
    games.start_game(db, users[0], game.id, clock.now())
    db.commit()
    return game, users


def _link(message: EmailMessage) -> str:
    header = re.sub(r"\s+", "", str(message["List-Unsubscribe"]))  # unfolded
    found = re.fullmatch(r"<(https?://[^>]+)>", header)
    assert found, header
    return found.group(1)


def _path(url: str) -> str:
    return url.removeprefix("http://testserver")


def _body(message: EmailMessage) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")


def test_every_game_mail_can_be_stopped_in_one_click(
        smtp_app: FastAPI, clock: FakeClock, inbox_port: tuple[Inbox, int]) -> None:
    """Over SMTP: the start (secrets), a private message, a reminder, a processed turn
    and the host's announcement each carry List-Unsubscribe and List-Unsubscribe-Post
    and the link in the body; a GET of the link changes nothing; the mail client's
    one-click POST (no cookie, no CSRF token) turns that kind off and the next such
    mail is not sent, while the other kinds still come."""
    inbox, _port = inbox_port
    factory: sessionmaker[Session] = smtp_app.state.web.factory
    with factory() as db:
        game, users = _started(db, clock)
        game_id, emails = game.id, [user.email for user in users]
        deadline = game.deadline
        assert deadline is not None
        sender = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                                 SeatRow.seat_id == "s2"))
        assert sender is not None
        db.info["settings"] = smtp_app.state.web.settings
        channels.post(db, db.get(Game, game_id), sender, "private", "Meet at dawn?",  # type: ignore[arg-type]
                      to_seat="s1", now=clock.now())
        db.commit()
    _round(smtp_app, clock)
    clock.set(deadline - timedelta(hours=2))
    _round(smtp_app, clock)  # the reminders
    clock.set(deadline)
    _round(smtp_app, clock)  # the turn
    kinds = {
        "secrets": [m for m in inbox.received if "Your secrets" in str(m["Subject"])],
        "message": [m for m in inbox.received if "private message" in str(m["Subject"])],
        "reminder": [m for m in inbox.received if "closes in" in str(m["Subject"])],
        "turn": [m for m in inbox.received if str(m["Subject"]).endswith("1 processed")],
    }
    assert {kind: len(found) for kind, found in kinds.items()} == {
        "secrets": 3, "message": 1, "reminder": 3, "turn": 3}
    assert len(inbox.received) == 10
    for message in inbox.received:
        link = _link(message)
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert link in _body(message)
        assert "http://testserver/account/mail" in _body(message)
    assert kinds["message"][0]["To"] == emails[0]
    assert "Meet at dawn" not in _body(kinds["message"][0])  # never the text itself

    # player1 reads the turn mail's link: a GET (a mail scanner) changes nothing
    turn_mail = next(m for m in kinds["turn"] if m["To"] == emails[0])
    url = _link(turn_mail)
    client = TestClient(smtp_app, follow_redirects=False)
    page = client.get(_path(url))
    assert page.status_code == 200 and "Stop these mails" in page.text
    assert f'action="{_path(url)}"' in page.text
    with factory() as db:
        assert db.scalar(select(User.mail_turn).where(User.email == emails[0])) is True
    # the mail client's one-click POST: no cookie, no CSRF token, RFC 8058's body
    mail_client = TestClient(smtp_app, follow_redirects=False, cookies={})
    done = mail_client.post(_path(url), content=b"List-Unsubscribe=One-Click",
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert done.status_code == 200 and "no more mail when a turn is processed" in done.text
    assert SESSION_COOKIE not in done.cookies
    with factory() as db:
        user = db.scalar(select(User).where(User.email == emails[0]))
        assert user is not None
        assert (user.mail_turn, user.mail_game, user.mail_reminder, user.mail_messages) == \
            (False, True, True, True)
    # the next turn: no turn mail to player1, the others' still go
    before = len(inbox.received)
    with factory() as db:
        nxt = db.get(Game, game_id)
        assert nxt is not None and nxt.deadline is not None
        clock.set(nxt.deadline)
    _round(smtp_app, clock)
    later = [m for m in inbox.received[before:] if str(m["Subject"]).endswith("2 processed")]
    assert sorted(str(m["To"]) for m in later) == sorted(emails[1:])
    # the host's announcement is a game mail (mail_game): player1 still gets it
    with factory() as db:
        host = db.scalar(select(User).where(User.email == emails[0]))
        assert host is not None
        games.pause_game(db, host, game_id, clock.now(), settings=smtp_app.state.web.settings)
        db.commit()
    before = len(inbox.received)
    _round(smtp_app, clock)
    announced = inbox.received[before:]
    assert sorted(str(m["To"]) for m in announced) == sorted(emails)
    assert all(m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" for m in announced)


def test_security_mail_has_no_unsubscribe_and_ignores_the_settings(
        smtp_app: FastAPI, clock: FakeClock, inbox_port: tuple[Inbox, int]) -> None:
    inbox, _port = inbox_port
    browser = visitor(smtp_app, "dora")
    factory: sessionmaker[Session] = smtp_app.state.web.factory
    with factory() as db:
        user = db.scalar(select(User).where(User.username == "dora"))
        assert user is not None
        for topic in unsubscribe.TOPICS.values():
            setattr(user, topic.column, False)
        db.commit()
    browser.log_out()
    assert browser.post("/reset", {"username_or_email": "dora"}).status_code == 200
    _round(smtp_app, clock)
    assert len(inbox.received) == 1
    assert inbox.received[0]["List-Unsubscribe"] is None
    assert "/unsubscribe/" not in _body(inbox.received[0])


# ---------------------------------------------------------------- each kind, its setting


def test_each_kind_follows_its_setting(db: Session, clock: FakeClock,
                                       factory: sessionmaker[Session]) -> None:
    users = [make_user(db, f"player{n}", clock.now()) for n in range(1, 4)]
    users[1].mail_game = False  # no start (secrets) and no end mail
    users[2].mail_messages = False
    game = new_game(db, users[0], clock.now(), schedule=DAILY)
    seats = seat_players(db, game, users, clock.now())
    games.start_game(db, users[0], game.id, clock.now())
    db.commit()
    assert sorted(m.to_addr for m in mails(db, "secrets")) == [users[0].email, users[2].email]
    # the seat page still mails the secrets on request, whatever the setting
    games.resend_secrets(db, users[1], game.id, clock.now())
    for sender, to in (("s1", "s3"), ("s3", "s2"), ("s2", "s1")):
        seat = next(s for s in seats if s.seat_id == sender)
        channels.post(db, game, seat, "private", "hello", to_seat=to, now=clock.now())
    db.commit()
    assert sorted(m.to_addr for m in mails(db, "message")) == [users[0].email,
                                                                users[1].email]
    for seat in seats:
        play.submit_orders(db, seat, work_sheet(play.current_view(db, seat)), now=clock.now(),
                           ready=True)
    db.commit()
    assert len(mails(db, "reminder")) == 0


def test_a_seat_without_secrets_gets_a_start_mail_when_others_play(
        db: Session, clock: FakeClock) -> None:
    users = [make_user(db, f"player{n}", clock.now()) for n in range(1, 4)]
    game = games.create_game(db, users[0], game="kingdoms", title="Crowns", options={},
                             schedule=DAILY, max_seats=None, now=clock.now(), seed=3)
    for index, user in enumerate(users):
        games.join_game(db, user, game.id, name=f"House {index}", player=user.username,
                        show_email=False, now=clock.now())
    games.start_game(db, users[0], game.id, clock.now())
    db.commit()
    started = mails(db, "start") + mails(db, "secrets")
    assert sorted(m.to_addr for m in started) == sorted(u.email for u in users)
