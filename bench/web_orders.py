"""Benchmark: orders, the seat's view, the seat page and /healthz on a real server.

The script prepares a database (migrated, then through the service layer: one
user per seat, a Spy vs Spy game with ``--seats`` seats, started, one API token
and one logged-in web session per seat): a fresh SQLite file in a temporary
folder by default, or the PostgreSQL database of ``--db URL`` or of
``SPYHOUSE_TEST_DATABASE_URL`` (a new game in it; the tables are not
emptied). It then starts the real server as ``spyhouse serve`` does (a
subprocess: ``python -m spyhouse serve --db URL`` on 127.0.0.1 and a free
port, demo off, no SMTP, its in-process worker running); with ``--servers 2``
(PostgreSQL only) two such processes on two ports share the database and the
clients are split between them. It drives them with concurrent clients
(``httpx2.AsyncClient``, one connection each, loopback only), four kinds of
request:

- ``healthz``: ``GET /healthz``, the server's cheapest endpoint (no database);
- ``orders``: ``PUT /api/v1/games/{id}/orders`` with a seat's token and a valid
  nine-spy sheet (WORK, TRAIN, HUNT naming a neighbour, SEARCH, GUARD, COVERT,
  its region changing on every request), the request a bot or the order form
  makes: token lookup, game row lock, ``parse_orders``, draft upsert, commit;
- ``view``: ``GET /api/v1/games/{id}/view`` with a seat's token (the seat's
  JSON view, as a bot or a client reads it);
- ``seat``: ``GET /games/{id}/seat`` with a seat's session cookie, the page a
  player opens (view, orders form, rendered HTML).

For each number of clients in ``--clients`` (default ``1,10,50``) each kind is
one phase: each client sends ``--requests`` requests one after the other
(closed loop; at least ``--min-total`` in all), and a phase stops at
``--time-cap`` seconds. For each phase it prints requests, errors, throughput
(req/s over the phase's wall time) and p50/p99 latency (ms), and the ratio
orders/healthz, and the CPU time the server processes used per answered request
(from /proc, where there is one: a figure less bent by the rest of the machine's load
than the throughput); the load average before and after the run; it writes JSON to
``bench/results/web_orders_<db>_<n>server.json``
and its last line is
``RESULT ratio=<orders/healthz throughput at 50 clients> p99_ms=<orders p99 at 50
clients> db=<sqlite|postgresql>`` (at the largest client count if 50 is not
run). Then it stops the servers (SIGINT, as Ctrl-C). The clients and the
servers share the machine's cores, so the figures are for the pair, not the
server alone.

    python bench/web_orders.py [--clients 1,10,50] [--seats 50] [--requests 20]
        [--time-cap 15] [--db URL] [--servers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2

import spyhouse
from benchgame import bench_game, migrated
from spyhouse.games.spyvsspy.model import REGIONS
from spyhouse.service import accounts, games, play
from spyhouse.store.db import is_sqlite, transaction
from spyhouse.web.deps import SESSION_COOKIE

RESULTS = Path(__file__).resolve().parent / "results"
PG_ENV = "SPYHOUSE_TEST_DATABASE_URL"
KINDS = ("healthz", "orders", "view", "seat")
STARTUP_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
REQUEST_TIMEOUT_S = 15.0
LETTERS = [region.value for region in REGIONS]


@dataclass(frozen=True, slots=True)
class Seat:
    seat_id: str
    token: str
    cookie: str


@dataclass(frozen=True, slots=True)
class Game:
    game_id: int
    seats: list[Seat]


@dataclass(slots=True)
class Phase:
    """What one phase measured: latencies of the answered requests, and failures."""

    name: str
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0
    capped: bool = False
    warmup_errors: int = 0
    #: CPU seconds the server processes used during the phase (None: not measurable)
    server_cpu_s: float | None = None

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    @property
    def requests(self) -> int:
        return len(self.latencies_ms) + sum(self.errors.values())

    @property
    def throughput(self) -> float:
        return len(self.latencies_ms) / self.wall_s if self.wall_s > 0 else 0.0

    def percentile(self, q: float) -> float:
        """Nearest-rank percentile of the answered requests' latencies (ms)."""
        if not self.latencies_ms:
            return math.nan
        ordered = sorted(self.latencies_ms)
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    def summary(self) -> dict[str, Any]:
        return {"requests": self.requests, "ok": len(self.latencies_ms),
                "errors": dict(self.errors), "warmup_errors": self.warmup_errors,
                "wall_s": round(self.wall_s, 3),
                "capped": self.capped, "throughput_rps": round(self.throughput, 1),
                "p50_ms": finite(self.percentile(0.50)),
                "p99_ms": finite(self.percentile(0.99)),
                "server_cpu_ms_per_request": self.server_cpu_ms()}

    def server_cpu_ms(self) -> float | None:
        """The servers' CPU time per answered request (ms), where it could be read."""
        if self.server_cpu_s is None or not self.latencies_ms:
            return None
        return round(1000 * self.server_cpu_s / len(self.latencies_ms), 2)


def finite(value: float) -> float | None:
    """``value`` rounded, or ``None`` (JSON null) when nothing was measured."""
    return None if math.isnan(value) else round(value, 2)


# ---------------------------------------------------------------- setup


def prepare(database_url: str, seats: int) -> Game:
    """Through the service layer: users, a started Spy vs Spy game, a token per seat."""
    with migrated(database_url) as (factory, settings):
        now = datetime.now(UTC)
        with transaction(factory) as db:
            game, users, rows = bench_game(db, seats, title="Web benchmark", now=now)
            games.start_game(db, users[0], game.id, now, settings=settings)
            made = [Seat(row.seat_id, play.create_token(db, row, "bench", now),
                         accounts.open_session(db, user, now, settings)[0])
                    for row, user in zip(rows, users, strict=True)]
            return Game(game.id, made)


def sheet(index: int, attempt: int, seats: Sequence[Seat]) -> dict[str, Any]:
    """A valid nine-spy sheet for seat ``index``; regions move with ``attempt``."""
    def region(k: int) -> str:
        return LETTERS[(index + attempt + k) % len(LETTERS)]

    neighbour = seats[(index + 1) % len(seats)].seat_id
    tasks = [("WORK", None), ("TRAIN", None), ("HUNT", neighbour), ("SEARCH", neighbour),
             ("GUARD", None), ("COVERT", None), ("WORK", None), ("WORK", None),
             ("WORK", None)]
    spies: dict[str, dict[str, str]] = {}
    for number, (task, target) in enumerate(tasks, start=1):
        order = {"task": task, "region": region(number)}
        if target is not None:
            order["brotherhood"] = target
        spies[str(number)] = order
    return {"spies": spies, "declarations": []}


# ---------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``spyhouse serve`` on 127.0.0.1:port (demo off, no SMTP), its output to ``log``."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("SPYHOUSE_")}
    env["SPYHOUSE_DEMO"] = "0"
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "spyhouse", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", database_url],
            stdout=out, stderr=subprocess.STDOUT, env=env)


def wait_until_up(process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    with httpx2.Client(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited ({process.returncode}):\n"
                                   + log.read_text(errors="replace")[-2000:])
            try:
                if client.get("/healthz").status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {STARTUP_TIMEOUT_S:.0f} s")


def cpu_seconds(processes: Sequence[subprocess.Popen[bytes]]) -> float | None:
    """User plus system CPU seconds the processes have used so far (Linux's /proc; None
    elsewhere): what the servers spent, whatever else the machine ran meanwhile."""
    total = 0.0
    try:
        for process in processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return total


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)


# ---------------------------------------------------------------- load


Request = Callable[[httpx2.AsyncClient, int, int], Awaitable[httpx2.Response]]


async def run_phase(base_urls: Sequence[str], name: str, request: Request, *, clients: int,
                    per_client: int, time_cap_s: float,
                    cpu: Callable[[], float | None] = lambda: None) -> Phase:
    """``clients`` concurrent closed loops of ``per_client`` requests, stopped at the cap;
    client ``i`` talks to server ``i % len(base_urls)``."""
    phase = Phase(name)
    share = math.ceil(clients / len(base_urls))
    limits = httpx2.Limits(max_connections=share, max_keepalive_connections=share)
    async with contextlib.AsyncExitStack() as stack:
        servers = [await stack.enter_async_context(httpx2.AsyncClient(
            base_url=url, limits=limits, timeout=REQUEST_TIMEOUT_S)) for url in base_urls]

        def request_of(client: int, attempt: int) -> Awaitable[httpx2.Response]:
            return request(servers[client % len(servers)], client, attempt)

        # warm-up, not counted: every client at once, so every connection is open
        warmup = await asyncio.gather(*(request_of(client, -1) for client in range(clients)),
                                      return_exceptions=True)
        phase.warmup_errors = sum(not isinstance(r, httpx2.Response) or r.status_code != 200
                                  for r in warmup)
        cpu_before = cpu()
        started = time.perf_counter()
        deadline = started + time_cap_s

        async def loop(client: int) -> None:
            for attempt in range(per_client):
                if time.perf_counter() >= deadline:
                    phase.capped = True
                    return
                sent = time.perf_counter()
                try:
                    response = await request_of(client, attempt)
                except httpx2.HTTPError as exc:  # a timeout: the server did not answer
                    phase.error(type(exc).__name__)
                    continue
                if response.status_code == 200:
                    phase.latencies_ms.append((time.perf_counter() - sent) * 1000)
                else:
                    phase.error(f"HTTP {response.status_code}")

        await asyncio.gather(*(loop(client) for client in range(clients)))
        phase.wall_s = time.perf_counter() - started
        cpu_after = cpu()
        if cpu_before is not None and cpu_after is not None:
            phase.server_cpu_s = cpu_after - cpu_before
    return phase


def healthz_request() -> Request:
    async def send(http: httpx2.AsyncClient, client: int, attempt: int) -> httpx2.Response:
        return await http.get("/healthz")
    return send


def orders_request(game: Game) -> Request:
    async def send(http: httpx2.AsyncClient, client: int, attempt: int) -> httpx2.Response:
        index = client % len(game.seats)
        seat = game.seats[index]
        return await http.put(
            f"/api/v1/games/{game.game_id}/orders",
            json={"orders": sheet(index, attempt, game.seats), "ready": False},
            headers={"Authorization": f"Bearer {seat.token}"})
    return send


def view_request(game: Game) -> Request:
    async def send(http: httpx2.AsyncClient, client: int, attempt: int) -> httpx2.Response:
        seat = game.seats[client % len(game.seats)]
        return await http.get(f"/api/v1/games/{game.game_id}/view",
                              headers={"Authorization": f"Bearer {seat.token}"})
    return send


def seat_request(game: Game) -> Request:
    async def send(http: httpx2.AsyncClient, client: int, attempt: int) -> httpx2.Response:
        seat = game.seats[client % len(game.seats)]
        return await http.get(f"/games/{game.game_id}/seat",
                              headers={"Cookie": f"{SESSION_COOKIE}={seat.cookie}"})
    return send


async def check_saved(base_url: str, game: Game) -> int:
    """How many seats the server holds orders for (every one, after the orders phase)."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as http:
        saved = 0
        for seat in game.seats:
            try:
                response = await http.get(f"/api/v1/games/{game.game_id}/orders",
                                          headers={"Authorization": f"Bearer {seat.token}"})
            except httpx2.HTTPError:
                continue
            saved += response.status_code == 200 and response.json().get("orders") is not None
        return saved


# ---------------------------------------------------------------- report


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else math.nan


def print_report(clients: int, phases: Mapping[str, Phase],
                 out: Any = sys.stdout) -> dict[str, float]:
    """One table for one number of clients, and orders/healthz; the ratios."""
    print(f"{clients} clients:", file=out)
    print(f"  {'endpoint':<10} {'requests':>8} {'errors':>6} {'req/s':>9} {'p50 ms':>9} "
          f"{'p99 ms':>9} {'srv cpu ms':>10}", file=out)
    for phase in phases.values():
        notes = [f"{kind} x{count}" for kind, count in sorted(phase.errors.items())]
        if phase.warmup_errors:
            notes.append(f"{phase.warmup_errors} warm-up failures")
        if phase.capped:
            notes.append("time cap hit")
        cpu_ms = phase.server_cpu_ms()
        print(f"  {phase.name:<10} {phase.requests:>8} {sum(phase.errors.values()):>6} "
              f"{phase.throughput:>9.1f} {phase.percentile(0.5):>9.2f} "
              f"{phase.percentile(0.99):>9.2f} "
              f"{'-' if cpu_ms is None else f'{cpu_ms:.2f}':>10}  {'; '.join(notes)}".rstrip(),
              file=out)
    orders, health = phases["orders"], phases["healthz"]
    ratios = {"throughput": ratio(orders.throughput, health.throughput),
              "p50": ratio(orders.percentile(0.5), health.percentile(0.5)),
              "p99": ratio(orders.percentile(0.99), health.percentile(0.99))}
    print(f"  orders/healthz: throughput x{ratios['throughput']}, p50 x{ratios['p50']}, "
          f"p99 x{ratios['p99']}", file=out)
    return ratios


def client_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text}") from None
    if not counts or any(not 1 <= count <= 500 for count in counts):
        raise argparse.ArgumentTypeError("client counts from 1 to 500")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--seats", type=int, default=50,
                        help="seats (each with a token and a session)")
    parser.add_argument("--clients", type=client_counts, default=[1, 10, 50],
                        help="numbers of concurrent clients, comma-separated (1,10,50)")
    parser.add_argument("--requests", type=int, default=20, help="requests per client")
    parser.add_argument("--min-total", type=int, default=100,
                        help="at least this many requests per phase (few clients send more)")
    parser.add_argument("--time-cap", type=float, default=15.0,
                        help="seconds a phase may last at most")
    parser.add_argument("--db", default=None,
                        help=f"database URL (default: ${PG_ENV} if set, else a temporary "
                        "SQLite file)")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes on the same database (2: PostgreSQL only)")
    parser.add_argument("--out", type=Path, default=None, help="JSON results file")
    parser.add_argument("--server-log", type=Path, default=None,
                        help="keep a copy of the (first) server's output here")
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 500:
        parser.error("--seats from 2 to 500")
    if not 1 <= args.requests <= 10_000 or not 0 < args.time_cap <= 600:
        parser.error("--requests from 1 to 10000, --time-cap up to 600 s")
    if not 0 <= args.min_total <= 100_000:
        parser.error("--min-total from 0 to 100000")
    database_url: str | None = args.db or os.environ.get(PG_ENV) or None
    if not 1 <= args.servers <= 4:
        parser.error("--servers from 1 to 4")
    if args.servers > 1 and (database_url is None or is_sqlite(database_url)):
        parser.error("--servers above 1 needs a PostgreSQL database (--db or $" + PG_ENV + ")")

    with tempfile.TemporaryDirectory(prefix="spyhouse-bench-") as folder:
        database_url = database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        db_kind = "sqlite" if is_sqlite(database_url) else "postgresql"
        load_before = os.getloadavg()
        began = time.perf_counter()
        game = prepare(database_url, args.seats)
        print(f"prepared game {game.game_id} on {db_kind}: {len(game.seats)} seats with API "
              f"tokens and sessions ({time.perf_counter() - began:.1f} s)", flush=True)
        logs = [Path(folder) / f"server{k}.log" for k in range(args.servers)]
        ports = [free_port() for _ in logs]
        base_urls = [f"http://127.0.0.1:{port}" for port in ports]
        processes: list[subprocess.Popen[bytes]] = []
        tables: dict[int, dict[str, Phase]] = {}
        try:
            for port, log in zip(ports, logs, strict=True):
                processes.append(start_server(database_url, port, log))
            for process, url, log in zip(processes, base_urls, logs, strict=True):
                wait_until_up(process, url, log)
            print(f"{args.servers} server(s) up on {', '.join(base_urls)}; clients "
                  f"{args.clients}, {args.requests} requests each (at least "
                  f"{args.min_total} a phase), cap {args.time_cap:.0f} s per phase",
                  flush=True)
            requests = {"healthz": healthz_request(), "orders": orders_request(game),
                        "view": view_request(game), "seat": seat_request(game)}
            for clients in args.clients:
                per_client = max(args.requests, math.ceil(args.min_total / clients))
                tables[clients] = {name: asyncio.run(run_phase(
                    base_urls, name, requests[name], clients=clients,
                    per_client=per_client, time_cap_s=args.time_cap,
                    cpu=lambda: cpu_seconds(processes))) for name in KINDS}
            saved = asyncio.run(check_saved(base_urls[0], game))
        finally:
            for process in processes:
                stop_server(process)
            if args.server_log is not None:
                args.server_log.parent.mkdir(parents=True, exist_ok=True)
                args.server_log.write_bytes(logs[0].read_bytes())
    ratios = {clients: print_report(clients, phases) for clients, phases in tables.items()}
    print(f"orders saved for {saved} of {len(game.seats)} seats "
          f"({min(max(args.clients), len(game.seats))} had clients)")
    load = os.getloadavg()
    print(f"load average before the run: {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}; after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    result = {
        "benchmark": "web_orders",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "spyhouse": str(Path(spyhouse.__file__).parent),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "load_average_before": load_before,
        "load_average_after": load,
        "database": db_kind, "servers": args.servers,
        "seats": args.seats, "clients": args.clients, "requests_per_client": args.requests,
        "min_total": args.min_total, "time_cap_s": args.time_cap,
        "runs": {str(clients): {
            "phases": {name: phase.summary() for name, phase in phases.items()},
            "orders_over_healthz": {key: finite(value)
                                    for key, value in ratios[clients].items()}}
            for clients, phases in tables.items()},
        "seats_with_orders": saved,
    }
    out = args.out or RESULTS / f"web_orders_{db_kind}_{args.servers}server.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"results: {out}")
    failed = any(phase.errors or phase.warmup_errors
                 for phases in tables.values() for phase in phases.values())
    top = 50 if 50 in tables else max(tables)
    orders = tables[top]["orders"]
    print(f"RESULT ratio={finite(ratios[top]['throughput'])} "
          f"p99_ms={finite(orders.percentile(0.99))} db={db_kind}"
          + ("" if top == 50 else f" clients={top}") + (f" servers={args.servers}"
                                                         if args.servers > 1 else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
