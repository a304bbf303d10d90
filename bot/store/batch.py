"""One batch of the store's jobs in one transaction, committed together, each job undone alone if it fails."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from typing import Any

from bot.store import postgres
from bot.store.dialect import Connection, Cursor, Dialect
from bot.store.known import Known
from bot.store.tx import Tx

Job = tuple[Callable[[Tx], Any], "asyncio.Future[Any]", float, Callable[[Any], None] | None]
"""A job of the store: its function of the transaction, the future its caller waits on, its time (`Tx.now`), and
what to do with its result in the event loop once it is committed, whether or not the caller still waits (None:
nothing): a caller cancelled while its job waits in the queue or runs is gone by then, not its change."""
CANNOT_WRITE = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_BUSY", "SQLITE_LOCKED",
                 "SQLITE_NOMEM", "SQLITE_CORRUPT")
"""SQLite's answers that are about the file or the disk, not the transaction: it may well succeed later."""
RETRY = object()
"""A job's outcome when another process held a row it needed (PostgreSQL): it did nothing and runs in the next batch."""


def write_batch(connection: Connection, batch: list[Job], known: Known, dialect: Dialect,
                process_id: str | None = None) -> list[tuple[bool, Any]]:
    """Run the batch's jobs in one transaction and commit it; a job that fails leaves nothing of its own behind.

    On PostgreSQL each job runs in a savepoint. On SQLite a savepoint journals every page a job changes (a copy of
    each, ~14 per action), so instead each job's statements are noted: a job that fails after writing rolls the
    transaction back, and the statements of the jobs kept before it run again, finding the same rows (the store is
    the file's only writer) and so writing the same ones. A job that fails before writing (a refusal) costs nothing."""
    outcomes: list[tuple[bool, Any]] = []
    kept: list[Statement] = []
    connection.execute(dialect.begin_write)
    try:
        for fn, now in [(job[0], job[2]) for job in batch]:  # no future in this frame's locals (`Store._settle`)
            noted = None if dialect.is_shared else NotingConnection(connection)
            if noted is None:
                connection.execute("SAVEPOINT job")
            try:
                tx = Tx(noted or connection, now, known, dialect, process_id)
                result = fn(tx)
                tx.finish_job()
                outcomes.append((True, result))
                if noted is None:
                    connection.execute("RELEASE job")
                else:
                    kept += noted.statements
                known.adopt(tx.learned)  # kept unless the whole batch fails, and then `known` is cleared
            except Exception as error:
                conflict = dialect.is_shared and postgres.is_conflict(error)
                if not conflict and (cannot_write(error) or (dialect.is_shared and postgres.cannot_write(error))):
                    raise  # the whole batch fails (SQLite may have rolled it back already)
                if noted is None:
                    connection.execute("ROLLBACK TO job")
                    connection.execute("RELEASE job")
                elif noted.wrote():
                    connection.execute("ROLLBACK")
                    connection.execute(dialect.begin_write)
                    for sql, parameters, many in kept:
                        (connection.executemany if many else connection.execute)(sql, parameters)
                outcomes.append((False, RETRY if conflict else error))
        connection.execute("COMMIT")
    except BaseException:
        known.clear()
        with contextlib.suppress(Exception):  # keep the real cause, not the rollback's complaint (none open)
            connection.execute("ROLLBACK")
        raise
    return outcomes


Statement = tuple[str, Any, bool]
"""A statement a job ran: its SQL, its parameters (a list of them for `executemany`), whether it was `executemany`."""


class NotingConnection:
    """The writing connection as one job of a SQLite batch uses it: every statement is noted before it runs."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.statements: list[Statement] = []

    def execute(self, sql: str, parameters: Any = (), /) -> Cursor:
        """Note and run one statement."""
        self.statements.append((sql, parameters, False))
        return self._connection.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Cursor:
        """Note and run one statement for each set of parameters (an iterator is read once, into a list)."""
        rows = list(parameters)
        self.statements.append((sql, rows, True))
        return self._connection.executemany(sql, rows)

    def wrote(self) -> bool:
        """Whether the job ran anything but queries (a statement that failed half way counts)."""
        return any(sql.lstrip()[:6].upper() != "SELECT" for sql, _, _ in self.statements)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)  # what a few jobs use of sqlite3's connection (`create_function`)


def cannot_write(error: BaseException) -> bool:
    """Whether SQLite refused because of the file or the disk (see `CANNOT_WRITE`)."""
    name = getattr(error, "sqlite_errorname", "")
    return isinstance(error, sqlite3.Error) and name.startswith(CANNOT_WRITE)
