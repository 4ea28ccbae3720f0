"""Benchmark: does a password-reset request take as long for an unknown account as for
one that exists? (The answer must not tell who has an account here.)

The script makes a fresh SQLite database in a temporary folder (migrated), signs up
``--accounts`` accounts, then posts the "Forgot your password?" form (``POST /reset``,
with its CSRF token, in-process through the whole app: middlewares, CSRF check, the
service, the commit, the page) ``--rounds`` times for each case, the cases
interleaved so that a slow moment of a shared machine hits every case alike:

- ``mailed``: an account's user name; a link is made and its mail queued;
- ``throttled``: an account that already had its three mails this hour (dropped);
- ``unknown``: a user name that no account has;
- ``unknown-email``: an e-mail address that no account has.

The clock is a ``FakeClock`` moved on 25 minutes after every round, so a ``mailed``
account is never throttled (each of them has at most three links an hour), while the
``throttled`` one is topped up to its three links before each of its requests.
It prints each case's median and 90th percentile (ms) and the largest difference of
medians, and writes JSON to ``bench/results/reset_timing.json``.

    python bench/reset_timing.py [--rounds 300] [--accounts 20]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from spyhouse.clock import FakeClock
from spyhouse.service import accounts, password_reset
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, migrate, session_factory, transaction
from spyhouse.web.app import create_app

RESULTS = Path(__file__).resolve().parent / "results" / "reset_timing.json"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
CASES = ("mailed", "throttled", "unknown", "unknown-email")


def measure(rounds: int, n_accounts: int) -> dict[str, Any]:
    # cheap password hashes for the sign-ups (a reset request hashes no password)
    fast = PasswordHasher(time_cost=1, memory_cost=256, parallelism=1)
    accounts.hasher = lambda: fast  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        engine = make_engine(url)
        migrate(engine)
        clock = FakeClock()
        settings = Settings(database_url=url, base_url="http://bench.test", demo=False)
        factory = session_factory(engine)
        names = [f"player{n:03d}" for n in range(n_accounts)]
        with transaction(factory) as db:
            for name in [*names, "throttled"]:
                accounts.sign_up(db, name, f"{name}@example.org", "bench-password", clock.now())
        app = create_app(settings, clock, engine=engine)
        client = TestClient(app)
        token = CSRF.search(client.get("/reset").text)
        assert token is not None
        csrf = token.group(1)

        def post(who: str) -> Callable[[], None]:
            def send() -> None:
                answer = client.post("/reset", data={"username_or_email": who,
                                                     "csrf_token": csrf})
                assert answer.status_code == 200, answer.status_code
            return send

        def top_up() -> None:  # the throttled account has its three links this hour
            with transaction(factory) as db:
                for _ in range(password_reset.RESETS_PER_HOUR):
                    password_reset.request_reset(db, "throttled", clock.now(), settings)

        timings: dict[str, list[float]] = {case: [] for case in CASES}
        for _ in range(10):  # warm up every path
            post("nobody")()
        for round_no in range(rounds):
            top_up()
            sends = {"mailed": post(names[round_no % n_accounts]),
                     "throttled": post("throttled"),
                     "unknown": post(f"nobody{round_no}"),
                     "unknown-email": post(f"nobody{round_no}@example.org")}
            order = list(CASES[round_no % len(CASES):] + CASES[:round_no % len(CASES)])
            for case in order:
                start = time.perf_counter()
                sends[case]()
                timings[case].append((time.perf_counter() - start) * 1000)
            clock.advance(minutes=25)
        engine.dispose()
    medians = {case: statistics.median(values) for case, values in timings.items()}
    p90 = {case: statistics.quantiles(values, n=10)[-1] for case, values in timings.items()}
    return {"rounds": rounds, "median_ms": medians, "p90_ms": p90,
            "largest_median_difference_ms": max(medians.values()) - min(medians.values())}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--accounts", type=int, default=20)
    args = parser.parse_args(argv)
    result = measure(args.rounds, args.accounts)
    for case in CASES:
        print(f"{case:<14} median {result['median_ms'][case]:6.2f} ms   "
              f"p90 {result['p90_ms'][case]:6.2f} ms")
    print(f"largest difference of medians: {result['largest_median_difference_ms']:.2f} ms "
          f"over {result['rounds']} requests per case")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({**result, "python": platform.python_version(),
                                   "machine": platform.machine()}, indent=2) + "\n",
                       encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
