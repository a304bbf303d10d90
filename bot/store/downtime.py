"""When each table was last served, from which its downtime is counted once it comes back: at a start-up
(`bot.service.startup`) or, with several processes on one database, when another process takes over the timers of
one that stopped (`bot.service.takeover`); and the heartbeats (`start_beating`, `beat`) and clean stops (`note_stop`)
that tell it."""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot.store.dialect import Connection, Dialect
from bot.store.snapshots import AFTER_SNAPSHOT
from bot.store.tx import Tx

BEAT_SECONDS = 5.0
"""How often a process says it is alive (`beat`, from `bot.service.takeover.watch_timers`): a table it served is
counted down from its last heartbeat once it dies (from its stop when it stops cleanly), so at most this much of a
downtime is counted that was none. On SQLite too: there a beat costs 25-30 µs of one core and a 4 KB page of the WAL
(2,000 beats timed on a file of their own), and goes in the batch being written when players are about; without it a
crash's downtime began at the bot's last write at any table, which in a quiet spell (a break nobody plays through)
may be an hour before the crash, and the tournament clock gave that hour back."""
ALIVE_SECONDS = 2 * BEAT_SECONDS
"""A process heard from this recently is alive (`served_by_the_living`): two heartbeats, as a beat waits behind the
players' writes."""
FORGET_PROCESS_SECONDS = 7 * 24 * 3600.0
"""A process not heard from for this long, with no timer of its left, loses its heartbeat's row (at a start)."""


class BeatBeforeStart(Exception):
    """A heartbeat (`beat`) of a process whose start-up has not read the downtime yet (`start_beating`): written
    first, it would end the downtime the start-up is about to count, and nothing would be given back."""

    def __init__(self, process_id: str) -> None:
        super().__init__(f"process {process_id} beats before its start-up read the downtime")


def note_stop(tx: Tx, process_id: str) -> None:
    """Record that the process `process_id` stops cleanly at `tx.now`: its last heartbeat (`beat`), so the downtime
    of the tables it served is counted from its stop (`last_served`), not from its previous heartbeat up to
    `BEAT_SECONDS` earlier."""
    _alive(tx, process_id)


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
    (`bot.service.takeover.watch_timers`) alike, both but for the timers of processes alive
    (`served_by_the_living`), so the two cannot count one table's downtime apart.

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
    where = "" if keys is None else f"WHERE {_key_in(keys)}"
    rows = tx.db.execute(
        f"SELECT timers.key, tables.updated_at, {_LOGGED_AFTER}, "
        f"CASE WHEN timers.armed_by IS NULL THEN {_LAST_STOP} ELSE processes.alive_at END FROM timers "
        "JOIN tables ON tables.table_id = timers.table_id "
        f"LEFT JOIN processes ON processes.process_id = timers.armed_by {where}", tuple(keys or ()))
    served.update((str(key), max(float(updated_at), float(logged or 0), float(alive_at or 0)))
                  for key, updated_at, logged, alive_at in rows)
    return served.get


def _key_in(keys: Collection[str]) -> str:
    """The condition that a timer's key is one of `keys` (their values as the parameters)."""
    return f"timers.key IN ({', '.join('?' * len(keys))})"


def start_beating(tx: Tx, process_id: str) -> Served:
    """Start-up's step that reads the downtime (`served_by_the_living`) and then starts the process `process_id`'s
    heartbeat at `tx.now`, in one transaction: no heartbeat can come first (`beat` refuses until then) and end the
    downtime before it is counted. The rows of the processes not heard from for `FORGET_PROCESS_SECONDS` that armed
    no timer still there go (each start leaves one)."""
    served = served_by_the_living(tx)
    _alive(tx, process_id)
    tx.db.execute("DELETE FROM processes WHERE alive_at < ? AND NOT EXISTS "
                  "(SELECT 1 FROM timers WHERE timers.armed_by = processes.process_id)",
                  (tx.now - FORGET_PROCESS_SECONDS,))
    return served


def served_by_the_living(tx: Tx, keys: Collection[str] | None = None) -> Served:
    """`last_served`, as a start-up (`start_beating`) and a takeover (`bot.service.takeover.watch_timers`) alike
    count it at `tx.now`: with several processes (PostgreSQL), a timer armed by a process heard from within
    `ALIVE_SECONDS` was served until now, though it is due. That process lives (its beat late, waiting behind the
    players' writes, or the process stalled a moment) and fires it, or another does, claiming it first: its table
    had no downtime, and counted from that process's last heartbeat, a timer just due would give back the seconds
    since it to the tournament's clock. One not heard from for longer is taken for dead since its last heartbeat."""
    served, live = last_served(tx, keys), _armed_by_the_living(tx, keys)
    now = tx.now
    return lambda key: now if key in live else served(key)


def _armed_by_the_living(tx: Tx, keys: Collection[str] | None) -> set[str]:
    """The keys of the timers (of these `keys`; None: of every timer) armed by processes heard from within
    `ALIVE_SECONDS`; none on SQLite, where every other process is gone (`bot.store.one_process`)."""
    if not tx.dialect.is_shared or (keys is not None and not keys):
        return set()
    where = "" if keys is None else f"AND {_key_in(keys)}"
    return {str(key) for (key,) in tx.db.execute(
        "SELECT timers.key FROM timers JOIN processes ON processes.process_id = timers.armed_by "
        f"WHERE processes.alive_at >= ? {where}", (tx.now - ALIVE_SECONDS, *(keys or ())))}


def beat(tx: Tx, process_id: str) -> None:
    """The process `process_id` is alive at `tx.now` (its heartbeat; `last_served`); `BeatBeforeStart` until its
    start-up has read the downtime (`start_beating`)."""
    if not tx.db.execute("UPDATE processes SET alive_at = ? WHERE process_id = ?", (tx.now, process_id)).rowcount:
        raise BeatBeforeStart(process_id)


def _alive(tx: Tx, process_id: str) -> None:
    """The process `process_id` is alive at `tx.now`: its row, written or made."""
    tx.db.execute("INSERT INTO processes(process_id, alive_at) VALUES (?, ?) "
                  "ON CONFLICT(process_id) DO UPDATE SET alive_at = excluded.alive_at", (process_id, tx.now))


def heartbeats(connection: Connection, dialect: Dialect) -> None:
    """Migration 31: each process's last heartbeat (`beat`) and, in each timer's row, the process that armed it
    (`Timers.set_timer`), from which a takeover counts the downtime (`last_served`). Only what is missing: a database
    set back to an older version to run an older migration again (as the tests of the migrations do) runs this one
    over what it has."""
    connection.execute(dialect.ddl("CREATE TABLE IF NOT EXISTS processes (process_id TEXT PRIMARY KEY, "
                                   "alive_at REAL NOT NULL)"))
    if "armed_by" not in dialect.columns(connection, "timers"):
        connection.execute("ALTER TABLE timers ADD COLUMN armed_by TEXT")
