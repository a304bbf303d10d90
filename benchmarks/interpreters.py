"""Whether the machine's second core can serve tables in one process: the bot's service in several isolated
interpreters of one process (Python 3.13's interpreters, each with an interpreter lock of its own), each serving its
share of the tables from a SQLite file of its own, pressed at once; beside one isolated interpreter serving them all
and the main interpreter doing so (the bot as it runs).

Two of the service's dependencies will not load in an isolated interpreter ("does not support loading in
subinterpreters"): orjson, which every action calls, and Pillow, which the service imports for its pictures (numpy,
which only the odds use, refuses too). Inside the isolated interpreters this benchmark therefore puts stand-ins first
on the module path: orjson's calls made with the standard library's `json` (slower: one isolated interpreter against
the main one shows what that costs), and Pillow's names with nothing behind them (pictures are off). A measurement of
what the second core would give, not a design the bot can use: the stand-ins are not the bot's code, the bot's Python
is 3.11 (Debian 12's), and the chats would be split between the files.

Each interpreter runs `processes.child` (its tables seated and dealt, then `--concurrency` players pressing for
`--seconds`); the ledger of every file is checked after. Printed: actions/s of each configuration, and its ratio to
the main interpreter's.
Run with Python 3.13 and the bot's dependencies installed:
`python3.13 benchmarks/interpreters.py [--interpreters 2] [--tables 1000] [--seconds 5] [--concurrency 64]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import io
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from arguments import at_least_one, more_than_zero  # beside this file: the benchmarks' argument types
from processes import ROOT, _check, child

STAND_INS = {
    "orjson.py": '''"""orjson's calls made with the standard library's json (orjson will not load here)."""
import json

OPT_NON_STR_KEYS = 1
OPT_SORT_KEYS = 2
JSONDecodeError = json.JSONDecodeError
_ENCODERS = {}
_decode = json.JSONDecoder().decode


def Fragment(text):
    return json.loads(text)


def dumps(value, default=None, option=0):
    key = (default, option & OPT_SORT_KEYS)
    encoder = _ENCODERS.get(key)
    if encoder is None:  # one encoder for each way of calling, as json.dumps makes one for each call
        encoder = _ENCODERS[key] = json.JSONEncoder(default=default, separators=(",", ":"), ensure_ascii=False,
                                                    sort_keys=bool(option & OPT_SORT_KEYS)).encode
    return encoder(value).encode()


def loads(text):
    return _decode(text if isinstance(text, str) else bytes(text).decode())
''',
    "PIL/__init__.py": '"""Pillow\'s names, with nothing behind them: pictures are off in the benchmark."""\n',
    "PIL/Image.py": "class Image: ...\n",
    "PIL/ImageDraw.py": "class ImageDraw: ...\n",
    "PIL/ImageFont.py": "class FreeTypeFont: ...\nclass ImageFont: ...\n",
}
"""The stand-ins, written to a temporary folder put first on the isolated interpreters' module path."""

SERVE = """
import asyncio, contextlib, io, json, sys
sys.path[:0] = {path!r}
from processes import child
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    asyncio.run(child({database!r}, {first}, {last}, {seconds}, {concurrency}, {start_at}))
with open({result!r}, "w") as out:
    out.write(printed.getvalue().strip().splitlines()[-1])
"""
"""What each isolated interpreter runs: `processes.child` on its share, its printed figures written to `result`."""


def interpreters_module() -> Any:
    """Python's module of isolated interpreters (3.13: `_interpreters`), or None where there is none."""
    try:
        return importlib.import_module("_interpreters")
    except ImportError:
        return None


def serve(folder: Path, name: str, count: int, tables: int, seconds: float, concurrency: int,
          isolated: bool) -> float:
    """`count` interpreters (isolated ones, or the main one) serving `tables` tables together, each its share from a
    file of its own in `folder`: their actions/s together, each file's ledger checked."""
    share = -(-tables // count)
    start_at = time.time() + 4.0 + share * 0.01  # each seats and deals its tables first, then all press at once
    path = ([str(folder / "stand-ins")] if isolated else []) + [str(ROOT), str(ROOT / "benchmarks")]
    results = [folder / f"{name}{index}.json" for index in range(count)]
    databases = [str(folder / f"{name}{index}.db") for index in range(count)]

    def one(index: int) -> None:
        first, last = index * share, min(tables, (index + 1) * share)
        if not isolated:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                asyncio.run(child(databases[index], first, last, seconds, concurrency, start_at))
            results[index].write_text(printed.getvalue().strip().splitlines()[-1])
            return
        interpreters = interpreters_module()
        # the store's worker threads are daemon threads, which an isolated interpreter refuses unless allowed
        interpreter = interpreters.create(interpreters.new_config("isolated", allow_daemon_threads=True))
        failed = interpreters.exec(interpreter, SERVE.format(
            path=path, database=databases[index], first=first, last=last, seconds=seconds, concurrency=concurrency,
            start_at=start_at, result=str(results[index])))
        if failed is not None:
            raise SystemExit(f"interpreter {index} failed:\n{failed.errdisplay}")

    threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for database in databases:
        if problems := asyncio.run(_check(database)):
            raise SystemExit(f"the ledger of {database} does not hold: {problems[:3]}")
    rates = [figures["actions"] / figures["elapsed"]
             for figures in (json.loads(result.read_text()) for result in results)]
    return sum(rates)


def main() -> None:
    """Parse the arguments, then measure the main interpreter, one isolated interpreter and several."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interpreters", type=at_least_one("interpreters"), default=2,
                        help="isolated interpreters at once")
    parser.add_argument("--tables", type=at_least_one("tables"), default=1000)
    parser.add_argument("--seconds", type=more_than_zero, default=5.0)
    parser.add_argument("--concurrency", type=at_least_one("players"), default=64,
                        help="players pressing in each")
    args = parser.parse_args()
    if interpreters_module() is None:
        parser.error(f"needs Python 3.13's isolated interpreters (`_interpreters`); this is {sys.version.split()[0]}")
    if args.tables < args.interpreters:
        parser.error("--tables must be at least --interpreters (each interpreter serves its own tables)")
    folder = Path(tempfile.mkdtemp())
    for name, text in STAND_INS.items():
        (folder / "stand-ins" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "stand-ins" / name).write_text(text)
    print(f"Python {sys.version.split()[0]}, {args.tables} tables, {args.concurrency} players pressing in each "
          f"interpreter, {args.seconds:g} s each")
    measure = {"tables": args.tables, "seconds": args.seconds, "concurrency": args.concurrency}
    main_rate = serve(folder, "main", 1, isolated=False, **measure)
    print(f"the main interpreter (orjson, the bot as it runs): {main_rate:,.0f} actions/s")
    alone = serve(folder, "alone", 1, isolated=True, **measure)
    print(f"one isolated interpreter (the stand-ins): {alone:,.0f} actions/s, {alone / main_rate:.2f}x the main one")
    together = serve(folder, "together", args.interpreters, isolated=True, **measure)
    print(f"{args.interpreters} isolated interpreters, a file each: {together:,.0f} actions/s, "
          f"{together / alone:.2f}x one isolated, {together / main_rate:.2f}x the main one; ledgers ok")
    sys.stdout.flush()
    # Python 3.13.0 at times aborts (a double free) while tearing down an isolated interpreter that ran the store's
    # threads, after every figure above: the process ends here instead
    os._exit(0)


if __name__ == "__main__":
    main()
