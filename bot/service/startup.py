"""Start-up and shutdown: the stored tables made live (or resumed) and their timers armed at a start, a fresh
snapshot of each at a clean stop, and the tables in play shown again to an adapter that connects after a start."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.games import Controller
from bot.games.context import Action
from bot.output import Place, Reply
from bot.replay import state_json
from bot.scheduler import APPOINTMENT, BY_PAUSE, DOWN_SINCE, Scheduler
from bot.service.action_log import LiveTable, revived
from bot.service.tables import Body, Publish, Run, Tables
from bot.store import Store, Tx
from bot.store.downtime import note_stop, start_beating
from bot.store.pauses import paused_tables
from bot.store.snapshots import logged_tables, platform_tables, snapshots

log = logging.getLogger(__name__)

START_BATCH = 256
"""How many tables start-up resumes side by side (their transactions group-committed)."""

Current = Callable[[Tx, str, Place | None], LiveTable | None]
"""`Service._current`: the table an action applies to, read from the store when it is not in memory."""


async def start_tables(store: Store, scheduler: Scheduler, tables: Tables, controllers: dict[str, Controller],
                       default_game: str, run: Run, publish: Publish, started_at: float) -> None:
    """Re-arm every stored timer, keep the stored tables in memory and void what cannot resume (a hand whose
    snapshot no longer reads back). An appointment that fell due during its table's downtime, from when the table was
    last served (`bot.store.downtime.last_served`, as a takeover counts it) to `started_at`, carries when it began
    (`DOWN_SINCE`); one that another process still alive armed had none (`bot.store.downtime.served_by_the_living`,
    read in the step that starts this process's heartbeat: `start_beating`).

    Every snapshot is read (in one read) and made live (`Controller.revive`); a table that reads back and has
    nothing logged after its snapshot is kept in memory as it is, so its first action or timer (after downtime,
    thousands of them come due at once) starts from there; one with logged actions replays its log on that
    snapshot at its first action (`Tables.unreplayed`). Only the tables that do not read back are resumed now. What
    resuming says (a voided hand) goes to the table's chat like a timer's reply (`publish`).

    The appointments that fell due during the downtime fire before it returns: what they give back (a rebuy period
    cut short, the add-ons of a missed break: `bot.games.tournament_play.on_clock`) is in the table's state before
    any command (a `/rebuy`, a `/tournament skip`) reaches it, not only once the timer loop gets to them.
    """
    # before resuming a table stores anything, in the step that writes this process's first heartbeat
    served = await store.transact(partial(start_beating, process_id=store.process_id), now=started_at)
    stored_pauses = await store.read(paused_tables)
    tables.paused.clear()
    tables.paused.update(stored_pauses)
    # the names, settings and accounts the tables' first actions read (thousands after downtime), in three reads
    await store.read(lambda tx: tx.learn_table_chats())

    async def resume(table_id: str) -> None:
        try:
            reply = await run(None, None, table_id, lambda act, controller: controller.resume(act), {"k": "resume"})
        except Exception:  # one unreadable table must not keep every other chat from playing
            log.exception("table %s could not be resumed; it stays as stored", table_id)
            return
        await publish(table_id, reply)

    kept: dict[str, LiveTable] = {}
    unreplayed = {} if store.dialect.is_shared else tables.unreplayed

    def read(tx: Tx) -> list[str]:
        unresumable = []
        for snapshot in snapshots(tx):
            live = revived(snapshot, controllers, default_game)
            if live is None:
                unresumable.append(snapshot.table_id)
            else:
                (unreplayed if snapshot.logged else kept)[snapshot.table_id] = live
        return unresumable

    table_ids = await store.query(read)
    for table_id, live in kept.items():
        tables.live.setdefault(table_id, live)
        tables.chats.setdefault(table_id, live.chat_id)
    for first in range(0, len(table_ids), START_BATCH):  # side by side, so their transactions commit together
        await asyncio.gather(*(resume(table_id) for table_id in table_ids[first:first + START_BATCH]))
    stored = await store.read(lambda tx: tx.timers())
    missed = [(key, table_id, due_at, stamped) for key, table_id, due_at, payload in stored
              if table_id not in tables.paused
              and DOWN_SINCE in (stamped := stamp_downtime(payload, due_at, served(key), started_at))]
    if missed:  # fired before any command can come, so the time they give back is there from the start
        for timer in missed:
            scheduler.arm(*timer)
        await scheduler.fire_due()
        stored = await store.read(lambda tx: tx.timers())  # as the firing left them (the next appointments armed)
    for key, table_id, due_at, payload in stored:
        if table_id not in tables.paused:
            scheduler.arm(key, table_id, due_at, stamp_downtime(payload, due_at, served(key), started_at))


def stamp_downtime(payload: dict[str, Any], due_at: float, down_since: float | None, now: float, *,
                   paused: bool = False) -> dict[str, Any]:
    """A timer's payload, with `DOWN_SINCE` when it is an appointment that fell due while its table was down: after
    `down_since` (when the downtime began) and by `now` (when it ended); with `BY_PAUSE` too when the table was
    `paused` then (the bot ran but could not reach the chat)."""
    if down_since is None or not payload.get(APPOINTMENT) or not down_since < due_at <= now:
        return payload
    return {**payload, DOWN_SINCE: down_since, **({BY_PAUSE: True} if paused else {})}


async def stop_tables(store: Store, clock: Clock, tables: Tables, current: Current) -> None:
    """Before the store closes at a clean shutdown: a fresh snapshot of every table with actions logged after
    its snapshot, so the next start keeps every table in memory as it stands and the timers that come due during
    the downtime replay no log (after a crash the log is replayed instead), and on SQLite every table's timers
    written into their rows (`Tx.compact_every_timer`), so the next start reads no log for them. Side by side, so
    the snapshots commit together; then the instant it stopped (`note_stop`: the downtime of its tables begins
    there). When the store refuses (a full disk), it stops at the first refused batch and says so once: the tables
    keep their logs."""
    logged = await store.read(logged_tables)
    for first in range(0, len(logged), START_BATCH):
        batch = logged[first:first + START_BATCH]
        outcomes = await asyncio.gather(
            *(snapshot_table(store, clock, tables, current, table_id) for table_id in batch), return_exceptions=True)
        failed = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        if failed:
            left = len(failed) + len(logged) - first - len(batch)  # this batch's failures and the batches after it
            log.warning("no snapshot at shutdown for %d of %d tables (%s); the next start replays their logs",
                        left, len(logged), failed[0])
            return
    await store.transact(partial(_stop, process_id=store.process_id), now=clock.now())


def _stop(tx: Tx, process_id: str) -> None:
    """The clean stop's last write: every table's timers in their rows, and the instant this process stopped."""
    tx.compact_every_timer()
    note_stop(tx, process_id)


async def snapshot_table(store: Store, clock: Clock, tables: Tables, current: Current, table_id: str) -> None:
    """A fresh snapshot of the table, under its lock, when actions are logged after its last one."""
    async with tables.locks[table_id]:

        def write(tx: Tx) -> LiveTable | None:
            live = current(tx, table_id, None)  # read (snapshot + log) when it is not in memory
            if live is not None and live.seq > live.snapshot_seq:
                config_json = state_json(live.config)
                tx.save_snapshot(table_id, live.chat_id, config_json, state_json(live.state), live.seq,
                                 live.number)  # its timers' rows: `stop_tables` writes every table's once after
                live.config_json, live.snapshot_seq = config_json, live.seq
            return live

        try:
            live = await store.transact(write, now=clock.now())
        except BaseException:  # the live table may be half changed: the store (its log) holds the truth
            tables.live.pop(table_id, None)
            raise
        if live is not None:
            tables.live[table_id] = live


async def show_tables_in_play(store: Store, tables: Tables, run: Run, publish: Publish, prefix: str, *,
                              per_second: float, exact: bool = False, seated: bool = False) -> None:
    """Hand the table message of every table of one platform (ids starting with `prefix`; with `exact`, only the
    table `prefix` names) with a hand or round in play, as it stands now, to that platform's listener (`publish`), as
    a timer's reply is; with `seated`, also of a table between hands with players seated, as `/table` draws it (its
    Deal button, for the terminal, whose screen shows nothing of the table before a start).

    An adapter asks for it once it has subscribed after a start: what it had queued before it stopped (a crash,
    or a stop that ran out of time) may never have reached the platform, and its table message would show an
    older turn, with buttons that no longer act, until someone acted. Paused tables are left out (the bot cannot
    reach them). The tables are looked at side by side (`START_BATCH`, their transactions group-committed, after
    the players' jobs), then shown at most `per_second` a second, each read the moment it is handed over (so it
    is numbered in the service's order): the platform's budget stays with the players' own actions."""
    in_play: set[str] = set()

    def drawn(act: Action, controller: Controller) -> bool:
        """Whether the table is shown: a hand or round in play, or (`seated`) what `/table` would draw."""
        return controller.current_key(act) is not None or (seated and controller.decision(act) is not None)

    def note(act: Action, controller: Controller) -> bool:
        if drawn(act, controller):
            in_play.add(act.place.table_id)
        return False  # nothing applied: nothing logged

    def show(act: Action, controller: Controller) -> bool:
        if drawn(act, controller):
            act.show_table(controller.table_message(act))
        return False

    async def look(table_id: str, body: Body) -> Reply | None:
        if table_id in tables.paused:
            return None
        try:
            return await run(None, None, table_id, body, None)
        except Exception:  # one unreadable table must not keep the others from being shown
            log.exception("table %s could not be read to be shown again", table_id)
            return None

    try:
        table_ids = await store.read(lambda tx: platform_tables(tx, prefix, exact=exact))
    except store.dialect.errors:
        log.exception("could not read the tables to show again")
        return
    for first in range(0, len(table_ids), START_BATCH):
        await asyncio.gather(*(look(table_id, note) for table_id in table_ids[first:first + START_BATCH]))
    shown = 0
    for table_id in sorted(in_play):
        reply = await look(table_id, show)
        if reply is not None and reply.table is not None:
            await publish(table_id, reply)
            shown += 1
            await asyncio.sleep(1 / per_second)
    # a platform's count is news for its log; one table's (a chat taking the bot back, the terminal) is not
    log.log(logging.DEBUG if exact else logging.INFO, "%d tables of %s in play shown again", shown, prefix)
