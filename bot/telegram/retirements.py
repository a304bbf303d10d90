"""Old Telegram table messages losing their buttons: when a table moves on to a new message (a new hand's or round's,
or the same hand's posted anew below by `/table`), the old message's buttons go (`RetireOp`), as the least urgent
request there is: only once nothing else waits for the chat or is in flight to it, and only with room to spare in its
budget (a request may still go at once after it) and in the bot's (half of its 30 a second unused), never ahead of a
reply or delaying one; it counts in both budgets like any request. The retired message keeps its text, the record of
its hand where the chat's history has it (the seats between hands keep theirs without what the next hand waited for,
`bot.telegram.sender`). The store keeps each old message from when the new one is recorded (one write for both)
until it is retired or given up on, so those still waiting when the bot stops (a crash, or a stop that ran out of
time) are queued again after its next start (`bot.retiring.queue_kept`), in the same way."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from telegram import Bot
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot.clock import Clock
from bot.output import OldMessage
from bot.table_states import TableStates
from bot.telegram.budget import Limits
from bot.telegram.memory import Memory
from bot.telegram.ops import ChatQueue, RetireOp
from bot.telegram.render import chat_and_topic
from bot.telegram.sender import Sender
from bot.telegram.traffic import RETRY_SECONDS, Traffic

log = logging.getLogger(__name__)


class Retirements(Traffic):
    """The outbox's queue of old table messages waiting to lose their buttons (see the module's docstring), each
    chat's after everything else for it, and their requests."""

    def __init__(self, bot: Bot, memory: Memory, limits: Limits | None = None,
                 states: TableStates | None = None, clock: Clock | None = None) -> None:
        super().__init__(Sender(bot, memory, states or TableStates(), self.retire), memory, limits, clock)
        self._retirements: set[asyncio.Task[None]] = set()
        """`RetireOp`s in flight (apart from the outbox's other requests: `flush` does not wait for them)."""
        self._retiring_chats: set[int] = set()
        """Chats with old table messages waiting to lose their buttons."""
        self._retired = asyncio.Event()
        self._retired.set()
        self._closing = False
        """Stopping: what remains is retired as the budget allows, with no room kept for replies that will not come."""

    def retire(self, op: RetireOp) -> list[int]:
        """Queue an old table message to lose its buttons, after everything else (see the module's docstring);
        return the ids of the chat's old messages given up on to make room (`bot.retiring.MAX_WAITING`), to forget."""
        given_up = self._queue(op.chat_id).retire(op)
        self._retiring_chats.add(op.chat_id)
        self._retired.clear()
        self._wake_up()
        return given_up

    async def retire_again(self, waiting: Iterable[OldMessage]) -> None:
        """Queue the old table messages that still waited to lose their buttons when the bot stopped (`retire`)."""
        for old in waiting:
            chat_id, _ = chat_and_topic(old.place.table_id)
            await self._memory.retired(chat_id, self.retire(RetireOp(chat_id, old.message_id, old.text, old.photo)))

    def retiring(self, chat_id: int) -> int:
        """How many old table messages wait to lose their buttons in a chat (in flight not counted)."""
        queue = self._chats.get(chat_id)
        return len(queue.retiring) if queue else 0

    def _start_retiring(self, now: float) -> float:
        """Start retiring an old table message in every chat that has nothing else to send and room to spare in its
        budget (and the bot in its); return how long until the next may (infinite: when something else is sent)."""
        soonest = float("inf")
        for chat_id in list(self._retiring_chats):
            queue = self._chats.get(chat_id)
            if queue is None or not queue.retiring:
                self._retiring_chats.discard(chat_id)
                continue
            if queue.ops or queue.busy or queue.retire_busy:
                continue  # (a reply queued or in flight: the dispatcher wakes when it is answered)
            spare = 0 if self._closing else min(1, queue.window.burst - 1)
            wait = max(queue.blocked_until - now, queue.window.wait(now, spare=spare), 0.0)
            if wait > 0:
                soonest = min(soonest, wait)
                continue
            overall = self._global.wait(now, spare=0 if self._closing else self.limits.bot[0] // 2)
            if overall > 0:
                return min(soonest, overall)
            message_id = next(iter(queue.retiring))
            op = queue.retiring.pop(message_id)
            queue.retire_busy = True
            self._launch(queue, self._send_retire(queue, op), self._retirements, "retire")
        return soonest

    async def _send_retire(self, queue: ChatQueue, op: RetireOp) -> None:
        """Retire an old table message, and forget it once done with it (retired, or given up on): until then
        (in flight, or waiting again) the store keeps it for the next start."""
        try:
            if await self._request_retire(queue, op):
                await self._memory.retired(op.chat_id, [op.message_id])
        finally:
            queue.retire_busy = False
            self._retirements.discard(asyncio.current_task())
            if queue.retiring:
                self._retiring_chats.add(queue.chat_id)
            self._wake.set()

    async def _request_retire(self, queue: ChatQueue, op: RetireOp) -> bool:
        """Send an old table message's retirement; False when it waits again. A 429 holds the chat (Telegram holds
        it for every request) and the retirement waits again behind everything else; a message gone or already
        without buttons is done."""
        self.requests += 1
        try:
            await self._sender.retire(op)
        except RetryAfter as error:
            self._hold(queue, error, " (retiring an old table message)")
            queue.retire(op)
            return False
        except ChatMigrated:
            pass  # the chat's next reply moves it; the old group's messages stay as they are
        except (BadRequest, Forbidden) as error:  # deleted, not modified (no buttons), or out of the group
            log.info("old table message %s of chat %s left as it is (%s)", op.message_id, op.chat_id, error)
        except NetworkError as error:
            log.info("could not reach Telegram for chat %s (%s); retiring later", queue.chat_id, error)
            retry_at = self._clock.monotonic() + RETRY_SECONDS / self.limits.time_scale
            queue.blocked_until = max(queue.blocked_until, retry_at)
            queue.retire(op)
            return False
        except Exception:
            log.exception("could not retire %r", op)
        finally:
            self._finished(queue)
        return True
