"""S1 declarations (classic §6 S1, spy2 §9.3) and S5 game over (§6 S5).

Declarations are judged against the state at the start of the turn. Each
function mutates the turn's cloned state and fills ``Outcomes``; nothing here
draws randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from spyhouse.games.spyvsspy.model import (
    Brotherhood,
    Declaration,
    DeclarationLine,
    Elimination,
    GameOver,
    Sheet,
    State,
)

ELIMINATED_D1 = "eliminated: at least one of your declarations was incorrect"
LIFE_USED = "incorrect, a Life was used"
CORRECT_BUT_ELIMINATED = "correct, but you were eliminated too"


@dataclass
class Outcomes:
    """Each declarer's lines and the eliminations of S1 (news is written from these)."""

    lines: dict[str, list[DeclarationLine]] = field(default_factory=dict)
    correct_by: dict[int, list[Brotherhood]] = field(default_factory=dict)
    eliminated: list[Brotherhood] = field(default_factory=list)


def _correct(state: State, declaration: Declaration) -> bool:
    target = state.by_seat(declaration.brotherhood)
    return (target is not None and target.leader == declaration.leader
            and target.base == declaration.region)


def _declarers(state: State, sheets: Mapping[str, Sheet | None]
               ) -> list[tuple[Brotherhood, tuple[Declaration, ...]]]:
    """Surviving declarers in ``bid`` order with their declarations in sheet order."""
    out = []
    for b in state.brotherhoods:
        sheet = sheets.get(b.seat)
        if b.eliminated is None and sheet is not None and sheet.declarations:
            out.append((b, sheet.declarations))
    return out


def s1_classic(state: State, sheets: Mapping[str, Sheet | None], turn: int) -> Outcomes:
    """S1: D1 incorrect ones first, then D2 correct ones, rewards, life cap (§6 S1)."""
    result = Outcomes()
    declarers = _declarers(state, sheets)
    gp0 = {b.bid: b.gp for b in state.brotherhoods}
    verdicts = {b.bid: [_correct(state, d) for d in decls] for b, decls in declarers}
    d1: set[int] = set()
    for b, _ in declarers:  # D1
        wrong = verdicts[b.bid].count(False)
        if wrong == 0:
            continue
        if wrong <= b.life:
            b.life -= wrong
        else:
            d1.add(b.bid)
            b.eliminated = Elimination(turn, "D1")
    valid: dict[str, list[Brotherhood]] = {}
    for b, decls in declarers:  # D2: valid correct declarations
        if b.bid in d1:
            continue
        for declaration, right in zip(decls, verdicts[b.bid], strict=True):
            if right:
                valid.setdefault(declaration.brotherhood, []).append(b)
    for seat, declarers_of in valid.items():
        target = state.by_seat(seat)
        if target is not None and target.eliminated is None:
            target.eliminated = Elimination(turn, "D2")
        if target is not None:
            result.correct_by[target.bid] = declarers_of
    shares: dict[tuple[int, str], int] = {}
    for seat, declarers_of in valid.items():  # rewards
        target = state.by_seat(seat)
        share = gp0[target.bid] // len(declarers_of) if target else 0
        for x in declarers_of:
            shares[(x.bid, seat)] = share
            if x.eliminated is None:
                x.gp += share
                x.life += 1
    for b in state.brotherhoods:
        b.life = min(b.life, 1)
    for b, decls in declarers:  # private outcomes
        lines = []
        for declaration, right in zip(decls, verdicts[b.bid], strict=True):
            if b.bid in d1:
                outcome = ELIMINATED_D1
            elif not right:
                outcome = LIFE_USED
            elif b.eliminated is not None:
                outcome = CORRECT_BUT_ELIMINATED
            else:
                share = shares[(b.bid, declaration.brotherhood)]
                outcome = f"correct: you receive {share} gp and a Life"
            lines.append(DeclarationLine(declaration, outcome))
        result.lines[b.seat] = lines
    result.eliminated = [b for b in state.brotherhoods
                         if b.eliminated is not None and b.eliminated.turn == turn]
    return result


def s1_spy2(state: State, sheets: Mapping[str, Sheet | None], turn: int) -> Outcomes:
    """spy2 S1: paid declarations at a game-wide price, in (declarer, target) order (§9.3)."""
    result = Outcomes()
    todo = sorted(
        ((b, d) for b, decls in _declarers(state, sheets) for d in decls),
        key=lambda pair: (pair[0].bid, _bid(state, pair[1].brotherhood)),
    )
    paid: dict[tuple[int, str], int] = {}
    void: dict[tuple[int, str], int] = {}
    correct: dict[str, list[Brotherhood]] = {}
    for b, declaration in todo:
        price = state.price
        if b.gp < price:
            void[(b.bid, declaration.brotherhood)] = price
            continue
        b.gp -= price
        paid[(b.bid, declaration.brotherhood)] = price
        state.price = price + 5
        if _correct(state, declaration):
            state.price = max(10, state.price // 2)
            correct.setdefault(declaration.brotherhood, []).append(b)
    for seat, declarers_of in correct.items():
        target = state.by_seat(seat)
        if target is not None:
            target.eliminated = Elimination(turn, "D2")
            result.correct_by[target.bid] = declarers_of
    shares: dict[tuple[int, str], int] = {}
    for seat, declarers_of in correct.items():
        target = state.by_seat(seat)
        share = target.gp // len(declarers_of) if target else 0
        for x in declarers_of:
            shares[(x.bid, seat)] = share
            if x.eliminated is None:
                x.gp += share
    for b, decls in _declarers_all(state, sheets):
        lines = []
        for declaration in decls:
            fee = paid.get((b.bid, declaration.brotherhood))
            if fee is None:
                outcome = f"could not afford {void[(b.bid, declaration.brotherhood)]} gp"
            elif b in correct.get(declaration.brotherhood, []):
                outcome = (f"correct: paid {fee} gp, but you were eliminated too"
                           if b.eliminated is not None else
                           f"correct: paid {fee} gp; you receive "
                           f"{shares[(b.bid, declaration.brotherhood)]} gp")
            else:
                outcome = f"incorrect: paid {fee} gp"
            lines.append(DeclarationLine(declaration, outcome))
        result.lines[b.seat] = lines
    result.eliminated = [b for b in state.brotherhoods
                         if b.eliminated is not None and b.eliminated.turn == turn]
    return result


def _bid(state: State, seat: str) -> int:
    target = state.by_seat(seat)
    return target.bid if target else 0


def _declarers_all(state: State, sheets: Mapping[str, Sheet | None]
                   ) -> list[tuple[Brotherhood, tuple[Declaration, ...]]]:
    """Every brotherhood with declarations in its sheet, eliminated this turn or not."""
    out = []
    for b in state.brotherhoods:
        sheet = sheets.get(b.seat)
        if sheet is not None and sheet.declarations:
            out.append((b, sheet.declarations))
    return out


def elimination_news(state: State, outcomes: Outcomes) -> list[str]:
    """News item (1): one line per brotherhood eliminated this turn, sorted by name (§8.1)."""
    lines = []
    for y in sorted(outcomes.eliminated, key=lambda b: b.name.casefold()):
        declarers = sorted((x.name for x in outcomes.correct_by.get(y.bid, [])),
                           key=str.casefold)
        named = ", ".join(declarers)
        phase = y.eliminated.phase if y.eliminated else "D2"
        if phase == "D1" and declarers:
            head = (f"{y.name} eliminated by an incorrect declaration"
                    f" and correctly declared by {named}")
        elif phase == "D1":
            head = f"{y.name} eliminated by an incorrect declaration"
        else:
            head = f"{y.name} eliminated: correctly declared by {named}"
        lines.append(f"{head}; its leader was {y.leader}, its base {y.base.label}")
    return lines


def game_over(state: State, turn: int) -> tuple[GameOver, str]:
    """S5: winners, standings (places shared, 1, 2, 2, 4) and the news line."""
    survivors = [b for b in state.brotherhoods if b.eliminated is None]
    if survivors:
        winners = survivors
    else:
        fell = [b for b in state.brotherhoods if b.eliminated and b.eliminated.turn == turn]
        d2 = [b for b in fell if b.eliminated and b.eliminated.phase == "D2"]
        winners = d2 or [b for b in fell if b.eliminated and b.eliminated.phase == "D1"]

    winner_bids = {b.bid for b in winners}

    def rank(b: Brotherhood) -> tuple[int, int, int]:
        if b.bid in winner_bids or b.eliminated is None:
            return (0, 0, 0)
        return (1, -b.eliminated.turn, 0 if b.eliminated.phase == "D2" else 1)

    ordered = sorted(state.brotherhoods, key=lambda b: (rank(b), b.bid))
    standings: list[tuple[str, int]] = []
    place = 0
    for index, b in enumerate(ordered):
        if index == 0 or rank(ordered[index - 1]) != rank(b):
            place = index + 1
        standings.append((b.seat, place))
    names = ", ".join(sorted((b.name for b in winners), key=str.casefold))
    news = (f"game over: {names} wins" if len(winners) == 1
            else f"game over: {names} are joint winners")
    return GameOver(tuple(b.seat for b in winners), tuple(standings)), news
