"""Moving a chat to a new id (a Telegram group upgraded to a supergroup) with its tables, wallets and history."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import cast

from bot.store.tx import Tx


def rekey_chat(tx: Tx, old: str, new: str) -> bool:
    """Rename chat `old` to `new` everywhere the store names it, in this transaction; False (nothing changed) when
    `old` is unknown or `new` is already in use.

    Chat ids, and the table ids built on them (`<chat>:<topic>`), appear in keys (chats, players, tables,
    timers), in ledger account names (`wallet:<chat>:<user>`, `house:<chat>`, `stack:<table>:<user>`,
    `box:<table>:…`, `bank:<table>:t<n>`) and inside JSON (snapshots, timer payloads, history). Every text column
    of every table is rewritten where it names `old` as a whole id (the log's events and moves included), so the
    recorded moves and balances keep matching (`check_ledger()` holds) and tables added later are covered too.
    """
    if tx.db.execute("SELECT 1 FROM chats WHERE chat_id = ?", (old,)).fetchone() is None:
        return False
    if tx.db.execute("SELECT 1 FROM chats WHERE chat_id = ?", (new,)).fetchone() is not None:
        return False
    pattern = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w])")

    def rename(value: str | None) -> str | None:
        return None if value is None else pattern.sub(new, value)

    like = f"%{old}%"
    if tx.dialect.is_shared:
        _rekey_postgresql(tx, rename, like)
        tx.known.clear()
        return True
    db = cast(sqlite3.Connection, tx.db)
    db.create_function("pokerbot_rekey", 1, rename, deterministic=True)
    tx.db.execute("PRAGMA defer_foreign_keys = ON")  # parents and children are renamed one table at a time
    for table in _tables(db):
        for column in _text_columns(db, table):
            tx.db.execute(
                f'UPDATE "{table}" SET "{column}" = pokerbot_rekey("{column}") WHERE "{column}" LIKE ?', (like,)
            )
    tx.known.clear()  # cached account names, settings and player names under the old id
    return True


def _rekey_postgresql(tx: Tx, rename: Callable[[str | None], str | None], like: str) -> None:
    """The same on PostgreSQL, row by row in Python (its regular expressions have no look-behind); the foreign keys
    are made deferrable by the schema (`Dialect.ddl`) and checked at the commit."""
    tx.db.execute("SET CONSTRAINTS ALL DEFERRED")
    columns = tx.db.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND data_type = 'text'").fetchall()
    for table, column in columns:
        rows = tx.db.execute(f'SELECT ctid, "{column}" FROM "{table}" WHERE "{column}" LIKE ?', (like,)).fetchall()
        for ctid, value in rows:
            tx.db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE ctid = ?', (rename(value), ctid))


def _tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return [str(row[0]) for row in rows]


def _text_columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [str(row[1]) for row in db.execute(f'PRAGMA table_info("{table}")') if "TEXT" in str(row[2]).upper()]
