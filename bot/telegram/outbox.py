"""Outgoing Telegram traffic: one ordered lane per table or private chat, with edits and texts coalesced.

A group accepts about 20 messages a minute. Handlers never wait for Telegram: they queue what to show and return.
Each lane sends in order; while a send waits on the rate limiter (or a 429's retry-after), newer table states
replace the queued one and consecutive texts are joined, so a burst of actions costs one edit, not one per action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Bot
from telegram.error import BadRequest, Forbidden

from bot.output import TableMessage
from bot.telegram.memory import Memory, Posted
from bot.telegram.render import MAX_TEXT, fingerprint, keyboard, split, table_text

log = logging.getLogger(__name__)

MAX_CAPTION = 1024
"""Telegram refuses longer photo captions."""


@dataclass
class TextOp:
    """Send a text to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    text: str
    private_to: int | None = None
    """Set for a private message: a refusal from Telegram means the user blocked the bot."""


@dataclass
class TableOp:
    """Post or edit a table's one message."""

    table_id: str
    chat_id: int
    topic: int | None
    message: TableMessage
    language: str


@dataclass
class PhotoOp:
    """Send a picture with its caption to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    png: bytes
    caption: str
    private_to: int | None = None
    """Set for a private picture: a refusal from Telegram means the user blocked the bot."""


@dataclass
class DocumentOp:
    """Send a file (a hand-history export) to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    name: str
    content: bytes
    private_to: int | None = None


Op = TextOp | TableOp | PhotoOp | DocumentOp


class Outbox:
    """Ordered, coalescing lanes of outgoing messages; failures are logged with their traceback, never raised."""

    def __init__(self, bot: Bot, memory: Memory) -> None:
        self._bot = bot
        self._memory = memory
        self._lanes: dict[str, list[Op]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self.on_blocked: Callable[[int], Awaitable[None]] | None = None

    def send_text(self, lane: str, op: TextOp) -> None:
        """Queue a text; it joins a text queued just before it for the same chat when both fit one message."""
        queue = self._lanes.setdefault(lane, [])
        last = queue[-1] if queue else None
        if (
            isinstance(last, TextOp)
            and (last.chat_id, last.topic) == (op.chat_id, op.topic)
            and len(last.text) + len(op.text) + 2 <= MAX_TEXT
        ):
            last.text = f"{last.text}\n\n{op.text}"
        else:
            queue.extend(TextOp(op.chat_id, op.topic, part, op.private_to) for part in split(op.text))
        self._wake(lane)

    def send_photo(self, lane: str, op: PhotoOp) -> None:
        """Queue a picture (pictures are never joined or replaced: each shows a moment of the hand)."""
        self._lanes.setdefault(lane, []).append(op)
        self._wake(lane)

    def send_document(self, lane: str, op: DocumentOp) -> None:
        """Queue a file, in order with the lane's texts."""
        self._lanes.setdefault(lane, []).append(op)
        self._wake(lane)

    def show_table(self, lane: str, op: TableOp) -> None:
        """Queue a table state; it replaces a queued state of the same hand that has not been sent yet."""
        queue = self._lanes.setdefault(lane, [])
        for index in range(len(queue) - 1, -1, -1):
            queued = queue[index]
            if isinstance(queued, TableOp):
                if queued.message.key == op.message.key:
                    queue[index] = op
                    self._wake(lane)
                    return
                break
        queue.append(op)
        self._wake(lane)

    async def flush(self) -> None:
        """Wait until every queued message was sent (or failed and was logged)."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    def _wake(self, lane: str) -> None:
        if lane not in self._workers:
            self._workers[lane] = asyncio.create_task(self._drain(lane), name=f"telegram-outbox-{lane}")

    async def _drain(self, lane: str) -> None:
        queue = self._lanes[lane]
        try:
            while queue:
                op = queue.pop(0)
                try:
                    if isinstance(op, TextOp):
                        await self._send_text(op)
                    elif isinstance(op, PhotoOp):
                        await self._send_photo(op)
                    elif isinstance(op, DocumentOp):
                        await self._send_document(op)
                    else:
                        await self._show_table(op)
                except Exception:
                    log.exception("could not deliver %r", op)
        finally:
            del self._workers[lane]
            if not queue:
                self._lanes.pop(lane, None)

    async def _send_text(self, op: TextOp) -> None:
        await self._delivered(op.private_to, self._bot.send_message(op.chat_id, op.text, message_thread_id=op.topic))

    async def _send_photo(self, op: PhotoOp) -> None:
        await self._delivered(op.private_to, self._bot.send_photo(
            op.chat_id, op.png, caption=op.caption[:MAX_CAPTION] or None, message_thread_id=op.topic))

    async def _send_document(self, op: DocumentOp) -> None:
        await self._delivered(op.private_to, self._bot.send_document(
            op.chat_id, op.content, filename=op.name, message_thread_id=op.topic))

    async def _delivered(self, private_to: int | None, sending: Awaitable[object]) -> None:
        """Await a send; a private one refused with Forbidden means the user blocked the bot: forget his chat."""
        try:
            await sending
        except Forbidden:
            if private_to is None or self.on_blocked is None:
                raise
            log.info("user %s blocked the bot; no more private messages to him", private_to)
            await self.on_blocked(private_to)

    async def _show_table(self, op: TableOp) -> None:
        markup = keyboard(op.message.buttons)
        body = table_text(op.message, op.language)
        digest = fingerprint(body, markup)
        posted = self._memory.tables.get(op.table_id)
        if posted is not None and posted.key == op.message.key and posted.chat_id == op.chat_id:
            if posted.digest == digest:
                return  # Telegram would refuse it: "message is not modified"
            try:
                await self._bot.edit_message_text(
                    body, chat_id=posted.chat_id, message_id=posted.message_id, reply_markup=markup
                )
            except BadRequest as error:
                reason = str(error).lower()
                if "not modified" in reason:
                    posted.digest = digest
                    return
                if "not found" not in reason and "can't be edited" not in reason:
                    raise
                log.info("table message %s of %s is gone (%s); posting a new one", posted.message_id,
                         op.table_id, error)
            else:
                posted.digest = digest
                return
        sent = await self._bot.send_message(op.chat_id, body, message_thread_id=op.topic, reply_markup=markup)
        await self._memory.remember_table(op.table_id, Posted(op.message.key, op.chat_id, sent.message_id, digest))
