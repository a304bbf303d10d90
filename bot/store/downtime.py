"""When the bot last ran, from which start-up measures its downtime: its last clean stop, or the last action or
timer any table stored (`bot.service.startup`)."""

from __future__ import annotations

from collections.abc import Collection

from bot.store.snapshots import AFTER_SNAPSHOT
from bot.store.tx import Tx


def note_stop(tx: Tx) -> None:
    """Record that the bot stops cleanly at `tx.now`."""
    tx.db.execute("DELETE FROM stops")
    tx.db.execute("INSERT INTO stops(at) VALUES (?)", (tx.now,))


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


def last_written(tx: Tx, table_ids: Collection[str]) -> dict[str, float]:
    """When each of these tables last stored something (its snapshot, or a log row after it): with several
    processes on one database, where a process that stopped left a table's timers for another to take over
    (`bot.service.takeover`), the table was down from then."""
    if not table_ids:
        return {}
    places = ", ".join("?" * len(table_ids))
    rows = tx.db.execute(f"SELECT table_id, updated_at, {_LOGGED_AFTER} FROM tables WHERE table_id IN ({places})",
                         tuple(table_ids))
    return {str(table_id): max(float(updated_at), float(logged or 0)) for table_id, updated_at, logged in rows}
