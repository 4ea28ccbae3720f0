"""The lynch vote, the NO REDS LEFT vote and phantoms (spec §7, step R1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spyhouse.games.infiltration.ending import finish
from spyhouse.games.infiltration.model import Death, State, event, thousandths
from spyhouse.games.infiltration.orders import NO_LYNCH, NO_REDS_LEFT

VOTE_POINTS = 1000


@dataclass(frozen=True, slots=True)
class Tally:
    votes: tuple[tuple[str, str | None], ...]
    totals: tuple[tuple[str, int], ...]
    unanimous_no_reds_left: bool
    victim: str | None


def phantom_points(phantoms: int) -> int:
    """L3: 1 point for one phantom, 1001 for two or more."""
    if phantoms <= 0:
        return 0
    return 1 if phantoms == 1 else 1001


def tally(state: State, votes: Mapping[str, str | None]) -> Tally:
    """L1–L4 on the final votes of the living players (seat order)."""
    living = state.living()
    ballot = tuple((p.seat, votes.get(p.seat)) for p in living)
    unanimous = bool(ballot) and all(choice == NO_REDS_LEFT for _, choice in ballot)
    points: dict[str, int] = {}
    no_lynch = 0
    for _, choice in ballot:
        if choice in (NO_LYNCH, NO_REDS_LEFT):
            no_lynch += VOTE_POINTS
        elif choice is not None:
            points[choice] = points.get(choice, 0) + VOTE_POINTS
    if state.options.phantoms:
        for p in living:
            extra = phantom_points(p.phantoms)
            if extra:
                points[p.seat] = points.get(p.seat, 0) + extra
    holders = [(p.seat, points[p.seat]) for p in state.players if points.get(p.seat, 0) > 0]
    totals = (*holders, (NO_LYNCH, no_lynch))
    best = max(value for _, value in totals)
    leaders = [option for option, value in totals if value == best]
    victim = None
    if best > 0 and len(leaders) == 1 and leaders[0] != NO_LYNCH:
        victim = leaders[0]
    return Tally(ballot, totals, unanimous, victim)


def votes_text(state: State, result: Tally) -> str:
    """"Ann → Bob; Bob → NO LYNCH; Cat → no vote. Totals: Bob 1.001, NO LYNCH 1." """
    cast = "; ".join(f"{state.handle(voter)} → "
                     f"{'no vote' if choice is None else state.handle(choice)}"
                     for voter, choice in result.votes)
    totals = ", ".join(f"{state.handle(option)} {thousandths(points)}"
                       for option, points in result.totals)
    return f"{cast}. Totals: {totals}."


def r1_lynch(state: State, votes: Mapping[str, str | None]) -> bool:
    """R1: publish the votes; L2 ends the game (returns True); else lynch, phantoms, removals."""
    t = state.turn
    result = tally(state, votes)
    state.log_public(event(
        t, "R1", "votes", votes_text(state, result),
        votes=[[voter, choice] for voter, choice in result.votes],
        totals=[[option, points] for option, points in result.totals]))
    if result.unanimous_no_reds_left:
        greens = state.reds_alive() == 0
        finish(state, "greens" if greens else "reds", "no_reds_left_vote", "R1")
        return True
    if result.victim is not None:
        victim = state.player(result.victim)
        victim.alive = False
        victim.stinger = False
        victim.death = Death(t, "R1", "lynch")
        state.log_public(event(t, "R1", "lynch", f"{victim.handle} was lynched.",
                               victim=victim.seat))
    else:
        state.log_public(event(t, "R1", "lynch", "No lynch.", victim=None))
    if not state.options.phantoms:
        return False
    removed = []
    for p in state.living():
        if votes.get(p.seat) is None:
            p.phantoms += 1
            state.log_public(event(t, "R1", "phantom",
                                   f"{p.handle} receives phantom vote {p.phantoms}.",
                                   seat=p.seat, phantoms=p.phantoms))
            limit = state.options.phantom_limit
            if limit > 0 and p.phantoms >= limit:
                removed.append(p)
    for p in removed:
        p.alive = False
        p.stinger = False
        p.death = Death(t, "R1", "removed")
        state.log_public(event(t, "R1", "removed", f"{p.handle} was removed for inactivity.",
                               seat=p.seat))
    return False
