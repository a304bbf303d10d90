"""Outgoing Telegram traffic: one queue per chat, served fairly within Telegram's budget.

Handlers and timers never wait for Telegram: they queue what to show and return. One dispatcher sends: each chat
at most one request at a time (so it sees its messages in order) and within its own budget (20 a minute in a group,
1 a second in a private chat), the whole bot within 30 a second; private chats first, then the groups round-robin,
so one busy table never delays another. While a chat waits for its budget, a newer state of its table replaces the
queued one and texts join, so a burst of actions costs one edit, not one per action. A 429 holds only the chat it
came from, for its `retry_after`.

When a table moves on to a new message, the old message's buttons go as the least urgent request there is
(`bot.telegram.retirements`). The chats' queues and the budgets are `bot.telegram.traffic`'s; the requests themselves,
a table message's edit or new post with them, `bot.telegram.sender`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

from telegram import Bot
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot.clock import Clock
from bot.table_states import TableStates
from bot.telegram.budget import Limits
from bot.telegram.memory import Memory
from bot.telegram.ops import ChatQueue, DocumentOp, Op, PhotoOp, RetireOp, TableOp, TextOp, public_texts
from bot.telegram.refusals import refuses_photos, refuses_topic
from bot.telegram.render import chat_and_topic, place_of, rekey_table_id
from bot.telegram.retirements import Retirements
from bot.telegram.sender import TableGone
from bot.telegram.traffic import RETRY_SECONDS

__all__ = ["DocumentOp", "Op", "Outbox", "PhotoOp", "RetireOp", "TableOp", "TextOp"]

log = logging.getLogger(__name__)


class Outbox(Retirements):
    """Per-chat queues and the one dispatcher that sends them; failures are logged, never raised to the caller.

    `clock` is what the budgets and 429 holds are counted by (its monotonic time): a test may drive a fake one, which
    the dispatcher reads again at each look (it looks when woken, or once a wait it asked for is over)."""

    def __init__(self, bot: Bot, memory: Memory, limits: Limits | None = None,
                 states: TableStates | None = None, clock: Clock | None = None) -> None:
        super().__init__(bot, memory, limits, states, clock)
        self._sending: set[asyncio.Task[None]] = set()
        self.on_blocked: Callable[[int], Awaitable[None]] | None = None
        """A user blocked the bot (a private send was refused)."""
        self.on_photos_refused: Callable[[int, int | None], Awaitable[None]] | None = None
        """A group refused a picture (the bot may not send photos there): the chat, and the forum topic it was for."""
        self.on_migrated: Callable[[int, int], Awaitable[None]] | None = None
        """A group became a supergroup with a new id (old, new): what was queued for it goes there."""
        self.on_lost_group: Callable[[int, list[TextOp]], Awaitable[None]] | None = None
        """A group refused a send with 403 Forbidden (the bot was kicked or left): what was queued for it is
        dropped; its public texts (the refused one's too) come along."""
        self.on_lost_topic: Callable[[int, int, list[TextOp]], Awaitable[None]] | None = None
        """A forum topic (chat, topic) refused a post (an administrator closed or deleted it): what was queued for it
        is dropped; its public texts (the refused one's too) come along."""

    @property
    def table_photos(self) -> bool:
        """The option issue 15 asked to measure (off; `benchmarks/delivery.py` measures it): the table message is a
        photo whose caption is the table's text, edited with `editMessageCaption`, and with `editMessageMedia` when
        a new picture comes (which then is not posted on its own)."""
        return self._sender.photos

    @table_photos.setter
    def table_photos(self, on: bool) -> None:
        self._sender.photos = on

    # --- queueing (never waits) -----------------------------------------------------------------------------

    def send_text(self, op: TextOp) -> None:
        """Queue a text; it joins a text queued before it for the same place when both fit one message."""
        self._queue(op.chat_id).add_text(op, self._clock.monotonic())
        self._wake_up()

    def send_photo(self, op: PhotoOp) -> None:
        """Queue a picture (with `table_photos`, a group's picture goes into its table message instead)."""
        if self.table_photos and op.chat_id < 0 and op.private_to is None:
            self._sender.keep_picture(op.chat_id, op.png)
            return
        self._queue(op.chat_id).add(op, self._clock.monotonic())
        self._wake_up()

    def send_document(self, op: DocumentOp) -> None:
        """Queue a file, in order with the chat's texts."""
        self._queue(op.chat_id).add(op, self._clock.monotonic())
        self._wake_up()

    def show_table(self, op: TableOp) -> None:
        """Queue a table state; it replaces a queued state of the same hand that has not been sent yet."""
        self._queue(op.chat_id).add_table(op, self._clock.monotonic())
        self._wake_up()

    def drop_photos(self, chat_id: int) -> None:
        """Forget the pictures queued for a chat (it refuses them)."""
        self._drop(chat_id, lambda op: isinstance(op, PhotoOp))

    def forget_topic(self, chat_id: int, topic: int) -> list[TextOp]:
        """Drop what waits for a forum topic the bot may no longer post in (the old messages' retirements stay:
        an edit is still allowed there), and its table's mark of play (`pause`); return its public texts
        (`public_texts`)."""
        self.pause([place_of(chat_id, topic).table_id])
        return public_texts(self._drop(chat_id, lambda op: op.topic == topic))

    def pause(self, table_ids: Iterable[str]) -> None:
        """Tables paused (their group or topic refuses the bot): their hands wait, so they no longer keep their chat's
        requests spaced (`ChatQueue.playing`) until a state of theirs is queued again (a press, or playing on)."""
        for table_id in table_ids:
            queue = self._chats.get(chat_and_topic(table_id)[0])
            if queue is not None:
                queue.playing.pop(table_id, None)

    def _drop(self, chat_id: int, dropped: Callable[[Op], bool]) -> list[Op]:
        queue = self._chats.get(chat_id)
        if queue is None:
            return []
        gone = [op for op in queue.ops if dropped(op)]
        kept = [op for op in queue.ops if not dropped(op)]
        queue.queued_at = {id(op): queue.queued_at[id(op)] for op in kept if id(op) in queue.queued_at}
        queue.ops.clear()
        queue.ops.extend(kept)
        return gone

    def forget(self, chat_id: int) -> list[TextOp]:
        """Drop what waits for a chat the bot can no longer reach; return its public texts (`public_texts`)."""
        queue = self._chats.get(chat_id)
        if queue is None:
            return []
        gone = list(queue.ops)
        queue.ops.clear()
        queue.queued_at.clear()
        queue.retiring.clear()
        queue.playing.clear()
        return public_texts(gone)

    def rekey(self, old: int, new: int) -> None:
        """A chat got a new id (a group upgraded to a supergroup): what is queued for it goes to the new id, and its
        tables' marks of play with it (a hand in play keeps the new chat's requests spaced)."""
        queue = self._chats.pop(old, None)
        if queue is None:
            return
        for op in queue.ops:
            op.chat_id = new
            if isinstance(op, TableOp):
                op.table_id = rekey_table_id(op.table_id, old, new)
        if old in self._turn:
            self._turn.remove(old)
        target = self._queue(new)
        target.ops.extendleft(reversed(queue.ops))
        target.queued_at.update(queue.queued_at)
        target.playing.update({rekey_table_id(table_id, old, new): playing
                               for table_id, playing in queue.playing.items()})
        queue.ops.clear()
        for retire in queue.retiring.values():
            retire.chat_id = new
            target.retire(retire)  # (none given up: the old chat's were within the cap, and the new one is new)
        if target.retiring:
            self._retiring_chats.add(new)
        queue.retiring.clear()
        target.blocked_until = max(target.blocked_until, queue.blocked_until)
        self._wake_up()

    # --- waiting --------------------------------------------------------------------------------------------

    async def flush(self, timeout: float | None = None, *, retired: bool = False) -> bool:
        """Wait until everything queued was sent (or failed and was logged); False if `timeout` ran out first.
        Old table messages may still wait to lose their buttons, unless `retired` (then those are waited for too)."""
        async def done() -> None:
            await self._idle.wait()
            while retired and not (self._retired.is_set() and self._idle.is_set()):
                await self._retired.wait()
                await self._idle.wait()
        try:
            await asyncio.wait_for(done(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self, timeout: float) -> None:
        """Send what can be sent within `timeout` seconds (the old messages' retirements last), then drop the rest
        (logged; the store keeps the old messages for the next start) and stop."""
        started = time.monotonic()
        if not await self.flush(timeout):
            left = sum(len(queue.ops) for queue in self._chats.values())
            log.warning("stopping with %d messages not sent to Telegram", left)
        else:
            self._closing = True
            self._wake_up()
            if not await self.flush(max(0.0, timeout - (time.monotonic() - started)), retired=True):
                left = sum(len(queue.retiring) for queue in self._chats.values())
                log.info("stopping with %d old table messages still showing their buttons (until the next start)",
                         left)
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        for task in (*self._sending, *self._retirements):
            task.cancel()
        await asyncio.gather(*self._sending, *self._retirements, *([self._dispatcher] if self._dispatcher else []),
                             return_exceptions=True)
        self._chats.clear()
        self._turn.clear()
        self._retiring_chats.clear()
        self._closing = False
        self._idle.set()
        self._retired.set()

    def pending(self, chat_id: int) -> int:
        """How many ops wait for a chat (in flight not counted)."""
        queue = self._chats.get(chat_id)
        return len(queue.ops) if queue else 0

    # --- the dispatcher -------------------------------------------------------------------------------------

    async def _dispatch(self) -> None:
        while True:
            self._wake.clear()
            now = self._clock.monotonic()
            delay = min(self._start_ready(now), self._start_retiring(now))
            if not self._turn and not self._sending:
                self._forget_idle_chats(now)
                self._idle.set()
            if not self._retirements and not self._retiring_chats:
                self._retired.set()
            if delay == 0:
                continue
            # `asyncio.timeout`, not `wait_for`: Python 3.11's `wait_for` loses a cancellation that comes as the
            # timeout ends, which left `close` waiting for this loop forever (the delivery benchmark stalled so)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None if delay == float("inf") else delay):
                    await self._wake.wait()

    def _start_ready(self, now: float) -> float:
        """Start a request for every chat that may send now, in turn; return how long until the next may."""
        soonest = float("inf")
        for chat_id in sorted(self._turn, key=lambda chat: chat < 0):  # private chats first, then round-robin
            queue = self._chats.get(chat_id)
            if queue is None:
                self._turn.remove(chat_id)
                continue
            if not queue.ops:
                if not queue.busy:
                    self._turn.remove(chat_id)
                continue
            wait = queue.ready_in(now)
            if wait > 0:
                soonest = min(soonest, wait)
                continue
            overall = self._global.wait(now)
            if overall > 0:
                return min(soonest, overall)
            self._turn.remove(chat_id)
            self._turn.append(chat_id)  # served: the others go first next time
            self._start(queue, queue.take(now))
        return soonest

    def _forget_idle_chats(self, now: float) -> None:
        """Drop the queues of chats whose budget no longer remembers anything (a long-running bot meets many)."""
        for chat_id, queue in list(self._chats.items()):
            if (not queue.ops and not queue.busy and not queue.retiring and not queue.retire_busy
                    and queue.blocked_until <= now and queue.window.is_idle(now)):
                del self._chats[chat_id]

    def _start(self, queue: ChatQueue, op: Op) -> None:
        queue.busy = True
        self._launch(queue, self._send(queue, op), self._sending, "send")

    async def _send(self, queue: ChatQueue, op: Op) -> None:
        self.requests += 1
        try:
            await self._sender.deliver(op)
        except RetryAfter as error:
            self._hold(queue, error)
            queue.ops.appendleft(op)
        except TableGone:
            queue.ops.appendleft(op)  # posted anew on its next turn
        except ChatMigrated as error:
            new = int(error.new_chat_id)
            log.info("chat %s became supergroup %s", queue.chat_id, new)
            queue.ops.appendleft(op)
            if self.on_migrated is not None:
                await self.on_migrated(queue.chat_id, new)
            self.rekey(queue.chat_id, new)
        except (BadRequest, Forbidden) as error:
            if isinstance(op, PhotoOp) and op.private_to is None and refuses_photos(error):
                log.info("chat %s refuses pictures (%s); pictures off there", op.chat_id, error)
                self.drop_photos(op.chat_id)
                if op.text:  # the text that joined the picture still goes, first
                    queue.ops.appendleft(TextOp(op.chat_id, op.topic, op.text))
                if self.on_photos_refused is not None:
                    await self.on_photos_refused(op.chat_id, op.topic)
            elif op.topic is not None and op.chat_id < 0 and refuses_topic(error):
                log.warning("topic %s of group %s refuses the bot (%s); what was queued for it is dropped", op.topic,
                            op.chat_id, error)
                lost = public_texts([op]) + self.forget_topic(op.chat_id, op.topic)
                if self.on_lost_topic is not None:
                    await self.on_lost_topic(op.chat_id, op.topic, lost)
            elif isinstance(error, Forbidden) and (user := _private_to(op)) is not None and self.on_blocked:
                log.info("user %s blocked the bot; no more private messages to him", user)
                await self.on_blocked(user)
            elif isinstance(error, Forbidden) and op.chat_id < 0:
                log.warning("group %s refuses the bot (%s); what was queued for it is dropped", op.chat_id, error)
                lost = public_texts([op]) + self.forget(op.chat_id)
                if self.on_lost_group is not None:
                    await self.on_lost_group(op.chat_id, lost)
            else:
                log.warning("Telegram refused %r: %s", op, error)
        except NetworkError as error:  # (after BadRequest, one of its kind) the connection failed: try again
            log.info("could not reach Telegram for chat %s (%s); trying again", queue.chat_id, error)
            queue.blocked_until = self._clock.monotonic() + RETRY_SECONDS / self.limits.time_scale
            queue.ops.appendleft(op)
        except Exception:
            log.exception("could not deliver %r", op)
        finally:
            self._finished(queue)
            queue.busy = False
            self._sending.discard(asyncio.current_task())
            if queue.ops and self._chats.get(queue.chat_id) is queue and queue.chat_id not in self._turn:
                self._turn.append(queue.chat_id)
            self._wake.set()


def _private_to(op: Op) -> int | None:
    return None if isinstance(op, TableOp) else op.private_to
