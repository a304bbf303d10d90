"""Whether a second thread can take SQLite's share of an action in one process: the prototype of "the database work
on the machine's second core", measured beside one thread doing it all.

Each action is `--python-us` of pure Python work (the service's engine, ledger, history and text, which hold the
interpreter lock) and then the rows one betting action writes in the bot (`benchmarks/service.py`'s store floor: a
chip move with its two balances, the turn timer and the action-log row holding the move and two events, through
the real `Tx` on the bot's schema), 64 actions per commit. Five ways:
- the rows alone (what SQLite takes of an action);
- one thread: the Python work and the rows, one action after the other (the bot today);
- two threads: the main thread does the Python work and notes each batch's statements; a writer thread runs them and
  commits (`sqlite3` lets go of the interpreter lock while SQLite steps a statement), the main thread going on with
  the next batch meanwhile;
- two threads, one statement a batch: as the last, but the writer runs a batch's statements as one `INSERT` of all
  their parameters into a temporary table whose triggers run each statement (`Staged`), so that it takes the
  interpreter lock back a handful of times a batch rather than after every statement; and the rows alone so.
Printed: actions/s of each, and the two threads' rates as multiples of the one thread's.
Run: `python benchmarks/second_thread.py [--seconds 3] [--python-us 250] [--switch-interval 0.005]` (how often a
thread waiting for the lock makes the one holding it let go: `sys.setswitchinterval`).
"""

from __future__ import annotations

import argparse
import queue
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service import CALL_ENTRY, betting_rows  # beside this file: the store floor's rows of a betting action

from bot.store import Tx, configure
from bot.store.tx import Known

BATCH = 64
TABLES = 1000
Statement = tuple[str, Any]


class _Cursor:
    """What `Tx` reads of a statement it did not run yet: one row changed (the debit's check), no row found (the hand
    a table's row says is in play: none, the first time)."""

    rowcount = 1

    def fetchone(self) -> None:
        """No row."""
        return None


class Noting:
    """A connection that notes each statement for the writer thread and runs nothing."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []

    def execute(self, sql: str, parameters: Any = ()) -> _Cursor:
        """Note one statement."""
        self.statements.append((sql, parameters))
        return _Cursor()

    def executemany(self, sql: str, rows: Any) -> _Cursor:
        """Note one statement per row."""
        self.statements.extend((sql, row) for row in rows)
        return _Cursor()


def python_work(microseconds: float) -> Callable[[], int]:
    """A function that spends about `microseconds` of CPU in Python bytecode (calibrated here)."""

    def spin(count: int) -> int:
        total = 0
        for number in range(count):
            total += number
        return total

    count = 1000
    while True:
        began = time.perf_counter()
        spin(count)
        took = time.perf_counter() - began
        if took > 0.02:
            break
        count *= 2
    per_call = max(1, int(count * microseconds / 1e6 / took))
    return lambda: spin(per_call)


def open_database(path: Path) -> tuple[sqlite3.Connection, Known]:
    """The bot's schema with `TABLES` tables, each with its chat and a stack of chips."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    configure(connection)
    known = Known()
    connection.execute("BEGIN")
    for index in range(TABLES):
        tx = Tx(connection, 0.0, known)
        tx.ensure_chat(f"c{index}")
        tx.save_table_json(f"t{index}", f"c{index}", "{}", "{}")
        tx.move(f"c{index}", f"mint:c{index}", f"stack:t{index}:ann", 10**12, "grant")
        tx.move(f"c{index}", f"mint:c{index}", f"pot:t{index}", 1, "grant")  # both accounts exist from the start
        known.adopt(tx.learned)
    connection.execute("COMMIT")
    return connection, known


def write_rows(connection: Any, known: Known, number: int) -> None:
    """Action `number`'s rows through `Tx` (on a real connection, or a `Noting` one)."""
    table, chat = f"t{number % TABLES}", f"c{number % TABLES}"
    tx = Tx(connection, float(number), known)
    betting_rows(tx, table, chat, number)
    tx.log_action(table, number // TABLES + 1, CALL_ENTRY)


def one_thread(connection: sqlite3.Connection, known: Known, seconds: float, work: Callable[[], int]) -> float:
    """Actions/s with the Python work (`work`) and the rows one after the other, in one thread."""
    count, began = 0, time.perf_counter()
    while time.perf_counter() < began + seconds:
        connection.execute("BEGIN IMMEDIATE")
        for number in range(count, count + BATCH):
            work()
            write_rows(connection, known, number)
        connection.execute("COMMIT")
        count += BATCH
    return count / (time.perf_counter() - began)


def two_threads(connection: sqlite3.Connection, known: Known, seconds: float, work: Callable[[], int],
                run: Callable[[list[Statement]], None] | None = None) -> float:
    """Actions/s with the Python work in this thread and each batch's statements run (one at a time, or by `run`)
    and committed by a writer thread, at most two batches queued ahead of it."""
    batches: queue.Queue[list[Statement] | None] = queue.Queue(maxsize=2)
    committed = [0]

    def one_at_a_time(statements: list[Statement]) -> None:
        for sql, parameters in statements:
            connection.execute(sql, parameters)

    def writer() -> None:
        while (statements := batches.get()) is not None:
            connection.execute("BEGIN IMMEDIATE")
            (run or one_at_a_time)(statements)
            connection.execute("COMMIT")
            committed[0] += BATCH

    thread = threading.Thread(target=writer, daemon=True)  # a failing main thread must not hang on it
    thread.start()
    count, began = 0, time.perf_counter()
    while time.perf_counter() < began + seconds:
        noting = Noting()
        for number in range(count, count + BATCH):
            work()
            write_rows(noting, known, number)
        batches.put(noting.statements)
        count += BATCH
    batches.put(None)
    thread.join()
    return committed[0] / (time.perf_counter() - began)


def staged_alone(connection: sqlite3.Connection, known: Known, seconds: float) -> float:
    """Actions/s of the rows alone, each batch noted and run as one statement in this thread."""
    staged = Staged(connection)
    count, began = 0, time.perf_counter()
    while time.perf_counter() < began + seconds:
        noting = Noting()
        for number in range(count, count + BATCH):
            write_rows(noting, known, number)
        connection.execute("BEGIN IMMEDIATE")
        staged.run(noting.statements)
        connection.execute("COMMIT")
        count += BATCH
    return count / (time.perf_counter() - began)


class Staged:
    """Runs a batch's statements as one `INSERT` into a temporary table whose triggers run each of them: SQLite steps
    the whole batch in one go, with the interpreter lock let go throughout, where one statement at a time takes the
    lock back after each (and waits up to a switch interval for it while the other thread runs Python)."""

    WIDTH = 12
    """Parameters a staged statement may have."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._kinds: dict[str, int] = {}
        columns = ", ".join(f"p{index}" for index in range(self.WIDTH))
        connection.execute(f"CREATE TEMP TABLE stage(kind INTEGER, {columns})")

    def _kind(self, sql: str) -> int:
        """The number of `sql`'s trigger, created the first time it is seen."""
        kind = self._kinds.get(sql)
        if kind is None:
            kind = self._kinds[sql] = len(self._kinds)
            parts = sql.split("?")
            body = parts[0] + "".join(f"NEW.p{index}{part}" for index, part in enumerate(parts[1:]))
            self._connection.execute(
                f"CREATE TEMP TRIGGER stage_{kind} AFTER INSERT ON stage WHEN NEW.kind = {kind} BEGIN {body}; END")
        return kind

    def run(self, statements: list[Statement]) -> None:
        """Run `statements` in order, as one statement (and one more to empty the stage)."""
        rows: list[Any] = []
        for sql, parameters in statements:
            rows.append(self._kind(sql))
            rows.extend(parameters)
            rows.extend([None] * (self.WIDTH - len(parameters)))
        values = "(" + ", ".join("?" * (self.WIDTH + 1)) + ")"
        self._connection.execute(f"INSERT INTO stage VALUES {', '.join([values] * len(statements))}", rows)
        self._connection.execute("DELETE FROM stage")


def main() -> None:
    """Measure the five ways, each on a fresh database, and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--python-us", type=float, default=250.0,
                        help="the Python work of one action, in µs (the service's CPU per action less its rows')")
    parser.add_argument("--switch-interval", type=float, default=sys.getswitchinterval())
    args = parser.parse_args()
    sys.setswitchinterval(args.switch_interval)
    work = python_work(args.python_us)
    folder = Path(tempfile.mkdtemp())
    rates: dict[str, float] = {}
    runs: list[tuple[str, Callable[[sqlite3.Connection, Known], float]]] = [
        ("rows alone", lambda connection, known: one_thread(connection, known, args.seconds, lambda: 0)),
        ("one thread", lambda connection, known: one_thread(connection, known, args.seconds, work)),
        ("two threads", lambda connection, known: two_threads(connection, known, args.seconds, work)),
        ("two threads, one statement a batch",
         lambda connection, known: two_threads(connection, known, args.seconds, work, Staged(connection).run)),
        ("rows alone, one statement a batch",
         lambda connection, known: staged_alone(connection, known, args.seconds)),
    ]
    for name, run in runs:
        connection, known = open_database(folder / f"{name.replace(' ', '_')}.db")
        rates[name] = run(connection, known)
        connection.close()
    print(f"{args.python_us:.0f} µs of Python an action; {BATCH} actions per commit, {TABLES} tables; switch interval "
          f"{args.switch_interval * 1000:g} ms")
    for name, rate in rates.items():
        print(f"{name}: {rate:,.0f} actions/s")
    print(f"two threads: {rates['two threads'] / rates['one thread']:.2f}x one thread")
    staged = rates["two threads, one statement a batch"]
    print(f"two threads, one statement a batch: {staged / rates['one thread']:.2f}x one thread")


if __name__ == "__main__":
    main()
