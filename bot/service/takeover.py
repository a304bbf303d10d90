"""Several processes on one database (PostgreSQL): the timers a stopped process armed and never fired, armed here
once they are overdue, so every timer fires although any process may die."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.scheduler import APPOINTMENT, Scheduler
from bot.service.startup import stamp_downtime
from bot.store import Store, Tx
from bot.store.downtime import last_written
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
    (SQLite) it returns at once: every timer is armed here already.

    An appointment taken over (the tournament clock's) that fell due after its table's last write carries when that
    was (`DOWN_SINCE`): the process that stopped served the table until then, and nobody since, so the table was
    down from then until now, as for a start-up after downtime (`bot.service.startup.start_tables`), and the
    tournament gives back what the downtime took (a rebuy period cut short, a missed break's add-ons)."""
    if not store.dialect.is_shared:
        return
    while True:
        try:
            now = clock.now()
            overdue, paused, written = await store.read(partial(_overdue, due_by=now - TAKEOVER_SECONDS))
            for key, table_id, due_at, payload in overdue:
                if table_id not in paused and scheduler.due_at(key) != due_at:
                    scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, written.get(table_id), now))
        except Exception:  # the database is unreachable for now: look again next time
            log.exception("could not look for overdue timers")
        await asyncio.sleep(every)


def _overdue(tx: Tx, due_by: float) -> tuple[list[tuple[str, str, float, dict[str, Any]]], dict[str, float],
                                             dict[str, float]]:
    """The timers due by `due_by`, the paused tables, and when the tables of the overdue appointments last stored
    something (`last_written`)."""
    overdue = tx.timers(due_by=due_by)
    tables = {table_id for _, table_id, _, payload in overdue if payload.get(APPOINTMENT)}
    return overdue, paused_tables(tx), last_written(tx, tables)
