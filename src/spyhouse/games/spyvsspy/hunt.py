"""T7 HUNT (spec §6 T7; spy2 §9.5): reveal draws, hunting order, targets, kills.

Targets are kept in groups keyed by (covertness, defence) in ascending order,
so each hunter walks a few groups instead of every spy in the region: a turn
with a thousand brotherhoods stays near n log n.
"""

from __future__ import annotations

from bisect import insort
from itertools import groupby

from spyhouse.core.rng import Stream
from spyhouse.games.spyvsspy.model import REGIONS, Region, Task
from spyhouse.games.spyvsspy.turn import Act, Turn

_IMMUNE_TASKS = frozenset({Task.GUARD, Task.HIDE, Task.FOLLOW})


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

    def pick(self, hunter: Act, named: int | None, stream: Stream) -> Act | None:
        skill = hunter.spy.skill
        if named is not None:
            theirs = [a for a in self.by_bid.get(named, ()) if self.defence[id(a)] < skill]
            if theirs:
                lowest = min(self.defence[id(a)] for a in theirs)
                return stream.choice([a for a in theirs if self.defence[id(a)] == lowest])
        for key in self.keys:
            if key[1] >= skill:
                continue
            group = self.groups[key]
            own = self.owners[key].get(hunter.b.bid, 0)
            if own == 0:
                return stream.choice(group)
            if own < len(group):
                return stream.choice([a for a in group if a.b is not hunter.b])
        return None

    def remove(self, act: Act) -> None:
        key = (act.b.covertness, self.defence[id(act)])
        group = self.groups[key]
        group.remove(act)
        self.owners[key][act.b.bid] -= 1
        if not group:
            del self.groups[key]
            self.keys.remove(key)
        self.by_bid[act.b.bid].remove(act)


def _hunting_order(hunters: list[Act], stream: Stream) -> list[Act]:
    """Highest skill first, then least covert, then poorest; ties by random ordering (T7.2a)."""
    def key(act: Act) -> tuple[int, int, int]:
        return (-act.spy.skill, act.b.covertness, act.b.gp)

    ordered: list[Act] = []
    for _, tied in groupby(sorted(hunters, key=key), key=key):
        group = list(tied)
        ordered.extend(stream.ordering(group) if len(group) > 1 else group)
    return ordered


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
        order = _hunting_order(hunters, stream)
        targets = _Targets([a for a in acts if a.alive], turn.state.spy2)
        for hunter in order:
            if not hunter.alive:
                continue
            named_seat = hunter.order.brotherhood
            named = turn.state.by_seat(named_seat) if named_seat else None
            target = targets.pick(hunter, named.bid if named else None, stream)
            if target is None:
                hunter.result = "found no one to hunt"
                continue
            targets.remove(target)
            target.alive = False
            target.killed_by = hunter.b.name
            victim = target.b
            if reveals[victim.bid] == "BASE":
                learned = f"{victim.name}'s base is in {victim.base.label}"
            else:
                learned = f"{victim.name}'s leader is {victim.leader}"
            hunter.result = f"killed a spy of {victim.name}; {learned}"
            turn.hunt_news.append((hunter.b.name, victim.name))
