"""The adapters' own rows: created by a numbered migration (an older database keeps the rows its adapters wrote), and
read and written through the service (`service.memory`), never by an adapter opening the store."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapter_memory import AdapterMemory
from bot.clock import FakeClock
from bot.output import OldMessage, Place, PostedMessage
from bot.retiring import LEASE_SECONDS
from bot.service import Service
from bot.store import Store, Tx, schema
from bot.store.platform import retired_texts_of_table_messages
from tests.bot.conftest import ANN, PLACE
from tests.bot.helpers import started_service

ADAPTER_TABLES = {"discord_table_messages", "telegram_table_messages", "telegram_private_chats", "telegram_no_photos",
                  "telegram_hinted"}

_THE_ADAPTERS_OWN = (
    # what the adapters ran themselves before the migration: their tables and a row in each
    "CREATE TABLE IF NOT EXISTS discord_table_messages (table_id TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, "
    "key TEXT NOT NULL, message_id INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS telegram_table_messages (table_id TEXT PRIMARY KEY, hand_key TEXT NOT NULL, "
    "chat_id INTEGER NOT NULL, message_id INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS telegram_private_chats (user_id INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS telegram_no_photos (chat_id INTEGER PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS telegram_hinted (chat_id INTEGER NOT NULL, user_id INTEGER NOT NULL, "
    "PRIMARY KEY (chat_id, user_id))",
    "INSERT INTO discord_table_messages VALUES ('dc:1:2', 2, 'h7', 9001)",
    "INSERT INTO telegram_table_messages VALUES ('tg:-5', 'r3', -5, 44)",
    "INSERT INTO telegram_private_chats VALUES (77)",
    "INSERT INTO telegram_no_photos VALUES (-5)",
    "INSERT INTO telegram_hinted VALUES (-5, 77)",
)

SEATS = "Texas Hold'em — seats:\n  ann — 220\n  Bob Brown — 180\nHand #1: ann wins 40."
"""What the seats between hands are left reading once retired (`PostedMessage.retired`)."""


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@contextlib.asynccontextmanager
async def memory_of(path: Path) -> AsyncIterator[AdapterMemory]:
    """The adapters' memory of the bot's database at `path`, opened for the block (as a bot started on it reads it)
    and closed after."""
    store = await Store.open(path)
    try:
        yield Service(store, FakeClock()).memory
    finally:
        await store.close()


def _migration() -> int:
    """The number of the migration that creates the adapters' tables (the integrator may renumber it)."""
    return next(number for number, script in enumerate(schema.MIGRATIONS, start=1)
                if isinstance(script, str) and "telegram_table_messages" in script)


async def test_a_new_database_has_the_adapters_tables_from_its_migrations(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    await store.close()
    assert _tables(tmp_path / "bot.db") >= ADAPTER_TABLES


async def test_a_database_whose_adapters_made_their_tables_keeps_their_rows(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.db"
    with monkeypatch.context() as before:  # the schema as it was before the migration, and the adapters' tables
        before.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[: _migration() - 1])
        store = await Store.open(path)
        await store.close()
    assert not ADAPTER_TABLES & _tables(path)
    with sqlite3.connect(path) as connection:
        for statement in _THE_ADAPTERS_OWN:
            connection.execute(statement)

    async with memory_of(path) as memory:
        assert await memory.table_messages("discord") == {"dc:1:2": PostedMessage(2, "h7", 9001)}
        assert await memory.table_messages("telegram") == {"tg:-5": PostedMessage(-5, "r3", 44)}
        assert await memory.marks("private_chat") == {(77,)}
        assert await memory.marks("no_photos") == {(-5,)}
        assert await memory.marks("hinted") == {(-5, 77)}
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS)


async def test_message_ids_and_marks_are_kept_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with memory_of(path) as memory:
        await memory.remember_table_message("discord", "dc:1:2", PostedMessage(2, "h1", 100))
        await memory.remember_table_message("discord", "dc:1:2", PostedMessage(2, "h2", 101))  # a new hand's message
        await memory.remember_table_message("discord", "dc:1:3", PostedMessage(3, "h1", 102))
        await memory.forget_table_message("discord", "dc:1:3")  # somebody deleted it
        await memory.remember_table_message("telegram", "tg:-5", PostedMessage(-5, "r1", 7))
        await memory.remember_table_message("telegram", "tg:-6", PostedMessage(-6, "h3", 8, SEATS))  # between hands
        await memory.set_mark("private_chat", (77,), True)
        await memory.set_mark("private_chat", (78,), True)
        await memory.set_mark("private_chat", (78,), False)  # he blocked the bot
        await memory.set_mark("hinted", (-5, 77), True)

    async with memory_of(path) as memory:
        assert await memory.table_messages("discord") == {"dc:1:2": PostedMessage(2, "h2", 101)}
        assert await memory.table_messages("telegram") == {"tg:-5": PostedMessage(-5, "r1", 7),
                                                            "tg:-6": PostedMessage(-6, "h3", 8, SEATS)}
        assert await memory.marks("private_chat") == {(77,)}
        assert await memory.marks("hinted") == {(-5, 77)}
        with pytest.raises(ValueError, match="whatsapp"):
            await memory.table_messages("whatsapp")


async def test_what_a_table_message_is_left_reading_is_kept_and_its_migration_runs_again(store: Store,
                                                                                         clock: FakeClock) -> None:
    """What the table's message is left reading once retired is replaced with the message, and cleared (None: what
    it shows) by a message that has none; migration 37, run again over the columns it added, keeps the rows."""
    memory = Service(store, clock).memory
    await memory.remember_table_message("telegram", "tg:-5", PostedMessage(-5, "h3", 8, SEATS))
    await memory.remember_table_message("discord", "dc:1:2", PostedMessage(2, "h3", 101, SEATS))
    await memory.remember_table_message("telegram", "tg:-6", PostedMessage(-6, "h3", 9, SEATS))
    await memory.remember_table_message("telegram", "tg:-6", PostedMessage(-6, "h4", 10))  # the next hand's

    def as_schema_36(tx: Tx) -> None:
        tx.dialect.set_schema_version(tx.db, schema.MIGRATIONS.index(retired_texts_of_table_messages))

    await store.transact(as_schema_36, now=clock.now())
    await store.close()
    reopened = await Store.open(store.location)
    try:
        memory = Service(reopened, clock).memory
        assert await memory.table_messages("telegram") == {"tg:-5": PostedMessage(-5, "h3", 8, SEATS),
                                                            "tg:-6": PostedMessage(-6, "h4", 10)}
        assert await memory.table_messages("discord") == {"dc:1:2": PostedMessage(2, "h3", 101, SEATS)}
        assert await reopened.read(lambda tx: tx.dialect.schema_version(tx.db)) == len(schema.MIGRATIONS)
    finally:
        await reopened.close()


async def test_a_telegram_group_moved_to_a_supergroup_takes_its_rows_along(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=1)
    old, new = PLACE.chat_id, "chat2"
    await service.handle(PLACE, ANN, "/balance")  # the chat exists
    await service.memory.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h1", 7))
    await service.memory.set_mark("no_photos", (-5,), True)
    await service.memory.set_mark("hinted", (-5, 77), True)
    assert await service.move_chat(old, new, also=service.memory.telegram_chat_moved(-5, -1005))
    moved_table = new + PLACE.table_id.removeprefix(old)
    assert await service.memory.table_messages("telegram") == {moved_table: PostedMessage(-1005, "h1", 7)}
    assert await service.memory.marks("no_photos") == {(-1005,)}
    assert await service.memory.marks("hinted") == {(-1005, 77)}


async def test_who_was_dealt_in_is_kept_for_the_hand_in_play_only_and_moves_with_its_chat(store: Store,
                                                                                         clock: FakeClock) -> None:
    """Players dealt in a Telegram table's hand are kept with their names, added to as more are told; a new hand's
    replace them; the rows move with their chat when it becomes a supergroup."""
    service = await started_service(store, clock, seed=1)
    await service.handle(PLACE, ANN, "/balance")  # the chat exists
    other = "tg:-7"
    await service.memory.add_dealt_in(PLACE.table_id, "r1", {77: "Ann", 78: "Bob"})
    await service.memory.add_dealt_in(PLACE.table_id, "r1", {79: "Cat"})
    await service.memory.add_dealt_in(other, "r4", {80: "Dan"})
    assert await service.memory.dealt_in() == {PLACE.table_id: ("r1", {77: "Ann", 78: "Bob", 79: "Cat"}),
                                               other: ("r4", {80: "Dan"})}
    await service.memory.add_dealt_in(PLACE.table_id, "r2", {78: "Bob"})
    assert await service.memory.dealt_in() == {PLACE.table_id: ("r2", {78: "Bob"}), other: ("r4", {80: "Dan"})}
    assert await service.move_chat(PLACE.chat_id, "chat2", also=service.memory.telegram_chat_moved(-5, -1005))
    moved_table = "chat2" + PLACE.table_id.removeprefix(PLACE.chat_id)
    assert await service.memory.dealt_in() == {moved_table: ("r2", {78: "Bob"}), other: ("r4", {80: "Dan"})}


async def test_old_messages_wait_to_lose_their_buttons_until_forgotten(store: Store, clock: FakeClock) -> None:
    """An old table message is kept with the table's new one (in its transaction), read back oldest first in each
    chat, keeps its text when queued again without one, is forgotten once done with, and moves with its chat."""
    service = await started_service(store, clock, seed=1)
    await service.handle(PLACE, ANN, "/balance")  # the chat exists
    memory = service.memory
    reposted = OldMessage(PLACE, 6, "Hand 1: Ann to act\n\nThe table moved below.", photo=True)
    await memory.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h1", 8), retiring=reposted)
    await memory.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h2", 9),
                                        retiring=OldMessage(PLACE, 8))
    await memory.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h2", 10),
                                        retiring=OldMessage(PLACE, 6))  # again, with no text: it keeps its own
    guild = Place("dc:1", "dc:2")
    await memory.remember_table_message("discord", guild.table_id, PostedMessage(2, "h1", 101),
                                        retiring=OldMessage(guild, 100))
    assert await memory.table_messages("telegram") == {PLACE.table_id: PostedMessage(-5, "h2", 10)}
    assert await waiting(memory, "telegram") == [reposted, OldMessage(PLACE, 8)]
    assert await waiting(memory, "discord") == [OldMessage(guild, 100)]

    await memory.forget_retiring("telegram", PLACE.chat_id, [8, 11])  # retired (11: forgotten already)
    await memory.forget_retiring("discord", guild.chat_id, [])
    assert await waiting(memory, "telegram") == [reposted]
    assert await waiting(memory, "discord") == [OldMessage(guild, 100)]

    new = "chat2"
    assert await service.move_chat(PLACE.chat_id, new, also=memory.telegram_chat_moved(-5, -1005))
    moved = Place(new, new + PLACE.table_id.removeprefix(PLACE.chat_id))
    assert await waiting(memory, "telegram") == [OldMessage(moved, 6, reposted.text, photo=True)]
    with pytest.raises(ValueError, match="whatsapp"):
        await waiting(memory, "whatsapp")


async def waiting(memory: AdapterMemory, platform_name: str) -> list[OldMessage]:
    """The old table messages the next process to start would queue: this one stops cleanly (its claims released),
    and they are claimed as a start claims them."""
    await memory.release_retiring()
    return await memory.claim_retiring(platform_name, LEASE_SECONDS)


REFUSE_INSERTS = {
    "sqlite": ["CREATE TRIGGER refuse BEFORE INSERT ON discord_table_messages BEGIN SELECT RAISE(ABORT, 'refused'); "
               "END"],
    "postgresql": ["CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                   "$$ BEGIN RAISE EXCEPTION 'refused'; END $$",
                   "CREATE TRIGGER refuse BEFORE INSERT ON discord_table_messages FOR EACH ROW EXECUTE FUNCTION "
                   "refuse()"],
}
"""A trigger that makes the database refuse every new row of the table, in each database's words."""


async def test_a_write_the_database_refuses_is_logged_and_play_goes_on(store: Store, clock: FakeClock,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """Whatever the database (SQLite's `sqlite3.Error`, psycopg's `psycopg.Error`), a refused adapter row is logged
    with its cause and the adapter goes on with its copy in memory: the error never reaches the adapter."""
    for statement in REFUSE_INSERTS[store.dialect.name]:
        await store.outside_transaction(lambda connection, statement=statement: connection.execute(statement))
    memory = Service(store, clock, rng=random.Random(1)).memory
    await memory.remember_table_message("discord", "dc:1:2", PostedMessage(2, "h1", 101))
    assert await memory.table_messages("discord") == {}
    assert [record.message for record in caplog.records] == ["could not keep an adapter's row"]
    assert "refused" in str(caplog.records[0].exc_info[1])
