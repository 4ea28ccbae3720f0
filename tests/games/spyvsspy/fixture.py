"""Helpers for the Spy vs Spy worked examples (spec §10).

``new_game()`` builds the §10 fixture (or any other seats); ``play()`` resolves one turn
from a compact description of the orders that matter:

    play(state, {"s1": {4: ("SEARCH", "D"), 1: ("DISGUISE", "A", "s3")},
                 "s2": {6: ("FOLLOW", "Mr Pink"), 2: ("RECRUIT",)}},
         declare={"s3": [("s2", "Mr Orange", "D")]},
         script={"hunt-reveal": [1, 2, 1, 1]})

An order is a tuple ``(TASK, region[, brotherhood seat id])``, ``("FOLLOW", leader)`` or
``("RECRUIT",)``. Every spy not mentioned ("filler") WORKs in one region that no mentioned
spy uses (§10: "Spies not mentioned WORK in regions no mentioned spy uses"); the spec's gp
figures leave out the fillers' earnings, and so does ``Played.gp``.

Report helpers read a seat's view (§8.5): ``spy_line``, ``column``, ``seen``, ``cell``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from spyhouse.core.errors import OrderError
from spyhouse.core.rng import ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import REGION_INFO, Region, Sheet, Spy, State
from spyhouse.games.spyvsspy.ruleset import SpyVsSpy

RULES = SpyVsSpy()

Order = tuple[str, ...]
#: (seat id, brotherhood name, leader name, base region)
SeatSpec = tuple[str, str, str, str]

FIXTURE_SEATS: tuple[SeatSpec, ...] = (
    ("s1", "Alpha", "Mr Pink", "B"),
    ("s2", "Bravo", "Mr Orange", "D"),
    ("s3", "Charlie", "Mr Green", "D"),
    ("s4", "Delta", "Mr Grey", "I"),
)
#: Where fillers go: the first of these regions that no mentioned spy uses.
FILLER_PREFERENCE = "ICAEFBHDG"
#: The report's task rows (§8.2 item 6 (3)) and the count rows' invariant.
TASK_ROWS = ("COVERT", "DISGUISE", "FAKE", "FOLLOW", "GUARD",
             "HUNT", "RECRUIT", "SEARCH", "TRAIN", "WORK")
SPY2_TASK_ROWS = ("COVERT", "GUARD", "HUNT", "RECRUIT", "SEARCH", "TRAIN", "WORK")
DISGUISED = "Disguised as you"


def new_game(
    seats: Sequence[SeatSpec] = FIXTURE_SEATS, *, variant: str = "classic", seed: int = 7
) -> State:
    """A started game (turn 0) with the given leaders and bases set through ``setup``."""
    options = {
        "variant": variant,
        "setup": {
            "bases": {sid: base for sid, _, _, base in seats},
            "leaders": {sid: leader for sid, _, leader, _ in seats},
        },
    }
    players = [Seat(sid, name, f"Player of {name}", f"{sid}@example.org")
               for sid, name, _, _ in seats]
    return RULES.setup(players, options, ScriptedRng(seed))


def add_spies(state: State, seat: str, *skills: int) -> None:
    """Give ``seat`` extra spies with the next numbers (fixture building)."""
    b = state.by_seat(seat)
    assert b is not None
    for skill in skills:
        b.spies.append(Spy(b.next_number, skill))
        b.next_number += 1


def order_json(order: Order) -> dict[str, str]:
    """The §5.1 JSON of a compact order tuple."""
    task, *args = order
    if task == "FOLLOW":
        return {"task": task, "leader": args[0]}
    data = {"task": task}
    if args:
        data["region"] = args[0]
    if len(args) > 1:
        data["brotherhood"] = args[1]
    return data


def _region_of(state: State, order: Order, orders: Mapping[str, Mapping[int, Order]]) -> str | None:
    """The region a mentioned order puts its spy in, if known without resolving."""
    task = order[0]
    if task == "RECRUIT":
        return "G"
    if task == "FOLLOW":
        for b in state.brotherhoods:
            if b.leader == order[1] and 1 in orders.get(b.seat, {}):
                return _region_of(state, orders[b.seat][1], orders)
        return None
    return order[1] if len(order) > 1 else None


def filler_region(
    state: State, orders: Mapping[str, Mapping[int, Order]], avoid: Collection[str] = ()
) -> str:
    """The first region of ``FILLER_PREFERENCE`` that no mentioned spy uses."""
    used = {_region_of(state, o, orders) for spies in orders.values() for o in spies.values()}
    return next(r for r in FILLER_PREFERENCE if r not in used and r not in avoid)


def sheet_json(
    spies: Mapping[int, Order], declarations: Sequence[tuple[str, str, str]] = ()
) -> dict[str, Any]:
    """A §5.1 order sheet."""
    return {
        "spies": {str(n): order_json(o) for n, o in spies.items()},
        "declarations": [{"brotherhood": b, "leader": leader, "region": r}
                         for b, leader, r in declarations],
    }


def refusal(state: State, seat: str, data: Any) -> tuple[str, ...]:
    """The error messages of a sheet that must be refused."""
    with pytest.raises(OrderError) as caught:
        RULES.parse_orders(state, seat, data)
    return caught.value.messages


@dataclass
class Played:
    """One resolved turn: the states around it, the draws and the fillers."""

    before: State
    after: State
    rng: ScriptedRng
    filler: str
    fillers: dict[str, tuple[int, ...]]
    warnings: dict[str, list[str]]

    def __repr__(self) -> str:  # keep assertion messages short
        return f"<Played turn {self.after.turn}, fillers in {self.filler}>"

    def view(self, seat: str | None) -> dict[str, Any]:
        return RULES.view(self.after, seat)

    def filler_pay(self, seat: str) -> int:
        """What the fillers of ``seat`` earned (0 if no task was run for it)."""
        b, b0 = self.after.by_seat(seat), self.before.by_seat(seat)
        assert b is not None and b0 is not None
        if not b.surviving or self.after.game_over is not None:
            return 0
        work = REGION_INFO[Region(self.filler)].work
        return sum(s.skill + work for s in b0.spies if s.number in self.fillers.get(seat, ()))

    def gp(self, seat: str) -> int:
        """The seat's gp after the turn, leaving out the fillers' earnings (as §10 states gp)."""
        b = self.after.by_seat(seat)
        assert b is not None
        return b.gp - self.filler_pay(seat)

    def spy(self, seat: str, number: int) -> dict[str, Any]:
        return spy_line(self.view(seat), number)

    def result(self, seat: str, number: int) -> str | None:
        return self.spy(seat, number)["result"]

    def notices(self, seat: str) -> list[str]:
        return self.view(seat)["me"]["notices"]

    def outcomes(self, seat: str) -> list[str]:
        return [d["outcome"] for d in self.view(seat)["declarations"]]

    @property
    def news(self) -> list[str]:
        return self.view(self.after.brotherhoods[0].seat)["news"]

    def draws(self, purpose: str) -> list[tuple[int, int]]:
        """(n, value) of every draw of ``purpose`` in the resolved turn."""
        key = f"{purpose}@{self.after.turn}"
        return [(n, v) for k, n, v in self.rng.draws if k == key]


def play(
    state: State,
    orders: Mapping[str, Mapping[int, Order]] | None = None,
    *,
    declare: Mapping[str, Sequence[tuple[str, str, str]]] | None = None,
    script: Mapping[str, Sequence[int]] | None = None,
    no_show: Collection[str] = (),
    omit: Mapping[str, Collection[int]] | None = None,
    avoid: Collection[str] = (),
) -> Played:
    """Resolve one turn: mentioned orders as given, every other spy WORKs in the filler region.

    ``no_show`` seats submit nothing (``None``); ``omit`` leaves spies out of a sheet;
    ``avoid`` keeps the fillers out of more regions. Every sheet must be accepted.
    """
    orders = orders or {}
    declare = declare or {}
    omit = omit or {}
    filler = filler_region(state, orders, avoid)
    rng = ScriptedRng(state.seed, script or {})
    sheets: dict[str, Sheet | None] = {}
    fillers: dict[str, tuple[int, ...]] = {}
    warnings: dict[str, list[str]] = {}
    for b in state.surviving():
        if b.seat in no_show:
            sheets[b.seat] = None
            continue
        mine = dict(orders.get(b.seat, {}))
        extra = tuple(s.number for s in b.spies
                      if s.number not in mine and s.number not in omit.get(b.seat, ()))
        fillers[b.seat] = extra
        mine.update({n: ("WORK", filler) for n in extra})
        data = sheet_json(dict(sorted(mine.items())), declare.get(b.seat, ()))
        try:
            sheet = RULES.parse_orders(state, b.seat, data)
        except OrderError as error:
            pytest.fail(f"sheet of {b.seat} refused: {error.messages}")
        sheets[b.seat] = sheet
        warnings[b.seat] = RULES.warnings(state, b.seat, sheet)
    after = RULES.resolve(state, sheets, rng)
    return Played(state, after, rng, filler, fillers, warnings)


# ---------------------------------------------------------------- report helpers


def spy_line(view: Mapping[str, Any], number: int) -> dict[str, Any]:
    """The "My spies" entry of spy ``number`` (§8.2 item 5)."""
    lines = [s for s in view["spies"] if s["number"] == number]
    assert len(lines) == 1, f"spy {number} listed {len(lines)} times"
    return lines[0]


def labels(view: Mapping[str, Any]) -> list[str]:
    """The report table's row labels, in order."""
    return [row["label"] for row in view["table"]["rows"]]


def column(view: Mapping[str, Any], region: str) -> dict[str, Any]:
    """Row label -> cell of one region column of the brotherhood report."""
    return {row["label"]: row["cells"][region] for row in view["table"]["rows"]}


def cell(view: Mapping[str, Any], label: str, region: str) -> Any:
    return column(view, region)[label]


def seen(view: Mapping[str, Any], region: str) -> dict[str, Any]:
    """The non-empty cells (counts other than 0, ticks) of an observed column.

    Fails if the column is unobserved ("?") or breaks the §8.2 invariant
    (brotherhood rows + "Disguised as you" = task rows).
    """
    rows = view["table"]["rows"]
    col = column(view, region)
    assert "?" not in col.values(), f"column {region} is not observed: {col}"
    people = sum(r["cells"][region] for r in rows if r["kind"] in ("brotherhood", "disguised"))
    tasks = sum(r["cells"][region] for r in rows if r["kind"] == "task")
    assert people == tasks, f"column {region}: brotherhood rows {people} != task rows {tasks}"
    return {label: value for label, value in col.items() if value not in (0, "")}


def unobserved(view: Mapping[str, Any], region: str) -> bool:
    """True iff every cell of the column is "?"."""
    return all(value == "?" for value in column(view, region).values())
