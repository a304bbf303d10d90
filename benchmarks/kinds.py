"""What each kind of Hold'em action costs the bot against the lean design: a deal, a betting action, a hand's end.

`instructions.py` and `service.py` give one figure an action, a mix of kinds. This splits it: the time of each
action's job in the store's transaction (the bot's `Service._apply`: the table opened, the controller, the rows
written, the log row or snapshot kept; the lean design's `apply` in `ceiling.complete`), by what it did to the hand
in play: dealt one, played on in one, or ended one (a refused press is not timed). The commit, the event loop, the
service's entry and the players' side are no kind's: they are the rows after the kinds, the event loop's own CPU a
press outside the jobs it ran (read on its thread's clock: the writer's and the checkpointer's threads left out),
and the collector's part of it. Both designs play `--tables` heads-up tables dealt before the clock starts,
`--presses` presses from 64 players, their decks shuffled by the bot's secure source; the lean design with the bot's
features (`--features` of `instructions.py --lean`), and again writing the bot's rows (`--bot-rows`). The designs
take turns `--rounds` times; the median of each figure is printed, with each kind's share of the bot's job time and
the bot's figure as a multiple of each lean design's.

Run: `python benchmarks/kinds.py [--tables 1000] [--presses 20000] [--rounds 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import ceiling  # beside this file: the lean design
from arguments import at_least_one  # beside this file
from service import Load  # beside this file: the service benchmark's players

from bot.clock import SystemClock
from bot.output import Place
from bot.service import Service
from bot.store import Store

DEAL, BET, END, OTHER = "a deal", "a betting action", "a hand's end", "other (seating, settings)"
KINDS = (DEAL, BET, END)
ALL = "the three together"
OUTSIDE, COLLECTOR = "outside the jobs", "  the collector"
"""The rows after the kinds: the event loop's thread's CPU a press outside the jobs it ran (the commit, the event
loop, the service's entry, the players, the collector), and the collector's part of that."""
CONCURRENCY = 64
"""Players pressing at once (at most one a table)."""
BOT = "the bot"
LEAN = "lean, the bot's features"
LEAN_BOT_ROWS = "lean, features, the bot's rows"


def kind_of(before: bool, after: bool) -> str:
    """An action's kind by whether a hand was in play before it and after it."""
    if before:
        return BET if after else END
    return DEAL if after else OTHER


class Times:
    """Seconds of the jobs of each kind, added up, and how many there were; over the presses, from the first job
    timed (the lean design deals its tables first, untimed), the CPU of the event loop's thread (this one), the
    jobs it ran itself (a batch meeting a checkpoint pass runs in the writer's thread), and the collector's time."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.count: defaultdict[str, int] = defaultdict(int)
        self.in_loop = self.loop_cpu = self.collecting = 0.0
        self.presses = 0
        self._loop = threading.current_thread()
        self._clock = time.pthread_getcpuclockid(threading.get_ident())
        self._loop_began: float | None = None
        self._collection_began = 0.0

    @contextlib.contextmanager
    def pressing(self, presses: int) -> Iterator[None]:
        """Count `presses` presses made in the block, and the collector's time in it."""
        gc.callbacks.append(self._collection)
        try:
            yield
        finally:
            if self._loop_began is not None:
                self.loop_cpu += time.clock_gettime(self._clock) - self._loop_began
                self._loop_began = None
            gc.callbacks.remove(self._collection)
            self.presses += presses

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        if self._loop_began is None:
            return
        if phase == "start":
            self._collection_began = time.perf_counter()
        else:
            self.collecting += time.perf_counter() - self._collection_began

    def add(self, before: bool, after: bool, seconds: float) -> None:
        """One job's time, by its kind."""
        if self._loop_began is None:  # the presses' first job: the loop's CPU counted from its beginning
            self._loop_began = time.clock_gettime(self._clock) - seconds
        kind = kind_of(before, after)
        self.seconds[kind] += seconds
        self.count[kind] += 1
        if threading.current_thread() is self._loop:
            self.in_loop += seconds

    def share(self, kind: str) -> float:
        """The jobs of `kind`'s part of the time of the kinds a hand's play is made of (`KINDS`); 1 for `ALL`."""
        total = sum(self.seconds[each] for each in KINDS)
        return 1.0 if kind == ALL else self.seconds[kind] / total if total else 0.0

    def mean_us(self, kind: str) -> float:
        """The mean job of `kind` (of `KINDS` together for `ALL`), in µs (0 when none ran); for `OUTSIDE` the event
        loop's thread's CPU a press outside the jobs it ran, for `COLLECTOR` the collector's part of that."""
        if kind in (OUTSIDE, COLLECTOR):
            spent = self.loop_cpu - self.in_loop if kind == OUTSIDE else self.collecting
            return spent / self.presses * 1e6 if self.presses else 0.0
        kinds = KINDS if kind == ALL else (kind,)
        count = sum(self.count[each] for each in kinds)
        return sum(self.seconds[each] for each in kinds) / count * 1e6 if count else 0.0


def _in_play(state: dict[str, Any] | None) -> bool:
    return bool(state and state.get("hand"))


@contextlib.contextmanager
def timing(service: Service, times: Times) -> Iterator[None]:
    """Time each job `service` runs until the block ends (its `_apply`), by what it did to the table's hand. The
    method is replaced on the class, the one place a compiled (mypyc) service lets it be replaced: `_run` reads it
    from there when it makes the job."""
    untimed = Service._apply

    def timed(self: Service, place: Any, actor: Any, table_id: str, body: Any, entry: Any, tx: Any) -> Any:
        if self is not service:
            return untimed(self, place, actor, table_id, body, entry, tx)
        live = service._live.get(table_id)
        before = _in_play(live.state if live is not None else None)
        began = time.perf_counter()
        result = untimed(self, place, actor, table_id, body, entry, tx)
        took = time.perf_counter() - began
        times.add(before, _in_play(result[1].state), took)
        return result

    Service._apply = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        Service._apply = untimed  # type: ignore[method-assign]


async def bot(tables: int, presses: int) -> Times:
    """The bot's jobs over `presses` presses at `tables` tables seated and dealt (as `service.py` sets them up)."""
    folder = Path(tempfile.mkdtemp())
    store = await Store.open(folder / "bot.db")
    times = Times()
    try:
        load = Load(Service(store, SystemClock()), [Place(f"chat{index}", f"chat{index}/poker")
                                                    for index in range(tables)])
        await load.set_up(width=16)
        with timing(load.service, times), times.pressing(presses):
            await load.press(presses, CONCURRENCY)
        return times
    finally:
        await store.close()
        shutil.rmtree(folder, ignore_errors=True)


async def lean(tables: int, presses: int, *, bot_rows: bool) -> Times:
    """The lean design's jobs (`ceiling.complete` with the bot's features) over `presses` presses at `tables`
    tables; with `bot_rows`, writing the rows the bot's store writes."""
    folder = Path(tempfile.mkdtemp())
    times = Times()
    try:
        with times.pressing(presses):
            await ceiling.complete(float("inf"), folder / "lean.db", min(CONCURRENCY, tables), actions=presses,
                                   features=True, bot_rows=bot_rows, timed=times.add, check=False, tables=tables)
        return times
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(runs: dict[str, list[Times]]) -> list[str]:
    """The table: each kind's share of the bot's job time and its median mean job in each design, and the bot's
    as a multiple of each lean design's."""
    designs = list(runs)
    lines = [f"{'kind':<20}{'share':>7}" + "".join(f"{name:>34}" for name in designs)]
    for kind in (*KINDS, ALL, OUTSIDE, COLLECTOR):
        share = statistics.median(times.share(kind) for times in runs[BOT]) if kind in (*KINDS, ALL) else None
        means = [statistics.median(times.mean_us(kind) for times in runs[design]) for design in designs]
        cells = [f"{means[0]:.1f} µs"] + [f"{mean:.1f} µs ({means[0] / mean if mean else float('nan'):.2f}x)"
                                          for mean in means[1:]]
        shown = "" if share is None else f"{share:.1%}"  # the rows after the kinds are no share of the jobs
        lines.append(f"{kind:<20}{shown:>7}" + "".join(f"{cell:>34}" for cell in cells))
    return lines


def main() -> None:
    """Run the designs in turn and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=at_least_one("tables"), default=ceiling.TABLES)
    parser.add_argument("--presses", type=at_least_one("presses"), default=20_000)
    parser.add_argument("--rounds", type=at_least_one("rounds"), default=3)
    args = parser.parse_args()
    runs: dict[str, list[Times]] = {BOT: [], LEAN: [], LEAN_BOT_ROWS: []}
    for _ in range(args.rounds):
        runs[BOT].append(asyncio.run(bot(args.tables, args.presses)))
        runs[LEAN].append(asyncio.run(lean(args.tables, args.presses, bot_rows=False)))
        runs[LEAN_BOT_ROWS].append(asyncio.run(lean(args.tables, args.presses, bot_rows=True)))
    print(f"µs of an action's job in the store's transaction, by kind: {args.tables:,} tables, {args.presses:,} "
          f"presses, median of {args.rounds} rounds")
    print("\n".join(report(runs)))


if __name__ == "__main__":
    main()
