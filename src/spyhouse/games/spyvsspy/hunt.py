"""T7 HUNT (spec §6 T7; spy2 §9.5): reveal draws, hunting order, targets, kills.

Targets are kept in groups keyed by (covertness, defence) in ascending order,
so each hunter walks a few groups instead of every spy in the region: a turn
with a thousand brotherhoods stays near n log n.

Each region's hunt is also written down for the host's "why it happened"
(``turn.explain_hunts``), from what the step already knows: every hunter in
order with its target, why that one (the named brotherhood or the least covert,
and among how many tied), and the region's huntable spies counted by
covertness. Only a small region (``LISTED`` spies or fewer) lists every spy and
each hunter's eligible targets, and a region lists its first ``HUNTERS`` hunters
(the others are counted: kills, no one found, killed first), so the record stays
bounded however many brotherhoods play.
"""

from __future__ import annotations

from bisect import insort
from itertools import groupby
from typing import Any

from spyhouse.core.rng import Stream
from spyhouse.games.spyvsspy.model import REGIONS, Region, Task
from spyhouse.games.spyvsspy.turn import Act, Turn

_IMMUNE_TASKS = frozenset({Task.GUARD, Task.HIDE, Task.FOLLOW})
#: A region with at most this many spies lists each of them in the host's record.
LISTED = 30
#: How many covertness levels of huntable spies a region's record counts.
LEVELS = 10
#: How many hunters, in hunting order, a region's record lists (the rest are counted).
HUNTERS = 25


class _Targets:
    """The huntable spies of one region, grouped by (covertness, defence), canonical within."""

    def __init__(self, acts: list[Act], spy2: bool) -> None:
        self.groups: dict[tuple[int, int], list[Act]] = {}
        self.keys: list[tuple[int, int]] = []
        self.defence: dict[int, int] = {}
        self.by_bid: dict[int, list[Act]] = {}
        self.owners: dict[tuple[int, int], dict[int, int]] = {}
        for act in acts:
            if act.leader or act.task in _IMMUNE_TASKS:
                continue
            if act.guarded and not spy2:
                continue
            defence = act.spy.skill * (2 if act.guarded else 1)
            self.defence[id(act)] = defence
            key = (act.b.covertness, defence)
            if key not in self.groups:
                self.groups[key] = []
                insort(self.keys, key)
            self.groups[key].append(act)
            self.by_bid.setdefault(act.b.bid, []).append(act)
            owners = self.owners.setdefault(key, {})
            owners[act.b.bid] = owners.get(act.b.bid, 0) + 1

    def pick(self, hunter: Act, named: int | None, stream: Stream
             ) -> tuple[Act | None, str, int]:
        """The target, how it was chosen ("named" or "lowest") and among how many tied."""
        skill = hunter.spy.skill
        if named is not None:
            theirs = [a for a in self.by_bid.get(named, ()) if self.defence[id(a)] < skill]
            if theirs:
                lowest = min(self.defence[id(a)] for a in theirs)
                tied = [a for a in theirs if self.defence[id(a)] == lowest]
                return stream.choice(tied), "named", len(tied)
        for key in self.keys:
            if key[1] >= skill:
                continue
            group = self.groups[key]
            own = self.owners[key].get(hunter.b.bid, 0)
            if own == 0:
                return stream.choice(group), "lowest", len(group)
            if own < len(group):
                tied = [a for a in group if a.b is not hunter.b]
                return stream.choice(tied), "lowest", len(tied)
        return None, "", 0

    def by_covertness(self) -> list[list[int]]:
        """[covertness, huntable spies] for the first ``LEVELS`` levels, least covert first."""
        counts: dict[int, int] = {}
        for (covertness, _), group in self.groups.items():
            counts[covertness] = counts.get(covertness, 0) + len(group)
        return [[c, counts[c]] for c in sorted(counts)[:LEVELS]]

    def remove(self, act: Act) -> None:
        key = (act.b.covertness, self.defence[id(act)])
        group = self.groups[key]
        group.remove(act)
        self.owners[key][act.b.bid] -= 1
        if not group:
            del self.groups[key]
            self.keys.remove(key)
        self.by_bid[act.b.bid].remove(act)


def _hunting_order(hunters: list[Act], stream: Stream) -> tuple[list[Act], set[int]]:
    """Highest skill first, then least covert, then poorest; ties by random ordering (T7.2a).
    Also the ``id`` of every hunter whose place a draw decided."""
    def key(act: Act) -> tuple[int, int, int]:
        return (-act.spy.skill, act.b.covertness, act.b.gp)

    ordered: list[Act] = []
    drawn: set[int] = set()
    for _, tied in groupby(sorted(hunters, key=key), key=key):
        group = list(tied)
        if len(group) > 1:
            ordered.extend(stream.ordering(group))
            drawn.update(id(a) for a in group)
        else:
            ordered.extend(group)
    return ordered, drawn


def _why_not(act: Act, spy2: bool) -> str:
    """Why a spy is never a HUNT target this turn, or "huntable"."""
    if act.leader:
        return "leader"
    if act.task in _IMMUNE_TASKS:
        return str(act.task.value).lower()
    if act.guarded and not spy2:
        return "guarded"
    return "huntable"


def _spy_ref(act: Act) -> list[Any]:
    """[seat, number, skill, covertness, guarded] of a spy, for the host's record."""
    return [act.b.seat, act.spy.number, act.spy.skill, act.b.covertness, act.guarded]


def _eligible(acts: list[Act], hunter: Act, named: int | None, spy2: bool) -> list[Act]:
    """T7.2b's eligible spies for ``hunter`` now, the named brotherhood's alone if it has
    any (a small region's record only; ``_Targets.pick`` decides)."""
    skill = hunter.spy.skill
    out = [a for a in acts if a.alive and a.b is not hunter.b
           and _why_not(a, spy2) == "huntable"
           and a.spy.skill * (2 if a.guarded else 1) < skill]
    theirs = [a for a in out if a.b.bid == named]
    return theirs or out


def _region_record(region: Region, acts: list[Act], targets: _Targets,
                   spy2: bool) -> dict[str, Any]:
    """What the host's record says of a region before its first hunter acts."""
    record: dict[str, Any] = {"region": region.value, "spies": len(acts),
                              "covertness": targets.by_covertness(), "hunters": [],
                              "unlisted": {"hunters": 0, "kills": 0, "none": 0, "dead": 0}}
    if len(acts) <= LISTED:
        record["listed"] = [[*_spy_ref(a), a.task.value, _why_not(a, spy2)] for a in acts]
    else:
        reasons: dict[str, int] = {}
        for act in acts:
            why = _why_not(act, spy2)
            reasons[why] = reasons.get(why, 0) + 1
        record["reasons"] = dict(sorted(reasons.items()))
    return record


def _hunter_entry(record: dict[str, Any], hunter: Act, drawn: bool) -> dict[str, Any] | None:
    """A new entry of the region's record for ``hunter``, or ``None`` past the first
    ``HUNTERS`` (those are only counted)."""
    if len(record["hunters"]) >= HUNTERS:
        record["unlisted"]["hunters"] += 1
        return None
    entry = {"seat": hunter.b.seat, "spy": hunter.spy.number, "skill": hunter.spy.skill,
             "covertness": hunter.b.covertness, "gp": hunter.b.gp, "drawn": drawn,
             "named": hunter.order.brotherhood}
    record["hunters"].append(entry)
    return entry


def _note(record: dict[str, Any], entry: dict[str, Any] | None, key: str, value: Any) -> None:
    """Set ``key`` on a listed hunter's entry, or count an unlisted hunter's outcome."""
    if entry is not None:
        entry[key] = value
        return
    outcome = "dead" if key == "killed" else "kills" if value else "none"
    record["unlisted"][outcome] += 1


def t7_hunt(turn: Turn) -> None:
    """T7: draw what each brotherhood reveals, then hunt region by region, A to I."""
    reveal_stream = turn.stream("hunt-reveal")
    reveals = {b.bid: ("BASE" if reveal_stream.roll(2) == 1 else "LEADER")
               for b in turn.state.brotherhoods if b.eliminated is None}
    stream = turn.stream("hunt")
    by_region: dict[Region, list[Act]] = {}
    for act in turn.acts:
        by_region.setdefault(act.region, []).append(act)
    for region in REGIONS:
        acts = by_region.get(region, [])
        hunters = [a for a in acts if a.task is Task.HUNT and a.alive]
        if not hunters:
            continue
        order, drawn = _hunting_order(hunters, stream)
        spy2 = turn.state.spy2_guard
        present = [a for a in acts if a.alive]
        targets = _Targets(present, spy2)
        record = _region_record(region, present, targets, spy2)
        turn.explain_hunts.append(record)
        for hunter in order:
            named_seat = hunter.order.brotherhood
            entry = _hunter_entry(record, hunter, id(hunter) in drawn)
            if not hunter.alive:
                _note(record, entry, "killed", True)
                continue
            named = turn.state.by_seat(named_seat) if named_seat else None
            if entry is not None and "listed" in record:
                entry["eligible"] = [[a.b.seat, a.spy.number] for a in _eligible(
                    present, hunter, named.bid if named else None, spy2)]
            target, how, tied = targets.pick(hunter, named.bid if named else None, stream)
            if target is None:
                hunter.result = "found no one to hunt"
                _note(record, entry, "target", None)
                if entry is not None:
                    entry["result"] = hunter.result
                continue
            if entry is not None:
                entry.update(target=_spy_ref(target), how=how, tied=tied)
            else:
                _note(record, None, "target", True)
            targets.remove(target)
            target.alive = False
            target.killed_by = hunter.b.name
            victim = target.b
            if reveals[victim.bid] == "BASE":
                learned = f"{victim.name}'s base is in {victim.base.label}"
            else:
                learned = f"{victim.name}'s leader is {victim.leader}"
            hunter.result = f"killed a spy of {victim.name}; {learned}"
            if entry is not None:
                entry["result"] = hunter.result
            turn.hunt_news.append((hunter.b.name, victim.name))
