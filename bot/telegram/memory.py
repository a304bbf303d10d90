"""What the Telegram adapter remembers across restarts: each table's message id, and who opened a private chat."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

from bot.clock import Clock
from bot.store import Store, Tx

log = logging.getLogger(__name__)

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS telegram_table_messages (
        table_id   TEXT PRIMARY KEY,
        hand_key   TEXT NOT NULL,
        chat_id    INTEGER NOT NULL,
        message_id INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS telegram_private_chats (
        user_id    INTEGER PRIMARY KEY
    )""",
)


@dataclass
class Posted:
    """The table message the adapter last posted for a table: its hand key, where it is, and what it shows."""

    key: str
    chat_id: int
    message_id: int
    digest: str | None = None
    """What the message shows now (None after a restart: unknown, so the next edit is tried)."""


class Memory:
    """The adapter's own small tables in the application's store (platform ids only, never game state).

    The message ids let a restarted bot keep editing the same table message, whose old buttons keep working because
    their payloads carry the hand key. The private chats are the users who sent the bot something in private (so it
    may write to them); a user who blocks the bot is forgotten.
    """

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self.tables: dict[str, Posted] = {}
        self.private_chats: set[int] = set()

    async def load(self) -> None:
        """Create the tables if needed and read them."""

        def work(tx: Tx) -> tuple[list[tuple[str, str, int, int]], list[int]]:
            for statement in _SCHEMA:
                tx.db.execute(statement)
            tables = tx.db.execute("SELECT table_id, hand_key, chat_id, message_id FROM telegram_table_messages")
            users = tx.db.execute("SELECT user_id FROM telegram_private_chats")
            return list(tables), [row[0] for row in users]

        tables, users = await self._store.transact(work, now=self._clock.now())
        self.tables = {table_id: Posted(key, chat_id, message_id) for table_id, key, chat_id, message_id in tables}
        self.private_chats = set(users)

    async def remember_table(self, table_id: str, posted: Posted) -> None:
        """Record the new table message of a table."""
        self.tables[table_id] = posted
        await self._write(
            "INSERT INTO telegram_table_messages(table_id, hand_key, chat_id, message_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(table_id) DO UPDATE SET hand_key = excluded.hand_key, chat_id = excluded.chat_id, "
            "message_id = excluded.message_id",
            (table_id, posted.key, posted.chat_id, posted.message_id),
        )

    def has_private_chat(self, user_id: int) -> bool:
        """Whether the bot may write to this user in private."""
        return user_id in self.private_chats

    async def open_private_chat(self, user_id: int) -> None:
        """The user wrote to the bot in private."""
        if user_id not in self.private_chats:
            self.private_chats.add(user_id)
            await self._write("INSERT OR IGNORE INTO telegram_private_chats(user_id) VALUES (?)", (user_id,))

    async def close_private_chat(self, user_id: int) -> None:
        """The user blocked the bot (or a private message to him failed)."""
        if user_id in self.private_chats:
            self.private_chats.discard(user_id)
            await self._write("DELETE FROM telegram_private_chats WHERE user_id = ?", (user_id,))

    async def _write(self, sql: str, params: tuple[object, ...]) -> None:
        def work(tx: Tx) -> None:
            tx.db.execute(sql, params)

        try:
            await self._store.transact(work, now=self._clock.now())
        except sqlite3.Error:
            # the in-memory copy still serves this run; only a restart would re-learn it
            log.exception("could not persist Telegram adapter memory")
