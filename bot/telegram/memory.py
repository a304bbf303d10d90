"""What the Telegram adapter remembers across restarts: each table's message id, who opened a private chat, which
groups refuse pictures, and who was already told to open a private chat."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
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
    """CREATE TABLE IF NOT EXISTS telegram_no_photos (
        chat_id    INTEGER PRIMARY KEY
    )""",
    """CREATE TABLE IF NOT EXISTS telegram_hinted (
        chat_id    INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    )""",
)
_REKEYED = ("telegram_table_messages", "telegram_no_photos", "telegram_hinted")
"""The adapter's tables with a `chat_id` column, renamed when a group becomes a supergroup."""


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
        self.no_photos: set[int] = set()
        """Groups that refused a picture: none is sent there until the bot may send photos again."""
        self.hinted: set[tuple[int, int]] = set()
        """(chat, user): the user was told in that chat to open a private chat with the bot."""

    async def load(self) -> None:
        """Create the tables if needed and read them."""

        def work(tx: Tx) -> tuple[list[tuple[str, str, int, int]], list[int], list[int], list[tuple[int, int]]]:
            for statement in _SCHEMA:
                tx.db.execute(tx.dialect.ddl(statement))  # PostgreSQL: chat and message ids need 64 bits
            tables = tx.db.execute("SELECT table_id, hand_key, chat_id, message_id FROM telegram_table_messages")
            users = tx.db.execute("SELECT user_id FROM telegram_private_chats")
            no_photos = tx.db.execute("SELECT chat_id FROM telegram_no_photos")
            hinted = tx.db.execute("SELECT chat_id, user_id FROM telegram_hinted")
            return list(tables), [row[0] for row in users], [row[0] for row in no_photos], list(hinted)

        tables, users, no_photos, hinted = await self._store.transact(work, now=self._clock.now())
        self.tables = {table_id: Posted(key, chat_id, message_id) for table_id, key, chat_id, message_id in tables}
        self.private_chats = set(users)
        self.no_photos = set(no_photos)
        self.hinted = {(chat_id, user_id) for chat_id, user_id in hinted}

    async def refuse_photos(self, chat_id: int, refused: bool) -> bool:
        """Record whether a group refuses pictures; True when that changed."""
        if (chat_id in self.no_photos) == refused:
            return False
        if refused:
            self.no_photos.add(chat_id)
            await self._write("INSERT INTO telegram_no_photos(chat_id) VALUES (?) ON CONFLICT DO NOTHING", (chat_id,))
        else:
            self.no_photos.discard(chat_id)
            await self._write("DELETE FROM telegram_no_photos WHERE chat_id = ?", (chat_id,))
        return True

    async def hint_once(self, chat_id: int, user_id: int) -> bool:
        """Whether the user may still be told in this chat to open a private chat (it is then recorded)."""
        if (chat_id, user_id) in self.hinted:
            return False
        self.hinted.add((chat_id, user_id))
        await self._write("INSERT INTO telegram_hinted(chat_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                          (chat_id, user_id))
        return True

    @staticmethod
    def rekey_rows(old: int, new: int) -> Callable[[Tx], None]:
        """The adapter's rows of a group renamed to its supergroup id (table ids are text: the store renames those),
        to run in the transaction that moves the chat."""

        def work(tx: Tx) -> None:
            for statement in _SCHEMA:
                tx.db.execute(tx.dialect.ddl(statement))  # PostgreSQL: chat and message ids need 64 bits
            for table in _REKEYED:
                tx.db.execute(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new, old))

        return work

    def rekey(self, old: int, new: int, renamed: Callable[[str], str]) -> None:
        """What is in memory, after `rekey_rows` committed."""
        self.tables = {renamed(table_id): Posted(p.key, new if p.chat_id == old else p.chat_id, p.message_id,
                                                 p.digest) for table_id, p in self.tables.items()}
        if old in self.no_photos:
            self.no_photos = (self.no_photos - {old}) | {new}
        self.hinted = {(new if chat == old else chat, user) for chat, user in self.hinted}

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
            await self._write("INSERT INTO telegram_private_chats(user_id) VALUES (?) ON CONFLICT DO NOTHING",
                              (user_id,))

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
