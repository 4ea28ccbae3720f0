"""The end of the game: the Green victory test and the R6 end check (spec §12.3–§12.4)."""

from __future__ import annotations

from spyhouse.games.infiltration.model import Feature, Phase, State, Team, event

_TEXT = {"greens": "Greens win.", "reds": "Reds win.", "draw": "Draw."}


def finish(state: State, result: str, reason: str, step: str) -> None:
    """End the game: the §15.2 outcome and the public ``end`` event."""
    if result == "draw":
        winners: list[str] = []
    else:
        team = Team.GREEN if result == "greens" else Team.RED
        winners = [p.seat for p in state.players if p.team is team]
    state.result = {"result": result, "reason": reason, "turn": state.turn, "winners": winners}
    state.phase = Phase.OVER
    state.log_public(event(state.turn, step, "end", _TEXT[result], result=result,
                           reason=reason))


def green_victory(state: State) -> bool:
    """§12.3: ≥ 2 living Stinger-carrying Greens in the GHOST room, and living Greens
    in at least two different Power generator rooms."""
    greens = [p for p in state.players if p.alive and p.team is Team.GREEN]
    ghost = state.rooms_with(Feature.GHOST)
    armed = sum(1 for p in greens if p.room in ghost and p.stinger)
    generators = set(state.rooms_with(Feature.GENERATOR))
    manned = {p.room for p in greens if p.room in generators}
    return armed >= 2 and len(manned) >= 2


def r6_end_check(state: State) -> bool:
    """§12.4, first match wins; returns True if the game ended."""
    if green_victory(state):
        finish(state, "greens", "ghost_destroyed", "R6")
        return True
    if state.greens_alive() < 4:
        if state.reds_alive() > 0:
            finish(state, "reds", "too_few_greens", "R6")
        else:
            finish(state, "draw", "too_few_greens", "R6")
        return True
    cap = state.options.max_turns
    if cap > 0 and state.turn >= cap:
        finish(state, "draw", "max_turns", "R6")
        return True
    return False
