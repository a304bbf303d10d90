"""The database schema as numbered migrations, one list for SQLite and PostgreSQL; the applied number lives in
`PRAGMA user_version` (SQLite) or the `schema_version` table (PostgreSQL), see `bot.store.dialect`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.repair import number_hands_per_table

Migration = str | Callable[[Any], None]
"""SQL statements separated by `;` (in SQLite's types: `Dialect.ddl` gives PostgreSQL's), or a function for a repair
that SQL alone cannot express (given the connection; a PostgreSQL database is always created by this code, so a
repair of rows older than it finds nothing to repair there)."""

MIGRATIONS: list[Migration] = [
    # 1: chats, players, accounts and the double-entry ledger, tables, history, timers, tournaments
    """
    CREATE TABLE chats (
        chat_id   TEXT PRIMARY KEY,
        settings  TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE players (
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        user_id   TEXT NOT NULL,
        name      TEXT NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE TABLE accounts (
        name      TEXT PRIMARY KEY,
        chat_id   TEXT NOT NULL,
        kind      TEXT NOT NULL,
        may_go_negative INTEGER NOT NULL DEFAULT 0,
        balance   INTEGER NOT NULL DEFAULT 0,
        CHECK (may_go_negative = 1 OR balance >= 0)
    );
    CREATE TABLE ledger (
        id        INTEGER PRIMARY KEY,
        at        REAL NOT NULL,
        chat_id   TEXT NOT NULL,
        source    TEXT NOT NULL REFERENCES accounts(name),
        target    TEXT NOT NULL REFERENCES accounts(name),
        amount    INTEGER NOT NULL CHECK (amount > 0),
        reason    TEXT NOT NULL,
        table_id  TEXT,
        hand_id   TEXT
    );
    CREATE INDEX ledger_hand ON ledger(table_id, hand_id);
    CREATE TABLE tables (
        table_id  TEXT PRIMARY KEY,
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        config    TEXT NOT NULL DEFAULT '{}',
        state     TEXT,
        updated_at REAL NOT NULL
    );
    CREATE TABLE history (
        id        INTEGER PRIMARY KEY,
        table_id  TEXT NOT NULL REFERENCES tables(table_id),
        hand_id   TEXT NOT NULL,
        at        REAL NOT NULL,
        event     TEXT NOT NULL
    );
    CREATE INDEX history_hand ON history(table_id, hand_id);
    CREATE TABLE timers (
        key       TEXT PRIMARY KEY,
        table_id  TEXT NOT NULL,
        due_at    REAL NOT NULL,
        payload   TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE tournaments (
        id        INTEGER PRIMARY KEY,
        chat_id   TEXT NOT NULL REFERENCES chats(chat_id),
        table_id  TEXT NOT NULL,
        status    TEXT NOT NULL,
        state     TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 2: history rows by kind (hand ends, pots won, tournament results), for /history, /stats and /top
    """
    CREATE INDEX history_kind ON history(table_id, json_extract(event, '$.kind'));
    """,
    # 3: the statistics of hands pruned from the history (POKERBOT_HISTORY_DAYS, bot/store/prune.py), which /stats
    # and /top add to those of the hands still in it
    """
    CREATE TABLE pruned_stats (
        chat_id      TEXT NOT NULL REFERENCES chats(chat_id),
        user_id      TEXT NOT NULL,
        hands_played INTEGER NOT NULL DEFAULT 0,
        hands_won    INTEGER NOT NULL DEFAULT 0,
        net          INTEGER NOT NULL DEFAULT 0,
        biggest_pot  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    """,
    # 4: one hand number counter per table (`tables.last_number`); hand records merged under one id are split
    number_hands_per_table,
    # 5: tables paused because the bot cannot reach their channel (removed from a group): their timers wait
    """
    CREATE TABLE paused_tables (
        table_id  TEXT PRIMARY KEY,
        paused_at REAL NOT NULL
    );
    """,
    # 6: several processes on one database (PostgreSQL): each table's version, raised by every save of its snapshot,
    # tells a process whether the copy it keeps is still current (`Tx.lock_table`); due timers found by their time
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX timers_due ON timers(due_at);
    """,
]


def migrate(connection: Connection, dialect: Dialect = SQLITE) -> int:
    """Apply every migration not yet applied, each in its own transaction; return the schema version."""
    version = dialect.schema_version(connection)
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        try:
            connection.execute(dialect.begin_write)
            if callable(script):
                script(connection)
            else:
                for statement in script.split(";"):
                    if statement.strip():
                        connection.execute(dialect.ddl(statement))
            dialect.set_schema_version(connection, number)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        version = number
    return version
