"""This process's heartbeat, from which a table's downtime is counted once it comes back (`bot.store.downtime`); and
with several processes on one database (PostgreSQL), the timers a stopped process armed and never fired, armed here
once they are overdue, so every timer fires although any process may die."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.scheduler import APPOINTMENT, Scheduler
from bot.service.pauses import learn_pauses
from bot.service.startup import stamp_downtime
from bot.store import Store, Tx
from bot.store.downtime import BEAT_SECONDS, Served, beat, served_by_the_living
from bot.store.pauses import paused_tables

log = logging.getLogger(__name__)

TAKEOVER_SECONDS = 2.0
"""With several processes on one database: a timer this overdue is fired by whichever process finds it first (the
process that armed it has stopped), see `watch_timers`."""
WATCH_SECONDS = 0.5
"""How often a process looks for such timers, and for the tables other processes paused or resumed: how long its
adapters may take a table for paused, or not, after another process changed it (`Service.is_paused` says what that
shows the players)."""


async def watch_timers(store: Store, clock: Clock, scheduler: Scheduler, paused: dict[str, float],
                       every: float, learned: Iterable[Callable[[dict[str, float]], None]]) -> None:
    """Forever: write this process's heartbeat every `BEAT_SECONDS`, and with several processes on one database
    (PostgreSQL) arm in `scheduler` the timers that are overdue by `TAKEOVER_SECONDS` (the process that armed them
    stopped before firing them), looking every `every` seconds, and learn the tables other processes paused or
    resumed (`paused`, the service's: `bot.service.pauses.learn_pauses`; those newly paused go to each of `learned`,
    which must only take note). Whichever process claims one first fires it
    (`Tx.claim_timer`): exactly once. On a database of one process (SQLite) every timer is armed here already.
    Its heartbeats follow the first, which start-up writes once it has read the last ones
    (`bot.service.startup.start_tables`, `bot.store.downtime.start_beating`): before that they are refused.

    An appointment taken over (the tournament clock's) that fell due after its table was last served
    (`bot.store.downtime.last_served`: its last write, or the last heartbeat of the process that armed it, whichever
    is later) carries when that was (`DOWN_SINCE`): nobody served the table since, so it was down from then until
    now, counted as by a start-up after downtime (`bot.service.startup.start_tables`), and the tournament gives back
    what the downtime took (a rebuy period cut short, a missed break's add-ons). One armed by a process heard from
    within `ALIVE_SECONDS` (stalled, its heartbeat late, but alive) carries none: its table was served until now
    (`bot.store.downtime.served_by_the_living`, as start-up counts it)."""
    beaten_at: float | None = None
    while True:
        try:
            now = clock.now()
            if beaten_at is None or now - beaten_at >= BEAT_SECONDS:
                await store.transact(partial(beat, process_id=store.process_id), now=now, background=True)
                beaten_at = now
            if store.dialect.is_shared:
                before = dict(paused)
                overdue, stored, served = await store.read(partial(_overdue, due_by=now - TAKEOVER_SECONDS), now=now)
                if fresh := learn_pauses(paused, before, stored):
                    for listener in learned:
                        listener(fresh)
                for key, table_id, due_at, payload in overdue:
                    if table_id not in stored and scheduler.due_at(key) != due_at:
                        scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, served(key), now))
        except Exception:  # the database is unreachable for now: look again next time
            log.exception("could not write the heartbeat or look for overdue timers")
        await asyncio.sleep(every)


def _overdue(tx: Tx, due_by: float) -> tuple[list[tuple[str, str, float, dict[str, Any]]], dict[str, float],
                                             Served]:
    """The timers due by `due_by`, the paused tables, and by key when the tables of the overdue appointments were last
    served (`served_by_the_living`: until `tx.now` for those armed by a process alive)."""
    overdue = tx.timers(due_by=due_by)
    return overdue, paused_tables(tx), served_by_the_living(tx, [key for key, _, _, payload in overdue
                                                                 if payload.get(APPOINTMENT)])
