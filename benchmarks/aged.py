"""What a database's age does to an action at many tables, the figures the service benchmark's young file misses.

`service.py` measures a file in its first half minute. A bot that has run an evening has a larger one, and SQLite's
B-trees ordered by table (the log's key, the spans', a chat's figures, each table's row) have by then a hot leaf
for every table rather than a few shared ones: an action writes more pages, and once the file outgrows the writer's
page cache (64 MB) it reads pages back from the OS (`benchmarks/NOTES.md`, the twenty-fifth and twenty-sixth rounds).
Two measurements, each of `--tables` tables seated and dealt as `service.py` sets them up:

- `--ages 0,60000` (the default mode): the pages of the write-ahead log an action writes after each age (presses
  made before it, at saturation), counted over `--presses` presses after a truncating checkpoint, by the table or
  index each page belongs to (`instructions.py`'s `page_owners`). No timed checkpoint runs (the log's frames are
  counted), so the aging presses checkpoint the log themselves every `CHECKPOINT_EVERY` presses.
- `--against-fresh`: a service aged by `--age-seconds` of saturated presses against a fresh one, both in this
  process with their schedulers and checkpointers running, in `--seconds` saturated phases taking turns in which
  goes first (`--pairs` of them): each phase's rate, CPU an action, the writer's reads from the OS an action (pages
  its cache no longer held) and file size, then the pairs' ratios. The fresh file ages as its phases run, so later
  pairs compare two files that both read.

Run: `python benchmarks/aged.py --tables 10000 --ages 0,60000` or
`python benchmarks/aged.py --tables 10000 --against-fresh --age-seconds 120 --pairs 4 --seconds 3`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from arguments import at_least_one, more_than_zero, whole_numbers  # beside this file
from instructions import FREE_PAGE, frame_pages, no_timed_checkpoints, page_owners  # beside this file
from service import Load  # beside this file: the service benchmark's players

from bot.clock import SystemClock
from bot.output import Place
from bot.service import Service
from bot.store import Store

CHECKPOINT_EVERY = 5_000
"""Presses between two truncating checkpoints while a file ages with no timed checkpoint (the log would otherwise
grow by some 10 KB a press)."""
CONCURRENCY = 64


class Aging(NamedTuple):
    """A service on a file of its own, its tables seated and dealt."""

    folder: Path
    store: Store
    load: Load
    timers: asyncio.Task[None] | None


async def open_service(tables: int, prefix: str, *, scheduler: bool) -> Aging:
    """`tables` tables in their own chats (`<prefix><n>`), each with a hand dealt; with `scheduler`, its timers fire."""
    folder = Path(tempfile.mkdtemp())
    store = await Store.open(folder / "bot.db")
    service = Service(store, SystemClock(), rng=random.Random(1))
    timers = asyncio.create_task(service.scheduler.run()) if scheduler else None
    load = Load(service, [Place(f"{prefix}{index}", f"{prefix}{index}/poker") for index in range(tables)])
    await load.set_up()
    return Aging(folder, store, load, timers)


async def close_service(aging: Aging) -> None:
    """Stop its timers, close its store and remove its file."""
    if aging.timers is not None:
        aging.timers.cancel()
    await aging.store.close()
    shutil.rmtree(aging.folder, ignore_errors=True)


async def truncate_log(store: Store) -> None:
    """Copy the write-ahead log into the file and empty it."""
    await store.outside_transaction(lambda db: db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())


async def pages_by_age(tables: int, ages: list[int], presses: int) -> list[tuple[int, float, float, Counter[str]]]:
    """For each age (presses made before it): the file's size in MB, the log's pages an action over `presses`
    presses, and those pages an action by owner."""
    no_timed_checkpoints()
    aging = await open_service(tables, "c", scheduler=False)
    results = []
    try:
        made = 0
        for age in sorted(ages):
            while made < age:
                step = min(CHECKPOINT_EVERY, age - made)
                await aging.load.press(step, CONCURRENCY)
                await truncate_log(aging.store)
                made += step
            await truncate_log(aging.store)
            first = aging.load.actions
            await aging.load.press(presses, CONCURRENCY)
            done = aging.load.actions - first
            made += done
            frames = (aging.folder / "bot.db-wal").read_bytes()[32:]  # after the log's header
            owners = await aging.store.read(lambda tx: page_owners(tx.db))
            pages = frame_pages(frames)
            by_owner = Counter(owners.get(page, FREE_PAGE) for page in pages)
            size = (aging.folder / "bot.db").stat().st_size / 2**20
            results.append((age, size, len(pages) / done, Counter({name: count / done
                                                                   for name, count in by_owner.items()})))
    finally:
        await close_service(aging)
    return results


class Phase(NamedTuple):
    """One saturated phase of `against_fresh`."""

    rate: float
    """Saturated actions/s."""
    cpu_us: float
    """CPU an action, every thread's."""
    reads: float
    """The writer's read system calls an action (the main thread's: the store runs its batches there)."""
    megabytes: float
    """The database file's size after the phase."""


def _reads() -> int:
    """Read system calls the main thread has made (Linux), where the store's batches run."""
    with open(f"/proc/self/task/{threading.main_thread().native_id}/io") as io:
        return int(dict(line.split(": ") for line in io.read().splitlines())["syscr"])


async def _phase(aging: Aging, seconds: float) -> Phase:
    reads, cpu, first = _reads(), time.process_time(), aging.load.actions
    rate, _ = await aging.load.saturate(seconds, CONCURRENCY)
    done = max(aging.load.actions - first, 1)
    return Phase(rate, 1e6 * (time.process_time() - cpu) / done, (_reads() - reads) / done,
                 (aging.folder / "bot.db").stat().st_size / 2**20)


async def against_fresh(tables: int, age_seconds: float, pairs: int, seconds: float) -> list[tuple[Phase, Phase]]:
    """An aged service's phases against a fresh one's, alternated: (aged, fresh) for each pair."""
    aged = await open_service(tables, "a", scheduler=True)
    fresh: Aging | None = None
    try:
        await aged.load.saturate(age_seconds, CONCURRENCY)
        fresh = await open_service(tables, "b", scheduler=True)
        services, measured = {"aged": aged, "fresh": fresh}, []
        for pair in range(pairs):
            order = ("aged", "fresh") if pair % 2 == 0 else ("fresh", "aged")
            ran = {name: await _phase(services[name], seconds) for name in order}
            measured.append((ran["aged"], ran["fresh"]))
        return measured
    finally:
        await close_service(aged)
        if fresh is not None:
            await close_service(fresh)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=at_least_one("tables"), default=10_000)
    parser.add_argument("--ages", type=whole_numbers(0), default=[0, 60_000],
                        help="presses before each count of pages, comma-separated")
    parser.add_argument("--presses", type=at_least_one("presses"), default=3_000,
                        help="presses each count of pages is made over")
    parser.add_argument("--against-fresh", action="store_true", help="time an aged service against a fresh one")
    parser.add_argument("--age-seconds", type=more_than_zero, default=120.0)
    parser.add_argument("--pairs", type=at_least_one("pairs"), default=4)
    parser.add_argument("--seconds", type=more_than_zero, default=3.0)
    arguments = parser.parse_args()
    if arguments.against_fresh:
        measured = asyncio.run(against_fresh(arguments.tables, arguments.age_seconds, arguments.pairs,
                                             arguments.seconds))
        for number, (aged, fresh) in enumerate(measured, start=1):
            for name, phase in (("aged", aged), ("fresh", fresh)):
                print(f"pair {number}, {name}: {phase.rate:,.0f} actions/s, {phase.cpu_us:.0f} µs of CPU an action, "
                      f"{phase.reads:.2f} reads an action, file {phase.megabytes:.0f} MB", flush=True)
        ratios = [aged.rate / fresh.rate for aged, fresh in measured]
        print(f"aged against fresh: {statistics.geometric_mean(ratios):.2f}x over {len(ratios)} pairs "
              f"({', '.join(f'{ratio:.2f}x' for ratio in ratios)})")
        return
    for age, size, total, by_owner in asyncio.run(pages_by_age(arguments.tables, arguments.ages, arguments.presses)):
        owners = ", ".join(f"{name} {share:.2f}" for name, share in by_owner.most_common(8))
        print(f"aged by {age:,} presses (file {size:.0f} MB): {total:.2f} pages of the write-ahead log an action; "
              f"{owners}")


if __name__ == "__main__":
    main()
