"""The WAL is checkpointed beside the writer, never inside a commit, and does not grow without end while the bot
writes; commits go on while a checkpoint runs."""

import asyncio
import functools
import os
import sqlite3
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.store import Store, Tx
from bot.store.checkpoint import Checkpointer

PAGE = 4096
ROW = os.urandom(3000)
ROWS_PER_WRITER = 1500


def quiet_checkpointer(**options: Any) -> Callable[[str | Path, threading.Lock], Checkpointer]:
    """What makes a store's checkpointer (`Store.open`'s `checkpointer`) that runs only as told by `options`
    (default: never by itself)."""
    return functools.partial(Checkpointer, **{"every_commits": 10**9, "every_seconds": 3600.0, **options})


async def scratch(store: Store) -> None:
    await store.outside_transaction(lambda connection: connection.execute("CREATE TABLE scratch (x BLOB)"))


def insert(tx: Tx) -> None:
    tx.db.execute("INSERT INTO scratch VALUES (?)", (ROW,))


def _size_or_none(path: Path) -> int | None:
    """The file's size, or None when there is none (one look: CI saw the log deleted between an `exists()` and a
    `getsize()`)."""
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return None


def log_pages(path: Path) -> int:
    """Frames in the WAL not yet reused (a passive checkpoint from another connection reports them)."""
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    finally:
        connection.close()


async def test_no_commit_checkpoints_the_wal(tmp_path: Path) -> None:
    """SQLite's default copies the log into the database inside the commit that takes it past 1,000 pages; the
    store's writer never does (only its checkpointer would)."""
    store = await Store.open(tmp_path / "bot.db", checkpointer=quiet_checkpointer())
    await scratch(store)
    for _ in range(1500):  # ~1,500 pages of rows, one commit each
        await store.transact(insert, now=0.0)
    assert log_pages(tmp_path / "bot.db") > 1500, "a commit checkpointed (and restarted) the log"
    await store.close()


async def test_the_wal_stays_bounded_while_the_bot_writes(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db",
                             checkpointer=quiet_checkpointer(every_seconds=0.01, log_limit_pages=256))
    await scratch(store)

    async def writer() -> None:
        for _ in range(ROWS_PER_WRITER):
            await store.transact(insert, now=0.0)
            await asyncio.sleep(0.001)

    # 24,000 rows: ~72 MB through the log, against a 1 MB limit. On a loaded machine the checkpointer's syncs can
    # take long enough that the log grows several MB past the limit before it starts afresh (CI saw 5 MB after 12 MB
    # written, and 15 MB of 36 MB; with every core busy and another process syncing, 9-12 MB of 72 MB): enough rows
    # that such a delay never reaches a third of them.
    await asyncio.gather(*(writer() for _ in range(16)))
    written = 16 * ROWS_PER_WRITER * len(ROW)
    assert store._checkpointer is not None and store._checkpointer.checkpoint_count > 0
    assert os.path.getsize(tmp_path / "bot.db-wal") < written / 3, "the log was never started afresh"
    # the log's header counts its fresh starts (the checkpoint sequence number): here one every MB or so, and even
    # on the loaded machine above some 30; fewer than 4 would mean the log grew 18 MB between starts
    restarts = struct.unpack(">I", (tmp_path / "bot.db-wal").read_bytes()[12:16])[0]
    assert restarts >= 4, f"the log started afresh only {restarts} times"
    await store.close()
    assert _size_or_none(tmp_path / "bot.db-wal") in (None, 0)


async def test_commits_go_on_while_a_checkpoint_runs(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db", checkpointer=quiet_checkpointer())
    await scratch(store)

    def fill(tx: Tx) -> None:
        for _ in range(3000):
            insert(tx)

    for _ in range(4):  # ~12,000 pages waiting to be copied
        await store.transact(fill, now=0.0)
    checkpointer = store._checkpointer
    assert checkpointer is not None
    done = threading.Event()

    def checkpoint() -> None:
        for _ in range(100):  # SQLite answers -1 pages for a pass it could not start (the log busy): again
            checkpointer._pass()
            if checkpointer.last[1] != -1:
                break
        done.set()

    running = asyncio.create_task(asyncio.to_thread(checkpoint))
    committed_meanwhile = 0
    while not done.is_set():
        await store.transact(insert, now=0.0)
        committed_meanwhile += not done.is_set()
    await running
    assert committed_meanwhile > 0, "every commit waited for the checkpoint"
    assert checkpointer.last[2] > 10_000, "the checkpoint copied the log"
    await store.close()


async def test_a_pass_that_holds_the_writer_back_finds_the_copied_pages_synced_already(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    """Past the log's limit a round ends with a pass holding the writer's gate. What the earlier passes copied into
    the database file is synced to the disk before the gate is taken, so the writer never waits for that sync."""
    store = await Store.open(tmp_path / "bot.db", checkpointer=quiet_checkpointer(log_limit_pages=64))
    await scratch(store)
    for _ in range(300):  # ~300 pages in the log: past the limit
        await store.transact(insert, now=0.0)
    checkpointer = store._checkpointer
    assert checkpointer is not None
    gate = checkpointer._gate
    synced: list[bool] = []  # for each sync of the database file: whether the writer was held meanwhile
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda descriptor: synced.append(gate.locked()) or real_fsync(descriptor))
    await asyncio.to_thread(checkpointer._checkpoint)
    monkeypatch.undo()
    assert checkpointer.gated_count == 1
    assert synced and not any(synced), "the copied pages were synced while the writer waited"
    await store.close()
