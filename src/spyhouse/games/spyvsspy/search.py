"""T8 FAKE and T9 SEARCH (spec §6 T8–T9; spy2 §9.2).

Each region's bases are kept sorted by (covertness, ``bid``) and its fake entries
in canonical order, where one brotherhood's entries stand together; a searcher's
own base and fakes are then skipped by index arithmetic, so every search costs
about the same however many brotherhoods play.

Each search is also written down for the host's "why it happened"
(``turn.explain_searches``): per region the bases and fake entries a searcher
could see (the first ``LISTED`` of each, and their numbers), and for its first
``SEARCHERS`` searchers which rule gave each answer and among how many it was
drawn (the others counted by rule), so the record stays bounded.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core.rng import Stream
from spyhouse.games.spyvsspy.model import Brotherhood, Region, Task
from spyhouse.games.spyvsspy.turn import Act, Turn

#: How many bases and fake entries a region's record lists (it counts them all).
LISTED = 12
#: How many searchers a region's record lists (the rest are counted by the rule applied).
SEARCHERS = 25


def t8_fake(turn: Turn) -> None:
    """T8: each alive faker plants one entry in its region (a killed faker plants nothing)."""
    for act in turn.alive_doing(Task.FAKE):
        turn.fakes.setdefault(act.region, []).append(act)
        act.result = f"planted a fake base in {act.region.label}"


def _pick_skipping(stream: Stream, size: int, skip: tuple[int, int]) -> int:
    """A random choice among indexes 0..size-1 less the block [lo, hi), as ``choice`` draws."""
    lo, hi = skip
    index = stream.roll(size - (hi - lo)) - 1
    return index + (hi - lo) if index >= lo else index


@dataclass
class _Region:
    """The bases and fake entries of one region this turn."""

    bases: list[Brotherhood]
    fakes: list[Act]
    coverts: list[int] = field(init=False)
    position: dict[int, int] = field(init=False)
    fake_blocks: dict[int, tuple[int, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.bases.sort(key=lambda b: (b.covertness, b.bid))
        self.coverts = [b.covertness for b in self.bases]
        self.position = {b.bid: i for i, b in enumerate(self.bases)}
        self.fake_blocks = {}
        for i, act in enumerate(self.fakes):
            lo, _ = self.fake_blocks.get(act.b.bid, (i, i))
            self.fake_blocks[act.b.bid] = (lo, i + 1)

    def least_covert(self, b: Brotherhood, stream: Stream, power: int | None = None
                     ) -> tuple[Brotherhood | None, int]:
        """The least covert base other than b's (ties: random by ``bid``), and among how
        many it was drawn; spy2 needs covertness < ``power``."""
        own = self.position.get(b.bid)
        others = len(self.bases) - (own is not None)
        if others == 0:
            return None, 0
        first = 1 if own == 0 else 0
        lowest = self.coverts[first]
        if power is not None and not power > lowest:
            return None, 0
        end = bisect_right(self.coverts, lowest)
        skip = (own, own + 1) if own is not None and own < end else (0, 0)
        return self.bases[_pick_skipping(stream, end, skip)], end - (skip[1] - skip[0])

    def record(self, region: Region) -> dict[str, Any]:
        """What the host's record says of the region: its bases, least covert first, and
        its fake entries in canonical order (the first ``LISTED`` of each)."""
        return {"region": region.value, "bases": len(self.bases),
                "listed_bases": [[b.seat, b.covertness] for b in self.bases[:LISTED]],
                "fakes": len(self.fakes),
                "listed_fakes": [[a.b.seat, a.spy.number] for a in self.fakes[:LISTED]],
                "searchers": [], "unlisted": {}}


#: A search's answer: its text, the rule that gave it (T9's table) and among how many
#: bases or fake entries it was drawn (0 when no draw could be made).
Answer = tuple[str, str, int]


def _classic(region: _Region, act: Act, named: Brotherhood | None, stream: Stream) -> Answer:
    b = act.b
    own_base = b.bid in region.position
    reals = len(region.bases) - own_base
    own_fakes = region.fake_blocks.get(b.bid, (0, 0))
    foreign_fakes = len(region.fakes) - (own_fakes[1] - own_fakes[0])
    count = reals + foreign_fakes
    named_here = named is not None and named is not b and named.bid in region.position
    found: Brotherhood | None
    tied = 0
    if foreign_fakes:
        if named_here and named is not None and named.bid in region.fake_blocks:
            found, how = named, "named faking"
        else:
            found = region.fakes[_pick_skipping(stream, len(region.fakes), own_fakes)].b
            how, tied = "fake", foreign_fakes
    elif named_here:
        found, how = named, "named"
    else:
        found, tied = region.least_covert(b, stream)
        how = "least covert"
        if found is None and own_base:
            return "only your own base is here; bases here: 0", "own", 0
    if found is None:
        return f"no base found; bases here: {count}", "none", 0
    return f"base of {found.name} reported here; bases here: {count}", how, tied


def _spy2(region: _Region, act: Act, named: Brotherhood | None, stream: Stream,
          t: int) -> Answer:
    b = act.b
    power = act.spy.skill * t
    own_base = b.bid in region.position
    reals = len(region.bases) - own_base
    found: Brotherhood | None = None
    tied = 0
    if (named is not None and named is not b and named.bid in region.position
            and power > named.covertness):
        found, how = named, "named"
    else:
        found, tied = region.least_covert(b, stream, power)
        how = "least covert"
    if found is not None:
        return f"base of {found.name} reported here; bases here: {reals}", how, tied
    if reals == 0 and own_base and power > b.covertness:
        return "only your own base is here; bases here: 0", "own", 0
    return f"no base found; bases here: {reals}", "none", 0


def t9_search(turn: Turn) -> None:
    """T9: report a base (or a fake) and the count of bases and fakes here, own ones excluded."""
    searchers = turn.alive_doing(Task.SEARCH)
    if not searchers:
        return
    bases: dict[Region, list[Brotherhood]] = {}
    for b in turn.state.surviving():
        bases.setdefault(b.base, []).append(b)
    regions: dict[Region, _Region] = {}
    stream = turn.stream("search")
    for act in searchers:
        region = regions.get(act.region)
        if region is None:
            region = regions[act.region] = _Region(bases.get(act.region, []),
                                                   turn.fakes.get(act.region, []))
        seat = act.order.brotherhood
        named = turn.state.by_seat(seat) if seat else None
        if turn.state.spy2_search:
            act.result, how, tied = _spy2(region, act, named, stream, turn.t)
        else:
            act.result, how, tied = _classic(region, act, named, stream)
        record = turn.explain_searches.get(act.region)
        if record is None:
            record = turn.explain_searches[act.region] = region.record(act.region)
        if len(record["searchers"]) < SEARCHERS:
            record["searchers"].append({
                "seat": act.b.seat, "spy": act.spy.number, "skill": act.spy.skill,
                "named": seat, "how": how, "tied": tied, "result": act.result})
        else:
            unlisted = record["unlisted"]
            unlisted[how] = unlisted.get(how, 0) + 1
