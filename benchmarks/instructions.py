"""Machine instructions per Hold'em action through the whole bot (parser, service, engine, SQLite commit), counted by
valgrind's callgrind: a figure that does not move with the machine's load, where timings here drift by ±25% within
minutes (benchmarks/NOTES.md). Two runs of the same workload are counted side by side, one that only sets up the
tables and one that then presses `--actions` buttons; their difference, divided by the actions, is printed. Every
run hashes strings alike (`PYTHONHASHSEED`), and the WAL checkpointer, whose passes come by the clock, makes none;
repeated runs of one checkout agreed within about 0.05% on 2026-12-03, but on 2026-12-07 three runs each of two plain
commits at 1,000 tables spread some ±2.5%, not yet explained (compiled too: 479,917-512,158 for one build). With
`--concurrency 1` (each press its own batch) two runs of each of two compiled builds agreed within 1% (2026-12-08):
compare a change of a few per cent so, or count several runs a side. A change to the action path is compared by
running this in a worktree of each commit, and a prototype by `--patch`. Instructions are a fair guide to time (the
bot's cache misses, as callgrind simulates them, are the lean design's times what its instructions are), but not time
itself: a change kept for speed is also timed, alternated, with `against.py`.

The workload is deterministic: `--tables` heads-up tables, each dealt a hand, then `--concurrency` players pressing a
random button of the player to act (or dealing between hands), all from seeded sources, the deck shuffled by a
seeded `random.Random` rather than the bot's secure source, so that each run plays the same hands; the ledger is
checked, in a native run of the same workload after the counted ones: the check's work grows with the moves made
(reading every move of the ledger and the log), so inside the count it was some 30,000 instructions an action, and a
change to the check moved the figure as if the action had changed (until 2026-12-03's thirteenth round). Run:
`python benchmarks/instructions.py [--actions 1500] [--tables 64] [--patch MODULE]`; with
`--workload N` it only plays the workload with N actions (what callgrind counts), natively. `--patch` imports a module
(found on `PYTHONPATH`) in both counted runs before the workload starts: a prototype that patches the bot as it is
imported is sized against the code as it is. `--lean` counts the lean design's prototype instead
(`ceiling.complete`, its deck seeded): the instructions an action of the rewrite the issue describes, the bot's
target; `--lean --bot-rows`, that prototype writing the rows the bot's store writes today (a rebuilt action path
with the storage as it is), and `--lean --features` doing what a Hold'em action of the bot does beyond it (the two
together: the bot's features on today's storage). `--workload N --pages` also prints the pages the presses wrote
to the write-ahead log (each distinct page a batch changes is one 4 KB frame, written by the kernel at its commit
and copied again by the checkpoint): the storage's side of an action, which instructions miss (callgrind counts no
kernel work); at 1,000 tables (`--tables 1000`) the rows spread over more pages than at 64. Above the total it
prints them by the table or index each page belongs to (SQLite's `dbstat`), an action's share of each: which rows
cost pages, and so what a change to the rows would save of the commits and checkpoints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

import ceiling  # beside this file: the lean design's prototype
from service import Load  # beside this file: the service benchmark's players

import bot.store as store_module
from bot.clock import SystemClock
from bot.output import Place
from bot.service import Service
from bot.store import Store
from bot.store.checkpoint import Checkpointer
from bot.store.dialect import Connection


class Played(NamedTuple):
    """What `workload` played and what the presses wrote."""

    actions: int
    """Calls into the service (re-buys included)."""
    refused: int
    """Those refused."""
    logged: int
    """Bytes the presses added to the write-ahead log."""
    pages: Counter[str]
    """The log's frames the presses wrote, by the table or index the page belongs to (empty where this SQLite has no
    `dbstat` table to tell)."""


async def workload(tables: int, actions: int, concurrency: int, *, check: bool = True, pages: bool = False) -> Played:
    """Set up `tables` tables with a hand dealt, then press `actions` buttons (`service.py`'s players): what they
    made and wrote (no checkpoint runs: the write-ahead log only grows, so each frame past its size before the
    presses is one they wrote). With `check`, raises if the ledger check fails; with `pages`, maps the frames to what
    they belong to (after the presses, but in the process callgrind counts: not in a counted run)."""
    folder = Path(tempfile.mkdtemp())
    no_timed_checkpoints()
    store = await Store.open(folder / "bot.db")
    try:
        load = Load(Service(store, SystemClock(), rng=random.Random(1)),
                    [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)])
        await load.set_up(width=16)
        log = folder / "bot.db-wal"
        logged_before = log.stat().st_size

        await load.press(actions - load.actions, concurrency)
        problems = await store.read(lambda tx: tx.check_ledger()) if check else []
        if problems:
            raise RuntimeError(f"ledger check failed: {problems}")
        logged = log.stat().st_size - logged_before
        by_owner: Counter[str] = Counter()
        if pages:
            owners = await store.read(lambda tx: page_owners(tx.db))
            by_owner.update(owners.get(page, FREE_PAGE) for page in frame_pages(log.read_bytes()[logged_before:]))
        return Played(load.actions, load.refused, logged, by_owner)
    finally:
        await store.close()
        shutil.rmtree(folder, ignore_errors=True)


async def lean_workload(actions: int, concurrency: int, *, bot_rows: bool = False, features: bool = False,
                        check: bool = True) -> int:
    """The lean design's prototype (`ceiling.complete`: its tables dealt, then `actions` presses), its deck seeded:
    what the rewrite the issue describes would cost an action, counted like the bot's; with `bot_rows`, writing the
    rows the bot's store writes today (and, with `check`, its ledger checked at the end); with `features`, doing what
    a Hold'em action of the bot does beyond it. Returns the presses its log holds (a row each, kept, beside one for
    each table's first deal)."""
    folder = Path(tempfile.mkdtemp())
    no_timed_checkpoints()
    try:
        await ceiling.complete(float("inf"), folder / "lean.db", concurrency, actions=actions,
                               deck_source=random.Random(1), bot_rows=bot_rows, features=features, check=check)
        with contextlib.closing(sqlite3.connect(folder / "lean.db")) as written:
            rows = written.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return int(rows) - ceiling.TABLES


WAL_FRAME = 4096 + 24
"""A frame of SQLite's write-ahead log: one page of the database (4 KB, the default) and its header."""
FREE_PAGE = "(no table or index now: a free page)"
"""Where the presses wrote a page that belongs to nothing after them (the free list's; `dbstat` names the file's
first page, its header, `sqlite_schema`)."""


def frame_pages(frames: bytes) -> list[int]:
    """The page number of each whole frame in `frames` (a stretch of the log after its header): the first four
    bytes of a frame's header, big-endian."""
    return [int.from_bytes(frames[start:start + 4], "big")
            for start in range(0, len(frames) - WAL_FRAME + 1, WAL_FRAME)]


def page_owners(connection: Connection) -> dict[int, str]:
    """Which table or index each page of the database belongs to, from SQLite's `dbstat` table (empty when this
    SQLite was built without it)."""
    try:
        rows = connection.execute("SELECT pageno, name FROM dbstat").fetchall()
    except sqlite3.OperationalError:  # no such table: dbstat
        return {}
    return {int(page): str(name) for page, name in rows}


def no_timed_checkpoints() -> None:
    """The store's WAL checkpointer makes no pass in this process: its passes come by the clock, and a batch meeting
    one runs in the database thread, so a count would move with the machine's pace (the WAL grows a few megabytes)."""
    store_module.Checkpointer = functools.partial(  # type: ignore[attr-defined, assignment]
        Checkpointer, every_seconds=3600.0, every_commits=2**62)


def counted(actions: int, tables: int, concurrency: int, patch: str | None = None, lean: bool = False, *,
            bot_rows: bool = False, features: bool = False, under_callgrind: bool = True) -> subprocess.Popen[str]:
    """The workload with `actions` actions, started under callgrind (its count is read by `instructions_of`) without
    the ledger check, whose work grows with the moves made and is no part of an action; or natively with it, to
    prove the same workload's ledger sound."""
    command = [sys.executable, __file__, "--workload", str(actions), "--tables", str(tables), "--concurrency",
               str(concurrency), *(["--patch", patch] if patch else []), *(["--lean"] if lean else []),
               *(["--bot-rows"] if bot_rows else []), *(["--features"] if features else [])]
    if under_callgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command, "--unchecked"]
    # one string hash for every run: sets and dicts of strings iterate in the same order each time
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def instructions_of(run: subprocess.Popen[str]) -> tuple[int, str]:
    """The instructions callgrind counted in a finished run, and what the workload printed."""
    output, _ = run.communicate()
    found = re.search(r"Collected : (\d+)", output)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"the counted run failed:\n{output[-2000:]}")
    return int(found.group(1)), "\n".join(line for line in output.splitlines() if not line.startswith("=="))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workload", type=int, help="only play the workload with this many actions, natively")
    parser.add_argument("--patch", help="a module to import before the workload (a prototype patching the bot)")
    parser.add_argument("--pages", action="store_true",
                        help="with --workload: also print the pages the presses wrote to the write-ahead log")
    parser.add_argument("--unchecked", action="store_true",
                        help="with --workload: no ledger check at the end (what the counted runs play)")
    parser.add_argument("--lean", action="store_true",
                        help="count the lean design's prototype (ceiling.complete, 1,000 tables) instead of the bot")
    parser.add_argument("--bot-rows", action="store_true",
                        help="with --lean: the prototype writing the rows the bot's store writes today")
    parser.add_argument("--features", action="store_true",
                        help="with --lean: the prototype doing what a Hold'em action of the bot does beyond it")
    args = parser.parse_args()
    if args.patch:
        importlib.import_module(args.patch)
    if args.workload is not None and args.lean:
        made = asyncio.run(lean_workload(args.workload, args.concurrency, bot_rows=args.bot_rows,
                                         features=args.features, check=not args.unchecked))
        checked = ", ledger ok" if args.bot_rows and not args.unchecked else ""  # else `complete` raised
        print(f"{made} actions of the lean design{checked}")
        return
    if args.workload is not None:
        outcome = asyncio.run(workload(args.tables, args.workload, args.concurrency, check=not args.unchecked,
                                       pages=args.pages))
        made = outcome.actions
        print(f"{made} actions, {outcome.refused} refused, ledger {'not checked' if args.unchecked else 'ok'}")
        if args.pages:
            for name, frames in outcome.pages.most_common():
                print(f"  {frames / made:.3f} {name}")
            print(f"{outcome.logged / made / WAL_FRAME:.2f} pages of the write-ahead log an action "
                  f"({outcome.logged / made / 1024:.1f} KB; {made} actions at {args.tables} tables)")
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian's package valgrind)")
    lean_kind = {"bot_rows": args.bot_rows, "features": args.features}
    set_up = counted(0, args.tables, args.concurrency, args.patch, args.lean, **lean_kind)
    pressed = counted(args.actions, args.tables, args.concurrency, args.patch, args.lean, **lean_kind)
    base, _ = instructions_of(set_up)
    total, played = instructions_of(pressed)
    # after the counted runs, so that they run as they always have, two processes on the two cores
    checked = counted(args.actions, args.tables, args.concurrency, args.patch, args.lean, **lean_kind,
                      under_callgrind=False)
    said, _ = checked.communicate()
    made = int(played.split()[0])
    if checked.returncode != 0 or int(said.split()[0]) != made:
        raise RuntimeError(f"the same workload, run natively with the ledger check, failed or played otherwise:\n"
                           f"{said[-2000:]}")
    variant = " and ".join(name for name, wanted in (("the bot's rows", args.bot_rows),
                                                     ("the bot's features", args.features)) if wanted)
    where = (f"the lean design's{f' (with {variant})' if variant else ''} 1,000" if args.lean else str(args.tables))
    print(f"{said.strip()}\n{(total - base) / made:,.0f} instructions an action "
          f"({made} actions at {where} tables: {total:,} counted, {base:,} of them setting up)")


if __name__ == "__main__":
    main()
