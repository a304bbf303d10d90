"""Several processes on one database (PostgreSQL): the timers a stopped process armed and never fired, armed here
once they are overdue, so every timer fires although any process may die."""

from __future__ import annotations

import asyncio
import logging

from bot.clock import Clock
from bot.scheduler import Scheduler
from bot.store import Store
from bot.store.pauses import paused_tables

log = logging.getLogger(__name__)

TAKEOVER_SECONDS = 2.0
"""With several processes on one database: a timer this overdue is fired by whichever process finds it first (the
process that armed it has stopped), see `watch_timers`."""
WATCH_SECONDS = 0.5
"""How often a process looks for such timers."""


async def watch_timers(store: Store, clock: Clock, scheduler: Scheduler, every: float) -> None:
    """With several processes on one database (PostgreSQL), forever: arm in `scheduler` the timers that are overdue
    by `TAKEOVER_SECONDS` (the process that armed them stopped before firing them), looking every `every` seconds.
    Whichever process claims one first fires it (`Tx.claim_timer`): exactly once. On a database of one process
    (SQLite) it returns at once: every timer is armed here already."""
    if not store.dialect.is_shared:
        return
    while True:
        try:
            overdue, paused = await store.read(
                lambda tx: (tx.timers(due_by=clock.now() - TAKEOVER_SECONDS), paused_tables(tx)))
            for key, table_id, due_at, payload in overdue:
                if table_id not in paused and scheduler.due_at(key) != due_at:
                    scheduler.arm(key, table_id, due_at, payload)
        except Exception:  # the database is unreachable for now: look again next time
            log.exception("could not look for overdue timers")
        await asyncio.sleep(every)
