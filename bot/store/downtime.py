"""When the bot last ran, from which start-up measures its downtime (its last clean stop, or the last action or timer
any table stored: `bot.service.startup`), and with several processes on one database, when a table a stopped process
left was last served (`bot.service.takeover`)."""

from __future__ import annotations

from collections.abc import Collection

from bot.store.dialect import Connection, Dialect
from bot.store.snapshots import AFTER_SNAPSHOT
from bot.store.tx import Tx


def note_stop(tx: Tx, process_id: str) -> None:
    """Record that the process `process_id` stops cleanly at `tx.now`, and with it the bot (`last_ran`): its last
    heartbeat (`beat`), so that a takeover counts the downtime of the tables it served from its stop
    (`last_served`), not from its previous heartbeat up to `bot.service.takeover.BEAT_SECONDS` earlier."""
    tx.db.execute("DELETE FROM stops")
    tx.db.execute("INSERT INTO stops(at) VALUES (?)", (tx.now,))
    beat(tx, process_id)


_LOGGED_AFTER = f"(SELECT MAX(at) {AFTER_SNAPSHOT})"
"""The instant of a table's last log row after its snapshot (NULL when none)."""


def last_ran(tx: Tx) -> float | None:
    """The last instant the bot is known to have run: its last clean stop, or the last action or timer stored at any
    table (after a crash; with several processes on one database, whichever ran last), whichever is later; None for
    a database that has stored neither. A table's last one is its snapshot's, or a log row's after it."""
    row = tx.db.execute(
        f"SELECT (SELECT MAX(at) FROM stops), MAX(updated_at), MAX({_LOGGED_AFTER}) FROM tables").fetchone()
    known = [float(at) for at in row if at is not None]
    return max(known) if known else None


def last_served(tx: Tx, keys: Collection[str]) -> dict[str, float]:
    """When the table of each of these timers was last known served: the later of its last write (its snapshot, or a
    log row after it) and the last heartbeat (`beat`) of the process that armed the timer. With several processes on
    one database, where a process that stopped left its timers for another to take over (`bot.service.takeover`),
    the table was down from then: a quiet table was served, though it wrote nothing, while its process lived."""
    if not keys:
        return {}
    places = ", ".join("?" * len(keys))
    rows = tx.db.execute(
        f"SELECT timers.key, tables.updated_at, {_LOGGED_AFTER}, processes.alive_at FROM timers "
        "JOIN tables ON tables.table_id = timers.table_id "
        f"LEFT JOIN processes ON processes.process_id = timers.armed_by WHERE timers.key IN ({places})", tuple(keys))
    return {str(key): max(float(updated_at), float(logged or 0), float(alive_at or 0))
            for key, updated_at, logged, alive_at in rows}


def beat(tx: Tx, process_id: str, *, forget_before: float | None = None) -> None:
    """The process `process_id` is alive at `tx.now` (its heartbeat; `last_served`). With `forget_before`, the rows
    of the processes last heard from before then that armed no timer still there go (each start leaves one)."""
    tx.db.execute("INSERT INTO processes(process_id, alive_at) VALUES (?, ?) "
                  "ON CONFLICT(process_id) DO UPDATE SET alive_at = excluded.alive_at", (process_id, tx.now))
    if forget_before is not None:
        tx.db.execute("DELETE FROM processes WHERE alive_at < ? AND NOT EXISTS "
                      "(SELECT 1 FROM timers WHERE timers.armed_by = processes.process_id)", (forget_before,))


def heartbeats(connection: Connection, dialect: Dialect) -> None:
    """Migration 31: each process's last heartbeat (`beat`) and, in each timer's row, the process that armed it
    (`Timers.set_timer`), from which a takeover counts the downtime (`last_served`). Only what is missing: a database
    set back to an older version to run an older migration again (as the tests of the migrations do) runs this one
    over what it has."""
    connection.execute(dialect.ddl("CREATE TABLE IF NOT EXISTS processes (process_id TEXT PRIMARY KEY, "
                                   "alive_at REAL NOT NULL)"))
    if "armed_by" not in dialect.columns(connection, "timers"):
        connection.execute("ALTER TABLE timers ADD COLUMN armed_by TEXT")
