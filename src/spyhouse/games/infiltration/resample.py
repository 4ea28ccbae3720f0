"""``resample``: an Infiltration state whose seat view is the true one's (spec §13, §15.4).

What a seat's view never shows is redrawn, keeping what the rules conserve:

- **teams**, for a Green (a Red is told every Red): the other seats are re-dealt Red and
  Green with as many living and as many dead Reds as before, so the living team counts,
  and with them the end check, are unchanged;
- **classes** of the other Greens, once classes are assigned (uniform over the offered
  ones; a Red is a Warrior);
- **where the others are**, outside the seat's own room: the living among themselves and
  the corpses among themselves, so a Red's occupancy counts are unchanged (the latest
  presence-log entry follows);
- **the facility** outside the seat's own room: the terminals (with their destroyed and
  hacked marks) are shuffled over the terminal rooms; the special rooms stay, so every
  special still sits on its own floor;
- **the NPCs** living outside the seat's own room: a guard on its home floor to any room
  of that floor, an Engineer or Renegade to any room (never the seat's; their plans and
  the corpses stay);
- **the General's code**, unless it appears anywhere in the seat's view.

Once the game is over every view holds the full reveal, so nothing is redrawn.

The others' secret and class notices are rewritten to their new team and class. The
draw is among states with the seat's *view*, not among those consistent with every
inference from its history (a Locator answer of last turn, a room seen turns ago): a bot
that decides from its view alone decides the same in each, which is what the fairness
harness checks. Plans, Stingers and the others' other private events are kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.infiltration import view as views
from spyhouse.games.infiltration.model import (
    ROOMS,
    Event,
    Klass,
    Player,
    State,
    Team,
    event,
    floor_rooms,
)

#: The stream purpose of a resample's draws.
PURPOSE = "resample"


def resample(state: State, seat: str, rng: Rng) -> State:
    """A state drawn among those whose view of ``seat`` is ``state``'s (see the module's
    docstring); ``state`` is untouched."""
    world = state.clone()
    if state.result is not None:  # the end reveals everything (§13.1): nothing to draw
        return world
    me = state.player(seat)
    stream = rng.stream(state.turn, f"{PURPOSE}:{seat}")
    mine = world.player(seat)
    others = [p for p in world.players if p is not mine]
    if not me.is_red:
        _deal_teams(others, stream)
    _deal_classes(state, world, others, stream)
    _reseat(world, mine, others, stream)
    _remap(world, mine.room, stream)
    _move_npcs(world, mine.room, stream)
    if state.code not in json.dumps(views.seat_view(state, seat)):
        world.code = f"{stream.roll(10_000) - 1:04d}"
    return world


def _deal_teams(others: list[Player], stream: Stream) -> None:
    """Red and Green re-dealt over the other seats, living and dead apart."""
    for alive in (True, False):
        group = [p for p in others if p.alive is alive]
        reds = sum(1 for p in group if p.is_red)
        dealt = stream.ordering(group)
        for index, p in enumerate(dealt):
            p.team = Team.RED if index < reds else Team.GREEN


def _deal_classes(state: State, world: State, others: list[Player], stream: Stream) -> None:
    """The other Greens' classes drawn anew once assigned; every notice rewritten."""
    assigned = any(p.klass is not None for p in state.players if not p.is_red)
    offered = list(world.options.classes_offered)
    reds = [p for p in world.players if p.is_red]
    for p in others:
        if p.is_red:
            p.klass = Klass.WARRIOR
        else:
            p.klass = stream.choice(offered) if assigned else None
        _rewrite(world, p.seat, "secret", partial(_secret, p=p, reds=reds))
        if p.klass is not None:
            _rewrite(world, p.seat, "class", partial(_class, p=p))


def _secret(old: Event, p: Player, reds: list[Player]) -> Event:
    if p.is_red:
        names = ", ".join(q.handle for q in reds)
        return event(old["turn"], old["step"], "secret", f"You are Red. The Reds are: {names}.",
                     team="red", reds=[q.seat for q in reds])
    return event(old["turn"], old["step"], "secret", "You are Green.", team="green", reds=None)


def _class(old: Event, p: Player) -> Event:
    klass = p.klass.value if p.klass is not None else ""
    return event(old["turn"], old["step"], "class", f"Your class: {klass}.",
                 **{"class": klass})


def _rewrite(world: State, seat: str, kind: str, make: Callable[[Event], Event]) -> None:
    """Replace ``seat``'s private events of ``kind`` by ``make(old)`` (both forms)."""
    texts = world.private_json.get(seat, [])
    log = world.private_logs.get(seat, [])
    for index, text in enumerate(texts):
        old = json.loads(text)
        if old.get("kind") == kind:
            new = make(old)
            texts[index] = json.dumps(new, ensure_ascii=False, separators=(",", ":"))
            if len(log) == len(texts):
                log[index] = new


def _reseat(world: State, mine: Player, others: list[Player], stream: Stream) -> None:
    """The others outside ``mine``'s room swap rooms: the living among themselves, the
    corpses among themselves."""
    latest = dict(world.presence_log[-1]) if world.presence_log else {}
    for alive in (True, False):
        group = [p for p in others if p.alive is alive and p.room != mine.room]
        rooms = stream.ordering([p.room for p in group])
        for p, room in zip(group, rooms, strict=True):
            if latest.get(p.seat) == p.room:
                latest[p.seat] = room
            p.room = room
    if world.presence_log:
        world.presence_log[-1] = latest


def _remap(world: State, room: str, stream: Stream) -> None:
    """The terminals outside ``room``, with their marks, shuffled over the terminal rooms."""
    places = [i for i, feature in enumerate(world.features)
              if feature.is_terminal and ROOMS[i] != room]
    dealt = stream.ordering([(world.features[i], world.destroyed[i], world.hacked[i])
                             for i in places])
    for i, (feature, destroyed, hacked) in zip(places, dealt, strict=True):
        world.features[i] = feature
        world.destroyed[i] = destroyed
        world.hacked[i] = hacked


def _move_npcs(world: State, room: str, stream: Stream) -> None:
    """The living NPCs outside ``room`` placed anew (guards on their home floor)."""
    for npc in world.npcs:
        if not npc.alive or npc.room == room:
            continue
        if npc.home and npc.room in floor_rooms(npc.home):
            rooms = [r for r in floor_rooms(npc.home) if r != room]
        elif npc.home:  # sent off its floor by the Commander's terminal: left there
            continue
        else:
            rooms = [r for r in ROOMS if r != room]
        npc.room = stream.choice(rooms)
