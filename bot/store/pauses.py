"""Paused tables (the bot cannot reach the channel): the flag, the public texts their chat missed meanwhile, and
their timers moved on when play resumes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.store.tx import Tx, loads
from bot.store.view import TxView


def pause_tables(tx: Tx, table_ids: list[str]) -> None:
    """Mark tables paused as of `tx.now` (a table already paused keeps its first moment)."""
    tx.db.executemany("INSERT INTO paused_tables(table_id, paused_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                      [(table_id, tx.now) for table_id in table_ids])


def keep_missed(tx: Tx, missed: Mapping[str, Sequence[str]], kept: int) -> None:
    """Keep the public texts dropped for paused tables (`missed`, oldest first, by table), each table's last `kept`
    only. A table not paused (its pause lifted meanwhile) keeps none: what it shows now is newer.

    With several processes (PostgreSQL) the pause's row is locked first (`Dialect.lock_row`), so texts kept for one
    table at once are numbered one after the other, and a resume (`resume_tables`, which locks it too) takes them
    all or none of them."""
    for table_id, lines in missed.items():
        if not lines or tx.db.execute(f"SELECT 1 FROM paused_tables WHERE table_id = ?{tx.dialect.lock_row}",
                                      (table_id,)).fetchone() is None:
            continue
        last = int(tx.db.execute("SELECT COALESCE(MAX(seq), 0) FROM missed_texts WHERE table_id = ?",
                                 (table_id,)).fetchone()[0])
        tx.db.executemany("INSERT INTO missed_texts(table_id, seq, line) VALUES (?, ?, ?)",
                          [(table_id, last + number, line) for number, line in enumerate(lines, start=1)])
        tx.db.execute("DELETE FROM missed_texts WHERE table_id = ? AND seq <= ?",
                      (table_id, last + len(lines) - kept))


def _take_missed(tx: Tx, table_id: str) -> list[str]:
    """The texts kept for a table whose pause is lifted, oldest first, forgotten (they are posted now)."""
    lines = [str(row[0]) for row in tx.db.execute("SELECT line FROM missed_texts WHERE table_id = ? ORDER BY seq",
                                                  (table_id,))]
    if lines:
        tx.db.execute("DELETE FROM missed_texts WHERE table_id = ?", (table_id,))
    return lines


def paused_tables(tx: Tx) -> dict[str, float]:
    """Every paused table and when it was paused."""
    return {str(row[0]): float(row[1]) for row in tx.db.execute("SELECT table_id, paused_at FROM paused_tables")}


def resume_tables(tx: Tx, table_ids: list[str], grace: float, keeps_time: Callable[[dict[str, Any]], bool]
                  ) -> tuple[dict[str, float], list[tuple[str, str, float, dict[str, Any]]], dict[str, list[str]]]:
    """Unpause tables and move their timers on: each gets back the time it had left when the table paused, and at
    least `grace` seconds (nobody times out the moment the table is back); one whose payload `keeps_time` (an
    appointment of the wall clock's) keeps its instant. Returns when each table this transaction resumed was paused,
    the timers to arm, and the texts each missed (`keep_missed`), taken to post.

    With several processes (PostgreSQL) two may resume one table at once (each heard from its chat): its pause's row
    is locked first (`Dialect.lock_row`; held by the other's transaction, this one runs again after it), so only the
    transaction that finds it and deletes it moves the timers and takes the texts and returns them, once; the other
    finds none."""
    since: dict[str, float] = {}
    moved: list[tuple[str, str, float, dict[str, Any]]] = []
    missed: dict[str, list[str]] = {}
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
        missed[table_id] = _take_missed(tx, table_id)
    return since, moved, missed


def tables_of_chat(tx: TxView, chat_id: str) -> list[str]:
    """The tables of a chat (a Telegram group's topics, say)."""
    return [str(row[0]) for row in tx.db.execute("SELECT table_id FROM tables WHERE chat_id = ?", (chat_id,))]
