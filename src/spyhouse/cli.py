"""The ``spyhouse`` command line: ``games``, ``simulate``, ``tournament``, ``lab``, ``replay``,
``verify``, ``import``, ``serve``, ``worker``, ``bot`` and ``fairness``.

An entry point only: it parses arguments, reads and writes files and prints;
the rules, the simulation and the record live below it (``core``, ``games``,
``sim``). Every error a user can cause is one line on stderr and a non-zero exit
(1 for a bad record or bad input, 2 for bad arguments, as argparse does).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import OptionsError, RecordError

if TYPE_CHECKING:
    from spyhouse.settings import Settings

PROG = "spyhouse"


class CliError(Exception):
    """A user error: printed as one line "spyhouse: …" and exit status 1."""


# ---------------------------------------------------------------- helpers


def _render(game: str, view: Mapping[str, Any], *, host: bool) -> str:
    """A view as text, by the game's plugin's renderer (JSON when it has none)."""
    text = registry.plugin(game).text
    render = text.host if host else text.report
    if render is None:
        return _dump_json(view)
    return render(view)


def _dump_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def _bot_names(game: str) -> list[str]:
    try:
        from spyhouse.core import bots
    except ModuleNotFoundError as exc:
        if exc.name != "spyhouse.core.bots":
            raise
        raise CliError("no bots are installed yet (spyhouse.core.bots is missing)") from None
    return list(bots.bot_names(game))


def _game(name: str) -> str:
    if name not in registry.names():
        raise CliError(f"unknown game {name!r}; known games: {', '.join(registry.names())}")
    return name


# ---------------------------------------------------------------- games


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    for name in registry.names():
        spec = registry.get(name).spec
        seats = f"{spec.min_seats}+" if spec.max_seats is None else (
            f"{spec.min_seats}-{spec.max_seats}")
        line = f"{name:<12} {spec.title} ({spec.dynamics}, {seats} seats)"
        try:
            bots = _bot_names(name)
        except (CliError, KeyError, ValueError):
            bots = []
        if bots:
            line += f"; bots: {', '.join(bots)}"
        print(line, file=out)
    return 0


# ---------------------------------------------------------------- simulate


def _parse_options(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"--options is not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise CliError("--options must be a JSON object")
    return data


def _advance(bar: Any) -> None:
    bar.update(1)


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from tqdm import tqdm

    from spyhouse.sim import simulate

    game = _game(args.game)
    if args.players is None:  # 8, or fewer where the game takes fewer (Spy or Lie: 2)
        spec = registry.get(game).spec
        args.players = min(8, spec.max_seats) if spec.max_seats else max(8, spec.min_seats)
    if args.players < 1:
        raise CliError("--players must be at least 1")
    if args.turns < 0:
        raise CliError("--turns must be at least 0")
    if args.report is not None and args.report not in {f"s{n}" for n in
                                                       range(1, args.players + 1)}:
        raise CliError(f"--report {args.report}: the seats are s1 to s{args.players}")
    known = _bot_names(game)
    for name in args.bot or ():
        if name not in known:
            raise CliError(f"unknown bot {name!r} for {game}; bots: {', '.join(known)}")
    seed: int = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if seed < 0:
        raise CliError("--seed must be a whole number >= 0")
    options = _parse_options(args.options)
    quiet = bool(args.quiet) or not sys.stderr.isatty()
    with tqdm(total=args.turns, desc=f"{game} seed {seed}", unit="turn", file=sys.stderr,
              disable=quiet, leave=False) as bar:
        try:
            result = simulate(game, players=args.players, turns=args.turns, seed=seed,
                              bots=args.bot or (), options=options,
                              on_step=lambda _entry, _state: _advance(bar))
        except RecordError as exc:  # the setup refused the options or seats
            raise CliError(str(exc)) from None
        except OptionsError as exc:
            raise CliError(f"options: {exc}") from None
    ruleset = registry.get(game)
    state = result.final_state
    print(f"{game}: {len(result.record.seats)} players, seed {seed}, "
          f"{result.entries} record entries, game turn {ruleset.turn_number(state)}", file=out)
    bots_used = sorted(set(result.bots.values()))
    print(f"bots: {', '.join(bots_used)}", file=out)
    if result.refusals:
        print(f"refused sheets (recorded as no-shows): {len(result.refusals)}", file=out)
        for refusal in result.refusals[:5]:
            print(f"  turn {refusal.entry}, seat {refusal.seat}: {refusal.message}", file=out)
        if len(result.refusals) > 5:
            print(f"  ... and {len(result.refusals) - 5} more", file=out)
    else:
        print("refused sheets: 0", file=out)
    standings = registry.plugin(game).text.standings
    if standings is not None:
        print(standings(ruleset.view(state, None)), end="", file=out)
    elif result.outcome is not None:
        names = {seat.id: seat.name for seat in result.record.seats}
        for seat_id, place in result.outcome.standings:
            print(f"{place:>3}  {names.get(seat_id, seat_id)}", file=out)
    if args.out:
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        result.record.save(path)
        print(f"record written to {path}", file=out)
    if args.report is not None:
        seen = result.last_views.get(args.report)
        if seen is None:
            print(f"\nseat {args.report} read no report", file=out)
        else:
            entry, view = seen
            record = args.out or "FILE"
            print(f"\nThe last report seat {args.report} read (after record entry {entry}; "
                  f"`spyhouse replay {record} --seat {args.report} --turn {entry}`):\n", file=out)
            print(_render(game, view, host=False), end="", file=out)
    return 0


# ---------------------------------------------------------------- tournament


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    """Play A against B for N seeded games, colours swapped every other game."""
    import time

    from tqdm import tqdm

    from spyhouse.sim.tournament import GameResult, tournament

    game = _game(args.game)
    if args.games < 1:
        raise CliError("--games must be at least 1")
    if args.seed < 0:
        raise CliError("--seed must be a whole number >= 0")
    spec = registry.get(game).spec
    if spec.min_seats > 2 or (spec.max_seats is not None and spec.max_seats < 2):
        raise CliError(f"{game} is not a two-player game")
    known = _bot_names(game)
    for name in (args.a, args.b):
        if name not in known:
            raise CliError(f"unknown bot {name!r} for {game}; bots: {', '.join(known)}")
    options = _parse_options(args.options)
    if args.radius is not None:
        options["radius"] = args.radius
    quiet = bool(args.quiet) or not sys.stderr.isatty()
    with tqdm(total=args.games, desc=f"{args.a} vs {args.b}", unit="game", file=sys.stderr,
              disable=quiet, leave=False) as bar:
        totals = {"score": 0.0, "games": 0.0}

        def advance(result: GameResult) -> None:
            totals["score"] += result.score
            totals["games"] += 1
            bar.update(1)
            bar.set_postfix(score=f"{totals['score'] / totals['games']:.3f}")

        try:
            match = tournament(game, args.a, args.b, args.games, seed=args.seed,
                               options=options, clock=time.perf_counter, on_game=advance)
        except RecordError as exc:
            raise CliError(str(exc)) from None
        except OptionsError as exc:
            raise CliError(f"options: {exc}") from None
    print(f"seeds {args.seed} to {args.seed + (args.games - 1) // 2}", file=out)
    out.write(match.summary())
    if args.out:
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_dump_json(match.to_json()), encoding="utf-8")
        print(f"results written to {path}", file=out)
    return 0


# ---------------------------------------------------------------- lab


def _players_list(text: str | None, game: str) -> list[int]:
    from spyhouse.sim.lab import default_players

    if text is None:
        return [default_players(game)]
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CliError(f"--players {text}: whole numbers separated by commas") from None
    if not counts:
        raise CliError("--players: give at least one number")
    return counts


def _lab_command(args: argparse.Namespace) -> str:
    """The command that replays this lab's games (executor options left out: they change
    how fast the rows come, never what they are)."""
    import shlex

    words = ["spyhouse", "lab", args.game, "--bots", args.bots]
    if args.players is not None:
        words += ["--players", args.players]
    words += ["--games", str(args.games), "--seed", str(args.seed), "--turns", str(args.turns)]
    if args.options is not None:
        words += ["--options", args.options]
    if args.variants:
        words += ["--variants", *args.variants]
    return shlex.join([*words, "--out", args.out])


def cmd_lab(args: argparse.Namespace, out: TextIO) -> int:
    """Play bots rotated over every seat, seeds and variants; write the report."""
    from tqdm import tqdm

    from spyhouse.core.bots import BotSpecError
    from spyhouse.sim.lab import LabError, parse_variant, plan_games
    from spyhouse.sim.lab_report import summary_lines, write_report
    from spyhouse.sim.lab_run import Row, run_tasks

    game = _game(args.game)
    bots = [spec.strip() for spec in args.bots.split(",") if spec.strip()]
    if args.jobs is not None and args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    try:
        variants = [parse_variant(text) for text in args.variants or ()]
        tasks = plan_games(game, bots, players=_players_list(args.players, game),
                           games=args.games, variants=variants, seed=args.seed,
                           turns=args.turns, options=_parse_options(args.options))
    except (LabError, BotSpecError) as exc:
        raise CliError(str(exc)) from None
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ModuleNotFoundError:
            raise CliError("--ray needs Ray: pip install 'spyhouse[lab]'") from None
    quiet = bool(args.quiet) or not sys.stderr.isatty()
    where = f"ray {args.ray}" if args.ray else f"{args.jobs or 1} process(es)"
    print(f"{game}: {len(tasks)} games on {where}", file=out)
    with tqdm(total=len(tasks), desc=f"lab {game}", unit="game", file=sys.stderr,
              disable=quiet) as bar:
        def advance(_row: Row) -> None:
            bar.update(1)

        try:
            rows = run_tasks(tasks, jobs=args.jobs, ray=args.ray, on_row=advance)
        except RuntimeError as exc:  # a bot failed: play() names the game
            raise CliError(str(exc).splitlines()[0]) from None
    meta = {"game": game, "bots": bots, "seed": args.seed, "turns": args.turns,
            "games": len(tasks), "players": sorted({task.players for task in tasks}),
            "variants": {variant.label: dict(variant.options) for variant in variants},
            "command": _lab_command(args)}
    paths = write_report(Path(args.out), rows, meta)
    for line in summary_lines(rows):
        print(line, file=out)
    print(f"report written to {paths[0]} (with {', '.join(p.name for p in paths[1:])})",
          file=out)
    return 0


# ---------------------------------------------------------------- fairness


def cmd_fairness(args: argparse.Namespace, out: TextIO) -> int:
    """Check that a bot decides from its view alone: 0 fair, 1 not, 2 nothing to check
    (a bad argument, game or bot spec: never 1, which means "not fair")."""
    import time

    from tqdm import tqdm

    from spyhouse.core.bots import BotSpecError
    from spyhouse.sim.fairness import (
        MAX_ENTRIES,
        TIME_LIMIT,
        ResampleMissing,
        check_fairness,
    )

    def refuse(message: object) -> int:
        print(f"{PROG}: {message}", file=sys.stderr)
        return 2

    if args.game not in registry.names():
        return refuse(f"unknown game {args.game!r}; known games: {', '.join(registry.names())}")
    turns = args.turns if args.turns is not None else MAX_ENTRIES
    for flag, value in (("--positions", args.positions), ("--worlds", args.worlds),
                        ("--jobs", args.jobs), ("--turns", turns),
                        ("--players", args.players if args.players is not None else 1)):
        if value < 1:
            return refuse(f"{flag} must be at least 1")
    if args.seed < 0:
        return refuse("--seed must be a whole number >= 0")
    try:
        options = _parse_options(args.options)
    except CliError as exc:
        return refuse(exc)
    show = not args.quiet and (sys.stderr.isatty() or args.positions >= 20)
    started = time.perf_counter()
    with tqdm(total=args.positions * (args.worlds + 1), desc=f"fairness {args.game}",
              unit="world", file=sys.stderr, disable=not show, leave=False) as bar:
        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        try:
            report = check_fairness(args.game, args.bot, positions=args.positions,
                                    seed=args.seed, worlds=args.worlds, players=args.players,
                                    options=options, progress=advance, jobs=args.jobs,
                                    turns=turns,
                                    time_limit=args.time_limit or TIME_LIMIT)
        except KeyError as exc:
            return refuse(exc.args[0] if exc.args else exc)
        except (BotSpecError, ResampleMissing, RecordError) as exc:
            return refuse(exc)
        except OptionsError as exc:
            return refuse(f"options: {exc}")
    print(f"{report.summary()} [{time.perf_counter() - started:.1f} s]", file=out)
    for finding in report.findings[:5]:
        print(f"  {finding}", file=out)
    if len(report.findings) > 5:
        print(f"  ... and {len(report.findings) - 5} more", file=out)
    return 0 if report.fair else 1


# ---------------------------------------------------------------- replay


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    path = str(args.file)
    try:
        record = records.load(path)
        seat: str | None = args.seat
        if seat is not None and seat not in {s.id for s in record.seats}:
            known = ", ".join(s.id for s in record.seats)
            raise RecordError(f"no seat {seat!r} in this record (seats: {known})")
        state = records.final_state(record, args.turn)
        ruleset = registry.get(record.game)
        view = ruleset.view(state, seat)
    except RecordError as exc:
        raise CliError(f"{path}: {exc}") from None
    if args.json:
        out.write(_dump_json(view))
    else:
        out.write(_render(record.game, view, host=seat is None))
    return 0


# ---------------------------------------------------------------- verify


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    """Recompute the record's chain, then replay it: one line either way."""
    path = str(args.file)
    try:
        verdict = records.verify_file(path)
        if verdict.problem is not None:
            raise RecordError(verdict.problem)
        for _state in records.replay(verdict.record):
            pass
    except RecordError as exc:
        raise CliError(f"{path}: {exc}") from None
    entries = len(verdict.record.turns)
    if verdict.chained:
        print(f"ok: {entries} entries, head {verdict.head}", file=out)
    else:
        print(f"ok: {entries} entries, no chain (a {records.FORMAT_1} file)", file=out)
    return 0


# ---------------------------------------------------------------- import


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    """Check a record as ``verify`` does and store it as a finished, public, imported game
    (``service.archive.import_record``, as the site's upload form): one line either way."""
    from spyhouse.clock import SystemClock
    from spyhouse.service import archive
    from spyhouse.service.errors import ServiceError
    from spyhouse.settings import settings_from_env
    from spyhouse.store.db import make_engine, migrate, session_factory, transaction

    path = str(args.file)
    try:
        text = records.read_text(path)
        archive.checked_record(text)  # a file that is no record touches no database
    except RecordError as exc:
        raise CliError(f"{path}: {exc}") from None
    except archive.BadRecord as exc:
        raise CliError(f"{path}: {exc.message}") from None
    try:
        settings = settings_from_env(database_url=args.db)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    engine = make_engine(settings.database_url)
    try:
        try:
            migrate(engine)
        except Exception as exc:  # an unreachable or broken database: one line, exit 1
            database = engine.url.render_as_string(hide_password=True)
            raise CliError(f"cannot prepare the database {database}: {exc}") from None
        now = SystemClock().now()
        with transaction(session_factory(engine)) as db:
            host = archive.import_host(db, args.as_user, now)
            game = archive.import_record(db, text, host, now, title=args.title or "")
            game_id, title = game.id, game.title
    except archive.BadRecord as exc:
        raise CliError(f"{path}: {exc.message}") from None
    except ServiceError as exc:
        raise CliError(exc.message) from None
    finally:
        engine.dispose()
    head = records.head(records.loads(text))
    print(f"imported game {game_id}: {title} (head {head})", file=out)
    return 0


# ---------------------------------------------------------------- worker


def cmd_worker(args: argparse.Namespace, out: TextIO) -> int:
    """Process due turns and send mail until interrupted (Ctrl-C or SIGTERM)."""
    import logging
    import signal
    import threading

    from spyhouse.clock import SystemClock
    from spyhouse.mail.outbox import mailer_for
    from spyhouse.settings import settings_from_env
    from spyhouse.store.db import make_engine, migrate, session_factory
    from spyhouse.worker import run_forever

    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = settings_from_env(database_url=args.db)
    except ValueError as exc:  # a malformed SPYHOUSE_* value: one line, exit 1
        raise CliError(str(exc)) from None
    engine = make_engine(settings.database_url)
    migrate(engine)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    print(f"spyhouse worker on {engine.url.render_as_string(hide_password=True)}", file=out)
    try:
        run_forever(session_factory(engine), SystemClock(), settings, mailer_for(settings),
                    stop=stop)
    except KeyboardInterrupt:
        pass
    finally:
        engine.dispose()
    return 0


# ---------------------------------------------------------------- serve and bot


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Migrate the database, create the demo (once), serve the web app with the worker."""
    import uvicorn

    from spyhouse.clock import SystemClock
    from spyhouse.service.demo import DEMO_PASSWORD, DEMO_USERNAME, ensure_demo
    from spyhouse.settings import parse_forwarded_allow_ips, settings_from_env
    from spyhouse.store.db import make_engine, migrate, transaction
    from spyhouse.web.access_log import redact_access_log
    from spyhouse.web.app import create_app
    from spyhouse.web.limits import UVICORN_OPTIONS

    if not 0 < args.port < 65536:
        raise CliError("--port must be from 1 to 65535")
    overrides: dict[str, Any] = {"database_url": args.db,
                                 "cookie_secure": True if args.cookie_secure else None}
    if not os.environ.get("SPYHOUSE_BASE_URL"):
        overrides["base_url"] = f"http://{args.host}:{args.port}"
    try:
        if args.forwarded_allow_ips is not None:
            overrides["forwarded_allow_ips"] = parse_forwarded_allow_ips(
                args.forwarded_allow_ips)
        settings = settings_from_env(**overrides)
    except ValueError as exc:  # a malformed SPYHOUSE_* value or flag: one line, exit 1
        raise CliError(str(exc)) from None
    clock = SystemClock()
    engine = make_engine(settings.database_url)
    database = engine.url.render_as_string(hide_password=True)  # printed: no password
    try:
        migrate(engine)
    except Exception as exc:  # an unreachable or broken database: one line, exit 1
        raise CliError(f"cannot prepare the database {database}: {exc}") from None
    app = create_app(settings, clock, start_worker=True, engine=engine)
    if settings.demo:
        with transaction(app.state.web.factory) as db:
            game = ensure_demo(db, clock.now())
        print(f"demo: log in as {DEMO_USERNAME} / {DEMO_PASSWORD} "
              f"(game {game.id}: {game.title})", file=out)
    print(f"spyhouse: serving on {settings.base_url}/ (database {database})",
          file=out, flush=True)
    redact_access_log()  # no reset link's token in the access log (web/access_log.py)
    # Everything made so far (modules, the app, its templates) lives as long as the process:
    # kept out of the collector's full collections, which otherwise walk it all again
    # every few hundred requests (measured: pauses of 0.25 s under load, every waiting
    # request's latency).
    gc.freeze()
    # UVICORN_OPTIONS: the parser, header size, keep-alive and connection limits that
    # go with the body limits (why: web/limits.py)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info",
                **UVICORN_OPTIONS, **proxy_options(settings))
    return 0


def proxy_options(settings: Settings) -> dict[str, Any]:
    """Uvicorn's ``proxy_headers`` and ``forwarded_allow_ips`` for ``settings``: the
    ``X-Forwarded-For`` / ``X-Forwarded-Proto`` of the named proxies only, and of none
    by default (uvicorn's own default trusts loopback, where any local user could pick
    the client address the log-in limit counts)."""
    trusted = list(settings.forwarded_allow_ips)
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or None}


def cmd_bot(args: argparse.Namespace, out: TextIO) -> int:
    """Play one seat through the JSON API with one of the engine's bots."""
    import httpx2

    from spyhouse.web.client import ApiClient, ApiError, play_seat

    api = ApiClient.connect(args.url, args.token)
    try:
        play_seat(api, args.strategy, once=args.once, poll_s=args.poll, seed=args.seed,
                  say=lambda line: print(line, file=out, flush=True))
    except ApiError as exc:
        raise CliError(str(exc)) from None
    except KeyError as exc:
        raise CliError(str(exc.args[0]) if exc.args else "unknown bot") from None
    except httpx2.HTTPError as exc:
        raise CliError(f"cannot reach {args.url}: {exc}") from None
    return 0


# ---------------------------------------------------------------- parser


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line: "spyhouse: …" with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="spyhouse: a play-by-web host for hidden-information spy games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    games = sub.add_parser("games", help="list the games and their bots")
    games.set_defaults(func=cmd_games)

    sim = sub.add_parser(
        "simulate", help="play a game between bots and print the standings",
        description="Play GAME between bots; bots cycle over the seats. Prints the "
                    "standings; --out writes the game record (JSON).")
    sim.add_argument("game", metavar="GAME", help="game name (see `spyhouse games`)")
    sim.add_argument("--players", type=int, default=None, metavar="N",
                     help="number of seats (default 8, or the most the game takes)")
    sim.add_argument("--turns", type=int, default=60, metavar="T",
                     help="at most T record entries (default 60)")
    sim.add_argument("--seed", type=int, default=None, metavar="S",
                     help="game seed (default: a random one, printed)")
    sim.add_argument("--bot", action="append", metavar="NAME",
                     help="bot strategy; repeat to mix (default: every bot of the game)")
    sim.add_argument("--options", metavar="JSON", default=None,
                     help="game options as a JSON object (e.g. '{\"variant\": \"spy2\"}')")
    sim.add_argument("--out", metavar="FILE", default=None, help="write the record here")
    sim.add_argument("--report", metavar="ID", default=None,
                     help="also print the last report seat ID read while it was playing")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sim.set_defaults(func=cmd_simulate)

    tour = sub.add_parser(
        "tournament", help="play two bots of a two-player game against each other",
        description="Play N seeded games of bot A against bot B, colours swapped every other "
                    "game (game i uses seed S + i // 2); prints A's wins, draws and losses, "
                    "the score with a 95% Wilson interval, and each player's decision times "
                    "and budget-cut rate.")
    tour.add_argument("game", metavar="GAME", help="game name (see `spyhouse games`)")
    tour.add_argument("--a", required=True, metavar="NAME", help="bot A (scored)")
    tour.add_argument("--b", required=True, metavar="NAME", help="bot B (the opponent)")
    tour.add_argument("--games", type=int, default=20, metavar="N",
                      help="number of games (default 20)")
    tour.add_argument("--seed", type=int, default=1, metavar="S", help="first seed (default 1)")
    tour.add_argument("--radius", type=int, default=None, metavar="R",
                      help="board radius (the game option \"radius\")")
    tour.add_argument("--options", metavar="JSON", default=None,
                      help="game options as a JSON object")
    tour.add_argument("--out", metavar="FILE", default=None,
                      help="write every game's result and the timings as JSON")
    tour.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    tour.set_defaults(func=cmd_tournament)

    lab = sub.add_parser(
        "lab", help="the balance lab: bots rotated over every seat, seeds and variants",
        description="Play G games per player count and variant with the bots rotated over "
                    "every seat (each bot sits each seat equally often; block k of rotations "
                    "uses seed S + k), and write a report to DIR: report.md, PNG plots (win "
                    "share by bot and by seat with 95%% Wilson intervals, game length, per "
                    "variant), results.csv and results.json. Same seed, same results, "
                    "whichever of --jobs or --ray plays them.")
    lab.add_argument("game", metavar="GAME", help="game name (see `spyhouse games`)")
    lab.add_argument("--bots", required=True, metavar="A,B,...",
                     help="bot specs, comma-separated: built-in names, path/file.py:Class or "
                          "module:Class (repeat a name to seat it more often)")
    lab.add_argument("--players", default=None, metavar="N[,M...]",
                     help="number of seats, or several (default 8, within the game's range)")
    lab.add_argument("--games", type=int, default=60, metavar="G",
                     help="games per player count and variant, rounded up to whole "
                          "rotations (default 60)")
    lab.add_argument("--variants", nargs="+", metavar="JSON", default=None,
                     help="rule variants: JSON objects of options (or LABEL=JSON), each "
                          "merged over --options (default: the game's own rules)")
    lab.add_argument("--options", metavar="JSON", default=None,
                     help="options every game shares, as a JSON object")
    lab.add_argument("--seed", type=int, default=1, metavar="S", help="first seed (default 1)")
    lab.add_argument("--turns", type=int, default=200, metavar="T",
                     help="at most T record entries a game; a game cut there is unfinished "
                          "(default 200)")
    lab.add_argument("--jobs", type=int, default=None, metavar="J",
                     help="play on J worker processes (default: in this process)")
    lab.add_argument("--ray", default=None, metavar="ADDRESS",
                     help="play the games as Ray tasks on the cluster at ADDRESS ('local': "
                          "start a Ray here, with --jobs CPUs)")
    lab.add_argument("--out", required=True, metavar="DIR", help="the report's folder")
    lab.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    lab.set_defaults(func=cmd_lab)

    fair = sub.add_parser(
        "fairness", help="check that a bot decides from its view alone",
        description="Play bot games with SPEC in every seat, pick N decision points spread "
                    "over them, and at each run the bot in fresh processes on the true world "
                    "and on W worlds resampled from what its seat cannot see (the same view, "
                    "the same bot seed). Exit 0 when every decision stayed the same, 1 naming "
                    "the first that changed (or a resample bug), 2 for an unknown game, a bad "
                    "bot spec or a game that cannot resample. See docs/fairness.md.")
    fair.add_argument("game", metavar="GAME", help="game name (see `spyhouse games`)")
    fair.add_argument("--bot", required=True, metavar="SPEC",
                      help="a built-in bot name, path/to/file.py:Class or module:Class")
    fair.add_argument("--positions", type=int, default=5, metavar="N",
                      help="decision points to check (default 5)")
    fair.add_argument("--worlds", type=int, default=3, metavar="W",
                      help="resampled worlds per decision point (default 3)")
    fair.add_argument("--seed", type=int, default=1, metavar="S",
                      help="first game seed; also picks the points and the worlds (default 1)")
    fair.add_argument("--players", type=int, default=None, metavar="P",
                      help="seats in the bot games (default: the fewest the game takes)")
    fair.add_argument("--options", metavar="JSON", default=None,
                      help="game options as a JSON object")
    fair.add_argument("--turns", type=int, default=None, metavar="T",
                      help="at most T record entries a bot game (default: whole games); "
                           "fewer keep the points in the openings and cost a slow bot less")
    fair.add_argument("--jobs", type=int, default=2, metavar="J",
                      help="worlds decided at once, each in its own process (default 2)")
    fair.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                      help="seconds one world's process may take before it is killed and "
                           "counts as the bot's error (default 120)")
    fair.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    fair.set_defaults(func=cmd_fairness)

    rep = sub.add_parser(
        "replay", help="print a seat's view (or the host view) from a record",
        description="Replay FILE and print the view after record entry N (default: all).")
    rep.add_argument("file", metavar="FILE", help="a game record (JSON)")
    rep.add_argument("--turn", type=int, default=None, metavar="N",
                     help="after record entry N (0 = setup; default: the last)")
    rep.add_argument("--seat", default=None, metavar="ID",
                     help="that seat's view (default: the host view)")
    rep.add_argument("--json", action="store_true", help="print the view as JSON")
    rep.set_defaults(func=cmd_replay)

    ver = sub.add_parser(
        "verify", help="check a record's hash chain and replay it",
        description="Recompute the hash chain of FILE and replay every entry: exit 0 with "
                    "the head, or 1 naming the first entry that does not match.")
    ver.add_argument("file", metavar="FILE", help="a game record (JSON)")
    ver.set_defaults(func=cmd_verify)

    imp = sub.add_parser(
        "import", help="store a finished game's record as an archived game",
        description="Check FILE as `verify` does (the chain, then every entry replayed) and "
                    "store it as a finished, public game marked imported; prints its id. "
                    "A bad record, or one whose game is not over, is refused with one line "
                    "and nothing is stored.")
    imp.add_argument("file", metavar="FILE", help="a game record (JSON)")
    imp.add_argument("--db", default=None, metavar="URL",
                     help="database URL (default: SPYHOUSE_DATABASE_URL or "
                          "sqlite:///var/spyhouse.db)")
    imp.add_argument("--as", dest="as_user", default=None, metavar="USERNAME",
                     help="the account that hosts the game (default: the account "
                          "'archive', made without a password)")
    imp.add_argument("--title", default=None, metavar="TEXT",
                     help="the game's title (default: the game's name and seed)")
    imp.set_defaults(func=cmd_import)

    serve = sub.add_parser(
        "serve", help="run the web server with the in-process deadline worker",
        description="Migrate the database, create the demo game on first run (unless "
                    "SPYHOUSE_DEMO=0), and serve the web pages and the JSON API.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default=None, metavar="URL",
                       help="database URL (default: SPYHOUSE_DATABASE_URL or "
                            "sqlite:///var/spyhouse.db)")
    serve.add_argument("--cookie-secure", action="store_true", default=None,
                       help="the site is HTTPS only: mark cookies Secure and send HSTS "
                            "(default: SPYHOUSE_COOKIE_SECURE=1, else off)")
    serve.add_argument("--forwarded-allow-ips", default=None, metavar="LIST",
                       help="comma-separated proxy addresses or networks whose "
                            "X-Forwarded-For/-Proto are trusted (default: "
                            "SPYHOUSE_FORWARDED_ALLOW_IPS, else none)")
    serve.set_defaults(func=cmd_serve)

    bot = sub.add_parser(
        "bot", help="play a seat through the JSON API with a bot",
        description="Poll the seat's view and, whenever a turn is open and no orders were "
                    "sent for it, send the bot's orders (marked ready).")
    bot.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    bot.add_argument("--token", required=True, help="the seat's API token")
    bot.add_argument("--strategy", required=True, metavar="NAME",
                     help="bot strategy (see `spyhouse games`)")
    bot.add_argument("--once", action="store_true",
                     help="act on the open turn (if orders are due) and exit")
    bot.add_argument("--poll", type=float, default=10.0, metavar="SECONDS",
                     help="seconds between polls (default 10)")
    bot.add_argument("--seed", type=int, default=None, help="the bot's random seed")
    bot.set_defaults(func=cmd_bot)

    work = sub.add_parser(
        "worker", help="process due turns and send mail (run several against PostgreSQL)",
        description="The deadline processor alone: processes every due turn, ends spent "
                    "pauses and delivers the outbox, until interrupted. Settings come from "
                    "SPYHOUSE_* variables (SPYHOUSE_SMTP_HOST, SPYHOUSE_BASE_URL, ...).")
    work.add_argument("--db", metavar="URL", default=None,
                      help="database URL (default: SPYHOUSE_DATABASE_URL, else "
                           "sqlite:///var/spyhouse.db)")
    work.set_defaults(func=cmd_worker)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (``python -m spyhouse`` exits with it)."""
    parser = build_parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    func: Callable[[argparse.Namespace, TextIO], int] = args.func
    try:
        return func(args, sys.stdout)
    except CliError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `spyhouse replay … | head`: stop quietly (Python docs' recipe)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
