"""Press in the games whose views declare no channels (``GamePlugin.press``, issue 14
item 3): Spy vs Spy and Kingdoms get a public thread and private messages between seats,
on by default and off in a "gunboat" game (the ``press`` option); a seat its own view
shows out of the game only reads. ``channels.readable`` stays the one rule of who reads
what, and ``channels.message_recipients`` is the hook of the "new private message" mail.

Elimination is shown by the snapshots the service reads, edited the way the rules' views
would show it (the service reads nothing else).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.core.errors import OptionsError
from spyhouse.service import channels, games
from spyhouse.service import records as store
from spyhouse.service.errors import Forbidden, Invalid
from spyhouse.store.tables import Game, SeatRow, User
from tests.service.helpers import count, mails, make_user, new_game, seat_players
from tests.service.helpers import started_game as spyvsspy_game

BOTH = {"public": "post", "private": "post"}


def kingdoms_game(db: Session, now: datetime, *, options: dict[str, Any] | None = None
                  ) -> tuple[Game, list[User]]:
    """A started Kingdoms game of three people (seats s1, s2, s3)."""
    known = count(db, User)
    users = [make_user(db, f"court{known + n}", now) for n in range(1, 4)]
    game = games.create_game(db, users[0], game="kingdoms", title="Three crowns",
                             options=options or {}, schedule={"interval_hours": 48},
                             max_seats=None, now=now, seed=20261202)
    for user, name in zip(users, ("Arden Court", "Brill Court", "Corve Court"), strict=True):
        games.join_game(db, user, game.id, name=name, player=user.username,
                        show_email=False, now=now)
    games.start_game(db, users[0], game.id, now)
    db.commit()
    return game, users


def svs_game(db: Session, now: datetime, *, options: dict[str, Any] | None = None
             ) -> tuple[Game, list[User]]:
    """A started Spy vs Spy game of three people (seats s1, s2, s3)."""
    return spyvsspy_game(db, now, humans=3, options=options)


def svs_out(view: dict[str, Any], seat_id: str) -> dict[str, Any]:
    if "directory" in view:
        view["directory"] = [dict(row, status="eliminated") if row["seat"] == seat_id
                             else row for row in view["directory"]]
    return view


def kingdoms_out(view: dict[str, Any], seat_id: str) -> dict[str, Any]:
    if "countries" in view:
        view["countries"] = [dict(row, eliminated=1) if row["seat"] == seat_id else row
                             for row in view["countries"]]
    return view


MAKERS: dict[str, tuple[Callable[..., tuple[Game, list[User]]],
                        Callable[[dict[str, Any], str], dict[str, Any]], str]] = {
    "spyvsspy": (svs_game, svs_out, "brotherhood"),
    "kingdoms": (kingdoms_game, kingdoms_out, "country"),
}


def eliminate(monkeypatch: pytest.MonkeyPatch, seat_id: str,
              how: Callable[[dict[str, Any], str], dict[str, Any]]) -> None:
    """Every view the service reads shows ``seat_id`` out of the game, as the rules' views
    would after its elimination (the service reads nothing else)."""
    real = store.snapshot

    def shown(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return how(real(*args, **kwargs), seat_id)

    monkeypatch.setattr(store, "snapshot", shown)


def seat(db: Session, game: Game, seat_id: str) -> SeatRow:
    row = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id,
                                          SeatRow.seat_id == seat_id))
    assert row is not None
    return row


@pytest.fixture(params=sorted(MAKERS))
def which(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_press_is_on_by_default_with_a_public_thread_and_private_messages(
        db: Session, clock: FakeClock, which: str) -> None:
    game, _ = MAKERS[which][0](db, clock.now())
    for seat_id in ("s1", "s2", "s3"):
        assert channels.rights(db, game, seat_id) == BOTH
    assert channels.rights(db, game, "s9") == {}, "a non-seat has no channels"
    assert channels.rights(db, game, store.PUBLIC_KEY) == {}
    assert [s for s, _ in channels.recipients(db, game, "s1")] == ["s2", "s3"]
    assert channels.no_press(game) is None


def test_public_posts_reach_every_seat_under_the_seats_public_name(
        db: Session, clock: FakeClock, which: str) -> None:
    game, _ = MAKERS[which][0](db, clock.now())
    made = channels.post(db, game, seat(db, game, "s1"), "public", " Peace? ",
                         now=clock.now())
    assert made.author == seat(db, game, "s1").name and made.body == "Peace?"
    for seat_id in ("s1", "s2", "s3"):
        assert [p.body for p in channels.readable(db, game, seat_id)] == ["Peace?"]
    assert channels.readable(db, game, "s9") == [], "a spectator reads nothing"
    assert channels.readable(db, game, store.PUBLIC_KEY) == []
    assert channels.message_recipients(db, game, made) == [], "no mail for the thread"


def test_private_messages_only_for_the_two(db: Session, clock: FakeClock, which: str) -> None:
    game, _ = MAKERS[which][0](db, clock.now())
    made = channels.post(db, game, seat(db, game, "s1"), "private", "Ally with me.",
                         to_seat="s2", now=clock.now())
    assert made.to == seat(db, game, "s2").name
    assert [p.body for p in channels.readable(db, game, "s1")] == ["Ally with me."]
    assert [p.body for p in channels.readable(db, game, "s2")] == ["Ally with me."]
    assert channels.readable(db, game, "s3") == [], "a third seat never sees it"
    assert channels.readable(db, game, "s9") == []
    assert [row.seat_id for row in channels.message_recipients(db, game, made)] == ["s2"]
    with pytest.raises(Invalid, match="yourself"):
        channels.post(db, game, seat(db, game, "s1"), "private", "x", to_seat="s1",
                      now=clock.now())
    with pytest.raises(Forbidden, match="no red channel"):
        channels.post(db, game, seat(db, game, "s1"), "red", "x", now=clock.now())


def test_a_seat_out_of_the_game_reads_and_is_refused_in_the_games_words(
        db: Session, clock: FakeClock, which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    make, out, noun = MAKERS[which]
    game, _ = make(db, clock.now())
    channels.post(db, game, seat(db, game, "s1"), "public", "before", now=clock.now())
    channels.post(db, game, seat(db, game, "s3"), "private", "to you", to_seat="s1",
                  now=clock.now())
    eliminate(monkeypatch, "s3", out)
    assert channels.rights(db, game, "s3") == {"public": "read", "private": "read"}
    assert [p.body for p in channels.readable(db, game, "s3")] == ["before", "to you"]
    with pytest.raises(Forbidden, match=f"Your {noun} has been eliminated"):
        channels.post(db, game, seat(db, game, "s3"), "public", "ghost", now=clock.now())
    name = seat(db, game, "s3").name
    with pytest.raises(Invalid, match=f"{name} has been eliminated: it gets no more"):
        channels.post(db, game, seat(db, game, "s1"), "private", "hello?", to_seat="s3",
                      now=clock.now())
    assert [s for s, _ in channels.recipients(db, game, "s1")] == ["s2"]


def test_gunboat_has_no_channels_and_refuses_every_post(
        db: Session, clock: FakeClock, which: str) -> None:
    game, _ = MAKERS[which][0](db, clock.now(), options={"press": False})
    assert channels.no_press(game) == "No press in this game (gunboat)."
    assert channels.rights(db, game, "s1") == {}
    for channel in ("public", "private"):
        with pytest.raises(Forbidden, match=r"No press in this game \(gunboat\)"):
            channels.post(db, game, seat(db, game, "s1"), channel, "hi", to_seat=(
                "s2" if channel == "private" else None), now=clock.now())
    assert channels.readable(db, game, "s1") == []
    assert channels.seat_channels(db, game, "s1").recipients == []


def test_the_press_option_is_a_flag_the_rules_accept(which: str) -> None:
    plugin = registry.plugin(which)
    assert plugin.press is not None and plugin.press.option == "press"
    field = next(spec.form_key for spec in plugin.options if spec.key == "press")
    assert plugin.options_from_form({field: "no"}) == {"press": False}
    assert "press" not in plugin.options_from_form({field: "yes"})
    assert "press" not in plugin.options_from_form({})
    ruleset = plugin.ruleset()
    ruleset.parse_options({"press": False})
    with pytest.raises(OptionsError, match="press must be true or false"):
        ruleset.parse_options({"press": "no"})


def test_games_without_press_keep_their_own_rules() -> None:
    """Infiltration's views declare its channels; Spy or Lie has no press (two players,
    usually one of them the computer)."""
    assert registry.plugin("infiltration").press is None
    assert registry.plugin("spyorlie").press is None


def test_a_private_message_mails_its_addressee_only_if_they_wish(
        db: Session, clock: FakeClock, which: str) -> None:
    """The mail of item 2 goes through ``channels.message_recipients``: the addressee's
    player is told (never the text), nobody for a public post, and not against the
    player's own ``mail_messages`` setting."""
    game, users = MAKERS[which][0](db, clock.now())
    before = len(mails(db, "message"))
    channels.post(db, game, seat(db, game, "s1"), "public", "to all", now=clock.now())
    assert len(mails(db, "message")) == before
    channels.post(db, game, seat(db, game, "s1"), "private", "Secret terms.", to_seat="s2",
                  now=clock.now())
    sent = mails(db, "message")[before:]
    assert [mail.to_addr for mail in sent] == [users[1].email]
    assert "Secret terms." not in sent[0].body
    users[2].mail_messages = False
    channels.post(db, game, seat(db, game, "s1"), "private", "Quiet.", to_seat="s3",
                  now=clock.now())
    assert len(mails(db, "message")) == before + 1


def test_computer_players_get_no_messages_and_a_game_against_them_no_press(
        db: Session, clock: FakeClock) -> None:
    game, _ = spyvsspy_game(db, clock.now(), humans=2, bots=("economist",))
    assert [s for s, _ in channels.recipients(db, game, "s1")] == ["s2"]
    computer = seat(db, game, "s3")
    assert computer.user_id is None
    with pytest.raises(Invalid, match=f"{computer.name} is a computer player"):
        channels.post(db, game, seat(db, game, "s1"), "private", "hello?", to_seat="s3",
                      now=clock.now())
    host = make_user(db, "lonely", clock.now())
    alone = new_game(db, host, clock.now())
    seat_players(db, alone, [host], clock.now(), bots=("economist", "hunter"))
    games.start_game(db, host, alone.id, clock.now())
    assert channels.rights(db, alone, "s1") == {}
    assert channels.no_press(alone) == ("No press in a game against the computer: nobody "
                                        "else would read it.")
    with pytest.raises(Forbidden, match="No press in a game against the computer"):
        channels.post(db, alone, seat(db, alone, "s1"), "public", "hi", now=clock.now())
