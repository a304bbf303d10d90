"""Two checkouts of the bot timed against each other, saturated, alternated: how a change to the action path is judged
on a machine whose pace drifts by a quarter within minutes (`benchmarks/NOTES.md`).

Each run is a process of its own on one checkout (its `bot` and its `benchmarks/service.py` players): `--tables`
heads-up tables seated and dealt, the tuned collector, the real scheduler, `--warm-up` seconds of presses, then the
median of `--phases` saturated phases of `--seconds` each (actions per second, 64 players pressing), the ledger
checked after. The two sides take turns, and the pairs take turns in which side goes first (before, after; then
after, before), because order alone moved the figures: with each run's database left behind, the second run of a
pair was some 6% slower (the first's writes were still being flushed to the disk), which looked like a change's
effect when it was not (eighteenth round). So every run starts on a synced disk, its database removed after it, and
the ratio is printed for either order apart as well as over all pairs: a difference of order in them is the
machine's, not the change's.

Run: `python benchmarks/alternate.py BEFORE AFTER [--tables 1000] [--pairs 4]`, BEFORE and AFTER each a checkout's
folder, or a git revision of this repository (a detached worktree is made for it in a temporary folder, removed at the
end). The checkouts share this interpreter and its installed libraries.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve()
REPOSITORY = HERE.parents[1]


class Run(NamedTuple):
    """What one run measured: the median rate, each phase's, what the ledger check found, and the `bot` it ran."""

    rate: float
    phases: list[float]
    ledger: list[str]
    bot: str


def run_once(checkout: Path, tables: int, seconds: float, phases: int, warm_up: float) -> Run:
    """One measured run on `checkout`, in a process of its own: what `child` printed."""
    os.sync()  # the last run's writes reach the disk before this one starts, not during it
    folder = Path(tempfile.mkdtemp(prefix="alternate-"))
    try:
        result = subprocess.run(
            [sys.executable, str(HERE), "--child", "--tables", str(tables), "--seconds", str(seconds),
             "--phases", str(phases), "--warm-up", str(warm_up)],
            cwd=checkout, capture_output=True, text=True, check=False,
            env={**os.environ, "PYTHONPATH": str(checkout), "TMPDIR": str(folder), "PYTHONDONTWRITEBYTECODE": "1"})
        if result.returncode != 0:
            raise RuntimeError(f"the run on {checkout} failed:\n{result.stderr[-3000:]}")
        return Run(**json.loads(result.stdout.splitlines()[-1]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def child(tables: int, seconds: float, phases: int, warm_up: float) -> dict[str, object]:
    """The measured run itself, in the checkout this process imports (`PYTHONPATH`)."""
    import asyncio

    sys.path.insert(0, str(Path.cwd() / "benchmarks"))  # the checkout's own players
    import service as players  # the checkout's, found only now

    import bot
    from bot.collector import tune_collector

    store = await players.Store.open(Path(tempfile.mkdtemp()) / "bot.db")
    service = players.Service(store, players.SystemClock())
    timers = asyncio.create_task(service.scheduler.run())
    places = [players.Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)]
    load = players.Load(service, places)
    await players.in_parallel(places, load.seat)
    await players.in_parallel(places, load.deal)
    tune_collector(players.THRESHOLDS)
    pressing = min(64, tables)  # players pressing at once, each at tables of his own
    await load.saturate(warm_up, pressing)
    rates = [(await load.saturate(seconds, pressing))[0] for _ in range(phases)]
    timers.cancel()
    problems = await store.read(lambda tx: tx.check_ledger())
    await store.close()
    return {"rate": statistics.median(rates), "phases": rates, "ledger": problems[:3], "bot": bot.__file__}


@contextmanager
def checked_out(name: str) -> Iterator[Path]:
    """`name` as a checkout's folder: itself, or a detached worktree of that git revision for the block's length."""
    if Path(name).is_dir():
        yield Path(name).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="alternate-worktree-")) / "checkout"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(folder), name], cwd=REPOSITORY, check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=REPOSITORY, check=False)
        shutil.rmtree(folder.parent, ignore_errors=True)


def compare(before: Path, after: Path, *, pairs: int, tables: int, seconds: float, phases: int,
            warm_up: float, pause: float = 1.0) -> list[tuple[str, float, float]]:
    """`pairs` pairs of runs, the first side of each pair taking turns; each pair's order and both rates (before,
    after), printed as they come."""
    measured = []
    for index in range(pairs):
        order = ("before", "after") if index % 2 == 0 else ("after", "before")
        rates: dict[str, float] = {}
        for side in order:
            run = run_once(before if side == "before" else after, tables, seconds, phases, warm_up)
            if run.ledger:
                raise RuntimeError(f"the ledger check failed after a run of {side}: {run.ledger}")
            rates[side] = run.rate
            print(f"pair {index + 1}, {side} ({run.bot}): {run.rate:,.0f} actions/s "
                  f"(phases {', '.join(f'{rate:,.0f}' for rate in run.phases)})", flush=True)
            time.sleep(pause)
        measured.append((f"{order[0]} first", rates["before"], rates["after"]))
    return measured


def ratio(pairs: list[tuple[str, float, float]]) -> str:
    """After's mean rate over before's, and how many pairs had after higher."""
    if not pairs:
        return "none"
    higher = sum(after > before for _, before, after in pairs)
    mean = statistics.mean(after for _, _, after in pairs) / statistics.mean(before for _, before, _ in pairs)
    return f"{mean:.3f}x ({higher} of {len(pairs)} pairs higher)"


def main() -> None:
    """Compare the two checkouts (or, with `--child`, be one run)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", nargs="?")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--phases", type=int, default=3)
    parser.add_argument("--warm-up", type=float, default=2.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import asyncio

        print(json.dumps(asyncio.run(child(args.tables, args.seconds, args.phases, args.warm_up))))
        return
    if args.before is None or args.after is None:
        parser.error("give the two checkouts (folders or git revisions)")
    with ExitStack() as stack:
        before, after = stack.enter_context(checked_out(args.before)), stack.enter_context(checked_out(args.after))
        pairs = compare(before, after, pairs=args.pairs, tables=args.tables, seconds=args.seconds,
                        phases=args.phases, warm_up=args.warm_up)
    print(f"after / before: {ratio(pairs)}; before first {ratio([p for p in pairs if p[0] == 'before first'])}, "
          f"after first {ratio([p for p in pairs if p[0] == 'after first'])}")


if __name__ == "__main__":
    main()
