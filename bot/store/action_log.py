"""Migration 6: the action log (one row per action since the table's last snapshot) and the event kind of history
rows in a real column, so history reads need no JSON-expression index (and the SQL stays portable)."""

from __future__ import annotations

import sqlite3

import orjson

from bot.store.dialect import SQLITE, Dialect

_BACKFILL_BATCH = 5000


def add_action_log(connection: sqlite3.Connection, dialect: Dialect = SQLITE) -> None:
    """Create `actions`, give `tables` the sequence number its snapshot includes, and move history's event kind
    into `history.kind` (filled for the rows already there, read by Python rather than a JSON function).

    An older database's snapshots stay as they are: each is the state after its table's last action (sequence 0),
    with no action after it to replay."""
    connection.execute(dialect.ddl(
        "CREATE TABLE actions ("
        " table_id TEXT NOT NULL,"
        " seq      INTEGER NOT NULL,"
        " at       REAL NOT NULL,"
        " entry    TEXT NOT NULL,"
        " PRIMARY KEY (table_id, seq))"
    ))
    connection.execute(dialect.ddl("ALTER TABLE tables ADD COLUMN snapshot_seq INTEGER NOT NULL DEFAULT 0"))
    connection.execute("ALTER TABLE history ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
    last = 0
    while True:
        rows = connection.execute(
            "SELECT id, event FROM history WHERE id > ? ORDER BY id LIMIT ?", (last, _BACKFILL_BATCH)
        ).fetchall()
        if not rows:
            break
        connection.executemany(
            "UPDATE history SET kind = ? WHERE id = ?",
            [(str(orjson.loads(event).get("kind", "")), row_id) for row_id, event in rows],
        )
        last = rows[-1][0]
    connection.execute("DROP INDEX IF EXISTS history_kind")
    connection.execute("CREATE INDEX history_by_kind ON history(table_id, kind)")
