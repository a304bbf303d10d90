"""The PostgreSQL connection of the store (`POKERBOT_DB=postgresql://…`): psycopg 3, in the store's own threads.

The store runs on PostgreSQL exactly as on SQLite: one writing connection in a thread of its own, each batch of
transactions one call there (group commit), a second connection for the slow reads. This module only adapts psycopg
to what the store's queries expect: `?` placeholders, `execute` returning a cursor, autocommit (the store says BEGIN
and COMMIT itself). Several bot processes may share the database: see `Tx.lock_table` and `Tx.claim_timer`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

SCHEMES = ("postgresql://", "postgres://")
MIGRATION_LOCK = 0x706F6B6572
"""The advisory lock key ("poker") that makes processes starting together apply the migrations one at a time."""


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


@functools.lru_cache(maxsize=1024)
def _translate(sql: str) -> str:
    """sqlite3's placeholders (`?`) as psycopg's (`%s`); a literal `%` (in `LIKE 'h%'`) doubled."""
    return sql.replace("%", "%%").replace("?", "%s")


def connect(url: str, *, read_only: bool = False) -> PgConnection:
    """A connection to `url` in autocommit mode; `read_only` for the store's reader."""
    import psycopg  # an optional dependency: `pip install -e '.[postgres]'`

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
