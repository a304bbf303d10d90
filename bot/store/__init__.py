"""The store: a writing connection in a thread of its own (each batch of transactions one call there, group commit;
on SQLite a batch that can start at once runs in the event loop's thread instead), a read-only one for the slow reads
(statistics, histories) in another, and (SQLite) a WAL checkpointer in a third.

SQLite (a file, the default) or PostgreSQL (`postgresql://…`, for several bot processes on one database): the same
threads, transactions and queries; what differs is in `bot.store.dialect` and `bot.store.postgres`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import sqlite3
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot import collector
from bot.store import postgres
from bot.store.batch import RETRY, Job, cannot_write, write_batch
from bot.store.checkpoint import Checkpointer
from bot.store.dialect import POSTGRESQL, SQLITE, Connection, Dialect
from bot.store.schema import migrate
from bot.store.tx import (
    AccountsOnly,
    InsufficientFunds,
    Known,
    LedgerRow,
    Tx,
    held_account,
    loads,
    wallet_account,
)
from bot.store.worker import ThreadWorker

__all__ = ["CannotSave", "InsufficientFunds", "LedgerRow", "Store", "Tx", "configure", "held_account",
           "wallet_account"]

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_LIMIT = 10_000
"""The most times one transaction is run again because another process held a row it needed (`batch.RETRY`; about ten
seconds of another process's hold); then it fails with `CannotSave`, nothing of it kept (a player is told to try again,
a timer fires again later)."""
BACKGROUND_WAIT = 0.2
"""Seconds a background job (a timer firing) lets players' jobs go first: younger, it goes only in a batch with no
player's job in it. A burst of due timers (tables dealt together, a tournament's level) then runs in the gaps
between presses rather than beside them; a timer fires at most this much later for it."""
BACKGROUND_PER_BATCH = 1
"""The most background jobs a batch takes while players are about: beside players' jobs (once waited
`BACKGROUND_WAIT`), or alone when a player's job came within `PLAYERS_ACTIVE_SECONDS`, so that a press arriving
meanwhile waits for one timer's work, not a batch of them."""
PLAYERS_ACTIVE_SECONDS = 1.0
"""With no player's job in this long (after downtime, before anyone presses), background jobs commit all together:
catching up 10,000 due turn timers took 3.05 s so, against 6.86 s one per batch."""
TEMP_STORE = "MEMORY"
"""Where the writer keeps its temporary files (savepoint and statement journals): see `configure`."""
CACHE_KIB = 65536
"""The most memory, in KiB, SQLite keeps the database's pages in for a connection (taken only as pages are read).
Its default, 2 MB, holds the pages the actions of about 1,000 busy tables touch: at 10,000 each action read some ten
pages back from the operating system, one system call each, and a batch spilled pages to the log before its commit
(`benchmarks/NOTES.md`, eleventh round); 32 MB left 0.15 reads an action there, 64 MB none."""


class _Queue:
    """What `Store._here` answers when a call must go to the database thread."""


_QUEUE = _Queue()


class CannotSave(sqlite3.OperationalError):
    """The database would not keep a transaction (disk full, read-only file, I/O error, PostgreSQL unreachable); none
    of it was kept.

    Its text is SQLite's own (`database or disk is full`, `attempt to write a readonly database`); it is still a
    `sqlite3.Error`, so callers that treat any database error alike need not know it."""


class Store:
    """The bot's database. `transact(fn)` runs `fn(tx)` atomically and returns only after the commit.

    Work is done in the database thread (a `ThreadWorker` on the standard library's sqlite3), one thread hop per
    batch: transactions that arrive while a batch is being written are committed together in the next one (group
    commit), each undone alone if it fails (see `bot.store.batch.write_batch`), so a failing one leaves nothing and
    raises to its caller while the others commit.

    On SQLite a batch (or a quick read) that can start at once runs in the event loop's own thread instead (see
    `_here`): the two threads' Python shares one interpreter lock, and a batch's every statement gave it up and
    waited to take it back from the loop's work, so at half the saturated rate a press took 26-67 ms at the 99th
    percentile through the thread and 2.8 ms so (1,000 tables, 850 actions/s). A commit in WAL mode does not wait
    for the disk (`synchronous=NORMAL`; the checkpointer's thread syncs), so the loop is held only for the batch's
    own work, as it was by the lock before.
    """

    def __init__(self, connection: ThreadWorker, reader: ThreadWorker | None = None, *,
                 dialect: Dialect = SQLITE) -> None:
        self.location: str | Path = ""
        """What the store was opened from (a file's path, or a PostgreSQL URL): opening it again finds the same rows."""
        self.dialect = dialect
        """The database's SQL where it differs (`dialect.is_shared`: other processes may write it too)."""
        self.process_id = uuid.uuid4().hex
        """This store's name among the processes sharing the database, in the rows it claims (`claim_retiring`)."""
        self._connection = connection
        self._reader = reader
        """A second connection, read-only, for `query`: WAL lets it read while the writer commits."""
        self._gate = threading.Lock()
        """Held in the database thread while a batch is written; the checkpointer holds it for a pass that must
        find the log still."""
        self._checkpointer: Checkpointer | None = None
        """Checkpoints the WAL in a thread of its own (the writer never does: `wal_autocheckpoint` is 0)."""
        self._pending: list[Job] = []
        self._background: list[tuple[float, Job, str | None]] = []
        """Jobs nobody is waiting to see (timers firing), each with when it was queued (the event loop's clock: see
        `BACKGROUND_WAIT`) and what it holds (its table: see `hurry`)."""
        self._player_job_at = -math.inf
        """When the last player's job was queued (the event loop's clock)."""
        self._writer: asyncio.Task[None] | None = None
        self._known = AccountsOnly() if dialect.is_shared else Known()
        """Rows mirrored in memory; with other processes writing, only those that never change (accounts)."""
        self._retries: dict[asyncio.Future[Any], int] = {}

    @classmethod
    async def open(cls, path: str | Path, *,
                   checkpointer: Callable[[str | Path, threading.Lock], Checkpointer] = Checkpointer) -> Store:
        """Open (creating if needed) the database at `path` (a SQLite file, or a `postgresql://` URL) and bring its
        schema up to date. `checkpointer` makes a SQLite file's WAL checkpointer from its path and the writer's gate
        (a test's runs only when told to)."""
        if postgres.is_url(path):
            store = await cls._open_postgresql(str(path))
            store.location = path
            return store
        connection = ThreadWorker(functools.partial(_connect, path), "pokerbot-db")
        await connection.start()  # a file that cannot be opened at all fails here, its thread gone
        store = cls(connection)
        store.location = path
        try:
            await store._in_thread(configure)
            await store._in_thread(_no_autocheckpoint)
            store._checkpointer = await asyncio.to_thread(checkpointer, path, store._gate)
            store._reader = ThreadWorker(functools.partial(_connect, path), "pokerbot-db-reader")
            await store._reader.start()
            await store._reader.run(_read_only)
        except BaseException as error:  # not a database, or unwritable: stop what was started (after the block)
            failed = error
        else:
            return store
        await store._stop_threads()
        raise failed

    @classmethod
    async def _open_postgresql(cls, url: str) -> Store:
        connection = ThreadWorker(functools.partial(postgres.connect, url), "pokerbot-db")
        await connection.start()
        store = cls(connection, dialect=POSTGRESQL)
        try:
            await store._in_thread(_migrate_postgresql)
            store._reader = ThreadWorker(functools.partial(postgres.connect, url, read_only=True),
                                         "pokerbot-db-reader")
            await store._reader.start()
        except BaseException as error:
            failed = error
        else:
            return store
        await store._stop_threads()
        raise failed

    async def close(self) -> None:
        """Finish pending transactions, truncate the WAL (it is all in the database file then) and close the
        connections."""
        while self._writer is not None:
            await asyncio.shield(self._writer)
        await self._stop_threads()

    async def _stop_threads(self) -> None:
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
            self._checkpointer = None
        if self._reader is not None:
            await self._reader.close()
        if self.dialect is SQLITE:  # a read-only or full disk, or closed already: the next start copies the log
            with contextlib.suppress(sqlite3.Error):
                await self._in_thread(lambda connection: connection.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
        await self._connection.close()

    async def _in_thread(self, fn: Callable[[Any], T], on: ThreadWorker | None = None) -> T:
        # a whole transaction (or batch) is queued as one call, so it costs one thread hop, not one per statement
        return await (on or self._connection).run(fn)

    async def transact(self, fn: Callable[[Tx], T], *, now: float, background: bool = False,
                       holding: str | None = None, then: Callable[[T], None] | None = None) -> T:
        """Run `fn(tx)` in a transaction stamped `now`; its result once committed, or its exception (nothing kept):
        `CannotSave` when the file or the disk refused the write. A `background` job (a timer: nobody is waiting to
        see it) lets the players' jobs go first (see `BACKGROUND_WAIT`); `holding` names what its caller holds while
        it waits (its table), so that a player who needs it can `hurry` it. `then(result)` runs in the event loop
        right after the commit, even when the caller has stopped waiting (cancelled): what this process must do
        about a kept change whoever asked for it (see `bot.store.batch.Job`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if background:
            self._background.append((loop.time(), (fn, future, now, then), holding))
        else:
            self._pending.append((fn, future, now, then))
            self._player_job_at = loop.time()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_batches())
        try:
            return await future
        except Exception as error:
            del future  # the error's traceback holds this frame: without the future it holds no cycle (`_settle`)
            if cannot_write(error) or (self.dialect.is_shared and postgres.cannot_write(error)):
                raise CannotSave(str(error)) from error
            raise

    def hurry(self, holding: str) -> None:
        """A player waits for what the background job queued `holding` it holds (a press at a table whose timer's
        job waits behind the players' presses, the table held meanwhile): it goes in the next batch, as a player's
        job does, rather than after `BACKGROUND_WAIT` and the timers queued before it."""
        for index, (_, job, key) in enumerate(self._background):  # only when a press finds its table held
            if key == holding:
                del self._background[index]
                self._pending.append(job)
                return

    def quiet_for(self, seconds: float) -> bool:
        """Whether no player's job has come in the last `seconds` (timers' do not count): a lull."""
        return asyncio.get_running_loop().time() - self._player_job_at >= seconds

    async def read(self, fn: Callable[[Tx], T], *, now: float = 0.0) -> T:
        """Run quick read-only queries on the writing connection, between batches (the committed state), with the
        rows the store mirrors in memory; slow reads go to `query` instead."""

        def run(connection: Connection) -> T:
            tx = Tx(connection, now, self._known, self.dialect)
            result = fn(tx)
            self._known.adopt(tx.learned)  # read() runs in autocommit mode: what it wrote is already committed
            return result

        result = self._here(run)
        return await self._in_thread(run) if isinstance(result, _Queue) else result

    def remembered_settings(self, chat_id: str) -> dict[str, Any]:
        """A chat's settings as the store mirrors them in memory, `{}` when it does not (never read yet, forgotten
        after a failed batch, or not mirrored on a shared database): for words that must neither wait on the
        database nor fail with it (the apology for an error)."""
        stored = self._known.settings.get(chat_id)
        if stored is None:
            return {}
        try:
            settings: dict[str, Any] = loads(stored)
        except ValueError:
            return {}
        return settings

    async def query(self, fn: Callable[[Tx], T], *, now: float = 0.0) -> T:
        """Run read-only queries on the read-only connection, in its own thread: one snapshot of the committed state,
        taken without waiting for the writer and without holding it up (so a slow `/stats` delays no commit); `now`
        is the time `Tx.now` reads (`/stats 30d` counts back from it).

        The rows the store mirrors in memory are neither used nor updated here: the snapshot may be older than
        them, and a writer must never learn an older row from a reader."""

        def run(connection: Connection) -> T:
            connection.execute(self.dialect.begin_snapshot)  # every query of `fn` reads the same snapshot
            try:
                return fn(Tx(connection, now, dialect=self.dialect))
            finally:
                connection.execute("ROLLBACK")

        return await self._in_thread(run, self._reader)

    async def outside_transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` on the writing connection between two batches, in autocommit mode: for what cannot
        run inside a transaction (a VACUUM). Rows it changes must not be rows the store mirrors in memory."""
        return await self._in_thread(fn)

    async def _write_batches(self) -> None:
        batch: list[Job] = []
        try:
            while self._pending or self._background:
                if not self._background and all(job[1] in self._retries for job in self._pending):
                    await asyncio.sleep(0.001)  # only jobs waiting for another process: give it a moment
                share = self._background_share()
                batch = self._pending + [job for _, job, _ in self._background[:share]]
                self._pending, self._background = [], self._background[share:]
                collector.before_batch()
                try:
                    outcomes = await self._write(batch)
                except Exception as error:  # nothing of the batch was kept: each caller learns why, and the
                    outcomes = [(False, error)] * len(batch)  # next batch tries afresh
                if self._checkpointer is not None:
                    self._checkpointer.committed()
                self._settle(batch, outcomes)
                await asyncio.sleep(0)  # the callers see their outcomes (and queue what follows) before the next batch
        except BaseException as error:  # the connection failed: every waiter learns it
            for _, future, _, _ in batch + self._pending + [job for _, job, _ in self._background]:
                if not future.done():
                    future.set_exception(error)
            self._pending, self._background = [], []
            raise
        finally:
            self._writer = None

    def _settle(self, batch: list[Job], outcomes: list[tuple[bool, Any]]) -> None:
        """Give each job's caller its outcome, or queue the job again (its table was held by another process; after
        `RETRY_LIMIT` times, `CannotSave`); a committed job's `then` runs first, whether or not its caller still waits.

        Both lists are emptied: a job's error (a refusal) keeps the frames it came through and their callers' up to
        the batch loop, which hold these lists; emptied, nothing there holds it in a cycle, so the batch is freed as
        soon as its callers are done with it, not by a full collection (made only once memory has grown:
        `bot.collector`)."""
        for job, (ok, value) in zip(batch, outcomes, strict=True):
            future = job[1]
            if ok and job[3] is not None:
                try:
                    job[3](value)
                except Exception:  # its change is kept all the same, and so are the batch's others: no caller's error
                    log.exception("what follows a committed transaction failed")
            if future.done():
                continue
            if value is RETRY:
                if self._retry(job):
                    continue
                value = CannotSave(f"another process held what the transaction needed through {RETRY_LIMIT} tries")
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        batch.clear()
        outcomes.clear()

    async def _write(self, batch: list[Job]) -> list[tuple[bool, Any]]:
        """Write one batch: here when it can start at once (see `_here`), else in the database thread."""
        outcomes = self._here(functools.partial(_run_batch, batch=batch, known=self._known, gate=None,
                                                dialect=self.dialect, process_id=self.process_id))
        if isinstance(outcomes, _Queue):
            return await self._in_thread(functools.partial(_run_batch, batch=batch, known=self._known,
                                                           gate=self._gate, dialect=self.dialect,
                                                           process_id=self.process_id))
        if all(ok for ok, _ in outcomes):  # no other task of the loop ran meanwhile, and no job failed
            collector.after_batch()
        return outcomes

    def _here(self, fn: Callable[[Any], T]) -> T | _Queue:
        """`fn(connection)` on the writing connection in this thread (the event loop's), when it can start at once:
        SQLite, the database thread idle, and no checkpoint pass holding the gate (one may wait for the writer to
        be still; the loop must not wait for it). Its result, or `_QUEUE`: run it in the database thread."""
        if self.dialect.is_shared:  # each statement a round trip to the server: not in the loop's thread
            return _QUEUE
        connection = self._connection.idle_connection()
        if connection is None or not self._gate.acquire(blocking=False):
            return _QUEUE
        try:
            return fn(connection)
        finally:
            self._gate.release()

    def _background_share(self) -> int:
        """How many background jobs the next batch takes, oldest first (see `BACKGROUND_WAIT`)."""
        if not self._background:
            return 0
        now = asyncio.get_running_loop().time()
        if self._pending:
            return BACKGROUND_PER_BATCH if now - self._background[0][0] >= BACKGROUND_WAIT else 0
        if now - self._player_job_at < PLAYERS_ACTIVE_SECONDS:
            return BACKGROUND_PER_BATCH
        return len(self._background)

    def _retry(self, job: Job) -> bool:
        """Queue a job that found its table held by another process for the next batch (after a short pause when
        nothing else is waiting, so as not to spin); False once it has waited too long."""
        future = job[1]
        count = self._retries.get(future, 0) + 1
        if count > RETRY_LIMIT:
            self._retries.pop(future, None)
            return False
        self._retries[future] = count
        future.add_done_callback(lambda done: self._retries.pop(done, None))
        self._pending.append(job)
        return True


def configure(connection: sqlite3.Connection) -> None:
    """Incremental vacuum, WAL, synchronous=NORMAL, foreign keys, journals in memory, a page cache for a busy
    bot (`CACHE_KIB`), then the migrations: every connection the bot (or a benchmark comparing itself with it)
    opens."""
    # Takes effect only on a new file, before its first table: an older file keeps auto_vacuum=NONE until a VACUUM
    # converts it, which `bot.store.prune` does once when pruning is turned on.
    connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
    # WAL with synchronous=NORMAL survives a killed process (only an OS crash may lose the last commits).
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA busy_timeout = 5000")
    # A savepoint's or a statement's journal of the pages it changes otherwise spills to a temporary file past 64 KB
    # (~30 writes per action when each job had a savepoint). In memory it is a copy (prune's one VACUUM asks for a
    # file again).
    connection.execute(f"PRAGMA temp_store = {TEMP_STORE}")
    connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # negative: a size in KiB, not a count of pages
    migrate(connection)


def _connect(path: str | Path) -> sqlite3.Connection:
    """A connection in autocommit mode (the store says BEGIN and COMMIT itself), used by one thread at a time."""
    return sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)


def _no_autocheckpoint(connection: sqlite3.Connection) -> None:
    """The writer never checkpoints in a COMMIT (`Checkpointer` does it beside it); a log grown large once (a burst
    between two checkpoints) is cut back to 64 MB when it is next reused."""
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    connection.execute("PRAGMA journal_size_limit = 67108864")


def _read_only(connection: sqlite3.Connection) -> None:
    connection.execute("PRAGMA query_only = ON")
    connection.execute("PRAGMA busy_timeout = 5000")


def _migrate_postgresql(connection: postgres.PgConnection) -> int:
    """The migrations, one process at a time (several may start together)."""
    connection.execute("SELECT pg_advisory_lock(?)", (postgres.MIGRATION_LOCK,))
    try:
        return migrate(connection, POSTGRESQL)
    finally:
        connection.execute("SELECT pg_advisory_unlock(?)", (postgres.MIGRATION_LOCK,))


def _run_batch(connection: Connection, *, batch: list[Job], known: Known, gate: threading.Lock | None,
               dialect: Dialect, process_id: str) -> list[tuple[bool, Any]]:
    """Write the batch holding the checkpointer's gate (None: the caller holds it)."""
    with gate or contextlib.nullcontext():
        return write_batch(connection, batch, known, dialect, process_id)


