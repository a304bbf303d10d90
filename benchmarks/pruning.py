"""How long pruning the history (`POKERBOT_HISTORY_DAYS`, `bot/store/prune.py`) holds the writer: each pruning
transaction's and each vacuum step's time inside the store's writer, against the 10 ms that issue 13 allows and
against a whole single-row transaction through the same store (its commit included) in the same run.

    python benchmarks/pruning.py [--tables 100] [--presses 20000]

The tables are the service benchmark's (`service.Load`: two players a table, pictures off), played for `--presses`
presses; then every hand that has ended is pruned, as the bot prunes hands older than the days it keeps.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arguments import at_least_one  # beside this file
from service import Load  # beside this file: the service benchmark's players

from bot.clock import SystemClock
from bot.output import Place
from bot.service import Service
from bot.store import Store, Tx, prune

BUDGET_MS = 10.0
"""The longest a pruning step may hold the writer (issue 13)."""


def timed(name: str, seconds: list[float]) -> Callable[..., Any]:
    """`prune.<name>`, recording the time each call takes inside the writer into `seconds`."""
    real = getattr(prune, name)

    def step(tx: Tx, **arguments: Any) -> Any:
        began = time.perf_counter()
        outcome = real(tx, **arguments)
        seconds.append(time.perf_counter() - began)
        return outcome

    return step


def one_row(tx: Tx, number: int) -> None:
    """The baseline's job: one row written."""
    tx.db.execute("INSERT INTO bench_commit VALUES (?)", (number,))


def line(what: str, seconds: list[float], baseline: float) -> str:
    """One row of the table: count, median, p99 and longest in ms, the longest against the budget, the median
    against a single-row transaction's `baseline`."""
    ordered = sorted(seconds)
    median, p99, longest = statistics.median(ordered), ordered[int(0.99 * (len(ordered) - 1))], ordered[-1]
    return (f"| {what} | {len(ordered)} | {median * 1000:.2f} | {p99 * 1000:.2f} | {longest * 1000:.2f} "
            f"| {longest * 1000 / BUDGET_MS:.2f} | {median / baseline:.1f}x |")


async def measure(tables: int, presses: int) -> None:
    """Play, prune everything ended, and print the table."""
    folder = Path(tempfile.mkdtemp())
    store = await Store.open(folder / "bot.db")
    try:
        service = Service(store, SystemClock(), rng=random.Random(1))
        load = Load(service, [Place(f"prune{index}", f"prune{index}/poker") for index in range(tables)])
        await load.set_up()
        await load.press(presses, concurrency=min(tables, 32))
        await store.transact(lambda tx: tx.db.execute("CREATE TABLE bench_commit (x INTEGER)"), now=time.time())
        single: list[float] = []
        for number in range(200):  # a whole transaction writing one row, its commit included, waited for
            began = time.perf_counter()
            await store.transact(functools.partial(one_row, number=number), now=time.time())
            single.append(time.perf_counter() - began)
        baseline = statistics.median(single)
        batches: list[float] = []
        vacuums: list[float] = []
        originals = prune.prune_batch, prune.vacuum_step
        prune.prune_batch = timed("prune_batch", batches)
        prune.vacuum_step = timed("vacuum_step", vacuums)
        try:
            deleted = await prune.prune_history(store, before=time.time() + 1)
        finally:
            prune.prune_batch, prune.vacuum_step = originals
        print(f"{tables} tables, {presses} presses: {deleted} events pruned; a single-row "
              f"transaction {baseline * 1e6:.0f} µs, its commit included")
        print("| step | count | median ms | p99 ms | longest ms | longest / 10 ms | median / single-row |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        print(line("pruning transaction", batches, baseline))
        if vacuums:
            print(line("vacuum step", vacuums, baseline))
    finally:
        await store.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=at_least_one("tables"), default=100)
    parser.add_argument("--presses", type=at_least_one("presses"), default=20_000)
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.tables, arguments.presses))


if __name__ == "__main__":
    main()
