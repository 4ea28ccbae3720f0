"""NPCs: their plans (R4a, S9), their movement (T4) and the alert check (T8, §5.3, §6)."""

from __future__ import annotations

from collections.abc import Mapping

from spyhouse.core.rng import Stream
from spyhouse.games.infiltration.model import ROOMS, NpcKind, State, floor_rooms


def r4a_plan(state: State, stream: Stream, orders: Mapping[str, str]) -> None:
    """§5.3: draw every living NPC's room for next turn, guards A→H, Engineers, Renegades.

    "Locked" means locked for next turn's movement (``state.locks``); ``orders`` are
    the Commander's orders (guard id → room) of this turn.
    """
    locked = set(state.locks)
    engineer_targets: set[str] = set()
    for npc in state.npcs:
        if not npc.alive:
            npc.plan = npc.room
            continue
        here = npc.room
        if here in locked:  # trapped
            npc.plan = here
            if npc.kind is NpcKind.ENGINEER:
                engineer_targets.add(here)
            continue
        if npc.kind is NpcKind.GUARD:
            ordered = orders.get(npc.id)
            if ordered is not None:
                npc.plan = here if ordered in locked else ordered
                continue
            candidates = [r for r in floor_rooms(npc.home) if r != here and r not in locked]
        elif npc.kind is NpcKind.ENGINEER:
            broken = [room for room in ROOMS if state.is_destroyed(room)
                      and room not in locked and room not in engineer_targets]
            if broken:
                npc.plan = stream.choice(broken)
                engineer_targets.add(npc.plan)
                continue
            candidates = [r for r in ROOMS if r != here and r not in locked]
        else:
            candidates = [r for r in ROOMS if r != here and r not in locked]
        npc.plan = stream.choice(candidates) if candidates else here
        if npc.kind is NpcKind.ENGINEER:
            engineer_targets.add(npc.plan)


def t4_move_npcs(state: State) -> None:
    """T4: every living NPC, in canonical order, moves to its planned room."""
    for npc in state.npcs:
        if npc.alive:
            npc.room = npc.plan


def t8_alert(state: State) -> bool:
    """AL1: Alert Mode if a room holds (a) a living guard and a living non-Sneaker player,
    (b) two or more living guards, or (c) a living guard and another guard's corpse."""
    guards: dict[str, int] = {}
    corpses: dict[str, int] = {}
    for npc in state.npcs:
        if npc.kind is NpcKind.GUARD:
            bucket = guards if npc.alive else corpses
            bucket[npc.room] = bucket.get(npc.room, 0) + 1
    if any(count >= 2 for count in guards.values()):
        return True
    if any(room in guards for room in corpses):
        return True
    return any(p.alive and not p.sneaker and p.room in guards for p in state.players)
