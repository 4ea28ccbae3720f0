"""Benchmark: every page and API answer of a big Spy vs Spy game, on a real server.

The script prepares, in a child process (its memory is not the measured server's), a
started Spy vs Spy game of ``--brotherhoods`` brotherhoods on a real database: a fresh
SQLite file in a temporary folder by default, or the database of ``--db URL``
(migrated; a new game is added to it). Everything goes through the service layer, as
the server itself would do it: the host is a user who holds no seat (the moderator
of ``/games/{id}/host``), ``--humans`` users join (no orders: no-shows), the other seats
are computer players (``--bot``, inserted in bulk as ``games.add_bot`` inserts one),
``games.start_game`` snapshots turn 0 and fills the bots' orders, and one turn is
processed (``turns.process_turn`` at the deadline, then ``turns.move_bots``, as the worker
runs them: the server's own worker finds nothing to do while pages are timed). The child
then opens a log-in session (``accounts.open_session``) for the first seat holder and
for the host, and an API token for the seat (``play.create_token``).

The parent starts the real server (``python -m spyhouse serve --db URL`` on 127.0.0.1
and a free port, demo off, no SMTP) and GETs, as the identity each needs, every page
and API answer of the game (``ROUTES``): the lobby, the game page, the seat page, the
seat's reports (current, turn 0, turn 1 by its path, the paged Brotherhood Report),
its board state JSON, its tokens and mail pages, the host page (current, its two
paged tables' second pages, and turn 0),
and the API's seat, game, view, reports, orders and posts. Each is requested once to
warm up, then ``--repeat`` times (default 5) one after the other; it prints per route
the status, the bytes and the median and max milliseconds.

With ``--split`` it then measures, in this process, where each route's time goes
(the app of ``spyhouse serve`` under Starlette's test client, on the same database):
reading the stored view (``service.play``'s ``current_view``, ``report``,
``host_view``, ``public_view``: the database read and the JSON decode), rendering
the template (``TemplateResponse``), encoding JSON (``JSONResponse.render``), and
the rest (the other queries, building the page's context, the API's models).

JSON goes to ``bench/results/big_game_pages_<N>.json``; the last line printed is
``RESULT brotherhoods=<N> slowest_ms=<max median> slowest=<route> over_1s=<count>``.
Every answer must be 200: the script exits 1 otherwise.

    python bench/big_game_pages.py [--brotherhoods 1000] [--humans 10] [--db URL]
        [--repeat 5] [--split]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2

import spyhouse
from benchgame import PASSWORD, add_bots_and_start, migrated, prepare_in_child
from spyhouse.service import accounts, games, play, turns
from spyhouse.store.db import is_sqlite, transaction
from spyhouse.web.deps import SESSION_COOKIE
from web_orders import free_port, start_server, stop_server, wait_until_up

RESULTS = Path(__file__).resolve().parent / "results"
REQUEST_TIMEOUT_S = 180.0
BUDGET_MS = 1000.0
SLOW_S = 5.0


# ---------------------------------------------------------------- prepare (child process)


def prepare(database_url: str, brotherhoods: int, humans: int, bot: str) -> dict[str, Any]:
    """A started game, one turn processed; the game id and the identities' credentials."""
    with migrated(database_url) as (factory, settings):
        now = datetime.now(UTC)
        stamp = f"{os.getpid()}t{int(time.time())}"
        with transaction(factory) as db:
            host = accounts.sign_up(db, f"h{stamp}", f"h{stamp}@example.org", PASSWORD, now)
            users = [accounts.sign_up(db, f"p{stamp}u{i}", f"p{stamp}u{i}@example.org",
                                      PASSWORD, now) for i in range(1, humans + 1)]
            game = games.create_game(db, host, game="spyvsspy",
                                     title=f"Big game ({brotherhoods} brotherhoods)",
                                     options={"base_choice": "random"},
                                     schedule={"interval_hours": 48}, max_seats=None, now=now)
            for i, user in enumerate(users, start=1):
                games.join_game(db, user, game.id, name=f"Player Brotherhood {i:04d}",
                                player=user.username, show_email=i % 2 == 0, now=now)
            deadline = add_bots_and_start(db, game, host, first=humans + 1,
                                          last=brotherhoods, bot=bot,
                                          name="Computer Brotherhood", now=now,
                                          settings=settings)
            game_id, due = game.id, deadline + timedelta(seconds=1)
        began = time.perf_counter()
        with transaction(factory) as db:
            if not turns.process_turn(db, game_id, due, settings=settings):
                raise RuntimeError(f"game {game_id} was not processed")
        turn_s = time.perf_counter() - began
        if hasattr(turns, "move_bots"):  # as the worker does next: the bots' next orders,
            with transaction(factory) as db:  # so the server's worker has nothing to do
                turns.move_bots(db, game_id, due)
        with transaction(factory) as db:
            seat_user = db.merge(users[0])
            seat = play.seat_of_user(db, seat_user, game_id)
            return {
                "game_id": game_id, "seat_id": seat.seat_id, "turn_s": turn_s,
                "seat_cookie": accounts.open_session(db, seat_user, now, settings)[0],
                "host_cookie": accounts.open_session(db, db.merge(host), now, settings)[0],
                "token": play.create_token(db, seat, "bench", now),
            }


# ---------------------------------------------------------------- the routes


@dataclass(frozen=True, slots=True)
class Route:
    name: str
    path: str
    who: str  # "seat" (the seat holder's session), "host" (the host's), "token" (API)


def routes(game_id: int) -> list[Route]:
    """Every page and API answer of the game, with the identity that may read it."""
    g = f"/games/{game_id}"
    a = f"/api/v1/games/{game_id}"
    return [
        Route("lobby", "/lobby", "seat"),
        Route("lobby (host)", "/lobby", "host"),
        Route("game", g, "seat"),
        Route("game (host)", g, "host"),
        Route("game page 2", f"{g}?rows=2", "seat"),
        Route("seat", f"{g}/seat", "seat"),
        Route("report", f"{g}/report", "seat"),
        Route("report page 2", f"{g}/report?rows=2", "seat"),
        Route("report all rows", f"{g}/report?rows=all", "seat"),
        Route("report 1", f"{g}/report/1", "seat"),
        Route("report 0", f"{g}/report/0", "seat"),
        Route("notebook", f"{g}/notebook", "seat"),
        Route("state", f"{g}/state", "seat"),
        Route("tokens", f"{g}/tokens", "seat"),
        Route("mail", "/mail", "seat"),
        Route("host", f"{g}/host", "host"),
        Route("host page 2", f"{g}/host?rows=2", "host"),
        Route("host seats page 2", f"{g}/host?brotherhoods=2", "host"),
        Route("host 0", f"{g}/host/0", "host"),
        Route("api seat", "/api/v1/seat", "token"),
        Route("api game", a, "token"),
        Route("api view", f"{a}/view", "token"),
        Route("api report 1", f"{a}/reports/1", "token"),
        Route("api report 0", f"{a}/reports/0", "token"),
        Route("api orders", f"{a}/orders", "token"),
        Route("api posts", f"{a}/posts", "token"),
    ]


def headers_for(route: Route, made: dict[str, Any]) -> dict[str, str]:
    if route.who == "token":
        return {"Authorization": f"Bearer {made['token']}"}
    cookie = made["seat_cookie"] if route.who == "seat" else made["host_cookie"]
    return {"Cookie": f"{SESSION_COOKIE}={cookie}"}


# ---------------------------------------------------------------- over HTTP


def get(client: httpx2.Client, route: Route, headers: dict[str, str]
        ) -> tuple[int, int, float]:
    """(status, bytes, ms) of one request; status 0 when it got no answer in time."""
    sent = time.perf_counter()
    try:
        response = client.get(route.path, headers=headers)
    except httpx2.HTTPError:
        return 0, 0, (time.perf_counter() - sent) * 1000
    return response.status_code, len(response.content), (time.perf_counter() - sent) * 1000


def time_routes(base_url: str, made: dict[str, Any], repeat: int,
                timeout_s: float) -> list[dict[str, Any]]:
    """Each route: one warm-up request, then ``repeat`` timed ones (none more once a
    request of the route got no answer within ``timeout_s``)."""
    figures = []
    with httpx2.Client(base_url=base_url, timeout=timeout_s) as client:
        for route in routes(int(made["game_id"])):
            headers = headers_for(route, made)
            status, size, warm_ms = get(client, route, headers)
            times, statuses, sizes = [], {status}, {size}
            for _ in range(repeat if status else 0):
                status, size, ms = get(client, route, headers)
                times.append(ms)
                statuses.add(status)
                sizes.add(size)
                if not status:
                    break
            times = times or [warm_ms]
            figures.append({"route": route.name, "path": route.path, "who": route.who,
                            "status": sorted(statuses), "bytes": max(sizes),
                            "median_ms": round(statistics.median(times), 1),
                            "max_ms": round(max(times), 1)})
            print(f"  {route.name:<18} {','.join(map(str, sorted(statuses))):>5} "
                  f"{max(sizes):>10} {statistics.median(times):>9.1f} {max(times):>9.1f}",
                  flush=True)
    return figures


# ---------------------------------------------------------------- where the time goes


class Split:
    """Seconds spent in each wrapped step, per request."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.depth = 0

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        self.depth += 1
        began = time.perf_counter()
        try:
            yield
        finally:
            self.depth -= 1
            if self.depth == 0:  # an outer part holds the time of an inner one
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - began

    def wrap(self, owner: Any, attribute: str, name: str) -> None:
        original: Callable[..., Any] = getattr(owner, attribute)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.part(name):
                return original(*args, **kwargs)

        setattr(owner, attribute, timed)


def split_routes(database_url: str, made: dict[str, Any], repeat: int,
                 skip: Sequence[str] = ()) -> dict[str, Any]:
    """Each route in this process: read view / render / encode JSON / the rest (ms); a
    route of ``skip`` (no answer over HTTP) is left out, one slower than ``SLOW_S`` is
    timed once."""
    from fastapi.templating import Jinja2Templates
    from fastapi.testclient import TestClient
    from starlette.responses import JSONResponse

    from spyhouse.clock import SystemClock
    from spyhouse.settings import Settings
    from spyhouse.store.db import make_engine
    from spyhouse.web.app import create_app

    split = Split()
    for attribute in ("current_view", "report", "host_view", "public_view"):
        split.wrap(play, attribute, "read view")
    split.wrap(Jinja2Templates, "TemplateResponse", "render template")
    split.wrap(JSONResponse, "render", "encode JSON")
    settings = Settings(database_url=database_url, demo=False, smtp_host=None)
    engine = make_engine(database_url)
    parts: dict[str, Any] = {}
    try:
        app = create_app(settings, SystemClock(), start_worker=False, engine=engine)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            for route in routes(int(made["game_id"])):
                if route.name in skip:
                    continue
                headers = headers_for(route, made)
                began = time.perf_counter()
                client.get(route.path, headers=headers)
                slow = time.perf_counter() - began > SLOW_S
                runs = []
                for _ in range(1 if slow else repeat):
                    split.seconds = {}
                    began = time.perf_counter()
                    client.get(route.path, headers=headers)
                    total = time.perf_counter() - began
                    named = dict(split.seconds)
                    named["rest"] = max(0.0, total - sum(named.values()))
                    named["total"] = total
                    runs.append(named)
                keys = sorted({key for run in runs for key in run})
                parts[route.name] = {key: round(statistics.median(
                    [run.get(key, 0.0) * 1000 for run in runs]), 1) for key in keys}
                shown = ", ".join(f"{key} {value:.0f}" for key, value in parts[route.name].items()
                                  if key != "total")
                print(f"  {route.name:<18} {parts[route.name]['total']:>8.0f} ms: {shown}",
                      flush=True)
    finally:
        engine.dispose()
    return parts


# ---------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--brotherhoods", type=int, default=1000, help="seats of the game")
    parser.add_argument("--humans", type=int, default=10, help="seats of players")
    parser.add_argument("--bot", default="economist", help="the other seats' computer player")
    parser.add_argument("--db", default=None,
                        help="database URL (default: a SQLite file in a temporary folder)")
    parser.add_argument("--repeat", type=int, default=5, help="timed requests per route")
    parser.add_argument("--timeout", type=float, default=REQUEST_TIMEOUT_S,
                        help="seconds a request may take (status 0: no answer in time)")
    parser.add_argument("--split", action="store_true",
                        help="also measure where each route's time goes, in this process")
    parser.add_argument("--out", type=Path, default=None, help="JSON results file")
    parser.add_argument("--server-log", type=Path, default=None,
                        help="keep a copy of the server's output here")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 2 <= args.brotherhoods <= 10_000 or not 1 <= args.humans <= args.brotherhoods:
        parser.error("--brotherhoods from 2 to 10000, --humans from 1 to --brotherhoods")
    if not 1 <= args.repeat <= 100:
        parser.error("--repeat from 1 to 100")

    if args.prepare:  # the child: print what the parent needs as one JSON line
        print(json.dumps(prepare(args.db, args.brotherhoods, args.humans, args.bot)))
        return 0

    with tempfile.TemporaryDirectory(prefix="spyhouse-pages-") as folder:
        database_url = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
        db_kind = "sqlite" if is_sqlite(database_url) else "postgresql"
        began = time.perf_counter()
        made = prepare_in_child(__file__, args.brotherhoods, args.humans, args.bot,
                                database_url)
        if made is None:
            return 1
        print(f"prepared game {made['game_id']} on {db_kind}: {args.brotherhoods} brotherhoods "
              f"({args.humans} players, {args.brotherhoods - args.humans} x {args.bot}), "
              f"started, one turn processed ({made['turn_s']:.1f} s; "
              f"{time.perf_counter() - began:.1f} s in all, in a child process)", flush=True)
        log = Path(folder) / "server.log"
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        server = start_server(database_url, port, log)
        try:
            wait_until_up(server, base_url, log)
            print(f"server up on {base_url}; each route: 1 warm-up, {args.repeat} timed")
            print(f"  {'route':<18} {'status':>5} {'bytes':>10} {'median ms':>9} {'max ms':>9}")
            figures = time_routes(base_url, made, args.repeat, args.timeout)
        finally:
            stop_server(server)
            if args.server_log is not None:
                args.server_log.parent.mkdir(parents=True, exist_ok=True)
                args.server_log.write_bytes(log.read_bytes())
        parts: dict[str, Any] = {}
        if args.split:
            print("where the time goes (in this process, median ms):")
            parts = split_routes(database_url, made, args.repeat,
                                 skip=[f["route"] for f in figures if 0 in f["status"]])

    load = os.getloadavg()
    print(f"load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    failed = [f["route"] for f in figures if f["status"] != [200]]
    slowest = max(figures, key=lambda f: f["median_ms"])
    over = [f["route"] for f in figures if f["median_ms"] > BUDGET_MS]
    result = {
        "benchmark": "big_game_pages",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "spyhouse": str(Path(spyhouse.__file__).parent),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "load_average_after": load,
        "database": db_kind, "brotherhoods": args.brotherhoods, "humans": args.humans,
        "bot": args.bot, "repeat": args.repeat, "turn_s": made["turn_s"],
        "routes": figures, "split_ms": parts, "not_200": failed, "over_1s": over,
    }
    out = args.out or RESULTS / f"big_game_pages_{args.brotherhoods}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"results: {out}")
    if failed:
        print(f"not 200: {', '.join(failed)}")
    print(f"RESULT brotherhoods={args.brotherhoods} slowest_ms={slowest['median_ms']:.0f} "
          f"slowest={slowest['route'].replace(' ', '_')} over_1s={len(over)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
