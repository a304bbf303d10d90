"""Paused tables (the bot cannot reach the channel): the flag, and their timers moved on when play resumes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.tx import Tx, loads


def pause_tables(tx: Tx, table_ids: list[str]) -> None:
    """Mark tables paused as of `tx.now` (a table already paused keeps its first moment)."""
    tx.db.executemany("INSERT INTO paused_tables(table_id, paused_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                      [(table_id, tx.now) for table_id in table_ids])


def paused_tables(tx: Tx) -> dict[str, float]:
    """Every paused table and when it was paused."""
    return {str(row[0]): float(row[1]) for row in tx.db.execute("SELECT table_id, paused_at FROM paused_tables")}


def resume_tables(tx: Tx, table_ids: list[str], grace: float, keeps_time: Callable[[dict[str, Any]], bool]
                  ) -> tuple[dict[str, float], list[tuple[str, str, float, dict[str, Any]]]]:
    """Unpause tables and move their timers on: each gets back the time it had left when the table paused, and at
    least `grace` seconds (nobody times out the moment the table is back); one whose payload `keeps_time` (an
    appointment of the wall clock's) keeps its instant. Returns when each table this transaction resumed was paused,
    and the timers to arm.

    With several processes (PostgreSQL) two may resume one table at once (each heard from its chat): its pause's row
    is locked first (`Dialect.lock_row`; held by the other's transaction, this one runs again after it), so only the
    transaction that finds it and deletes it moves the timers and returns them, once; the other finds none."""
    since: dict[str, float] = {}
    moved: list[tuple[str, str, float, dict[str, Any]]] = []
    for table_id in table_ids:
        row = tx.db.execute(f"SELECT paused_at FROM paused_tables WHERE table_id = ?{tx.dialect.lock_row}",
                            (table_id,)).fetchone()
        if row is None:
            continue
        paused_at = since[table_id] = float(row[0])
        tx.compact_timers(table_id)  # its rows as the timers stand (on SQLite the log holds the latest changes)
        timers = tx.db.execute("SELECT key, due_at, payload FROM timers WHERE table_id = ?", (table_id,)).fetchall()
        for key, due_at, text in timers:
            payload = loads(text)
            if keeps_time(payload):
                moved.append((str(key), table_id, float(due_at), payload))
                continue
            new_due = tx.now + max(float(due_at) - paused_at, grace)
            tx.db.execute("UPDATE timers SET due_at = ? WHERE key = ?", (new_due, key))
            moved.append((str(key), table_id, new_due, payload))
        tx.db.execute("DELETE FROM paused_tables WHERE table_id = ?", (table_id,))
    return since, moved


def tables_of_chat(tx: Tx, chat_id: str) -> list[str]:
    """The tables of a chat (a Telegram group's topics, say)."""
    return [str(row[0]) for row in tx.db.execute("SELECT table_id FROM tables WHERE chat_id = ?", (chat_id,))]
