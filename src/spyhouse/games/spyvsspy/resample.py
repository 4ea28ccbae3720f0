"""A world one seat cannot tell from the real one (``Ruleset.resample``, spec §8).

The fairness harness runs a bot on such worlds: whatever the seat's view does not
show is redrawn, and the seat's view of the new state is exactly the old one.
What is redrawn, for every other surviving brotherhood:

- its leader's name, permuted among the rivals whose leader rows in the seat's
  table read alike and whose leader no text of the seat's view names (a hunt's
  reveal, a FOLLOW, a declaration);
- its base, drawn anew among the regions the seat did not search, unless the seat's
  view names the brotherhood or its base stands in a region the seat searched;
- its Life (classic), when some brotherhood has fallen to a correct declaration and
  the news does not name it among this turn's declarers;
- the skills of its non-leader spies that stood where the seat observed nothing,
  shuffled among them (each keeps at least its starting skill);
- the game seed, until the game is over.

Only the present view is matched: what the seat read in earlier reports (and a bot
kept in its notes) is not. Other seats' last reports are relabelled for the new
leader names and revealed bases; the rest of their text stays as it was told.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    REGIONS,
    STARTING_SKILLS,
    Brotherhood,
    Declaration,
    LeaderSighting,
    Options,
    Region,
    SeatLog,
    Sheet,
    SpyLine,
    SpyOrder,
    State,
    Task,
    TurnLog,
)
from spyhouse.games.spyvsspy.view import seat_view

#: The largest seed drawn for a resampled world (the seat never sees it before the end).
SEED_RANGE = 2**31 - 1


def resample(state: State, seat: str, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``; ``state`` itself is left untouched."""
    seen = seat_view(state, seat)
    stream = rng.stream(state.turn, f"resample:{seat}")
    new = state.clone()
    if state.game_over is not None:
        _shuffle_skills(new, seat, seen, stream)
        return new
    rivals = [b for b in new.brotherhoods if b.eliminated is None and b.seat != seat]
    names = _permute_leaders(rivals, seen, _told_text(seen), stream)
    bases = _redraw_bases(rivals, seen, _told_bases(seen), stream)
    _redraw_lives(new, rivals, seen, stream)
    skills = _shuffle_skills(new, seat, seen, stream)
    new.seed = stream.roll(SEED_RANGE)
    new.options = _relabel_options(new.options, names, bases)
    if new.log is not None:
        seat_names = {b.seat: b.name for b in new.brotherhoods}
        new.log = _relabel_log(new.log, seat, _text_mapper(names, bases, seat_names), names,
                               skills)
    return new


# ---------------------------------------------------------------- what the view tells


def _told_text(seen: Mapping[str, Any]) -> str:
    """Every text of the seat's view that may name a leader or a brotherhood: its
    declarations, notices, own spies' orders and results, and the news."""
    parts = [seen.get("declarations"), seen.get("news"), seen.get("spies"),
             (seen.get("me") or {}).get("notices")]
    return json.dumps(parts, ensure_ascii=False)


def _told_bases(seen: Mapping[str, Any]) -> str:
    """The texts of the seat's view that may place a base: its declarations, and its
    spies' results that speak of a base (a hunt's reveal, a search)."""
    results = [line.get("result") or "" for line in seen.get("spies") or ()]
    return json.dumps([seen.get("declarations"), [r for r in results if "base" in r]],
                      ensure_ascii=False)


def _named(name: str, text: str) -> bool:
    """Whether ``name`` stands in ``text`` as a whole name (not "Mr Pink" in "Mr Pink II")."""
    return re.search(_whole(name), text) is not None


def _whole(name: str) -> str:
    return rf"(?<![\w]){re.escape(name)}(?![\w]| [IVXLCDM]+\b)"


def _leader_rows(seen: Mapping[str, Any]) -> dict[str, str]:
    """Each leader row of the seat's table as text, by leader name (none before turn 1)."""
    table = seen.get("table")
    if not isinstance(table, Mapping):
        return {}
    return {str(row["label"]): json.dumps(row["cells"], sort_keys=True)
            for row in table.get("rows", ()) if row.get("kind") == "leader"}


def _searched(seen: Mapping[str, Any]) -> set[Region]:
    """Regions where a spy of the seat searched (counts of bases there are known)."""
    out: set[Region] = set()
    for line in seen.get("spies") or ():
        task = line.get("task")
        if task and task.get("task") == Task.SEARCH.value and line.get("at"):
            out.add(Region(line["at"]))
    return out


def _observed(seen: Mapping[str, Any]) -> set[Region]:
    """Regions the seat's table counts (its spies there reported)."""
    table = seen.get("table")
    if not isinstance(table, Mapping) or not table.get("rows"):
        return set()
    cells = table["rows"][0]["cells"]
    return {Region(letter) for letter, cell in cells.items() if cell != "?"}


# ---------------------------------------------------------------- the redraws


def _permute_leaders(rivals: list[Brotherhood], seen: Mapping[str, Any], told: str,
                     stream: Stream) -> dict[str, str]:
    """Permute leader names among rivals whose rows read alike; old name -> new name."""
    rows = _leader_rows(seen)
    groups: dict[str, list[Brotherhood]] = {}
    for b in rivals:
        if _named(b.leader, told):
            continue
        groups.setdefault(rows.get(b.leader, ""), []).append(b)
    renamed: dict[str, str] = {}
    for key in sorted(groups):
        members = groups[key]
        drawn = stream.ordering([b.leader for b in members])
        for b, name in zip(members, drawn, strict=True):
            if name != b.leader:
                renamed[b.leader] = name
        for b, name in zip(members, drawn, strict=True):
            b.leader = name
    return renamed


def _redraw_bases(rivals: list[Brotherhood], seen: Mapping[str, Any], told: str,
                  stream: Stream) -> dict[str, tuple[Region, Region]]:
    """New bases outside the searched regions; seat -> (old base, new base)."""
    searched = _searched(seen)
    free = [r for r in REGIONS if r not in searched]
    moved: dict[str, tuple[Region, Region]] = {}
    for b in rivals:
        if b.base in searched or _named(b.name, told):
            continue
        old, b.base = b.base, stream.choice(free)
        if b.base is not old:
            moved[b.seat] = (old, b.base)
    return moved


def _redraw_lives(state: State, rivals: list[Brotherhood], seen: Mapping[str, Any],
                  stream: Stream) -> None:
    """Classic: a Life is won only by a correct declaration, so one is possible once a
    brotherhood fell in D2; this turn's declarers named in the news keep theirs."""
    if state.spy2 or not any(b.eliminated is not None and b.eliminated.phase == "D2"
                             for b in state.brotherhoods):
        return
    news = json.dumps(seen.get("news") or [], ensure_ascii=False)
    for b in rivals:
        if not _named(b.name, news):
            b.life = stream.roll(2) - 1


def _floor(number: int) -> int:
    """The least skill spy ``number`` can have: its starting skill (recruits: 1)."""
    return STARTING_SKILLS[number - 1] if number <= len(STARTING_SKILLS) else 1


def _shuffle_skills(state: State, seat: str, seen: Mapping[str, Any],
                    stream: Stream) -> dict[str, dict[int, int]]:
    """Swap skills among each rival's non-leader spies that stood in regions the seat
    did not observe; seat -> {spy number: new skill}. Skills only grow from the start
    (§4), so a swap is made only if each spy keeps at least its starting skill."""
    if state.turn == 0:
        return {}
    observed = _observed(seen)
    changed: dict[str, dict[int, int]] = {}
    for b in state.brotherhoods:
        if b.seat == seat or b.eliminated is not None:
            continue
        hidden = [s for s in b.spies if s.number != LEADER_NUMBER and s.at not in observed]
        for spy in stream.ordering(hidden):
            other = hidden[stream.roll(len(hidden)) - 1]
            if (other is not spy and spy.skill >= _floor(other.number)
                    and other.skill >= _floor(spy.number)):
                spy.skill, other.skill = other.skill, spy.skill
        changed[b.seat] = {s.number: s.skill for s in hidden}
    return changed


# ---------------------------------------------------------------- hidden records


def _relabel_options(options: Options, names: Mapping[str, str],
                     bases: Mapping[str, tuple[Region, Region]]) -> Options:
    """The host's setup maps, told the new names and bases."""
    return replace(
        options,
        setup_bases=tuple((seat, bases[seat][1] if seat in bases else region)
                          for seat, region in options.setup_bases),
        setup_leaders=tuple((seat, names.get(name, name))
                            for seat, name in options.setup_leaders))


def _text_mapper(names: Mapping[str, str], bases: Mapping[str, tuple[Region, Region]],
                 seat_names: Mapping[str, str]) -> Callable[[str], str]:
    """A function rewriting texts for the new names and bases ("X's base is in R")."""
    rules: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = []
    for seat, (old, new) in bases.items():
        said = f"{seat_names[seat]}'s base is in "
        rules.append((re.compile(re.escape(said + old.label)), _constant(said + new.label)))
    if names:
        ordered = sorted(names, key=len, reverse=True)
        pattern = re.compile("|".join(_whole(name) for name in ordered))
        rules.append((pattern, lambda match: names[match.group(0)]))

    def mapped(text: str) -> str:
        for pattern, replacement in rules:
            text = pattern.sub(replacement, text)
        return text
    return mapped


def _constant(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: text


def _relabel_log(log: TurnLog, seat: str, text: Callable[[str], str],
                 names: Mapping[str, str], skills: Mapping[str, Mapping[int, int]]) -> TurnLog:
    """The last turn's log in the new world: the seat's own part as it was; the others'
    reports, sheets and the host's record told the new names, bases and skills."""
    leaders = tuple(sorted((LeaderSighting(s.owner, names.get(s.name, s.name), s.region,
                                           s.skill) for s in log.leaders),
                           key=lambda s: s.name.casefold()))
    seats = {other: (part if other == seat else
                     _relabel_seat(part, text, names, skills.get(other, {})))
             for other, part in log.seats.items()}
    sheets = {other: (sheet if other == seat or sheet is None else
                      _relabel_sheet(sheet, names))
              for other, sheet in log.sheets.items()}
    return replace(log, seats=seats, leaders=leaders, sheets=sheets,
                   explain=_relabel_json(log.explain, text), derived={})


def _relabel_order(order: SpyOrder | None, names: Mapping[str, str]) -> SpyOrder | None:
    if order is None or order.leader is None or order.leader not in names:
        return order
    return replace(order, leader=names[order.leader])


def _relabel_sheet(sheet: Sheet, names: Mapping[str, str]) -> Sheet:
    return Sheet(
        spies=tuple((number, _relabel_order(order, names) or order)
                    for number, order in sheet.spies),
        declarations=tuple(Declaration(d.brotherhood, names.get(d.leader, d.leader), d.region)
                           for d in sheet.declarations))


def _relabel_seat(part: SeatLog, text: Callable[[str], str], names: Mapping[str, str],
                  skills: Mapping[int, int]) -> SeatLog:
    declarations = tuple(
        replace(line, declaration=Declaration(
            line.declaration.brotherhood,
            names.get(line.declaration.leader, line.declaration.leader),
            line.declaration.region))
        for line in part.declarations)
    spies = tuple(
        SpyLine(line.number, line.leader,
                skills.get(line.number, line.skill) if not line.killed else line.skill,
                line.at, line.killed, _relabel_order(line.task, names),
                None if line.result is None else text(line.result))
        for line in part.spies)
    return replace(part, declarations=declarations,
                   notices=tuple(text(notice) for notice in part.notices), spies=spies)


def _relabel_json(value: Any, text: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {key: _relabel_json(item, text) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_relabel_json(item, text) for item in value]
    return value
