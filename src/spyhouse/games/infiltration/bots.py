"""Computer players for Infiltration: one agent per seat, playing whichever team it is dealt.

A bot reads only its seat's view (spec §15.4) and keeps a ``Notebook`` of what the
view told it. It answers with the §15.1 order JSON, built only from the view's
``choices`` so that ``parse_orders`` accepts it.

- **Greens** (``bot_green.GreenPlay``) learn the facility (Map data with a control
  room), share what they know for certain through Anonymous messaging (``INTEL``,
  ``ACCUSE x KILLED v IN room ON TURN n``), judge every message against what they
  saw, vote on evidence (History of the dead, Seer colours, fitting accusations,
  which they test at a Validity check: ``x WAS IN room ON TURN n``) and, once
  ready, strike together: a rotation computed from the public roster and the turn
  sends each to the GHOST room or a Power generator.
- **Reds** hide in plain sight, hack information terminals, feed false INTEL, pin
  their kills on Greens seen nearby (``frame``: a claim that looks checkable), lock
  the GHOST room, gas the Greens' manned posts, and use the occupancy report to
  pick off lone Greens. In larger games some of them guard the Greens' posts
  (``bot_red``): with many Greens, a strike is where the Reds can reach them.

Strategies differ in nerve: ``operative`` is cautious, ``vigilante`` strikes first.
A bot's only randomness is ``Rng(seed).stream(turn, f"bot:{seat}:{name}")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spyhouse.games.infiltration.bot_green import (
    NO_LYNCH,
    NO_REDS_LEFT,
    GreenPlay,
    decision_order,
)
from spyhouse.games.infiltration.bot_red import duty_post, posts
from spyhouse.games.infiltration.model import ROOMS
from spyhouse.games.infiltration.notebook import GENERATOR, GHOST

_INFO = ("Seer", "Psychic", "Locator", "Superlocator", "Validity check", "Map data", "History")


class Agent(GreenPlay):
    """Shared life cycle: read the view, update the notebook, answer for the phase.

    The Green play lives in ``GreenPlay`` (``bot_green``); the Red play is here."""

    #: Reds: chance to go hunting a lone player in a turn.
    hunt_rate: ClassVar[float] = 0.25
    #: Reds: turns to lie low after a kill.
    cooldown: ClassVar[int] = 5
    #: Reds: chance to strike a Green they find alone.
    strike_rate: ClassVar[float] = 0.35
    #: Reds: chance to head for a Gas terminal while the Greens' posts are manned.
    gas_rate: ClassVar[float] = 0.6
    #: Reds: living Greens from which one Red guards the Greens' posts (``bot_red``) ...
    guard_start: ClassVar[int] = 7
    #: ... and how many more Greens bring out one more guard.
    guard_per: ClassVar[int] = 4
    #: Greens: class weights (Warrior, Hacker, Sneaker) for the class phase.
    class_weights: ClassVar[dict[str, int]] = {"Warrior": 2, "Hacker": 1, "Sneaker": 1}

    #: Reds: chance to post a framing ``ACCUSE g KILLED v IN room ON TURN n`` when one fits,
    #: blaming a Green seen in the room then (reach 0) or within a turn of it (reach 1). At
    #: 0.6 Greens lynched more Greens than Reds; witnesses alone (reach 0) are rarely there.
    frame_rate: ClassVar[float] = 0.3
    frame_reach: ClassVar[int] = 1

    def __init__(self, seat: str, seed: int) -> None:
        super().__init__(seat, seed)
        self.hacked: set[str] = set()
        self.framed: set[str] = set()  # victims this Red has already pinned on a Green

    def act(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        if view.get("result") is not None or not view.get("awaited") or "me" not in view:
            return None
        self.notebook.update(view)
        phase = view["phase"]
        if phase == "movement":
            arrival = view.get("arrival") or {}
            self.last_room = arrival.get("room")
            self.company = set(arrival.get("players") or ())
        if phase == "class":
            return self.choose_class(view)
        if phase == "movement":
            red = view["me"]["team"] == "red"
            return self.move_red(view) if red else self.move_green(view)
        if phase == "decision":
            red = view["me"]["team"] == "red"
            return self.decide_red(view) if red else self.decide_green(view)
        return None

    # ------------------------------------------------------------ class selection

    def choose_class(self, view: Mapping[str, Any]) -> dict[str, Any]:
        offered = list(view["choices"].get("classes") or [])
        if not offered:
            return {}
        weighted = [c for c in offered for _ in range(self.class_weights.get(c, 1))] or offered
        return {"class": self.stream(0).choice(weighted)}

    # ------------------------------------------------------------ movement

    def wander(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """A Red passing as a Green: Map data, a messaging terminal, a Seer or an unknown room."""
        nb, turn, here = self.notebook, int(view["turn"]), view["me"]["room"]
        stream = self.stream(turn)
        avoid = set(nb.guard_plan.values()) if nb.guard_plan_turn == turn - 1 else set()
        unknown = [r for r in nb.unknown_rooms() if r not in avoid]
        maps = [r for r in nb.rooms_of("Map data") if r not in nb.broken and r not in avoid]
        if maps and len(unknown) >= 5 and self.chance(turn, 0.7):
            return self.go(here, maps[0] if maps[0] != here or len(maps) == 1 else maps[1])
        news = nb.intel_message(view["options"]["message_max_chars"])
        relays = [r for r in nb.rooms_of("Anonymous messaging") if r not in nb.broken]
        red = view["me"]["team"] == "red"
        accuse = (not red and any(
            c == "RED" and nb.alive.get(s, False) and s not in self.accused
            for s, c in sorted(nb.colour.items()))) or (
            red and self.frame_rate > 0 and self.frame(view) is not None)
        if ((news and news != self.shared) or accuse) and relays and self.chance(turn, 0.6):
            return self.go(here, stream.choice(relays))
        seers = [r for r in nb.rooms_of("Seer") if r not in nb.broken and r not in avoid]
        unchecked = [row["seat"] for row in view["players"] if row["alive"]
                     and row["seat"] != self.seat and row["seat"] not in nb.colour]
        if seers and unchecked and self.chance(turn, 0.3):
            return self.go(here, stream.choice(seers))
        if unknown:
            return self.go(here, stream.choice(unknown))
        return self.go(here, stream.choice([r for r in ROOMS if r not in avoid] or list(ROOMS)))

    def move_red(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, turn, here = self.notebook, int(view["turn"]), view["me"]["room"]
        stream = self.stream(turn)
        post = duty_post(view, nb, self.guard_start, self.guard_per)
        if post is not None:  # this Red's turn to guard a post of the Greens
            code = None if nb.door_known_open() else nb.green_code()
            return self.go(here, post, code if post in nb.believed_rooms(GHOST) else None)
        busy = [room for room, count in nb.occupancy
                if count >= 2 and nb.feature_of(room) in (GHOST, GENERATOR)]
        gas = [r for r in ROOMS if nb.feature_of(r) == "Gas" and r not in nb.broken]
        if self.gas_rate and busy and gas and here not in gas \
                and self.chance(turn, self.gas_rate):
            return self.go(here, stream.choice(gas))  # the Greens gather: gas them
        if not self.may_kill(turn):  # lie low early on and after a kill
            return self.wander(view)
        lone = [room for room, count in nb.occupancy if count == 1 and room != here]
        crowd = [room for room, count in nb.occupancy
                 if nb.feature_of(room) in (GHOST, GENERATOR) and room != here]
        if crowd and self.chance(turn, self.hunt_rate):
            return self.go(here, stream.choice(crowd))
        if lone and self.chance(turn, self.hunt_rate):
            return self.go(here, stream.choice(lone))
        targets = [r for r in ROOMS if nb.seen.get(r) in ("Seer", "Psychic", "Validity check")
                   and r not in self.hacked and r not in nb.broken and r != here]
        if targets and self.chance(turn, 0.5):
            return self.go(here, stream.choice(targets))
        return self.wander(view)

    # ------------------------------------------------------------ decision

    def decide_red(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, turn = self.notebook, int(view["turn"])
        choices = view["choices"]
        reds = set(nb.reds)
        present = [x for x in choices["kill"] if x in nb.names]
        greens = [x for x in present if x not in reds]
        allies = 1 + sum(1 for x in present if x in reds)
        kill = [x for x in choices["kill"] if x.startswith("Guard-")]
        here = view["me"]["room"]
        if greens and here in posts(nb) and duty_post(
                view, nb, self.guard_start, self.guard_per) is not None:
            kill += greens  # a post guard empties the post: no Green holds it this turn
        elif greens and len(greens) <= allies and (
                (self.may_kill(turn) and self.chance(turn, self.strike_rate))
                or any(g in nb.attacked_me for g in greens)):
            kill += greens
        return decision_order(self.red_vote(view), kill, self.red_terminal(view))

    def may_kill(self, turn: int) -> bool:
        return turn >= 3 and turn - self.notebook.last_kill >= self.cooldown

    def red_vote(self, view: Mapping[str, Any]) -> str:
        nb = self.notebook
        living = len([row for row in view["players"] if row["alive"]])
        no_reds = sum(1 for _, choice in nb.last_votes if choice == NO_REDS_LEFT)
        if nb.last_votes and no_reds * 2 >= living:
            return NO_REDS_LEFT
        reds = set(nb.reds)
        options = [str(x) for x in view["choices"]["vote"]
                   if x not in (NO_LYNCH, NO_REDS_LEFT) and x not in reds]
        scored = sorted(options, key=lambda s: (-nb.suspicion.get(s, 0.0), s))
        if scored and nb.suspicion.get(scored[0], 0.0) >= 2.0:
            return scored[0]
        return NO_LYNCH

    def red_terminal(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        nb, turn, here = self.notebook, int(view["turn"]), view["me"]["room"]
        info = view["choices"]["terminal"]
        actions, kind = info["actions"], info["type"]
        if "USE" not in actions:
            return None
        stream = self.stream(turn)
        ghost = nb.rooms_of(GHOST)
        if kind in _INFO and here not in self.hacked and self.chance(turn, 0.7):
            self.hacked.add(here)
            return {"action": "HACK"}
        if kind == "Electronic lock" and ghost:
            return {"action": "USE", "room": ghost[0]}
        if kind == "Gas":
            busy = [room for room, count in nb.occupancy
                    if count >= 2 and room != here and nb.feature_of(room) in (GHOST, GENERATOR)]
            if busy:
                return {"action": "USE", "room": stream.choice(busy)}
            return None
        if kind == "Anonymous messaging":
            return {"action": "USE", "text": self.lie(view)}
        if kind == "Commander's" and ghost:
            return {"action": "USE", "guards": {f"Guard-{ghost[0][0]}": ghost[0]}}
        if kind in ("Guard", "Psychic", "Superlocator"):
            return {"action": "USE"}
        if kind == "Map data":
            unknown = nb.unknown_rooms()
            return {"action": "USE", "rooms": stream.ordering(unknown)[:5]} if unknown else None
        return None

    def lie(self, view: Mapping[str, Any]) -> str:
        """False INTEL (a wrong GHOST room and code) or an accusation of a Green."""
        nb, turn = self.notebook, int(view["turn"])
        stream = self.stream(turn)
        framing = self.frame(view)
        if framing is not None and self.chance(turn, self.frame_rate):
            self.framed.add(framing[0])
            return framing[1]
        greens = [row["handle"] for row in view["players"]
                  if row["alive"] and row["seat"] not in set(nb.reds)]
        if greens and self.chance(turn, 0.5):
            return f"ACCUSE {stream.choice(greens)}"
        truth = set(nb.rooms_of(GHOST))
        room = stream.choice([r for r in ROOMS if r not in truth])
        code = f"{stream.roll(10_000) - 1:04d}"
        if nb.code is not None and code == nb.code:
            code = f"{(int(code) + 1) % 10_000:04d}"
        return f"INTEL GHOST={room} CODE={code}"

    def frame(self, view: Mapping[str, Any]) -> tuple[str, str] | None:
        """A killing to pin on a Green, as ``(victim, message)``: the latest public death
        this Red can place (its own kill, a corpse it saw) not framed yet, blamed on the
        Green it saw nearest to it. A witness in the room on that turn is best: the
        Validity check Greens put the claim to then answers TRUE."""
        nb, limit = self.notebook, int(view["options"]["message_max_chars"])
        reds = set(nb.reds)
        deaths = sorted(((t, s) for s, t in nb.death_turn.items()
                         if s not in reds and s not in self.framed), reverse=True)
        living = [str(row["seat"]) for row in view["players"]
                  if row["alive"] and row["seat"] not in reds]
        for turn, victim in deaths[:2]:
            room = nb.kills_seen.get(victim, (nb.corpse_room.get(victim), turn))[0]
            if room is None or victim not in nb.names:
                continue
            def nearness(seat: str, turn: int = turn, room: str = room) -> tuple[int, str]:
                seen = nb.sightings.get(seat, [])
                if (turn, room) in seen:
                    return 0, seat
                if any(abs(t - turn) <= 1 for t, _ in seen):
                    return 1, seat
                return 2, seat
            suspects = sorted((s for s in living if s in nb.names), key=nearness)
            if not suspects or nearness(suspects[0])[0] > self.frame_reach:
                continue
            text = (f"ACCUSE {nb.names[suspects[0]]} KILLED {nb.names[victim]} "
                    f"IN {room} ON TURN {turn}")
            if len(text) <= limit:
                return victim, text
        return None


class Operative(Agent):
    """Cautious: strikes only at evidence, hacks often, hunts now and then."""

    name: ClassVar[str] = "operative"


class Vigilante(Agent):
    """Strikes first: attacks untrusted company, lynches on thinner evidence, hunts more."""

    name: ClassVar[str] = "vigilante"
    aggression: ClassVar[float] = 0.4
    cautious: ClassVar[bool] = False
    lynch_at: ClassVar[float] = 3.0
    kill_at: ClassVar[float] = 4.0
    hunt_rate: ClassVar[float] = 0.4
    cooldown: ClassVar[int] = 4
    strike_rate: ClassVar[float] = 0.5


STRATEGIES: dict[str, type[Agent]] = {"operative": Operative, "vigilante": Vigilante}


def make_bot(name: str, seat: str, seed: int) -> Agent:
    """A fresh bot playing strategy ``name`` in ``seat``."""
    return STRATEGIES[name](seat, seed)
