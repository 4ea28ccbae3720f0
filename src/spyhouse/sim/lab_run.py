"""Where the lab's games run: in this process, in a process pool, or as Ray tasks.

Each game is the pure task ``lab.play(task)``, so the executor decides only how fast the
rows come, never what they are: ``run_tasks`` returns them sorted by the task's index,
the same rows in the same order for the same plan whichever executor played them.

- in-process (``jobs`` 1 or ``None`` and no Ray): one game after another;
- ``jobs`` > 1: a ``ProcessPoolExecutor`` whose workers start fresh (``forkserver``
  where the platform has it, else ``spawn``): nothing of the parent's state is shared;
- ``ray``: a Ray cluster's address (``ray.init(address=…)``), or ``"local"`` for a
  Ray started here (``jobs`` CPUs, else all). A Ray this process already started is
  used as it is and left running; one started here is shut down at the end. A custom
  ``file.py:Class`` bot must be found at the same absolute path on every Ray node.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from spyhouse.sim.lab import LabTask, play

Row = dict[str, Any]


def run_tasks(
    tasks: Sequence[LabTask],
    *,
    jobs: int | None = None,
    ray: str | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Play every task; ``on_row(row)`` as each game ends (in any order; progress bars)."""
    if jobs is not None and jobs < 1:
        raise ValueError("jobs must be at least 1")
    if ray is not None:
        rows = _run_ray(tasks, ray, jobs, on_row)
    elif jobs is not None and jobs > 1 and len(tasks) > 1:
        rows = _run_pool(tasks, jobs, on_row)
    else:
        rows = []
        for task in tasks:
            row = play(task)
            rows.append(row)
            if on_row is not None:
                on_row(row)
    return sorted(rows, key=lambda row: int(row["index"]))


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _run_pool(tasks: Sequence[LabTask], jobs: int,
              on_row: Callable[[Row], None] | None) -> list[Row]:
    rows: list[Row] = []
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=_context()) as pool:
        futures = [pool.submit(play, task) for task in tasks]
        try:
            for future in as_completed(futures):
                row = future.result()
                rows.append(row)
                if on_row is not None:
                    on_row(row)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return rows


def _run_ray(tasks: Sequence[LabTask], address: str, jobs: int | None,
             on_row: Callable[[Row], None] | None) -> list[Row]:
    import ray as ray_api

    started = not ray_api.is_initialized()
    if started:
        if address == "local":
            ray_api.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            ray_api.init(address=address, log_to_driver=False)
    try:
        remote_play = ray_api.remote(play)
        pending = [remote_play.remote(task) for task in tasks]
        rows: list[Row] = []
        while pending:
            done, pending = ray_api.wait(pending, num_returns=1)
            for ref in done:
                row: Row = ray_api.get(ref)
                rows.append(row)
                if on_row is not None:
                    on_row(row)
        return rows
    finally:
        if started:
            ray_api.shutdown()


__all__ = ["Row", "run_tasks"]
