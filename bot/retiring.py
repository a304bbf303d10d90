"""Old table messages waiting to lose their buttons ("retired" by an adapter as its least urgent request), for every
adapter alike: each chat's queue of them, capped, and their queueing again after a start. How a message is retired
(the platform's request) and when (its budget) stays with each adapter."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from bot.adapter_memory import AdapterMemory
from bot.output import OldMessage

log = logging.getLogger(__name__)

MAX_WAITING = 50
"""Old table messages one chat may have waiting to lose their buttons; past it the oldest is given up (its buttons
stay, answered as stale when pressed): a chat whose budget never has room to spare does not grow a backlog."""

LEASE_SECONDS = 60.0
"""With several processes on one database: a process's claim on the old messages it queued that was not renewed
for this long is stale (the process stopped), and another process takes them over (`queue_kept`)."""
RENEW_SECONDS = 15.0
"""How often a process renews its claims and looks for stale ones: well within `LEASE_SECONDS`, so a busy
database or a slow commit does not let a running process's claims go stale."""

T = TypeVar("T")


class Waiting(dict[int, T]):
    """One chat's old table messages waiting to lose their buttons, by message id, oldest first, each with what its
    adapter needs to retire it."""

    def add(self, message_id: int, item: T, where: object) -> list[int]:
        """Queue a message (one queued already moves last, as `item`); return the ids of the oldest given up on to
        stay within `MAX_WAITING` (for the store to forget), each logged with `where` it was."""
        self.pop(message_id, None)
        self[message_id] = item
        given_up = []
        while len(self) > MAX_WAITING:
            oldest = next(iter(self))
            del self[oldest]
            given_up.append(oldest)
            log.info("%s: too many old table messages waiting; message %s keeps its buttons", where, oldest)
        return given_up


async def queue_kept(show_tables: Awaitable[None], memory: AdapterMemory, platform: str,
                     queue: Callable[[Iterable[OldMessage]], Awaitable[None]], *,
                     every: float = RENEW_SECONDS) -> None:
    """After a start: what was queued before the bot stopped may never have reached the platform, so each table in
    play is shown again (`show_tables`, the service's `show_tables_in_play`), and then the old table messages the
    store kept as still waiting to lose their buttons are queued again (`queue`: after the tables' own messages, as
    ever).

    With several processes on one database (PostgreSQL), each queues only the messages it claims
    (`AdapterMemory.claim_retiring`): none another running process holds, so no message gets a second edit. Then,
    forever, every `every` seconds, it renews its claims and takes over those of a stopped process, whose claims
    went stale (`LEASE_SECONDS`). On a database of one process it returns once they are queued."""
    await show_tables
    while True:
        try:
            if memory.is_shared:
                await memory.renew_retiring()
            await queue(await memory.claim_retiring(platform, LEASE_SECONDS))
        except Exception:  # the database refuses for now: the rows wait for the next look (or the next start)
            log.exception("could not claim the old table messages waiting to lose their buttons")
        if not memory.is_shared:
            return
        await asyncio.sleep(every)


async def first_look(kept: asyncio.Task[None], looked: asyncio.Event) -> None:
    """Wait until a start's `queue_kept` task (`kept`) has queued the old table messages for the first time (`looked`,
    set by the adapter's `queue`), or has ended (raising what it raised): on PostgreSQL it never ends."""
    shown = asyncio.ensure_future(looked.wait())
    await asyncio.wait((shown, kept), return_when=asyncio.FIRST_COMPLETED)
    shown.cancel()
    if kept.done():
        await kept
