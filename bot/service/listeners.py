"""Where the replies no player asked for go (a timer's, start-up's): to the listener of the table's adapter, or kept
until that adapter subscribes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.output import Place, Reply

log = logging.getLogger(__name__)

Listener = Callable[[Place, Reply], Awaitable[None]]
"""Receives what timers caused (announcements, time-outs) for tables of one platform."""

UNHEARD_LIMIT = 200
"""The most replies kept for tables whose adapter has not subscribed yet (the oldest go first beyond it)."""


class Listeners:
    """The adapters' listeners, each for the tables whose id starts with its prefix, and the replies caused before
    any of them subscribed for their table (start-up voids, timers due at start-up)."""

    def __init__(self) -> None:
        self._listeners: list[tuple[str, Listener]] = []
        self._unheard: list[tuple[Place, Reply]] = []
        self._deliveries: set[asyncio.Task[None]] = set()

    def subscribe(self, prefix: str, listener: Listener) -> None:
        """Deliver replies for tables whose id starts with `prefix` to `listener`; the ones kept for them so far are
        delivered now, in order, by a task of the running loop (see `Service.subscribe`)."""
        self._listeners.append((prefix, listener))
        waiting = [item for item in self._unheard if item[0].table_id.startswith(prefix)]
        if not waiting:
            return
        self._unheard = [item for item in self._unheard if not item[0].table_id.startswith(prefix)]
        task = asyncio.get_running_loop().create_task(self._deliver_late(listener, waiting))
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _deliver_late(self, listener: Listener, waiting: list[tuple[Place, Reply]]) -> None:
        for place, reply in waiting:
            try:
                await listener(place, reply)
            except Exception:  # one undeliverable reply must not hold back the others
                log.exception("could not deliver a reply for %s", place.table_id)

    async def publish(self, place: Place, reply: Reply) -> None:
        """Hand the reply to the listeners of its table, or keep it until one subscribes."""
        listeners = [listener for prefix, listener in self._listeners if place.table_id.startswith(prefix)]
        if not listeners:
            self._unheard = [*self._unheard, (place, reply)][-UNHEARD_LIMIT:]
        for listener in listeners:
            await listener(place, reply)
