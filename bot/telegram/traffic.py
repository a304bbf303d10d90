"""What every request of the Telegram outbox shares: each chat's queue and budget, the bot's budget, a request's
count in them (started, answered, or held by a 429), and the dispatcher's wake-up. What is sent when is
`bot.telegram.outbox`'s, and for the old table messages' retirements `bot.telegram.retirements`'."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any

from telegram.error import RetryAfter

from bot.clock import Clock, SystemClock
from bot.telegram.budget import Limits
from bot.telegram.memory import Memory
from bot.telegram.ops import ChatQueue
from bot.telegram.refusals import retry_seconds
from bot.telegram.sender import Sender

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How long a chat waits before a request that failed on the network is sent again."""


class Traffic(ABC):
    """The chats' queues and the budgets every request of the outbox counts in, and the dispatcher it wakes
    (`_dispatch`, the outbox's).

    `clock` is what the budgets and 429 holds are counted by (its monotonic time): a test may drive a fake one, which
    the dispatcher reads again at each look (it looks when woken, or once a wait it asked for is over)."""

    def __init__(self, sender: Sender, memory: Memory, limits: Limits | None = None,
                 clock: Clock | None = None) -> None:
        self._clock = clock or SystemClock()
        self._memory = memory
        self.limits = limits or Limits()
        self._sender = sender
        """The requests behind each op (the table messages' too)."""
        self._chats: dict[int, ChatQueue] = {}
        self._turn: list[int] = []
        """Chats with something queued, in the order they are served (the served one moves to the end)."""
        self._global = self.limits.bot_window()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._dispatcher: asyncio.Task[None] | None = None
        self.requests = 0
        """Requests sent (for the benchmark's ratio to the budget), `RetireOp`s included."""
        self.rate_limited = 0
        """429s received."""

    @abstractmethod
    async def _dispatch(self) -> None:
        """The one loop that starts every request (`Outbox._dispatch`), started when woken with none running."""

    def _queue(self, chat_id: int) -> ChatQueue:
        queue = self._chats.get(chat_id)
        if queue is None:
            queue = self._chats[chat_id] = ChatQueue(chat_id, self.limits.window(chat_id), hold=self.limits.hold /
                                                     self.limits.time_scale, notice_wait=self.limits.notice_wait /
                                                     self.limits.time_scale, is_edit=self._sender.is_edit)
        if chat_id not in self._turn:
            self._turn.append(chat_id)
        return queue

    def _wake_up(self) -> None:
        self._idle.clear()
        self._wake.set()
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch(), name="telegram-outbox")

    def _launch(self, queue: ChatQueue, request: Coroutine[Any, Any, None], tasks: set[asyncio.Task[None]],
                kind: str) -> None:
        """Send a request to the chat in a task of its own, kept in `tasks` until it ends; the chat's and the bot's
        budgets count it from now (`_finished` when it is answered)."""
        queue.window.start()
        self._global.start()
        task = asyncio.create_task(request, name=f"telegram-{kind}-{queue.chat_id}")
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def _hold(self, queue: ChatQueue, error: RetryAfter, doing: str = "") -> None:
        """A 429: Telegram holds the chat for every request until its `retry_after` has passed."""
        self.rate_limited += 1
        seconds = retry_seconds(error)
        log.info("Telegram asked chat %s to wait %.0f s%s", queue.chat_id, seconds, doing)
        queue.blocked_until = self._clock.monotonic() + seconds

    def _finished(self, queue: ChatQueue) -> None:
        """A request to the chat is answered (or failed): the chat's and the bot's budgets count it as done."""
        now = self._clock.monotonic()
        queue.window.finish(now)
        self._global.finish(now)
