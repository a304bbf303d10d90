"""Pausing tables whose channel the bot cannot reach: their timers held (the pause stored, so it survives a restart)
until play resumes, each timer then given back the time it had left."""

from __future__ import annotations

from bot.scheduler import APPOINTMENT, Scheduler
from bot.service.startup import stamp_downtime
from bot.store import Store
from bot.store.pauses import pause_tables, resume_tables

RESUME_GRACE_SECONDS = 30.0
"""The least time a timer of a table gets when play resumes after a pause (nobody times out at once)."""


async def pause_play(store: Store, scheduler: Scheduler, paused: dict[str, float], table_ids: list[str],
                     now: float) -> None:
    """Hold tables as of `now` (`paused`: the service's paused tables and since when): no timer fires (no time-out,
    no new hand, no clock announcement), a hand in progress waits as it is. Pausing a paused table changes nothing."""
    fresh = [table_id for table_id in table_ids if table_id not in paused]
    if not fresh:
        return
    await store.transact(lambda tx: pause_tables(tx, fresh), now=now)
    for table_id in fresh:
        paused[table_id] = now
    for timer in scheduler.armed:  # the store keeps them; `resume_play` arms them again
        if timer.table_id in paused:
            scheduler.disarm(timer.key)


async def resume_play(store: Store, scheduler: Scheduler, paused: dict[str, float], table_ids: list[str],
                      now: float) -> None:
    """Lift a pause as of `now`: each timer of the table gets back the time it had left when the table paused (at
    least `RESUME_GRACE_SECONDS`), so play goes on where it stopped. Resuming a table not paused changes nothing.

    The tournament clock's appointments keep their instants: its levels and breaks run by the wall clock, a pause or
    not. One that fell due during the pause fires at once, carrying when the pause began (`DOWN_SINCE`, with
    `BY_PAUSE`: the players are told the table was paused, not that the bot was offline): RULES.md is
    silent, and as a card room gives back the time a table could not play, the players, who could neither see the
    table nor act, get back what the pause took as they would after the bot's downtime (a rebuy period cut short,
    a missed break's add-ons; `bot.games.tournament_play.on_clock`)."""
    held = [table_id for table_id in table_ids if table_id in paused]
    if not held:
        return
    moved = await store.transact(
        lambda tx: resume_tables(tx, held, RESUME_GRACE_SECONDS, lambda payload: bool(payload.get(APPOINTMENT))),
        now=now)
    since = {table_id: paused.pop(table_id) for table_id in held}
    for key, table_id, due_at, payload in moved:
        scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, since[table_id], now, paused=True))
