"""A timer's firing: claimed under its table's lock and applied like an action (held while the table is paused, left
to the process that armed it again), tried again soon when the database cannot save it."""

from __future__ import annotations

from typing import Any

from bot.clock import Clock
from bot.games import Controller
from bot.games.context import Action
from bot.scheduler import Scheduler
from bot.service.tables import Publish, Run
from bot.store import CannotSave

SAVE_RETRY_SECONDS = 30.0
"""How soon a timer whose action the database could not save fires again."""
CLAIM_SLACK_SECONDS = 1.0
"""A stored timer fires when it is still due when this process armed it, or (the same payload) its due time is at
most this far ahead of the firing process's wall clock (the clocks of several hosts differ a little); one due later,
or for another payload (the next turn's), was armed again by another process, which fires it then."""


async def fire_timer(scheduler: Scheduler, clock: Clock, paused: dict[str, float], shared: bool, run: Run,
                     publish: Publish, key: str, table_id: str, payload: dict[str, Any]) -> None:
    """Fire the timer `key` of `table_id` (the scheduler's call, `Service._on_timer`): the controller's `on_timer`
    applied through `run` (the service's action path, logged for a replay) once the timer is claimed in the store,
    and its reply handed to the table's adapter (`publish`). `paused` and `shared` are the service's: its paused
    tables, and whether other processes share the database."""
    if not shared and table_id in paused:
        return  # the store keeps it: `resume` arms it again

    def fire(act: Action, controller: Controller) -> bool:
        if table_id in act.tx.locked_paused:  # paused, perhaps by another process: held, its row kept for the
            return False  # process that resumes the table, which arms it again (`bot.service.pauses`)
        claimed = act.tx.claim_timer(key, table_id)  # the table is locked: no other process fires or moves it
        if claimed is None:
            return False  # cleared since it was armed (fired by another process, or disarmed by an action)
        due_at, stored = claimed
        if due_at != scheduler.firing_due_at(key) and (stored != payload
                                                       or due_at > act.now + CLAIM_SLACK_SECONDS):
            return False  # armed again since (here, or by another process), for later or for a later step: that one
            # fires then, by the process that armed it (or by `watch_timers` elsewhere if that one stopped)
        act.disarm(key)  # fired: its row goes (unless `on_timer` arms it anew), so nothing fires it again, nor a
        # copy `watch_timers` armed here meanwhile
        return controller.on_timer(act, key, payload)  # False: stale, nothing done to log

    try:
        reply = await run(None, None, table_id, fire, {"k": "t", "key": key, "p": payload})
    except CannotSave:  # the store still holds the timer: try again soon, unless something re-armed it
        if scheduler.due_at(key) is None:
            scheduler.arm(key, table_id, clock.now() + SAVE_RETRY_SECONDS, payload)
        return
    await publish(table_id, reply)
