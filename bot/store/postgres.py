"""The PostgreSQL connection of the store (`POKERBOT_DB=postgresql://…`): psycopg 3, in the store's own threads.

The store runs on PostgreSQL exactly as on SQLite: one writing connection in a thread of its own, each batch of
transactions one call there (group commit), a second connection for the slow reads. A connection lost (the server
restarted, a network cut) fails the batch it was in with `CannotSave`, nothing of it kept, and the thread opens a new
one for the next batch (`PgConnection.is_broken`). Only a connection lost during the COMMIT itself leaves it unknown
whether the batch was kept; its tables are read again from the database for their next action either way.

This module only adapts psycopg to what the store's queries expect: `?` placeholders, `execute` returning a cursor,
autocommit (the store says BEGIN and COMMIT itself). Several bot processes may share the database: see
`Tx.lock_table` and `Tx.claim_timer`.
"""

from __future__ import annotations

import functools
import select
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

SCHEMES = ("postgresql://", "postgres://")
MIGRATION_LOCK = 0x706F6B6572
"""The advisory lock key ("poker") that makes processes starting together apply the migrations one at a time."""
CONNECT_TIMEOUT_SECONDS = 10
"""How long opening a connection may take (unless the URL says `connect_timeout`)."""


def is_url(database: object) -> bool:
    """Whether `POKERBOT_DB` names a PostgreSQL database (else it is a SQLite file)."""
    return isinstance(database, str) and database.startswith(SCHEMES)


class PgConnection:
    """A psycopg connection spoken to as the store speaks to sqlite3: `?` placeholders, `execute` → cursor."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.raw = connection

    def execute(self, sql: str, parameters: Any = None, /) -> psycopg.Cursor[Any]:
        """Run one statement; its cursor (rows, rowcount)."""
        return self.raw.execute(_translate(sql), parameters or None)

    def executemany(self, sql: str, parameters: Any, /) -> psycopg.Cursor[Any]:
        """Run one statement for each set of parameters."""
        cursor = self.raw.cursor()
        cursor.executemany(_translate(sql), parameters)
        return cursor

    def close(self) -> None:
        """Close the connection (an open transaction is rolled back)."""
        self.raw.close()

    def is_broken(self) -> bool:
        """Whether the connection is lost (the server restarted, or ended this session), so that the store's thread
        opens a new one before its next batch (`ThreadWorker`). Asked between batches, when the server has nothing
        to say: anything it sent meanwhile is taken for its goodbye (`terminating connection…`), seen without a
        round trip (a rare notice instead costs only a new connection)."""
        if self.raw.closed or self.raw.broken:
            return True
        readable, _, _ = select.select([self.raw.fileno()], [], [], 0)
        return bool(readable)


@functools.lru_cache(maxsize=1024)
def _translate(sql: str) -> str:
    """sqlite3's placeholders (`?`) as psycopg's (`%s`); a literal `%` (in `LIKE 'h%'`) doubled."""
    return sql.replace("%", "%%").replace("?", "%s")


def connect(url: str, *, read_only: bool = False) -> PgConnection:
    """A connection to `url` in autocommit mode; `read_only` for the store's reader."""
    import psycopg  # an optional dependency: `pip install -e '.[postgres]'`
    import psycopg.conninfo

    # a host that does not answer (a network cut) fails the batch after this long rather than holding the thread
    if "connect_timeout" not in url:
        url = psycopg.conninfo.make_conninfo(url, connect_timeout=CONNECT_TIMEOUT_SECONDS)
    connection = psycopg.connect(url, autocommit=True)
    if read_only:
        connection.execute("SET default_transaction_read_only = on")
    return PgConnection(connection)


def cannot_write(error: BaseException) -> bool:
    """Whether the server or the connection failed (not the transaction): it may well succeed later."""
    import psycopg

    return isinstance(error, psycopg.OperationalError) and not is_conflict(error)


def is_conflict(error: BaseException) -> bool:
    """Whether another process held what the transaction needed (a table's row taken NOWAIT, a deadlock): the
    transaction did nothing and is run again after the batch commits."""
    import psycopg.errors

    return isinstance(error, psycopg.errors.LockNotAvailable | psycopg.errors.DeadlockDetected
                      | psycopg.errors.SerializationFailure)
