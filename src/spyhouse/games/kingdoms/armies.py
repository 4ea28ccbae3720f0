"""The host game's army rows (Part B): RAISE (B.4), MOVE with battle (B.5) and capture (B.6).

Armies move by land only; every army in an area belongs to its owner; armies on
the map plus the reserve always make ``force_pool`` (B.3 invariants).
"""

from __future__ import annotations

from spyhouse.games.kingdoms.model import RAISE_COST, Country, Row
from spyhouse.games.kingdoms.turn import Done, Failed, Turn, given, pay


def raise_armies(turn: Turn, country: Country, row: Row) -> Done:
    """B.4: n armies from the reserve into an own area, 2 BP each."""
    area, n = given(row.frm), row.count
    if turn.state.owners.get(area) != country.id:
        raise Failed(f"you do not own {area}")
    if country.reserve < n:
        raise Failed(f"only {country.reserve} armies in reserve")
    cost = RAISE_COST * n
    pay(country, cost)
    country.reserve -= n
    turn.state.armies[area] += n
    return Done(f"raised {n} in {area} ({cost} BP)", cost)


def move(turn: Turn, country: Country, row: Row) -> Done:
    """B.5: n armies from an own area to a land-adjacent one: join, capture or battle."""
    state = turn.state
    frm, to, n = given(row.frm), given(row.to), row.count
    if state.owners.get(frm) != country.id:
        raise Failed(f"you do not own {frm}")
    if state.armies[frm] < n:
        raise Failed(f"only {state.armies[frm]} armies in {frm}")
    state.armies[frm] -= n
    owner = state.owners[to]
    if owner == country.id:
        state.armies[to] += n
        return Done(f"moved {n} {frm} → {to}")
    if owner is None or state.armies[to] == 0:
        turn.capture(to, country.id, n, battle=False)
        return Done(f"captured {to}")
    return _battle(turn, country, owner, to, n)


def _battle(turn: Turn, country: Country, owner: str, area: str, n: int) -> Done:
    """B.5.3: rounds of attacker die against defender die; ties favour the defender."""
    state = turn.state
    defender = state.countries[owner]
    attackers, defenders = n, state.armies[area]
    lost = destroyed = 0
    while attackers > 0 and state.armies[area] > 0:
        a, d = turn.die(), turn.die()
        if a > d:
            state.armies[area] -= 1
            defender.reserve += 1
            destroyed += 1
        else:
            attackers -= 1
            country.reserve += 1
            lost += 1
    captured = state.armies[area] == 0
    for side in (country.id, owner):
        turn.event(side, "battle", area=area, attacker=country.id, defender=owner,
                   attackers=n, defenders=defenders, attacker_losses=lost,
                   defender_losses=destroyed, result="captured" if captured else "held")
    if captured:
        turn.capture(area, country.id, attackers, battle=True)
        return Done(f"battle in {area}: lost {lost}, destroyed {destroyed}; "
                    f"captured {area} with {attackers}")
    return Done(f"battle in {area}: lost {lost}, destroyed {destroyed}; attack failed")
