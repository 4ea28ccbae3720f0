"""Room combat by priority (spec §8, step R2), as the seed's five examples resolve.

``resolve_room`` is the pure core (participants, priorities, attacks → deaths) and
is what the seed-example tests exercise; ``r2_combat`` applies it to every room
of the state and builds the C4 combat reports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from spyhouse.games.infiltration.model import Death, NpcKind, State

Attack = tuple[str, str]


#: One tier of a room's combat as it ran: priority, its attacks (C2 order), its dead.
Tier = tuple[int, tuple[Attack, ...], tuple[str, ...]]


def resolve_room(priority: Mapping[str, int], attacks: Sequence[Attack]) -> set[str]:
    """C3: who dies, tier by tier from priority 4 down to 1 (``resolve_tiers``)."""
    return {name for _, _, died in resolve_tiers(priority, attacks) for name in died}


def resolve_tiers(priority: Mapping[str, int], attacks: Sequence[Attack]) -> list[Tier]:
    """C3, tier by tier from priority 4 down to 1: each tier that had an attack, with
    its attacks and its dead (for the host's "why it happened").

    ``priority`` maps every participant to its priority; ``attacks`` are the C2
    attacks (x, y). Within a tier, y parries x when y acts in the tier and attacks
    x; y dies if (i) an attacker of y is not parried by y, or (ii) two different
    attackers of y do not attack each other mutually.
    """
    dead: set[str] = set()
    tiers: list[Tier] = []
    for tier in (4, 3, 2, 1):
        acting = {x for x, p in priority.items() if p == tier and x not in dead}
        edges = {(x, y) for x, y in attacks if x in acting and y not in dead}
        if not edges:
            continue
        attackers: dict[str, list[str]] = {}
        for x, y in edges:
            attackers.setdefault(y, []).append(x)
        dying: set[str] = set()
        for y, xs in attackers.items():
            if any(not (y in acting and (y, x) in edges) for x in xs):
                dying.add(y)
                continue
            if any((a, b) not in edges or (b, a) not in edges
                   for i, a in enumerate(xs) for b in xs[i + 1:]):
                dying.add(y)
        dead |= dying
        tiers.append((tier, tuple(a for a in attacks if a in edges),
                      tuple(name for name in priority if name in dying)))
    return tiers


@dataclass(frozen=True, slots=True)
class RoomFight:
    """One room's combat: its attacks and deaths in canonical order (C4)."""

    room: str
    attacks: tuple[Attack, ...]
    died: tuple[str, ...]
    present: tuple[str, ...]  # living players of the room at R2 (seat order)
    #: every participant (canonical order) with its priority, and the tiers as they ran
    priority: tuple[tuple[str, int], ...] = ()
    tiers: tuple[Tier, ...] = ()


def _targets(state: State, room: str, kills: Mapping[str, Sequence[str]]) -> tuple[
        list[str], dict[str, int], list[Attack]]:
    """C1–C2: the participants of ``room`` (canonical order), their priorities, attacks."""
    players = [p for p in state.players if p.alive and p.room == room]
    npcs = [n for n in state.npcs if n.alive and n.room == room]
    order = [p.seat for p in players] + [n.id for n in npcs]
    present = set(order)
    priority = {p.seat: p.priority for p in players}
    priority.update({n.id: n.priority for n in npcs})
    attacks: list[Attack] = []
    named_by: dict[str, set[str]] = {}
    for p in players:
        for target in kills.get(p.seat, ()):
            if target in present:
                attacks.append((p.seat, target))
                named_by.setdefault(target, set()).add(p.seat)
    immune_to_guards = {n.id for n in npcs} | {p.seat for p in players if p.sneaker}
    for n in npcs:
        if n.kind is NpcKind.GUARD:
            attacks.extend((n.id, x) for x in order if x not in immune_to_guards)
        elif n.kind is NpcKind.RENEGADE:
            guards = {g.id for g in npcs if g.kind is NpcKind.GUARD}
            hunted = guards | named_by.get(n.id, set())
            attacks.extend((n.id, x) for x in order if x in hunted)
    rank = {name: i for i, name in enumerate(order)}
    attacks.sort(key=lambda a: (rank[a[0]], rank[a[1]]))
    return order, priority, attacks


def r2_combat(state: State, kills: Mapping[str, Sequence[str]]) -> list[RoomFight]:
    """R2: combat in every room with at least one attack; the dead leave corpses."""
    rooms = sorted({p.room for p in state.players if p.alive}
                   | {n.room for n in state.npcs if n.alive and n.kind is not NpcKind.ENGINEER})
    fights = []
    for room in rooms:
        order, priority, attacks = _targets(state, room, kills)
        if not attacks:
            continue
        tiers = resolve_tiers(priority, attacks)
        dead = {name for _, _, fell in tiers for name in fell}
        died = tuple(name for name in order if name in dead)
        present = tuple(p.seat for p in state.players if p.alive and p.room == room)
        for name in died:
            if name in state.index:
                victim = state.player(name)
                victim.alive = False
                victim.stinger = False
                victim.death = Death(state.turn, "R2", "combat")
            else:
                state.npc(name).alive = False
        fights.append(RoomFight(room, tuple(attacks), died, present,
                                tuple((name, priority[name]) for name in order), tuple(tiers)))
    return fights


def combat_text(state: State, fight: RoomFight) -> str:
    """C4: "X → Y; …; died: A, B" or "…; died: nobody"."""
    attacks = "; ".join(f"{state.handle(x)} → {state.handle(y)}" for x, y in fight.attacks)
    died = ", ".join(state.handle(name) for name in fight.died) or "nobody"
    return f"{attacks}; died: {died}"
