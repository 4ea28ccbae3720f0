"""The engine's own posts and private notices (spec §13.2, §13.3, §15.4 event tables).

Each function writes one kind of event into the state's public log or a seat's
private log; texts are exactly the spec's.
"""

from __future__ import annotations

from spyhouse.games.infiltration.model import (
    Event,
    Feature,
    Klass,
    Player,
    State,
    Team,
    event,
)

ALERT_TEXT = "ALERT MODE — terminals are locked down this turn (Sneakers excepted)"
QUIET_TEXT = "All quiet"
_GHOST_TEXT = "outer door open; inner door sealed unless two generators are manned."


def t1_turn_post(state: State) -> None:
    """T1: the turn number, the living and the dead, the phantom standings."""
    state.log_public(event(
        state.turn, "T1", "turn", f"Turn {state.turn} begins.",
        living=[p.seat for p in state.players if p.alive],
        dead=[p.seat for p in state.players if not p.alive],
        phantoms={p.seat: p.phantoms for p in state.players if p.phantoms > 0}))


def t2_occupancy(state: State) -> None:
    """T2: each living Red learns the rooms holding living players and how many."""
    counts: dict[str, int] = {}
    for p in state.players:
        if p.alive:
            counts[p.room] = counts.get(p.room, 0) + 1
    rooms = tuple(sorted(counts.items()))
    state.occupancy = rooms
    text = ", ".join(f"{room}: {count}" for room, count in rooms)
    for p in state.players:
        if p.alive and p.team is Team.RED:
            state.log_private(p.seat, event(state.turn, "T2", "occupancy", text,
                                            rooms=[[room, count] for room, count in rooms]))


def alert_post(state: State) -> None:
    """T8: the public alert announcement, without room or cause."""
    alert = bool(state.alert)
    state.log_public(event(state.turn, "T8", "alert", ALERT_TEXT if alert else QUIET_TEXT,
                           alert=alert))


def arrival_report(state: State, p: Player, notice: str | None) -> Event:
    """§15.4: the arrival report of ``p`` for its room now."""
    room = p.room
    feature = state.feature(room)
    destroyed: bool | None = None
    hacked: bool | None = None
    if feature.is_terminal:
        destroyed = state.is_destroyed(room)
        text = f"{feature.value} — {'destroyed' if destroyed else 'operational'}"
        if p.klass is Klass.HACKER and not destroyed:
            hacked = state.is_hacked(room)
            text += " — hacked" if hacked else " — clean"
    elif feature is Feature.LAB:
        fresh = p.stinger_turn == state.turn
        text = ("Weapons Lab — You now carry a Stinger." if fresh
                else "Weapons Lab — You already carry a Stinger.")
    elif feature is Feature.GENERALS:
        text = f"General's room — The code is {state.code}."
    elif feature is Feature.GHOST:
        text = f"GHOST room — {_GHOST_TEXT}"
    else:
        text = "Power generator — You are manning a generator."
    others = [q.seat for q in state.players if q.alive and q.room == room and q is not p]
    npcs = [n.id for n in state.npcs if n.alive and n.room == room]
    corpses = ([q.seat for q in state.players if not q.alive and q.room == room]
               + [n.id for n in state.npcs if not n.alive and n.room == room])
    return {
        "turn": state.turn, "room": room, "notice": notice, "feature": feature.value,
        "destroyed": destroyed, "hacked": hacked, "text": text, "players": others,
        "npcs": npcs, "corpses": corpses, "alert": state.alert if state.turn > 0 else None,
    }


def deliver_arrival(state: State, p: Player, notice: str | None, step: str) -> None:
    """S10 / T10: store the report as the seat's latest and log it privately."""
    report = arrival_report(state, p, notice)
    state.arrivals[p.seat] = report
    logged = {"turn": report["turn"], "step": step, "kind": "arrival"}
    logged.update(report)
    logged["text"] = report["text"]
    state.log_private(p.seat, logged)


def secret_notice(state: State, p: Player) -> None:
    """S10: the seat's team; a Red also learns every Red (seat order)."""
    if p.team is Team.RED:
        reds = [q for q in state.players if q.team is Team.RED]
        names = ", ".join(q.handle for q in reds)
        state.log_private(p.seat, event(0, "S10", "secret",
                                        f"You are Red. The Reds are: {names}.",
                                        team="red", reds=[q.seat for q in reds]))
    else:
        state.log_private(p.seat, event(0, "S10", "secret", "You are Green.",
                                        team="green", reds=None))


def class_notice(state: State, p: Player, step: str) -> None:
    """The seat's class, once assigned."""
    klass = p.klass.value if p.klass is not None else ""
    state.log_private(p.seat, event(state.turn, step, "class", f"Your class: {klass}.",
                                    **{"class": klass}))
