"""When each table was last served, from which its downtime is counted once it comes back: at a start-up
(`bot.service.startup`) or, with several processes on one database, when another process takes over the timers of
one that stopped (`bot.service.takeover`); and the heartbeats (`beat`) and clean stops (`note_stop`) that tell it."""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot.store.dialect import Connection, Dialect
from bot.store.snapshots import AFTER_SNAPSHOT
from bot.store.tx import Tx


def note_stop(tx: Tx, process_id: str) -> None:
    """Record that the process `process_id` stops cleanly at `tx.now`: its last heartbeat (`beat`), so the downtime
    of the tables it served is counted from its stop (`last_served`), not from its previous heartbeat up to
    `bot.service.takeover.BEAT_SECONDS` earlier."""
    beat(tx, process_id)


_LOGGED_AFTER = f"(SELECT MAX(at) {AFTER_SNAPSHOT})"
"""The instant of a table's last log row after its snapshot (NULL when none)."""
_LAST_STOP = "(SELECT MAX(at) FROM stops)"
"""The last clean stop an older version recorded (migration 28; since, each process's last heartbeat says it)."""

Served = Callable[[str], float | None]
"""When the table of a timer (by its key) was last known served: its downtime began then (`last_served`); None when
nothing tells (a database that has stored nothing)."""


def last_served(tx: Tx, keys: Collection[str] | None = None) -> Served:
    """When the table of each timer (of these `keys`; None: of every timer) was last known served, from which its
    downtime is counted: by start-up (`bot.service.startup.start_tables`) and by a takeover
    (`bot.service.takeover.watch_timers`) alike, so the two cannot count one table's downtime apart.

    On a database of one process (SQLite) that process served every table while it ran: each table's is the last
    instant it is known to have run, its last heartbeat or write at any table, whichever is later. With several
    (PostgreSQL), one process's writes say nothing of another's tables: each timer's is the later of its table's last
    write (its snapshot, or a log row after it) and the last heartbeat of the process that armed the timer (its stop,
    when it stopped cleanly), or for a timer armed before heartbeats were kept the last clean stop. A quiet table was
    served, though it wrote nothing, while its process lived."""
    if not tx.dialect.is_shared:
        row = tx.db.execute(f"SELECT {_LAST_STOP}, (SELECT MAX(alive_at) FROM processes), MAX(updated_at), "
                            f"MAX({_LOGGED_AFTER}) FROM tables").fetchone()
        known = [float(at) for at in row if at is not None]
        ran = max(known) if known else None
        return lambda key: ran
    served: dict[str, float] = {}
    if keys is not None and not keys:
        return served.get
    where = "" if keys is None else f"WHERE timers.key IN ({', '.join('?' * len(keys))})"
    rows = tx.db.execute(
        f"SELECT timers.key, tables.updated_at, {_LOGGED_AFTER}, "
        f"CASE WHEN timers.armed_by IS NULL THEN {_LAST_STOP} ELSE processes.alive_at END FROM timers "
        "JOIN tables ON tables.table_id = timers.table_id "
        f"LEFT JOIN processes ON processes.process_id = timers.armed_by {where}", tuple(keys or ()))
    served.update((str(key), max(float(updated_at), float(logged or 0), float(alive_at or 0)))
                  for key, updated_at, logged, alive_at in rows)
    return served.get


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
