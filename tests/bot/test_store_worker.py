"""The store's database threads: the standard library's sqlite3 on a thread of its own (no aiosqlite internals)."""

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.store.worker import ThreadWorker


def connect(path: Path):
    return lambda: sqlite3.connect(path, isolation_level=None, check_same_thread=False)


async def test_functions_run_in_order_on_one_thread_and_a_failure_goes_to_its_caller(tmp_path: Path) -> None:
    worker = ThreadWorker(connect(tmp_path / "w.db"), "test-db")
    await worker.start()
    threads: set[int] = set()

    def step(number: int):
        def run(connection: sqlite3.Connection) -> int:
            threads.add(threading.get_ident())
            if number == 3:
                raise ValueError("three")
            connection.execute("CREATE TABLE IF NOT EXISTS seen (n INTEGER)")
            connection.execute("INSERT INTO seen VALUES (?)", (number,))
            return number

        return run

    outcomes = await asyncio.gather(*(worker.run(step(number)) for number in range(6)), return_exceptions=True)
    assert outcomes[:3] == [0, 1, 2] and isinstance(outcomes[3], ValueError) and outcomes[4:] == [4, 5]
    rows = await worker.run(lambda connection: connection.execute("SELECT n FROM seen").fetchall())
    assert [row[0] for row in rows] == [0, 1, 2, 4, 5]
    assert len(threads) == 1 and threading.get_ident() not in threads
    await worker.close()
    with pytest.raises(sqlite3.ProgrammingError):
        await worker.run(lambda connection: None)
    await worker.close()  # twice: nothing


async def test_close_runs_what_is_queued_first(tmp_path: Path) -> None:
    worker = ThreadWorker(connect(tmp_path / "w.db"), "test-db")
    await worker.start()
    pending = asyncio.ensure_future(worker.run(lambda connection: connection.execute("SELECT 7").fetchone()[0]))
    await asyncio.sleep(0)
    await worker.close()
    assert await pending == 7


async def test_a_file_that_cannot_be_opened_fails_at_start(tmp_path: Path) -> None:
    worker = ThreadWorker(connect(tmp_path / "missing" / "w.db"), "test-db")
    with pytest.raises(sqlite3.OperationalError):
        await worker.start()
    with pytest.raises(sqlite3.ProgrammingError):
        await worker.run(lambda connection: None)


def slow_posts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each post the database thread makes to the event loop is followed by a pause in that thread, as a loaded
    machine would make it (the loop's own, interpreted, method patched: a compiled worker calls its `_post` directly,
    where a patch of the module's function would not reach)."""
    loop = asyncio.get_running_loop()
    call_soon_threadsafe = loop.call_soon_threadsafe

    def slow(*args: Any, **kwargs: Any) -> asyncio.Handle:
        handle = call_soon_threadsafe(*args, **kwargs)
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.3)
        return handle

    monkeypatch.setattr(loop, "call_soon_threadsafe", slow)


async def test_a_failed_start_returns_once_the_thread_has_ended(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread posts the failure, then that it stopped, then returns; a loaded machine may pause it between
    (here each post is followed by a pause): `start` raises only once the thread has ended."""
    slow_posts(monkeypatch)
    worker = ThreadWorker(connect(tmp_path / "missing" / "w.db"), "test-db")
    with pytest.raises(sqlite3.OperationalError):
        await worker.start()
    assert not worker._runner.is_alive()


async def test_a_start_cancelled_while_it_opens_closes_the_connection_and_ends_the_thread(tmp_path: Path) -> None:
    """A slow open (a PostgreSQL server far away) outlives its caller: the connection it opens is closed and the
    thread ends before the cancellation reaches the caller, rather than a thread left waiting for calls forever."""
    opening, release = threading.Event(), threading.Event()
    opened: list[sqlite3.Connection] = []

    def slow_connect() -> sqlite3.Connection:
        opening.set()
        release.wait(5)
        opened.append(sqlite3.connect(tmp_path / "w.db", isolation_level=None, check_same_thread=False))
        return opened[0]

    worker = ThreadWorker(slow_connect, "test-db")
    starting = asyncio.ensure_future(worker.start())
    assert await asyncio.to_thread(opening.wait, 5)
    starting.cancel()
    await asyncio.sleep(0.01)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await starting
    assert not worker._runner.is_alive()
    with pytest.raises(sqlite3.ProgrammingError):  # closed
        opened[0].execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        await worker.run(lambda connection: None)


def test_the_store_does_not_use_aiosqlite() -> None:
    """It used aiosqlite's private `_execute` and `_conn` (pinned below 0.23); its public API has no way to run a
    whole transaction in one thread hop, so the store runs its own thread on the standard library's sqlite3."""
    code = "import sys, bot.store, bot.service; print('aiosqlite' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


async def test_the_connection_is_lent_only_while_the_thread_has_nothing_queued_or_running(tmp_path: Path) -> None:
    worker = ThreadWorker(connect(tmp_path / "w.db"), "test-db")
    await worker.start()
    connection = worker.idle_connection()
    assert connection is not None and connection.execute("SELECT 1").fetchone() == (1,)
    running, release = threading.Event(), threading.Event()

    def slow(connection: sqlite3.Connection) -> int:
        running.set()
        release.wait(5)
        return 2

    first = asyncio.ensure_future(worker.run(slow))
    second = asyncio.ensure_future(worker.run(lambda connection: 3))
    await asyncio.sleep(0)
    assert worker.idle_connection() is None  # queued
    assert await asyncio.to_thread(running.wait, 5)
    first.cancel()  # its caller stops waiting: the thread is still using the connection
    await asyncio.sleep(0.01)
    assert worker.idle_connection() is None
    release.set()
    assert await second == 3
    await asyncio.sleep(0)
    assert worker.idle_connection() is connection
    await worker.close()
    assert worker.idle_connection() is None


async def test_close_returns_once_the_thread_has_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread posts that it stopped as its last act, then returns: on a loaded machine it may still be alive
    when the event loop hears of it. Here each post is followed by a pause in the thread, as such a machine would
    make it: `close` still returns only once the thread has ended."""
    slow_posts(monkeypatch)
    worker = ThreadWorker(connect(tmp_path / "w.db"), "test-db")
    await worker.start()
    await worker.close()
    assert not worker._runner.is_alive()
