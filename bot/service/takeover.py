"""Several processes on one database (PostgreSQL): the timers a stopped process armed and never fired, armed here
once they are overdue, so every timer fires although any process may die; and this process's heartbeat, from which
such a takeover counts the downtime."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.scheduler import APPOINTMENT, Scheduler
from bot.service.startup import stamp_downtime
from bot.store import Store, Tx
from bot.store.downtime import Served, beat, last_served
from bot.store.pauses import paused_tables

log = logging.getLogger(__name__)

TAKEOVER_SECONDS = 2.0
"""With several processes on one database: a timer this overdue is fired by whichever process finds it first (the
process that armed it has stopped), see `watch_timers`."""
WATCH_SECONDS = 0.5
"""How often a process looks for such timers."""
BEAT_SECONDS = 5.0
"""How often a process says it is alive (`bot.store.downtime.beat`): a table it served is counted down from its last
heartbeat once it stops, so at most this much of a downtime is counted that was none."""
FORGET_PROCESS_SECONDS = 7 * 24 * 3600.0
"""A process not heard from for this long, with no timer of its left, loses its heartbeat's row (at a start)."""


async def watch_timers(store: Store, clock: Clock, scheduler: Scheduler, every: float) -> None:
    """With several processes on one database (PostgreSQL), forever: arm in `scheduler` the timers that are overdue
    by `TAKEOVER_SECONDS` (the process that armed them stopped before firing them), looking every `every` seconds.
    Whichever process claims one first fires it (`Tx.claim_timer`): exactly once. On a database of one process
    (SQLite) it returns at once: every timer is armed here already.

    Meanwhile it writes this process's heartbeat every `BEAT_SECONDS`. An appointment taken over (the tournament
    clock's) that fell due after its table was last served (`bot.store.downtime.last_served`: its last write, or the
    last heartbeat of the process that armed it, whichever is later) carries when that was (`DOWN_SINCE`): nobody
    served the table since, so it was down from then until now, counted as by a start-up after downtime
    (`bot.service.startup.start_tables`), and the tournament gives back what the downtime took (a rebuy period cut
    short, a missed break's add-ons)."""
    if not store.dialect.is_shared:
        return
    beaten_at: float | None = None
    while True:
        try:
            now = clock.now()
            if beaten_at is None or now - beaten_at >= BEAT_SECONDS:
                forget_before = now - FORGET_PROCESS_SECONDS if beaten_at is None else None
                await store.transact(partial(beat, process_id=store.process_id, forget_before=forget_before),
                                     now=now, background=True)
                beaten_at = now
            overdue, paused, served = await store.read(partial(_overdue, due_by=now - TAKEOVER_SECONDS))
            for key, table_id, due_at, payload in overdue:
                if table_id not in paused and scheduler.due_at(key) != due_at:
                    scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, served(key), now))
        except Exception:  # the database is unreachable for now: look again next time
            log.exception("could not look for overdue timers")
        await asyncio.sleep(every)


def _overdue(tx: Tx, due_by: float) -> tuple[list[tuple[str, str, float, dict[str, Any]]], dict[str, float],
                                             Served]:
    """The timers due by `due_by`, the paused tables, and by key when the tables of the overdue appointments were last
    served (`last_served`)."""
    overdue = tx.timers(due_by=due_by)
    return overdue, paused_tables(tx), last_served(tx, [key for key, _, _, payload in overdue
                                                        if payload.get(APPOINTMENT)])
