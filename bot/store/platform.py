"""The adapters' own rows (migration 6): each table's current message per platform (and what it is left reading once
retired: migration 37), the old ones waiting to lose their buttons (migration 26), and Telegram's marks (who opened a
private chat, which groups refuse pictures, who was told to open a private chat, which forum topics refused the bot:
migration 29), and who was dealt in each table's hand in play on Telegram (migration 32). Platform ids only (and the
names and texts the table reads), never game state; the service hands them to the adapters (`bot.adapter_memory`),
which never open the store."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.output import OldMessage, Place, PostedMessage
from bot.store.dialect import Connection, Dialect
from bot.store.log import hand_number
from bot.store.tx import Tx

_MESSAGES = {
    "discord": ("discord_table_messages", "channel_id", "key"),
    "telegram": ("telegram_table_messages", "chat_id", "hand_key"),
}
"""Per platform: the table of table messages, and its columns for the chat and the hand key."""

MARKS = {
    "private_chat": ("telegram_private_chats", ("user_id",)),
    "no_photos": ("telegram_no_photos", ("chat_id",)),
    "hinted": ("telegram_hinted", ("chat_id", "user_id")),
    "migrated": ("telegram_migrated", ("old_chat_id", "new_chat_id")),
    "closed_topic": ("telegram_closed_topics", ("chat_id", "topic")),
}
"""Telegram's marks: each a set of platform ids (a user; a group; a group and a user; a group's old and new id after
it became a supergroup; a group and its forum topic), and its table and columns."""


def _messages(platform: str) -> tuple[str, str, str]:
    if platform not in _MESSAGES:
        raise ValueError(f"no table messages are kept for {platform!r}")
    return _MESSAGES[platform]


def _marks(kind: str) -> tuple[str, tuple[str, ...]]:
    if kind not in MARKS:
        raise ValueError(f"no mark is called {kind!r}")
    return MARKS[kind]


def table_messages(tx: Tx, platform: str) -> dict[str, PostedMessage]:
    """Every table's current message on `platform` ("discord", "telegram"), by table id."""
    table, chat, key = _messages(platform)
    rows = tx.db.execute(f"SELECT table_id, {chat}, {key}, message_id, retired FROM {table}")
    return {str(table_id): PostedMessage(int(chat_id), str(hand_key), int(message_id),
                                         None if retired is None else str(retired))
            for table_id, chat_id, hand_key, message_id, retired in rows}


def remember_table_message(tx: Tx, platform: str, table_id: str, posted: PostedMessage) -> None:
    """Record the table's current message on `platform` (replacing the one it had, or what it is left reading)."""
    table, chat, key = _messages(platform)
    tx.db.execute(
        f"INSERT INTO {table}(table_id, {chat}, {key}, message_id, retired) VALUES (?, ?, ?, ?, ?) "
        f"ON CONFLICT(table_id) DO UPDATE SET {chat} = excluded.{chat}, {key} = excluded.{key}, "
        "message_id = excluded.message_id, retired = excluded.retired",
        (table_id, posted.chat_id, posted.key, posted.message_id, posted.retired),
    )


def retired_texts_of_table_messages(connection: Connection, dialect: Dialect) -> None:
    """Migration 37: what each table's current message is left reading once retired (`PostedMessage.retired`, NULL:
    what it shows), so that the seats between hands shown when the bot stopped are retired as their record after the
    restart. Added only where missing, as `claims_on_retiring_messages`."""
    for table, _, _ in _MESSAGES.values():
        if "retired" not in dialect.columns(connection, table):
            connection.execute(dialect.ddl(f"ALTER TABLE {table} ADD COLUMN retired TEXT"))


def forget_table_message(tx: Tx, platform: str, table_id: str) -> None:
    """The table has no current message on `platform` any more (it was deleted)."""
    table, _, _ = _messages(platform)
    tx.db.execute(f"DELETE FROM {table} WHERE table_id = ?", (table_id,))


def add_retiring(tx: Tx, platform: str, old: OldMessage, claimed_by: str) -> None:
    """Record an old table message waiting to lose its buttons, claimed by the process `claimed_by` that queues it
    (`claim_retiring`); one waiting already keeps its text when `old` has none (as the adapters' queues do)."""
    _messages(platform)
    tx.db.execute(
        "INSERT INTO retiring_messages(platform, chat_id, message_id, table_id, text, photo, claimed_by, claimed_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(platform, chat_id, message_id) DO UPDATE SET "
        "table_id = excluded.table_id, text = COALESCE(excluded.text, retiring_messages.text), "
        "photo = CASE WHEN excluded.text IS NULL THEN retiring_messages.photo ELSE excluded.photo END, "
        "claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at",
        (platform, old.place.chat_id, old.message_id, old.place.table_id, old.text, int(old.photo), claimed_by,
         tx.now),
    )


def claim_retiring(tx: Tx, platform: str, claimed_by: str, stale_before: float | None) -> list[OldMessage]:
    """Claim for the process `claimed_by`, as of `tx.now`, the old table messages on `platform` that no process
    holds: never claimed, or whose claim was last renewed before `stale_before` (its process stopped); with None
    (one process on the database: whoever claimed them before has stopped), every one. Returns them, oldest first
    in each chat. A row another process is claiming at the same moment is left to it (skipped, not waited for)."""
    _messages(platform)
    free, parameters = ("", (platform,)) if stale_before is None else (
        " AND (claimed_by IS NULL OR claimed_at < ?)", (platform, stale_before))
    rows = tx.db.execute(f"SELECT {_OLD_COLUMNS} FROM retiring_messages WHERE platform = ?{free} "
                         f"ORDER BY chat_id, message_id{tx.dialect.claim_row}", parameters).fetchall()
    tx.db.executemany("UPDATE retiring_messages SET claimed_by = ?, claimed_at = ? WHERE platform = ? AND "
                      "chat_id = ? AND message_id = ?",
                      [(claimed_by, tx.now, platform, chat_id, message_id) for chat_id, _, message_id, *_ in rows])
    return [_old_message(row) for row in rows]


def renew_retiring(tx: Tx, claimed_by: str) -> None:
    """The process `claimed_by` still holds the old table messages it claimed, as of `tx.now`."""
    tx.db.execute("UPDATE retiring_messages SET claimed_at = ? WHERE claimed_by = ?", (tx.now, claimed_by))


def release_retiring(tx: Tx, claimed_by: str) -> None:
    """The process `claimed_by` stops cleanly: the old table messages it claimed are nobody's, so the next process
    to look claims them at once (`claim_retiring`) instead of waiting for the claims to go stale."""
    tx.db.execute("UPDATE retiring_messages SET claimed_by = NULL, claimed_at = NULL WHERE claimed_by = ?",
                  (claimed_by,))


_OLD_COLUMNS = "chat_id, table_id, message_id, text, photo"
"""The columns of a `retiring_messages` row that make its `OldMessage` (`_old_message`)."""


def _old_message(row: Any) -> OldMessage:
    chat_id, table_id, message_id, text, photo = row
    return OldMessage(Place(str(chat_id), str(table_id)), int(message_id), None if text is None else str(text),
                      bool(photo))


def claims_on_retiring_messages(connection: Connection, dialect: Dialect) -> None:
    """Migration 30: the claim on each old table message waiting to lose its buttons (`claim_retiring`): which process
    holds it, and when it last said so. Columns added only where missing: a database set back to an older version to
    run an older migration again (as the tests of the migrations do) runs this one over the table it has."""
    names = dialect.columns(connection, "retiring_messages")
    for name, kind in (("claimed_by", "TEXT"), ("claimed_at", "REAL")):
        if name not in names:
            connection.execute(dialect.ddl(f"ALTER TABLE retiring_messages ADD COLUMN {name} {kind}"))


def forget_retiring(tx: Tx, platform: str, chat_id: str, message_ids: Iterable[int]) -> None:
    """Old table messages of a chat (a place's `chat_id`) no longer wait: retired, or given up on."""
    _messages(platform)
    tx.db.executemany("DELETE FROM retiring_messages WHERE platform = ? AND chat_id = ? AND message_id = ?",
                      [(platform, chat_id, message_id) for message_id in message_ids])


def marks(tx: Tx, kind: str) -> set[tuple[int, ...]]:
    """Every mark of one kind (see `MARKS`), each as the tuple of its ids."""
    table, columns = _marks(kind)
    return {tuple(int(value) for value in row) for row in tx.db.execute(f"SELECT {', '.join(columns)} FROM {table}")}


def set_mark(tx: Tx, kind: str, ids: tuple[int, ...], on: bool) -> None:
    """Add (`on`) or remove a mark of one kind."""
    table, columns = _marks(kind)
    if len(ids) != len(columns):
        raise ValueError(f"a {kind!r} mark has {len(columns)} ids, not {len(ids)}")
    if on:
        places = ", ".join("?" * len(ids))
        tx.db.execute(f"INSERT INTO {table}({', '.join(columns)}) VALUES ({places}) ON CONFLICT DO NOTHING", ids)
    else:
        tx.db.execute(f"DELETE FROM {table} WHERE {' AND '.join(f'{column} = ?' for column in columns)}", ids)


def dealt_in(tx: Tx) -> dict[str, tuple[str, dict[int, str]]]:
    """Who was dealt in each table's hand in play on Telegram, by table id: the hand's key, and the players' Telegram
    ids with the names the table reads them by."""
    hands: dict[str, tuple[str, dict[int, str]]] = {}
    for table_id, key, user_id, name in tx.db.execute("SELECT table_id, hand_key, user_id, name FROM telegram_dealt"):
        hands.setdefault(str(table_id), (str(key), {}))[1][int(user_id)] = str(name)
    return hands


def dealt_in_hand(tx: Tx, table_id: str, key: str) -> dict[int, str] | None:
    """Who was dealt in the table's hand `key` on Telegram (Telegram id: name); none when a later hand's are kept
    (`key` is over); None when an earlier hand's are, or none: the process that dealt `key` may not have written
    them yet (it writes them just after the deal's own transaction)."""
    rows = tx.db.execute("SELECT hand_key, user_id, name FROM telegram_dealt WHERE table_id = ?", (table_id,))
    kept, names = -1, dict[int, str]()
    for hand_key, user_id, name in rows:
        kept = max(kept, hand_number(str(hand_key)))
        if hand_key == key:
            names[int(user_id)] = str(name)
    return names if names or kept > hand_number(key) else None


def add_dealt_in(tx: Tx, table_id: str, key: str, names: dict[int, str]) -> None:
    """Players (Telegram id: name) were dealt in the table's hand `key`: recorded, and the table's rows of an earlier
    hand dropped (only the hand in play is kept)."""
    tx.db.execute("DELETE FROM telegram_dealt WHERE table_id = ? AND hand_key <> ?", (table_id, key))
    tx.db.executemany("INSERT INTO telegram_dealt(table_id, hand_key, user_id, name) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT(table_id, user_id) DO UPDATE SET name = excluded.name",
                      [(table_id, key, user_id, name) for user_id, name in names.items()])


def rekey_telegram_chat(tx: Tx, old: int, new: int) -> None:
    """A Telegram group became a supergroup: its rows name the new chat id (table ids are text: the store's
    `rekey_chat` renames those)."""
    for table in ("telegram_table_messages", "telegram_no_photos", "telegram_hinted"):
        tx.db.execute(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new, old))
    # presses on the old group's messages still come with its old id: they are mapped to the new one
    tx.db.execute("UPDATE telegram_migrated SET new_chat_id = ? WHERE new_chat_id = ?", (new, old))
    tx.db.execute("DELETE FROM telegram_migrated WHERE old_chat_id = ?", (old,))
    tx.db.execute("INSERT INTO telegram_migrated(old_chat_id, new_chat_id) VALUES (?, ?)", (old, new))
