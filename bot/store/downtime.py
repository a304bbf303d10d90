"""When the bot last ran, from which start-up measures its downtime: its last clean stop, or the last action or
timer any table stored (`bot.service.startup`)."""

from __future__ import annotations

from bot.store.tx import Tx


def note_stop(tx: Tx) -> None:
    """Record that the bot stops cleanly at `tx.now`."""
    tx.db.execute("DELETE FROM stops")
    tx.db.execute("INSERT INTO stops(at) VALUES (?)", (tx.now,))


def last_ran(tx: Tx) -> float | None:
    """The last instant the bot is known to have run: its last clean stop, or the last action or timer stored at any
    table (after a crash; with several processes on one database, whichever ran last), whichever is later; None for
    a database that has stored neither. A table's last one is its snapshot's, or a log row's after it."""
    row = tx.db.execute(
        "SELECT (SELECT MAX(at) FROM stops), MAX(updated_at), MAX((SELECT MAX(at) FROM actions "
        "WHERE actions.table_id = tables.table_id AND actions.seq > tables.snapshot_seq)) FROM tables").fetchone()
    known = [float(at) for at in row if at is not None]
    return max(known) if known else None
