"""Where the Telegram bot may post: tables pause while their group or forum topic refuses it, and play on when it is
reachable again."""

from __future__ import annotations

import asyncio
import logging
import math

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot.background import start_kept
from bot.service import Service
from bot.telegram.memory import Memory
from bot.telegram.outbox import Outbox, TextOp
from bot.telegram.render import PREFIX, chat_and_topic, place_of, topic_of

log = logging.getLogger(__name__)

SHOWN_AGAIN_PER_SECOND = 10.0
"""How many tables in play a start shows again a second (`Service.show_tables_in_play`): a third of the bot's 30
requests a second, the rest left to the players (the outbox serves every chat in turn, so a long queue of them
would hold up every other chat)."""


class Reach:
    """Keeps the tables of the groups and forum topics that refuse the bot paused, and lets them play on when it
    hears from there again.

    A group pauses all its tables when the bot is removed from it or a send there is refused with 403 Forbidden; a
    forum topic an administrator closed or deleted pauses its own table, recorded in `Memory.closed_topics` (the
    pause survives a restart, so must its reason) until that topic is heard from, the bot back in the group or not:
    the Bot API tells whether a topic is still closed only by refusing a post there, and its table would have played
    on for a moment first. The public texts dropped meanwhile are kept by the service (`Service.pause`: in the
    database, so a restart or another process's resume posts them too) and posted when the table plays on, before
    it is shown again as it stands. Also notes who opened or blocked a private chat with the bot, and whether a
    group allows pictures again.
    """

    def __init__(self, service: Service, memory: Memory, outbox: Outbox, time_scale: float = 1.0) -> None:
        self.service = service
        self.memory = memory
        self.outbox = outbox
        self.time_scale = time_scale
        """How much faster than real time the bot runs (tests): tables are shown again that much faster."""
        self._heard: set[int] = set()
        """Groups heard from since the start, or since the bot last lost them: nothing of theirs waits to hear from
        them but a closed topic's table (its own topic's message resumes it)."""
        self._heard_at: dict[tuple[int, int | None], float] = {}
        """When each group (topic None) and forum topic was last heard from: a table another process paused before
        that plays on once this process learns the pause (`paused_elsewhere`)."""
        self._resuming: set[asyncio.Task[None]] = set()
        """The resumes `paused_elsewhere` started, kept until done (`stop` waits for them)."""
        self._stopping = False
        """Set by `stop`: no resume starts any more (the table stays paused for the next process to resume)."""

    async def note_chat(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message tells where the bot is: a user who writes in private may be written to; a group the bot
        hears from (in any topic, one without a table too) has the bot in it, so the tables paused because the group
        refused it play on, and so does the table of the forum topic the message came from (`back_in_group`). A
        press on a button of a group's message says the group has the bot in it, as a message does (before the press
        is played, so it acts on the table playing on), but not that its topic is open: a closed topic's buttons
        still work. Only the first message since the start or the group's loss asks the
        store; then only a paused topic's does."""
        message, user = update.message, update.effective_user
        if message is None:
            pressed = update.callback_query.message if update.callback_query is not None else None
            if pressed is not None and pressed.chat.type != ChatType.PRIVATE:
                await self._heard_from(pressed.chat.id, None)  # not its topic: a closed topic's buttons still work
            return
        if message.chat.type == ChatType.PRIVATE:
            if user is not None:
                await self.memory.open_private_chat(user.id)
            return
        if (left := message.left_chat_member) is not None and left.id == context.bot.id:
            return  # the news of the bot's own removal: the group is lost, not back
        if message.forum_topic_closed is not None:
            return  # the news of a topic's closing, heard after its refusal paused the table: not back
        await self._heard_from(message.chat.id, topic_of(message))

    async def _heard_from(self, chat: int, topic: int | None) -> None:
        """Someone in a group (in `topic`, if a forum topic) wrote or pressed: it plays on, unless already heard
        from and the place's own table is not paused."""
        chat_id = self.memory.current_chat(chat)
        self._heard_at[chat_id, None] = now = self.service.clock.now()
        if topic is not None:
            self._heard_at[chat_id, topic] = now
        if chat_id not in self._heard or self.service.is_paused(place_of(chat_id, topic).table_id):
            await self.back_in_group(chat_id, topic)

    def paused_elsewhere(self, paused: dict[str, float]) -> None:
        """With several processes on one database: tables another process paused (since when), which this process
        has just learned (`Service.on_paused_elsewhere`). Those of a group heard from here since their pause began
        play on (`back_in_group`; the heard-from topic's own too, a closed topic's not): the group was reachable
        then, and that sign, come before this process knew of the pause, resumed nothing. None once `stop` began."""
        if self._stopping:
            return
        places: set[tuple[int, int | None]] = set()
        for table_id, since in paused.items():
            if not table_id.startswith(PREFIX):
                continue
            chat_id, topic = chat_and_topic(table_id)
            if topic is not None and self._heard_at.get((chat_id, topic), -math.inf) >= since:
                places.add((chat_id, topic))
            elif self._heard_at.get((chat_id, None), -math.inf) >= since:
                places.add((chat_id, None))
        for chat_id, topic in places:
            start_kept(self._resuming, self.back_in_group(chat_id, topic),
                       "tables paused elsewhere could not be resumed")

    async def on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot's own membership changed: a private chat it may (no longer) write to, a group it was removed
        from (its tables pause) or is in (added back, or its rights changed: its tables play on, but a closed forum
        topic's, see `back_in_group`; pictures allowed unless it says otherwise)."""
        change = update.my_chat_member
        if change is None:
            return
        gone = change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)
        if change.chat.type == ChatType.PRIVATE:
            if gone:
                await self.memory.close_private_chat(change.chat.id)
            else:
                await self.memory.open_private_chat(change.chat.id)
            return
        if gone:  # removed from the group: its tables wait as they are until the bot is back
            await self.pause_group(change.chat.id)
            return
        self._heard_at[self.memory.current_chat(change.chat.id), None] = self.service.clock.now()
        await self.back_in_group(change.chat.id)
        if getattr(change.new_chat_member, "can_send_photos", True) is not False:
            await self.memory.refuse_photos(change.chat.id, False)  # pictures are allowed (again)

    async def pause_group(self, chat_id: int, lost: list[TextOp] | None = None) -> None:
        """The bot is out of a group (removed, or a send refused with 403 Forbidden when the membership update never
        came): its tables pause (no time-out fires, no hand is dealt, a hand in play waits as it is) until the bot
        is added back or hears from the group again (`back_in_group`); `lost`: the public texts dropped for it."""
        chat_id = self.memory.current_chat(chat_id)
        self._heard.discard(chat_id)
        tables = await self.service.tables_of(place_of(chat_id, None).chat_id)
        log.info("out of chat %s; pausing %s", chat_id, tables)
        await self._pause(tables, lost or [])

    async def pause_topic(self, chat_id: int, topic: int, lost: list[TextOp] | None = None) -> None:
        """A forum topic refused a post (an administrator closed or deleted it): its table pauses, as a group's do
        when the bot is out of it (`pause_group`), until the bot hears from that topic again (its reopening says
        so, or any message there, see `note_chat`), recorded so, across a restart too; the group's other tables play
        on. `lost`: the public texts dropped for it."""
        chat_id = self.memory.current_chat(chat_id)
        table_id = place_of(chat_id, topic).table_id
        log.info("topic %s of chat %s refuses posts; pausing %s", topic, chat_id, table_id)
        await self.memory.close_topic(chat_id, topic, True)
        await self._pause([table_id], lost or [])

    async def _pause(self, table_ids: list[str], lost: list[TextOp]) -> None:
        """Pause tables, the service keeping the public texts dropped for them (`Service.pause`); their hands wait, so
        they no longer keep their chat's requests spaced (`Outbox.pause`)."""
        missed: dict[str, list[str]] = {}
        for op in lost:
            missed.setdefault(place_of(op.chat_id, op.topic).table_id, []).append(op.text)
        await self.service.pause(table_ids, missed)
        self.outbox.pause(table_ids)

    async def back_in_group(self, chat_id: int, topic: int | None = None) -> None:
        """The bot is in a group again (added back, or heard from; with `topic`, heard from in that forum topic):
        the tables paused because the group refused the bot play on, and the topic's own, whatever paused it; one
        whose topic refused the bot waits for that topic (`pause_topic`). With several processes on one database,
        the tables the database holds paused, whichever process paused them (this one may not know yet). What was
        queued for them when they were refused was dropped: their last public texts (kept by the service, taken as
        the pause is lifted: `Service.resume`) are posted, then those in play shown again as they stand (a new
        hand's message, the last turn: the table message may show an older turn whose buttons no longer act)."""
        chat_id = self.memory.current_chat(chat_id)
        await self.memory.learn_closed_topics()  # another process may have found one closed
        if topic is not None:
            await self.memory.close_topic(chat_id, topic, False)
        self._heard.add(chat_id)
        chat = place_of(chat_id, None).chat_id
        tables = await self.service.resume([table_id for table_id in await self.service.tables_of(chat)
                                            if chat_and_topic(table_id) not in self.memory.closed_topics])
        if not tables:
            return
        for table_id, missed in tables.items():
            for line in missed:
                self.outbox.send_text(TextOp(*chat_and_topic(table_id), line))
        await self.service.show_tables_in_play(f"{chat}:", per_second=SHOWN_AGAIN_PER_SECOND * self.time_scale)

    async def stop(self) -> None:
        """At the adapter's stop, before its outbox closes: wait for the resumes `paused_elsewhere` started (a resume
        cut short after its commit would lose the texts it took; one awaited posts them); none starts after."""
        self._stopping = True
        while self._resuming:
            await asyncio.gather(*self._resuming, return_exceptions=True)
