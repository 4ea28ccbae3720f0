"""Computer players for Infiltration: one agent per seat, playing whichever team it is dealt.

A bot reads only its seat's view (spec §15.4) and keeps a ``Notebook`` of what the
view told it. It answers with the §15.1 order JSON, built only from the view's
``choices`` so that ``parse_orders`` accepts it.

- **Greens** explore (Map data first), share what they saw through Anonymous
  messaging (``INTEL …``/``ACCUSE …``), check suspects at Seers, vote on evidence
  (Seer colours, attacks seen in combat reports) and attempt the win: even-ranked
  Greens fetch a Stinger and the code and storm the GHOST room, the others man the
  Power generators, and everyone stays put once in place.
- **Reds** hide in plain sight, hack information terminals, feed false INTEL, lock
  the GHOST room, and use the occupancy report to pick off lone Greens.

Strategies differ in nerve: ``operative`` is cautious, ``vigilante`` strikes first.
A bot's only randomness is ``Rng(seed).stream(turn, f"bot:{seat}:{name}")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.infiltration.model import ROOMS
from spyhouse.games.infiltration.notebook import GENERALS, GENERATOR, GHOST, LAB, Notebook

NO_LYNCH, NO_REDS_LEFT = "NO LYNCH", "NO REDS LEFT"
_INFO = ("Seer", "Psychic", "Locator", "Superlocator", "Validity check", "Map data", "History")


class Agent:
    """Shared life cycle: read the view, update the notebook, answer for the phase."""

    name: ClassVar[str] = "agent"
    #: Greens: chance to strike an untrusted lone companion first.
    aggression: ClassVar[float] = 0.0
    #: Suspicion at which a Green votes to lynch / attacks on sight.
    lynch_at: ClassVar[float] = 4.0
    kill_at: ClassVar[float] = 6.0
    #: Reds: chance to go hunting a lone player in a turn.
    hunt_rate: ClassVar[float] = 0.25
    #: Reds: turns to lie low after a kill.
    cooldown: ClassVar[int] = 5
    #: Reds: chance to strike a Green they find alone.
    strike_rate: ClassVar[float] = 0.35
    #: Greens: the turns (every n-th) on which they take up their winning positions.
    strike_every: ClassVar[int] = 2

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.notebook = Notebook()
        self._turn = -1
        self._stream: Stream | None = None
        self.shared = ""
        self.hacked: set[str] = set()
        self.last_room: str | None = None
        self.company: set[str] = set()
        self.accused: set[str] = set()

    def stream(self, turn: int) -> Stream:
        if self._stream is None or self._turn != turn:
            self._turn = turn
            self._stream = self.rng.stream(turn, f"bot:{self.seat}:{self.name}")
        return self._stream

    def chance(self, turn: int, p: float) -> bool:
        return self.stream(turn).roll(1000) <= int(p * 1000)

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
        weighted = [c for c in offered for _ in range(2 if c == "Warrior" else 1)]
        return {"class": self.stream(0).choice(weighted)}

    # ------------------------------------------------------------ movement

    def rank(self, view: Mapping[str, Any]) -> int:
        """This seat's place among the living players (seat order)."""
        return [row["seat"] for row in view["players"] if row["alive"]].index(self.seat)

    def move_green(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, me, turn = self.notebook, view["me"], int(view["turn"])
        here = me["room"]
        ghost = nb.rooms_of(GHOST)
        lab = nb.rooms_of(LAB)
        generators = nb.rooms_of(GENERATOR)
        generals = nb.rooms_of(GENERALS)
        code = nb.best_code()
        can_enter = bool(ghost) and (code is not None or nb.door_known_open())
        rank = self.rank(view)
        strike = turn % self.strike_every == 0  # the bots' convention: strike together
        assault = rank % 2 == 0 or (turn >= 8 and me["stinger"] and can_enter)
        if assault:
            if not me["stinger"] and lab:
                return self.go(here, lab[0])
            if me["stinger"] and can_enter and strike:
                return self.go(here, ghost[0], code)
            if me["stinger"] and ghost and generals and code is None:
                return self.go(here, generals[0])
        elif generators and strike:
            pick = generators[(rank // 2) % len(generators)]
            if len(generators) >= 2 or (rank // 2) % 2 == 0:
                return self.go(here, pick)
        return self.explore(view)

    def go(self, here: str, room: str, code: str | None = None) -> dict[str, Any]:
        if room == here:
            return {"ready": True}
        order: dict[str, Any] = {"move": room, "ready": True}
        if code is not None:
            order["code"] = code
        return order

    def explore(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Visit a Map data terminal, share news at a messaging terminal, or an unknown room."""
        nb, turn, here = self.notebook, int(view["turn"]), view["me"]["room"]
        stream = self.stream(turn)
        avoid = set(nb.guard_plan.values()) if nb.guard_plan_turn == turn - 1 else set()
        unknown = [r for r in nb.unknown_rooms() if r not in avoid]
        maps = [r for r in nb.rooms_of("Map data") if r not in nb.broken and r not in avoid]
        if maps and len(unknown) >= 5 and self.chance(turn, 0.7):
            return self.go(here, maps[0] if maps[0] != here or len(maps) == 1 else maps[1])
        news = nb.intel_message(view["options"]["message_max_chars"])
        relays = [r for r in nb.rooms_of("Anonymous messaging") if r not in nb.broken]
        accuse = view["me"]["team"] == "green" and any(
            c == "RED" and nb.alive.get(s, False) and s not in self.accused
            for s, c in sorted(nb.colour.items()))
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
        if not self.may_kill(turn):  # lie low early on and after a kill
            return self.explore(view)
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
        return self.explore(view)

    # ------------------------------------------------------------ decision

    def decide_green(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, me, turn = self.notebook, view["me"], int(view["turn"])
        choices = view["choices"]
        kill = []
        people = [x for x in choices["kill"] if x in nb.names]
        for target in choices["kill"]:
            guard = target.startswith("Guard-") and me["class"] != "Sneaker"
            evidence = target in nb.names and (nb.colour.get(target) == "RED"
                                               or nb.suspicion.get(target, 0.0) >= self.kill_at)
            if guard or evidence:
                kill.append(target)
        arrival = view.get("arrival") or {}
        newcomers = [x for x in people if x not in self.company]
        nerve = self.aggression if me["class"] == "Warrior" else 0.0
        stayed = arrival.get("room") == self.last_room
        if (len(people) == 1 and newcomers and stayed and people[0] not in kill
                and not nb.trusted(people[0]) and self.chance(turn, nerve)):
            kill.append(people[0])
        order: dict[str, Any] = {"vote": self.green_vote(view), "ready": True}
        if kill:
            order["kill"] = kill
        terminal = self.green_terminal(view)
        if terminal is not None:
            order["terminal"] = terminal
        return order

    def green_vote(self, view: Mapping[str, Any]) -> str:
        nb, turn = self.notebook, int(view["turn"])
        options: list[str] = [str(x) for x in view["choices"]["vote"]
                              if x not in (NO_LYNCH, NO_REDS_LEFT)]
        red_count = view.get("red_count")
        dead_reds = sum(1 for seat, colour in nb.colour.items()
                        if colour == "RED" and not nb.alive.get(seat, True))
        psychic = nb.reds_alive_estimate(turn)
        if (red_count is not None and dead_reds >= red_count) or (
                psychic == 0 and not any(nb.colour.get(x) == "RED" for x in options)):
            return NO_REDS_LEFT
        scored = sorted(options, key=lambda s: (-nb.suspicion.get(s, 0.0), s))
        if scored and nb.suspicion.get(scored[0], 0.0) >= self.lynch_at:
            return scored[0]
        backed: dict[str, int] = {}
        for _, choice in nb.last_votes:
            if choice is not None and choice in options:
                backed[choice] = backed.get(choice, 0) + 1
        wagon = sorted(backed, key=lambda s: (-backed[s], s))
        if wagon and backed[wagon[0]] >= 3 and nb.suspicion.get(wagon[0], 0.0) >= 2.0 \
                and not nb.trusted(wagon[0]):
            return wagon[0]
        return NO_LYNCH

    def green_terminal(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        nb, turn = self.notebook, int(view["turn"])
        info = view["choices"]["terminal"]
        actions, kind = info["actions"], info["type"]
        if "RESTORE" in actions:
            return {"action": "RESTORE"}
        if "USE" not in actions:
            return None
        stream = self.stream(turn)
        if kind == "Seer" and not nb.seer_checked(view["me"]["room"], turn) \
                and self.chance(turn, 0.5):
            return {"action": "USE", "player": self.seat}  # test the terminal on oneself
        if kind == "Seer":
            living = [row["seat"] for row in view["players"]
                      if row["alive"] and row["seat"] != self.seat]
            unchecked = [s for s in living if s not in nb.colour] or living
            target = max(sorted(unchecked), key=lambda s: nb.suspicion.get(s, 0.0))
            return {"action": "USE", "player": target}
        if kind == "Map data":
            unknown = nb.unknown_rooms()
            if not unknown:
                return None
            return {"action": "USE", "rooms": stream.ordering(unknown)[:5]}
        if kind == "Anonymous messaging":
            return self.share(view)
        if kind == "Validity check":
            return self.verify(view)
        if kind == "History":
            rooms = nb.unsolved_rooms()
            if rooms:
                nb.pending_history = rooms[0]
                return {"action": "USE", "room": rooms[0]}
            return None
        if kind == "Locator":
            lost = [s for s in sorted(nb.death_turn) if s not in nb.corpse_room]
            if lost:
                return {"action": "USE", "player": lost[-1]}
            return None
        if kind in ("Psychic", "Superlocator", "Guard"):
            return {"action": "USE"}
        return None

    def share(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        nb = self.notebook
        limit = int(view["options"]["message_max_chars"])
        news = nb.intel_message(limit)
        if news and news != self.shared:
            self.shared = news
            return {"action": "USE", "text": news}
        reds = [nb.names[s] for s in sorted(nb.colour) if nb.colour[s] == "RED"
                and nb.alive.get(s, False)]
        self.accused.update(s for s in nb.colour if nb.colour[s] == "RED")
        if reds:
            text = ("ACCUSE " + " ".join(reds))[:limit].strip()
            return {"action": "USE", "text": text}
        return None

    def verify(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        nb = self.notebook
        code = nb.best_code()
        if code is not None and nb.code is None:
            nb.pending_statement = f"CODE IS {code}"
            return {"action": "USE", "statement": nb.pending_statement}
        ghost = [r for r in nb.rooms_of(GHOST) if r not in nb.seen]
        if ghost:
            nb.pending_statement = f"{ghost[0]} HAS GHOSTROOM"
            return {"action": "USE", "statement": nb.pending_statement}
        return None

    def decide_red(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, turn = self.notebook, int(view["turn"])
        choices = view["choices"]
        reds = set(nb.reds)
        present = [x for x in choices["kill"] if x in nb.names]
        greens = [x for x in present if x not in reds]
        allies = 1 + sum(1 for x in present if x in reds)
        kill = [x for x in choices["kill"] if x.startswith("Guard-")]
        if greens and len(greens) <= allies and (
                (self.may_kill(turn) and self.chance(turn, self.strike_rate))
                or any(g in nb.attacked_me for g in greens)):
            kill += greens
        order: dict[str, Any] = {"vote": self.red_vote(view), "ready": True}
        if kill:
            order["kill"] = kill
        terminal = self.red_terminal(view)
        if terminal is not None:
            order["terminal"] = terminal
        return order

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


class Operative(Agent):
    """Cautious: strikes only at evidence, hacks often, hunts now and then."""

    name: ClassVar[str] = "operative"


class Vigilante(Agent):
    """Strikes first: attacks untrusted company, lynches on thinner evidence, hunts more."""

    name: ClassVar[str] = "vigilante"
    aggression: ClassVar[float] = 0.4
    lynch_at: ClassVar[float] = 3.0
    kill_at: ClassVar[float] = 4.0
    hunt_rate: ClassVar[float] = 0.4
    cooldown: ClassVar[int] = 4
    strike_rate: ClassVar[float] = 0.5


STRATEGIES: dict[str, type[Agent]] = {"operative": Operative, "vigilante": Vigilante}


def make_bot(name: str, seat: str, seed: int) -> Agent:
    """A fresh bot playing strategy ``name`` in ``seat``."""
    return STRATEGIES[name](seat, seed)
