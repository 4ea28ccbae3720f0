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
- where its spies stood last turn and their skills, for non-leader spies that stood
  where the seat observed nothing and no hunter or guard was choosing: a worker to a
  region of the same Work value, a trainer of the same Train value, a coverter or
  hider anywhere; workers trade skills among themselves, coverters too, spies whose
  result reads no skill among themselves (each keeps its starting skill and training),
  so every result, income and covertness stays true;
- the game seed, until the game is over.

Only the present view is matched: what the seat read in earlier reports (and a bot
kept in its notes) is not. The hidden records of the last turn (other seats' reports
and sheets, the town's counts, the host's record) are rewritten to agree with the new
world, except what other seats' searches counted and declared.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.spyvsspy.model import (
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
    if state.game_over is not None:  # every secret and the seed are out (§8.5)
        return new
    rivals = [b for b in new.brotherhoods if b.eliminated is None and b.seat != seat]
    names = _permute_leaders(rivals, seen, _told_text(seen), stream)
    bases = _redraw_bases(rivals, seen, _told_bases(seen), stream)
    _redraw_lives(new, rivals, seen, stream)
    spies = _redraw_spies(new, seat, seen, stream)
    new.seed = stream.roll(SEED_RANGE)
    new.options = _relabel_options(new.options, names, bases)
    if new.log is not None:
        seat_names = {b.seat: b.name for b in new.brotherhoods}
        new.log = _relabel_log(new.log, seat, _text_mapper(names, bases, seat_names), names,
                               spies, {b.seat: b.bid for b in new.brotherhoods})
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
    return name in text and re.search(_whole(name), text) is not None


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
    if state.spy2_declarations or not any(
            b.eliminated is not None and b.eliminated.phase == "D2"
            for b in state.brotherhoods):
        return
    news = json.dumps(seen.get("news") or [], ensure_ascii=False)
    for b in rivals:
        if not _named(b.name, news):
            b.life = stream.roll(2) - 1


def _floor(number: int) -> int:
    """The least skill spy ``number`` can have: its starting skill (recruits: 1)."""
    return STARTING_SKILLS[number - 1] if number <= len(STARTING_SKILLS) else 1


#: Tasks whose spy may have stood in another region the seat did not observe with the
#: same result: the region value that must stay alike ("work", "train"), or None for any.
_MOVABLE: dict[Task, str | None] = {Task.WORK: "work", Task.TRAIN: "train",
                                    Task.COVERT: None, Task.HIDE: None}
#: Tasks whose result does not depend on the spy's skill: such spies may trade skills.
_SKILL_FREE = frozenset({Task.TRAIN, Task.HIDE, Task.FAKE, Task.DISGUISE, Task.FOLLOW,
                         Task.RECRUIT})

#: A rival's spy as redrawn: (skill, region where it spent the last turn).
Redrawn = tuple[int, Region]


def _alike(a: Region, b: Region, value: str | None) -> bool:
    if value is None:
        return True
    return bool(getattr(a.info, value) == getattr(b.info, value))


def _least_skill(line: SpyLine) -> int:
    """The least skill the spy of ``line`` can have: its starting skill (recruits: 1),
    plus what it trained last turn."""
    trained = re.match(r"skill \+(\d+) ", line.result or "")
    gained = int(trained.group(1)) if trained and line.task and line.task.task is Task.TRAIN \
        else 0
    return _floor(line.number) + gained


def _redraw_spies(state: State, seat: str, seen: Mapping[str, Any],
                  stream: Stream) -> dict[str, dict[int, Redrawn]]:
    """Where rivals' spies stood last turn and their skills, where the seat saw nothing.

    Only spies that stood in a region the seat did not observe, with no hunter and no
    guard of their brotherhood there (those choices read who stands where), are
    redrawn; never a leader or a spy killed. A worker goes to a region of the same
    Work value, a trainer of the same Train value, a coverter or a hider anywhere:
    its result stays what it was. Workers trade skills among themselves, coverters
    too (their brotherhood's income and covertness stay), spies whose result reads no
    skill among themselves; each keeps at least its starting skill and its training.
    seat -> {spy number: (skill, region)} for every spy redrawn."""
    log = state.log
    if log is None or state.game_over is not None:
        return {}
    blocked_all = _observed(seen) | {r for r, counts in log.tasks.items()
                                     if counts.get(Task.HUNT)}
    classic = not state.spy2_search  # a classic SEARCH result does not depend on skill
    out: dict[str, dict[int, Redrawn]] = {}
    for b in state.brotherhoods:
        part = log.seats.get(b.seat)
        if b.seat == seat or b.eliminated is not None or part is None:
            continue
        blocked = blocked_all | {line.at for line in part.spies if line.at is not None
                                 and line.task is not None and line.task.task is Task.GUARD}
        lines = [line for line in part.spies
                 if line.task is not None and line.at is not None and not line.killed
                 and not line.leader and line.at not in blocked]
        spies = {spy.number: spy for spy in b.spies}
        for line in lines:
            task = line.task.task if line.task else Task.WORK
            if task in _MOVABLE:
                places = [r for r in REGIONS if r not in blocked
                          and line.at is not None and _alike(r, line.at, _MOVABLE[task])]
                spies[line.number].at = stream.choice(places)
        groups: dict[str, list[SpyLine]] = {}
        for line in lines:
            task = line.task.task if line.task else Task.WORK
            if task in (Task.WORK, Task.COVERT):
                groups.setdefault(task.value, []).append(line)
            elif task in _SKILL_FREE or (classic and task is Task.SEARCH):
                groups.setdefault("free", []).append(line)
        for key in sorted(groups):
            _trade_skills(groups[key], spies, stream)
        if lines:
            out[b.seat] = {line.number: (spies[line.number].skill,
                                         spies[line.number].at or line.at)
                           for line in lines if line.at is not None}
    return out


def _trade_skills(lines: list[SpyLine], spies: Mapping[int, Any], stream: Stream) -> None:
    """Random swaps of skill among the spies of ``lines``, each keeping its least skill."""
    if len(lines) < 2:
        return
    for line in stream.ordering(lines):
        other = lines[stream.roll(len(lines)) - 1]
        a, b = spies[line.number], spies[other.number]
        if a is not b and a.skill >= _least_skill(other) and b.skill >= _least_skill(line):
            a.skill, b.skill = b.skill, a.skill


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
    said = {f"{seat_names[seat]}'s base is in {old.label}": f"{seat_names[seat]}'s base is "
            f"in {new.label}" for seat, (old, new) in bases.items()}
    base_pattern = _alternation([re.escape(text) for text in said])
    name_pattern = _alternation([_whole(name) for name in names])
    prefix = _common_start(list(names))  # "Mr ": a quick test before the pattern

    def mapped(text: str) -> str:
        if base_pattern is not None and "'s base is in " in text:
            text = base_pattern.sub(lambda match: said[match.group(0)], text)
        if name_pattern is not None and prefix in text:
            text = name_pattern.sub(lambda match: names[match.group(0)], text)
        return text
    return mapped


def _common_start(words: list[str]) -> str:
    if not words:
        return ""
    shortest = min(words, key=len)
    end = next((i for i, letter in enumerate(shortest)
                if any(word[i] != letter for word in words)), len(shortest))
    return shortest[:end]


def _alternation(patterns: list[str]) -> re.Pattern[str] | None:
    """One pattern matching any of ``patterns``, longest first (None for none)."""
    if not patterns:
        return None
    return re.compile("|".join(sorted(patterns, key=len, reverse=True)))


def _relabel_log(log: TurnLog, seat: str, text: Callable[[str], str],
                 names: Mapping[str, str], spies: Mapping[str, Mapping[int, Redrawn]],
                 bids: Mapping[str, int]) -> TurnLog:
    """The last turn's log in the new world: the seat's own part as it was; the others'
    reports and sheets, the town's counts in unobserved regions and the host's record
    told the new names, bases, places and skills."""
    leaders = tuple(sorted((LeaderSighting(s.owner, names.get(s.name, s.name), s.region,
                                           s.skill) for s in log.leaders),
                           key=lambda s: s.name.casefold()))
    seats = {other: (part if other == seat else
                     _relabel_seat(part, text, names, spies.get(other, {})))
             for other, part in log.seats.items()}
    sheets = {other: (sheet if other == seat or sheet is None else
                      _relabel_sheet(sheet, names, spies.get(other, {})))
              for other, sheet in log.sheets.items()}
    apparent = {region: dict(counts) for region, counts in log.apparent.items()}
    tasks = {region: dict(counts) for region, counts in log.tasks.items()}
    for other, moved in spies.items():
        for line in log.seats[other].spies:
            if line.number not in moved or line.task is None or line.at is None \
                    or line.task.task is Task.HIDE:
                continue
            _count(apparent, line.at, bids[other], -1)
            _count(apparent, moved[line.number][1], bids[other], +1)
            _count(tasks, line.at, line.task.task, -1)
            _count(tasks, moved[line.number][1], line.task.task, +1)
    explain = _relabel_json(_moved_acts(log.explain, log.seats, spies), text)
    return replace(log, seats=seats, leaders=leaders, sheets=sheets, apparent=apparent,
                   tasks=tasks, explain=explain, derived={})


def _count(counts: dict[Region, dict[Any, int]], region: Region, key: Any, step: int) -> None:
    row = counts.setdefault(region, {})
    row[key] = row.get(key, 0) + step
    if row[key] == 0:
        del row[key]
        if not row:
            del counts[region]


def _moved_acts(explain: Mapping[str, Any], parts: Mapping[str, SeatLog],
                spies: Mapping[str, Mapping[int, Redrawn]]) -> dict[str, Any]:
    """The host's list of each task's acts ([seat, number, skill, region, result, …]),
    told where the redrawn spies stood, their skills and results."""
    out = dict(explain)
    listed = explain.get("tasks")
    if not spies or not isinstance(listed, Mapping):
        return out
    lines = {(seat, line.number): line for seat, part in parts.items() for line in part.spies}
    tasks: dict[str, Any] = {}
    for task, entry in listed.items():
        acts = []
        for act in entry.get("acts", ()):
            seat, number = act[0], act[1]
            moved = spies.get(seat, {}).get(number)
            line = lines.get((seat, number))
            if moved is not None and line is not None:
                skill, region = moved
                act = [seat, number, skill, region.value, _result(line, skill, region),
                       *act[5:]]
            acts.append(act)
        tasks[task] = {**entry, "acts": acts}
    out["tasks"] = tasks
    return out


def _result(line: SpyLine, skill: int, region: Region) -> str | None:
    """The result of ``line``'s task for its spy redrawn to ``skill`` in ``region``."""
    task = line.task.task if line.task else None
    if task is Task.WORK:
        return f"earned {skill + region.info.work} gp"
    if task is Task.COVERT:
        return f"covertness +{skill}"
    if task is Task.HIDE:
        return f"hid in {region.label}"
    return line.result


def _relabel_order(order: SpyOrder | None, names: Mapping[str, str],
                   region: Region | None = None) -> SpyOrder | None:
    if order is None:
        return None
    if order.leader is not None and order.leader in names:
        order = replace(order, leader=names[order.leader])
    if region is not None and order.region is not None:
        order = replace(order, region=region)
    return order


def _relabel_sheet(sheet: Sheet, names: Mapping[str, str],
                   moved: Mapping[int, Redrawn]) -> Sheet:
    spies = []
    for number, order in sheet.spies:
        where = moved[number][1] if number in moved else None
        spies.append((number, _relabel_order(order, names, where) or order))
    return Sheet(
        spies=tuple(spies),
        declarations=tuple(Declaration(d.brotherhood, names.get(d.leader, d.leader), d.region)
                           for d in sheet.declarations))


def _relabel_seat(part: SeatLog, text: Callable[[str], str], names: Mapping[str, str],
                  moved: Mapping[int, Redrawn]) -> SeatLog:
    declarations = tuple(
        replace(line, declaration=Declaration(
            line.declaration.brotherhood,
            names.get(line.declaration.leader, line.declaration.leader),
            line.declaration.region))
        for line in part.declarations)
    spies: list[SpyLine] = []
    notices = [text(notice) for notice in part.notices]
    for line in part.spies:
        if line.number in moved and line.at is not None:
            skill, region = moved[line.number]
            said = f"spy {line.number} had no orders: he worked in "
            notices = [said + region.label if notice == said + line.at.label else notice
                       for notice in notices]
            line = SpyLine(line.number, line.leader, skill, region, line.killed,
                           _relabel_order(line.task, names, region),
                           _result(line, skill, region))
        else:
            line = replace(line, task=_relabel_order(line.task, names))
        spies.append(replace(line, result=None if line.result is None else text(line.result)))
    regions = {line.number: line.at for line in spies}
    acted = [line.number for line in part.spies
             if line.task is not None and line.task.task is not Task.HIDE]
    seen = part.seen
    if len(acted) == len(seen):  # one sighting per visible act, in spy-number order
        seen = tuple(replace(sighting, region=regions[number] or sighting.region)
                     for number, sighting in zip(acted, seen, strict=True))
    return replace(part, declarations=declarations, notices=tuple(notices),
                   spies=tuple(spies), seen=seen)


def _relabel_json(value: Any, text: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {key: _relabel_json(item, text) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_relabel_json(item, text) for item in value]
    return value
