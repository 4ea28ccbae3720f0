"""The plain-text turn report (games/spyvsspy/text.py) against the seed's sample sheet.

Seed "Example of Turn Sheet"; spec §8.2 (the report) and §8.5 (the view JSON it reads).
"""

from __future__ import annotations

from typing import Any

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.record import Record
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.text import (
    format_task,
    render_host,
    render_report,
    render_standings,
)

LETTERS = "ABCDEFGHI"
TASK_ROWS = ("COVERT", "DISGUISE", "FAKE", "FOLLOW", "GUARD", "HUNT", "RECRUIT", "SEARCH",
             "TRAIN", "WORK")
SEATS = (
    Seat("s1", "Buttmans Brigade", "Richard Greenaway", "rich@example.org"),
    Seat("s2", "Greedy Gimps", "Andrew Robins", None),
    Seat("s3", "Hoodless Wonders", "Joffre Horlor", "joff@example.org"),
)


def _cells(values: str) -> dict[str, Any]:
    """"0??132 3?0"-style: one character per region, digits as counts."""
    return {letter: int(v) if v.isdigit() else v for letter, v in zip(LETTERS, values,
                                                                       strict=True)}


def _sample_view() -> dict[str, Any]:
    """A view shaped like §8.5, holding the first rows of the seed's sample sheet."""
    regions = [{"letter": "A", "name": "Academy", "train": 3, "work": 1},
               {"letter": "H", "name": "Industrial", "train": 1, "work": 5}]
    brotherhood = {"kind": "brotherhood"}
    rows = [
        {**brotherhood, "label": "Buttmans Brigade", "cells": _cells("0??1323?0"),
         "seat": "s2", "player": "Richard Greenaway", "email": "Rich.Mich@Bigpond.Com.au",
         "spies": 11, "covertness": 1, "gp": 17},
        {**brotherhood, "label": "Cannibal Island Republican Army",
         "cells": _cells("0??3210?0"), "seat": "s3", "player": "Dr Tim Robinson",
         "email": "timrobinson@paradise.net.nz", "spies": 10, "covertness": 1, "gp": 52},
        {"kind": "disguised", "label": "Disguised as you", "cells": _cells("0??0000?0")},
        *({"kind": "task", "label": task, "cells": _cells("0??0000?0")} for task in TASK_ROWS),
        {"kind": "leader", "label": "Mr Pink",
         "cells": {**{letter: "" for letter in LETTERS}, "B": "?", "C": "?", "H": "?"}},
        {"kind": "leader", "label": "Mr Orange",
         "cells": {**{letter: "" for letter in LETTERS}, "B": "?", "C": "?", "H": "?",
                   "E": "✓"}},
    ]
    return {
        "game": "spyvsspy", "variant": "classic", "turn": 12, "regions": regions,
        "directory": [
            {"seat": "s1", "bid": 1, "name": "The Silk Slippers", "player": "Arnold",
             "email": "hidden", "spies": 17, "covertness": 4, "gp": 19,
             "status": "surviving", "eliminated": None},
            {"seat": "s2", "bid": 2, "name": "Buttmans Brigade", "player": "Richard Greenaway",
             "email": "Rich.Mich@Bigpond.Com.au", "spies": 11, "covertness": 1, "gp": 17,
             "status": "surviving", "eliminated": None},
            {"seat": "s3", "bid": 3, "name": "Cannibal Island Republican Army",
             "player": "Dr Tim Robinson", "email": "timrobinson@paradise.net.nz",
             "spies": 10, "covertness": 1, "gp": 52, "status": "surviving",
             "eliminated": None},
        ],
        "news": ["Buttmans Brigade killed a spy of Cannibal Island Republican Army"],
        "game_over": None,
        "seat": "s1",
        "secrets": {"leader": "Mr Egg", "base": "H"},
        "me": {"name": "The Silk Slippers", "nspies": 17, "covertness": 4, "gp": 19,
               "life": 0, "notices": ["spy 9 had no orders: he worked in E Embassy"]},
        "leaders": ["Mr Orange", "Mr Pink"],
        "declarations": [{"brotherhood": "s2", "leader": "Mr Pink", "region": "H",
                          "outcome": "incorrect, a Life was used"}],
        "spies": [
            {"number": 1, "leader": True, "skill": 4, "at": "A", "killed": False,
             "task": {"task": "DISGUISE", "region": "A", "brotherhood": "s3"},
             "result": "disguised as Cannibal Island Republican Army"},
            {"number": 2, "leader": False, "skill": 3, "at": "H", "killed": True,
             "task": {"task": "WORK", "region": "H"},
             "result": "killed by a hunter of Buttmans Brigade"},
            {"number": 18, "leader": False, "skill": 2, "at": None, "killed": False,
             "task": None, "result": None},
        ],
        "table": {"columns": list(LETTERS), "rows": rows},
    }


def _line(text: str, label: str) -> list[str]:
    """The cells of the report line starting with ``label`` (the label stripped off)."""
    for line in text.splitlines():
        if line.startswith(label + " ") or line == label:
            return line[len(label):].split()
    raise AssertionError(f"no line for {label!r} in\n{text}")


def test_sample_sheet_rows_and_columns() -> None:
    text = render_report(_sample_view())
    assert _line(text, "Buttmans Brigade") == [
        "0", "?", "?", "1", "3", "2", "3", "?", "0",
        "Richard", "Greenaway", "Rich.Mich@Bigpond.Com.au", "11", "1", "17"]
    assert _line(text, "Cannibal Island Republican Army")[:9] == list("0??3210?0")
    assert _line(text, "Disguised as you") == list("0??0000?0")
    for task in TASK_ROWS:
        assert _line(text, task) == list("0??0000?0")
    assert _line(text, "Mr Pink") == ["?", "?", "?"]
    assert _line(text, "Mr Orange") == ["?", "?", "✓", "?"]


def test_sample_sheet_sections() -> None:
    text = render_report(_sample_view())
    for needle in ("report after turn 12", "News", "My declarations", "Nspies = 17",
                   "Covertness = 4", "GP = 19", "Life = 0", "My spies", "Brotherhood Report",
                   "Region quick ref", "spy 9 had no orders: he worked in E Embassy",
                   "Buttmans Brigade killed a spy of Cannibal Island Republican Army",
                   "incorrect, a Life was used", "H Industrial"):
        assert needle in text
    header = next(line for line in text.splitlines() if line.startswith("Brotherhood & Task"))
    assert header.split()[3:] == [*LETTERS, "Player", "Email", "Spies", "Covertness", "gp"]
    # the own brotherhood is never a row of its table, and secrets are never printed
    assert not any(line.startswith("The Silk Slippers ") for line in text.splitlines())
    assert "Mr Egg" not in text


def test_columns_are_aligned() -> None:
    text = render_report(_sample_view())
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Brotherhood & Task"))
    counts = lines[start + 1:start + 1 + 2 + 1 + len(TASK_ROWS)]
    leaders = lines[start + 1 + len(counts):start + 1 + len(counts) + 2]
    header = lines[start]
    for letter in LETTERS:
        column = header.index(f" {letter} ") + 1
        for line in counts:
            assert line[column] in "0123?", (letter, line)
        for line in leaders:
            assert line.ljust(column + 1)[column] in " ✓?", (letter, line)
    assert leaders[1][header.index(" E ") + 1] == "✓"


def test_my_spies_show_leader_mark_task_and_result() -> None:
    text = render_report(_sample_view())
    spy1 = _line(text, "   #1")
    assert spy1[:3] == ["Leader", "4", "A"]
    assert "DISGUISE A brotherhood Cannibal Island Republican Army" in text
    assert "killed by a hunter of Buttmans Brigade" in text
    assert _line(text, "  #18") == ["2"]  # a new recruit: no At, no task, no result


def test_format_task() -> None:
    names = {"s2": "Bravo"}
    assert format_task({"task": "HUNT", "region": "D", "brotherhood": "s2"}, names) == (
        "HUNT D brotherhood Bravo")
    assert format_task({"task": "FOLLOW", "leader": "Mr Egg"}, names) == "FOLLOW Mr Egg"
    assert format_task({"task": "RECRUIT"}, names) == "RECRUIT"
    assert format_task(None, names) == ""


def test_eliminated_seat_and_spectator_views_render() -> None:
    view = _sample_view()
    public = {key: view[key] for key in ("game", "variant", "turn", "regions", "directory",
                                         "news", "game_over")}
    eliminated = {**public, "seat": "s1", "declarations": view["declarations"]}
    text = render_report(eliminated)
    assert "eliminated" in text
    assert "Brotherhood Report" not in text
    spectator = render_host(public)
    assert "public view" in spectator
    assert "Cannibal Island Republican Army" in spectator
    assert "Seats (host only)" not in spectator


def _played_record() -> Record:
    work_h = {"spies": {str(n): {"task": "WORK", "region": "H"} for n in range(1, 10)}}
    spread = {"spies": {"1": {"task": "DISGUISE", "region": "A", "brotherhood": "s3"},
                        "2": {"task": "HUNT", "region": "B"},
                        "3": {"task": "SEARCH", "region": "C"},
                        "4": {"task": "FOLLOW", "leader": "Mr Orange"},
                        "5": {"task": "FAKE", "region": "B"},
                        **{str(n): {"task": "WORK", "region": "H"} for n in range(6, 10)}}}
    options = {"setup": {"bases": {"s1": "B", "s2": "D", "s3": "I"},
                         "leaders": {"s1": "Mr Pink", "s2": "Mr Orange", "s3": "Mr Green"}}}
    return Record("spyvsspy", 11, options, SEATS,
                  ({"s1": work_h, "s2": work_h, "s3": None}, {"s1": spread, "s2": None}))


def test_render_of_a_real_view_has_the_sheet_structure() -> None:
    record = _played_record()
    ruleset = registry.get("spyvsspy")
    state = records.final_state(record)
    view = ruleset.view(state, "s1")
    text = render_report(view)
    table = view["table"]
    for row in table["rows"]:
        cells = [str(row["cells"][letter]) for letter in LETTERS]
        rendered = _line(text, row["label"])
        if row["kind"] == "leader":
            assert rendered == [cell for cell in cells if cell]
        else:
            assert rendered[:9] == cells
    labels = [row["label"] for row in table["rows"]]
    assert labels[:2] == ["Greedy Gimps", "Hoodless Wonders"]
    assert "Disguised as you" in labels
    for task in TASK_ROWS:
        assert task in labels
    assert "?" in _line(text, "WORK")  # s1 did not observe every region
    for needle in ("report after turn 2", "Nspies = ", "Covertness = ", "GP = ",
                   "Brotherhood Report", "Region quick ref", "Leader"):
        assert needle in text
    assert view["secrets"]["leader"] not in text


def test_render_host_and_standings_of_a_real_game() -> None:
    record = _played_record()
    ruleset = registry.get("spyvsspy")
    host = ruleset.view(records.final_state(record), None)
    text = render_host(host)
    assert "host view" in text
    assert "Seats (host only)" in text
    assert "Mr Orange" in text
    standings = render_standings(host)
    assert "game not over" in standings
    for seat in SEATS:
        assert seat.name in standings


def test_render_is_deterministic() -> None:
    record = _played_record()
    ruleset = registry.get("spyvsspy")
    first = render_report(ruleset.view(records.final_state(record), "s2"))
    second = render_report(ruleset.view(records.final_state(record), "s2"))
    assert first == second
