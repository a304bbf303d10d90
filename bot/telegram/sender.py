"""The Bot API requests behind each queued op: a text, picture or file sent, a table's state shown by editing its
message or posting a new one (the old one then retired), an old table message retired."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Bot, InputMediaPhoto, LinkPreviewOptions
from telegram.error import BadRequest

from bot.i18n import text
from bot.output import OldMessage, Place
from bot.table_states import TableStates
from bot.telegram.memory import Memory, Posted
from bot.telegram.ops import DocumentOp, Op, PhotoOp, RetireOp, TableOp, TextOp
from bot.telegram.render import MAX_CAPTION, MAX_TEXT, clip, fingerprint, keyboard, place_of, table_text

log = logging.getLogger(__name__)

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
"""Texts carry no link preview: the private chat's link (`bot.telegram.hints`) would add a card of the bot to the
hint in the group."""

BLANK = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c6310"
                      "89320200012600a1360aca5c0000000049454e44ae426082")
"""A 1x1 green picture: the `table_photos` table message before the table's first picture."""


class TableGone(Exception):
    """The table message to edit is gone: post a new one instead."""


class Sender:
    """Makes the requests the outbox's dispatcher sends, one op at a time, and records the table messages posted
    (`Memory.tables`); when and how often they go, and what a failure means, is the outbox's part."""

    def __init__(self, bot: Bot, memory: Memory, states: TableStates,
                 retire: Callable[[RetireOp], list[int]]) -> None:
        self._bot = bot
        self._memory = memory
        self._states = states
        """The versions of the table states (numbered by the adapter as the service produced them)."""
        self._queue_retire = retire
        """Queues an old table message to lose its buttons (`Outbox.retire`); returns the ids given up on."""
        self.photos = False
        """The `table_photos` option (`Outbox.table_photos`): the table message is a photo."""
        self._pictures: dict[int, bytes] = {}
        """With `photos`: each group's newest picture, shown by its table message."""
        self._new_pictures: set[int] = set()
        """With `photos`: groups whose table message must show a newer picture."""

    def keep_picture(self, chat_id: int, png: bytes) -> None:
        """With `photos`: a group's newest picture, for its table message to show."""
        self._pictures[chat_id] = png
        self._new_pictures.add(chat_id)

    def is_edit(self, op: TableOp) -> bool:
        """Whether showing `op`'s state edits the table's message (else a new one is posted)."""
        return self._edited(op, self._memory.tables.get(op.table_id)) is not None

    @staticmethod
    def _edited(op: TableOp, posted: Posted | None) -> Posted | None:
        """The message showing `op`'s state edits: the table's message when it shows the same hand in the same chat
        and the state is not to be posted anew (`TableOp.repost`); None when a new message is posted."""
        if posted is None or op.repost or posted.key != op.message.key or posted.chat_id != op.chat_id:
            return None
        return posted

    def _unreached(self, op: TableOp) -> list[str]:
        """The names of the players dealt in the hand who have no private chat with the bot (as it stands now)."""
        return [name for telegram_id, name in op.dealt if not self._memory.has_private_chat(telegram_id)]

    async def retire(self, op: RetireOp) -> None:
        """The request that takes an old table message out of play: its buttons go, its text stays (or says where
        the table moved)."""
        if op.text is None:
            await self._bot.edit_message_reply_markup(chat_id=op.chat_id, message_id=op.message_id, reply_markup=None)
        elif op.photo:
            await self._bot.edit_message_caption(chat_id=op.chat_id, message_id=op.message_id, caption=op.text)
        else:
            await self._bot.edit_message_text(op.text, chat_id=op.chat_id, message_id=op.message_id)

    async def deliver(self, op: Op) -> None:
        """Send a text, picture or file, or show a table's state (`TableGone`: its message is gone, post anew)."""
        if isinstance(op, TextOp):
            await self._bot.send_message(op.chat_id, op.text, message_thread_id=op.topic,
                                         link_preview_options=NO_PREVIEW)
        elif isinstance(op, PhotoOp):
            caption = "\n\n".join(part for part in (op.text, op.caption) if part)
            await self._bot.send_photo(op.chat_id, op.png, caption=clip(caption, MAX_CAPTION) or None,
                                       message_thread_id=op.topic)
        elif isinstance(op, DocumentOp):
            await self._bot.send_document(op.chat_id, op.content, filename=op.name, message_thread_id=op.topic)
        else:
            await self._show_table(op)

    async def _show_table(self, op: TableOp) -> None:
        """Post the table's message, or edit it, to show `op`'s state, or a newer one of its hand numbered since
        (one request for both); nothing when the message shows a newer state already (the service produced `op`'s
        first, but it was queued after: a timer's reply waited for the chat while a press went first), or when a
        newer one of its hand came with an announcement: that one's own request, queued after the announcement,
        shows it (shown now, the table would show "Bob" seated before the chat reads "Bob sits down"); a table
        asked for anew below (`TableOp.repost`) is still posted, as it stood before."""
        newest = self._states.newest_of_hand(op.table_id, (op.version, op.message))
        if newest[0] > op.version and self._states.announced_after(op.table_id, op.version):
            if not op.repost:
                return
            newest = op.version, op.message
        op.version, op.message = newest
        posted = self._memory.tables.get(op.table_id)
        if posted is not None and posted.chat_id == op.chat_id and op.version < posted.version:
            return
        if self.photos and op.chat_id < 0:
            await self._show_table_photo(op, posted)
            return
        markup = keyboard(op.message.buttons)
        body = table_text(op.message, op.language, self._unreached(op))
        digest = fingerprint(body, markup)
        if (edited := self._edited(op, posted)) is not None:
            posted = edited
            if posted.digest == digest:
                posted.version = op.version
                return  # Telegram would refuse it: "message is not modified"
            try:
                await self._bot.edit_message_text(
                    body, chat_id=posted.chat_id, message_id=posted.message_id, reply_markup=markup
                )
            except BadRequest as error:
                reason = str(error).lower()
                if "not modified" in reason:
                    posted.digest, posted.version, posted.buttons = digest, op.version, markup is not None
                    if posted.retired != op.message.retired:  # (a write: the seats between hands, as they change)
                        await self._memory.leave_reading(op.table_id, posted, op.message.retired)
                    return
                if "not found" not in reason and "can't be edited" not in reason:
                    raise
                log.info("table message %s of %s is gone (%s); posting a new one", posted.message_id,
                         op.table_id, error)
                posted.key, posted.buttons = "", False  # not this hand's message any more; nothing to retire
                raise TableGone from error
            posted.digest, posted.version, posted.buttons = digest, op.version, markup is not None
            if posted.retired != op.message.retired:  # (a write: the seats between hands, as they change)
                await self._memory.leave_reading(op.table_id, posted, op.message.retired)
            return
        sent = await self._bot.send_message(op.chat_id, body, message_thread_id=op.topic, reply_markup=markup)
        await self._remember(op, Posted(op.message.key, op.chat_id, sent.message_id, digest, op.version,
                                        markup is not None, op.message.retired), posted, body)

    async def _remember(self, op: TableOp, new: Posted, old: Posted | None, body: str, photo: bool = False) -> None:
        """Record the table's new message, and retire the one the table moved on from (`RetireOp`, after everything
        else): a new hand's message leaves the old hand's with its text and without its buttons (when it had any),
        the seats between hands without what the next hand waited for (`Posted.retired`), saying the table moved
        below; the hand's message posted anew below (`TableOp.repost`) leaves the old one showing that state (the
        seats without what the next hand waits for) and saying the table moved below."""
        retiring = None
        if old is not None and old.chat_id == new.chat_id and old.message_id != new.message_id:
            moved = text(op.language, "tg.table_moved")
            limit = MAX_CAPTION if photo else MAX_TEXT
            if op.repost and old.key == new.key:  # what it showed, the seats without the Deal now below
                shown = body if op.message.retired is None else op.message.retired
                retiring = RetireOp(op.chat_id, old.message_id, clip(f"{shown}\n\n{moved}", limit), photo)
            elif old.buttons is not False:
                record = None if old.retired is None else clip(f"{old.retired}\n\n{moved}", limit)
                retiring = RetireOp(op.chat_id, old.message_id, record, photo)
        if retiring is None:
            await self._memory.remember_table(op.table_id, new)
            return
        place = Place(place_of(op.chat_id, None).chat_id, op.table_id)
        kept = OldMessage(place, retiring.message_id, retiring.text, retiring.photo)
        await self._memory.remember_table(op.table_id, new, kept)  # (kept first: forgotten once retired)
        await self._memory.retired(op.chat_id, self._queue_retire(retiring))

    async def _show_table_photo(self, op: TableOp, posted: Posted | None) -> None:
        """The `table_photos` option: post the table as a photo, then edit its caption (or its picture)."""
        markup = keyboard(op.message.buttons)
        caption = clip(table_text(op.message, op.language, self._unreached(op)), MAX_CAPTION)
        new_picture = op.chat_id in self._new_pictures
        digest = fingerprint(caption, markup)
        if (edited := self._edited(op, posted)) is not None:
            posted = edited
            if new_picture:
                media = InputMediaPhoto(self._pictures[op.chat_id], caption=caption)
                await self._bot.edit_message_media(media, chat_id=posted.chat_id, message_id=posted.message_id,
                                                   reply_markup=markup)
                self._new_pictures.discard(op.chat_id)
            elif posted.digest != digest:
                await self._bot.edit_message_caption(chat_id=posted.chat_id, message_id=posted.message_id,
                                                     caption=caption, reply_markup=markup)
            posted.digest, posted.version, posted.buttons = digest, op.version, markup is not None
            if posted.retired != op.message.retired:  # (a write: the seats between hands, as they change)
                await self._memory.leave_reading(op.table_id, posted, op.message.retired)
            return
        sent = await self._bot.send_photo(op.chat_id, self._pictures.get(op.chat_id, BLANK), caption=caption,
                                          message_thread_id=op.topic, reply_markup=markup)
        self._new_pictures.discard(op.chat_id)
        await self._remember(op, Posted(op.message.key, op.chat_id, sent.message_id, digest, op.version,
                                        markup is not None, op.message.retired), posted, caption, photo=True)
