"""What the Telegram adapter remembers across restarts: each table's message id, the old table messages waiting to
lose their buttons, who opened a private chat, which groups refuse pictures, who was already told to open a private
chat, and which forum topics refused the bot."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.adapter_memory import AdapterMemory
from bot.output import OldMessage, PostedMessage
from bot.telegram.render import place_of

PLATFORM = "telegram"
"""The platform name the service keeps this adapter's table messages under."""


@dataclass
class Posted:
    """The table message the adapter last posted for a table: its hand key, where it is, and what it shows."""

    key: str
    chat_id: int
    message_id: int
    digest: str | None = None
    """What the message shows now (None after a restart: unknown, so the next edit is tried)."""
    version: int = 0
    """The version of the state it shows (`TableStates`; 0 after a restart: unknown, and older than any)."""
    buttons: bool | None = None
    """Whether it shows buttons (None after a restart: unknown, so it is retired as if it did)."""
    retired: str | None = None
    """What it is left reading once retired, when not what it shows (`TableMessage.retired`: the seats between
    hands); kept across restarts (`Memory.leave_reading`)."""


class Memory:
    """The adapter's platform bookkeeping (platform ids only, never game state), kept across restarts by the service
    (`service.memory`): this adapter never opens the store.

    The message ids let a restarted bot keep editing the same table message, whose old buttons keep working because
    their payloads carry the hand key. The private chats are the users who sent the bot something in private (so it
    may write to them); a user who blocks the bot is forgotten.
    """

    def __init__(self, kept: AdapterMemory) -> None:
        self._kept = kept
        self.tables: dict[str, Posted] = {}
        self.private_chats: set[int] = set()
        self.no_photos: set[int] = set()
        """Groups that refused a picture: none is sent there until the bot may send photos again."""
        self.hinted: set[tuple[int, int]] = set()
        """(chat, user): the user was told in that chat to open a private chat with the bot."""
        self.migrated: dict[int, int] = {}
        """Groups upgraded to supergroups: old id -> new id (presses on the old group's messages still come)."""
        self.closed_topics: set[tuple[int, int]] = set()
        """(chat, topic): a forum topic refused the bot a post (an administrator closed it); its table stays paused
        until the topic itself is heard from (`Reach`), the bot added back to the group or not. With several
        processes on one database, as this one last read them (`learn_closed_topics`)."""

    async def load(self) -> None:
        """Read what the service kept."""
        tables = await self._kept.table_messages(PLATFORM)
        self.tables = {table_id: Posted(p.key, p.chat_id, p.message_id, retired=p.retired)
                       for table_id, p in tables.items()}
        self.private_chats = {user_id for (user_id,) in await self._kept.marks("private_chat")}
        self.no_photos = {chat_id for (chat_id,) in await self._kept.marks("no_photos")}
        self.hinted = {(chat_id, user_id) for chat_id, user_id in await self._kept.marks("hinted")}
        self.migrated = {old: new for old, new in await self._kept.marks("migrated")}
        self.closed_topics = {(chat_id, topic) for chat_id, topic in await self._kept.marks("closed_topic")}

    async def learn_closed_topics(self) -> None:
        """With several processes on one database (PostgreSQL): read the forum topics any of them found closed (or
        heard from again) since this one started, before deciding which tables to resume. Each records the closing
        before it pauses the topic's table (`Reach.pause_topic`), so a process that knows of the pause finds it."""
        if self._kept.is_shared:
            self.closed_topics = {(chat_id, topic) for chat_id, topic in await self._kept.marks("closed_topic")}

    async def refuse_photos(self, chat_id: int, refused: bool) -> bool:
        """Record whether a group refuses pictures; True when that changed."""
        if (chat_id in self.no_photos) == refused:
            return False
        if refused:
            self.no_photos.add(chat_id)
        else:
            self.no_photos.discard(chat_id)
        await self._kept.set_mark("no_photos", (chat_id,), refused)
        return True

    async def close_topic(self, chat_id: int, topic: int, closed: bool) -> None:
        """Record whether a forum topic refuses the bot (`closed`) or was heard from again."""
        if ((chat_id, topic) in self.closed_topics) != closed:
            if closed:
                self.closed_topics.add((chat_id, topic))
            else:
                self.closed_topics.discard((chat_id, topic))
            await self._kept.set_mark("closed_topic", (chat_id, topic), closed)

    async def hint_once(self, chat_id: int, user_id: int) -> bool:
        """Whether the user may still be told in this chat to open a private chat (it is then recorded)."""
        if (chat_id, user_id) in self.hinted:
            return False
        self.hinted.add((chat_id, user_id))
        await self._kept.set_mark("hinted", (chat_id, user_id), True)
        return True

    def rekey(self, old: int, new: int, renamed: Callable[[str], str]) -> None:
        """What is in memory, after the service moved the chat with the adapter's rows
        (`AdapterMemory.telegram_chat_moved`)."""
        self.tables = {renamed(table_id): dataclasses.replace(p, chat_id=new if p.chat_id == old else p.chat_id)
                       for table_id, p in self.tables.items()}
        if old in self.no_photos:
            self.no_photos = (self.no_photos - {old}) | {new}
        self.hinted = {(new if chat == old else chat, user) for chat, user in self.hinted}
        self.migrated = {earlier: new if later == old else later for earlier, later in self.migrated.items()}
        self.migrated[old] = new

    def current_chat(self, chat_id: int) -> int:
        """The chat's id now: a group upgraded to a supergroup answers with the supergroup's."""
        return self.migrated.get(chat_id, chat_id)

    async def remember_table(self, table_id: str, posted: Posted, retiring: OldMessage | None = None) -> None:
        """Record the new table message of a table, and the old one that waits to lose its buttons (if any)."""
        self.tables[table_id] = posted
        await self._kept.remember_table_message(PLATFORM, table_id, PostedMessage(
            posted.chat_id, posted.key, posted.message_id, posted.retired), retiring=retiring)

    async def leave_reading(self, table_id: str, posted: Posted, retired: str | None) -> None:
        """The table's message (`posted`, edited to show a new state) is now left reading `retired` once retired
        (`Posted.retired`; the caller asks only when that changed: the hand's message turned into the seats between
        hands, or they changed): recorded, so that a restarted bot retires it as this one would have."""
        posted.retired = retired
        await self._kept.remember_table_message(PLATFORM, table_id, PostedMessage(
            posted.chat_id, posted.key, posted.message_id, retired))

    async def retired(self, chat_id: int, message_ids: Iterable[int]) -> None:
        """Old table messages of a chat no longer wait to lose their buttons: they did, or were given up on."""
        await self._kept.forget_retiring(PLATFORM, place_of(chat_id, None).chat_id, message_ids)

    def has_private_chat(self, user_id: int) -> bool:
        """Whether the bot may write to this user in private."""
        return user_id in self.private_chats

    async def open_private_chat(self, user_id: int) -> None:
        """The user wrote to the bot in private."""
        if user_id not in self.private_chats:
            self.private_chats.add(user_id)
            await self._kept.set_mark("private_chat", (user_id,), True)

    async def close_private_chat(self, user_id: int) -> None:
        """The user blocked the bot (or a private message to him failed)."""
        if user_id in self.private_chats:
            self.private_chats.discard(user_id)
            await self._kept.set_mark("private_chat", (user_id,), False)
