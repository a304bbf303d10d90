"""One bot process per SQLite file: a second `pokerbot` started on a file another one is using refuses to start.

A process keeps its tables live in memory and mirrors rows it reads often (`Known`), trusting that nothing else
writes the file; two processes on one file would each act on its own copy of a table (a seat one of them added
vanishes when the other saves the table, the chips left on a stack nobody sits at) and both would fire its timers.
Several processes share a PostgreSQL database instead, which is built for it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on a POSIX system: no lock to take
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(sqlite3.OperationalError):
    """Another process holds the SQLite file (see `hold_database`): like any file the bot cannot use, it stops the
    bot with one line saying why."""

    def __init__(self, path: Path) -> None:
        super().__init__("another pokerbot process is using it (one process per SQLite file; several processes "
                         "share a PostgreSQL database)")
        self.path = path


class DatabaseHold:
    """An exclusive advisory lock (`flock`) on a SQLite file, kept until `release` (or until the process ends, even
    killed: the system drops it then).

    It is taken on a descriptor of the file opened before any SQLite connection of this process and closed only
    after the store has closed its connections: closing a descriptor of a file drops every POSIX lock the process
    holds on it, SQLite's own included. `flock` locks are apart from SQLite's POSIX ones."""

    def __init__(self, descriptor: int | None) -> None:
        self._descriptor = descriptor

    def release(self) -> None:
        """Let the file go (after the store is closed)."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None

    def __enter__(self) -> DatabaseHold:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def hold_database(database: Path | str) -> DatabaseHold:
    """Hold the SQLite file `database` for this process (created empty when new, as SQLite would); raise
    `DatabaseInUse` when another process holds it. A PostgreSQL URL, or a file that cannot be opened at all (opening
    the store then says why), holds nothing."""
    if not isinstance(database, Path) or fcntl is None:
        return DatabaseHold(None)
    try:
        descriptor = os.open(database, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError:
        return DatabaseHold(None)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)  # no SQLite connection of this process is open yet: no lock of its to drop
        raise DatabaseInUse(database) from None
    return DatabaseHold(descriptor)
