"""T8 FAKE and T9 SEARCH (spec §6 T8–T9; spy2 §9.2)."""

from __future__ import annotations

from spyhouse.core.rng import Stream
from spyhouse.games.spyvsspy.model import Brotherhood, Region, Task
from spyhouse.games.spyvsspy.turn import Act, Turn


def t8_fake(turn: Turn) -> None:
    """T8: each alive faker plants one entry in its region (a killed faker plants nothing)."""
    for act in turn.alive_doing(Task.FAKE):
        turn.fakes.setdefault(act.region, []).append(act)
        act.result = f"planted a fake base in {act.region.label}"


def _least_covert(candidates: list[Brotherhood], stream: Stream) -> Brotherhood:
    lowest = min(b.covertness for b in candidates)
    return stream.choice([b for b in candidates if b.covertness == lowest])


def _classic(turn: Turn, act: Act, bases: list[Brotherhood], stream: Stream) -> str:
    b, region = act.b, act.region
    reals = [x for x in bases if x is not b]
    fakes = [f for f in turn.fakes.get(region, []) if f.b is not b]
    count = len(reals) + len(fakes)
    named = turn.state.by_seat(act.order.brotherhood) if act.order.brotherhood else None
    found: Brotherhood | None
    if fakes:
        if named is not None and named in reals and any(f.b is named for f in fakes):
            found = named
        else:
            found = stream.choice(fakes).b
    elif named is not None and named in reals:
        found = named
    elif reals:
        found = _least_covert(reals, stream)
    elif b.base is region:
        return "only your own base is here; bases here: 0"
    else:
        found = None
    if found is None:
        return f"no base found; bases here: {count}"
    return f"base of {found.name} reported here; bases here: {count}"


def _spy2(turn: Turn, act: Act, bases: list[Brotherhood], stream: Stream) -> str:
    b, region = act.b, act.region
    reals = [x for x in bases if x is not b]
    power = act.spy.skill * turn.t
    findable = [x for x in reals if power > x.covertness]
    named = turn.state.by_seat(act.order.brotherhood) if act.order.brotherhood else None
    if named is not None and named in findable:
        return f"base of {named.name} reported here; bases here: {len(reals)}"
    if findable:
        found = _least_covert(findable, stream)
        return f"base of {found.name} reported here; bases here: {len(reals)}"
    if not reals and b.base is region and power > b.covertness:
        return "only your own base is here; bases here: 0"
    return f"no base found; bases here: {len(reals)}"


def t9_search(turn: Turn) -> None:
    """T9: report a base (or a fake) and the count of bases and fakes here, own ones excluded."""
    searchers = turn.alive_doing(Task.SEARCH)
    if not searchers:
        return
    bases: dict[Region, list[Brotherhood]] = {}
    for b in turn.state.surviving():
        bases.setdefault(b.base, []).append(b)
    stream = turn.stream("search")
    search = _spy2 if turn.state.spy2 else _classic
    for act in searchers:
        act.result = search(turn, act, bases.get(act.region, []), stream)
