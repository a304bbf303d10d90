"""Pruning the history (`POKERBOT_HISTORY_DAYS`): old hands summarised into the statistics, their rows deleted.

A hand or round is pruned when every row of it is older than the cutoff and it ended (a `HandEnded` or `RoundEnded`
row): a hand still in play keeps its rows, and so do tournaments' own rows (registrations, results), which feed
`/stats` and `/history tournament`. What a pruned Hold'em hand adds to the statistics (its `hand_figures` rows)
moves into `pruned_stats` in the same transaction as the delete, so `/stats` and `/top` show the same
totals afterwards. The ledger is never pruned.

The work is done in short transactions of at most `BATCH_ROWS` history rows and about `BATCH_SECONDS` each, so the
writer is never held for more than a few milliseconds and every table's commits get in between. The freed pages are
then given back to the file system by `PRAGMA incremental_vacuum`, `VACUUM_PAGES` at a time. A database created
before incremental vacuum (`auto_vacuum=NONE`) is converted once by a full `VACUUM` when pruning starts: it rewrites
the file (which takes a while on a big one, during which commits wait, and needs as much free disk as the file), and
only then can pages be given back. Without `POKERBOT_HISTORY_DAYS` nothing is pruned, converted or vacuumed.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections.abc import Callable

from bot.clock import Clock
from bot.store import TEMP_STORE, Store, Tx
from bot.store.figures import take_hand
from bot.store.played import add_pruned_counts

log = logging.getLogger(__name__)

BATCH_ROWS = 200
"""History rows looked at, and at most deleted, per transaction: about 0.01 ms a row on SQLite (summary, delete and
index upkeep), so about 2 ms a batch, well inside the 10 ms the writer may be held."""
BATCH_SECONDS = 0.002
"""A batch starts no new hand after this long: on PostgreSQL each statement is a round trip, and a hand costs
about 1.5 ms (its rows read, summarised and deleted), so 200 rows would hold the writer for 10 ms or more. With the
hand it is on and the commit, a batch stays well under 10 ms on either database (the median about 3 ms)."""
VACUUM_PAGES = 200
"""Free pages given back per transaction."""
DAY = 86_400.0
EVERY = 3_600.0
"""Seconds between two prunings while the bot runs."""
_ENDED = ("HandEnded", "RoundEnded")


async def keep_history(store: Store, clock: Clock, days: int | None, every: float = EVERY) -> None:
    """Prune hands older than `days` now and then every `every` seconds, forever; with `days` None (the default
    setting: keep everything), return at once."""
    if days is None:
        return
    await convert_to_incremental_vacuum(store)
    while True:
        try:
            deleted = await prune_history(store, before=clock.now() - days * DAY)
            if deleted:
                log.info("pruned %d history rows older than %d days", deleted, days)
        except Exception:  # a failed pruning is retried next time; the bot plays on
            log.exception("pruning the history failed")
        await asyncio.sleep(every)


async def convert_to_incremental_vacuum(store: Store) -> bool:
    """Switch a database created with `auto_vacuum=NONE` to incremental vacuum (a full VACUUM, once); whether it
    was needed."""

    if store.dialect.is_shared:
        return False  # PostgreSQL: its autovacuum gives the space back

    def convert(connection: sqlite3.Connection) -> bool:
        if connection.execute("PRAGMA auto_vacuum").fetchone()[0] == 2:  # INCREMENTAL
            return False
        log.info("rewriting the database once for incremental vacuum (VACUUM)")
        connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        connection.execute("PRAGMA temp_store = FILE")  # its copy of the whole database goes to a file, not memory
        try:
            connection.execute("VACUUM")
        finally:
            connection.execute(f"PRAGMA temp_store = {TEMP_STORE}")
        return True

    return await store.outside_transaction(convert)


async def prune_history(store: Store, before: float) -> int:
    """Prune every ended hand whose rows are all older than `before` (Unix seconds), one short transaction at a
    time, then give the freed pages back; the number of history rows deleted."""
    deleted, after_id, done = 0, 0, False
    while not done:
        rows, after_id, done = await store.transact(
            functools.partial(prune_batch, before=before, after_id=after_id), now=before
        )
        deleted += rows
    if deleted and not store.dialect.is_shared:  # PostgreSQL's autovacuum gives the space back
        free = await store.transact(vacuum_step, now=before)
        while free:  # until none is left, or none could be given back (a file not yet converted)
            free, before_step = await store.transact(vacuum_step, now=before), free
            if free >= before_step:
                break
    return deleted


def prune_batch(tx: Tx, *, before: float, after_id: int, budget: int = BATCH_ROWS, seconds: float = BATCH_SECONDS,
                timer: Callable[[], float] = time.perf_counter) -> tuple[int, int, bool]:
    """One transaction's share of the pruning: the history rows after id `after_id`, oldest first, up to `budget`
    of them, and the hands they belong to, starting no new hand once `seconds` have passed (by `timer`). Returns the
    rows deleted, the id to go on after, and whether no old row is left (the first row not older than `before` ends
    the pruning: rows are written in time order)."""
    started = timer()
    rows = tx.db.execute(
        "SELECT id, table_id, hand_id, at FROM history WHERE id > ? ORDER BY id LIMIT ?", (after_id, budget)
    ).fetchall()
    deleted, seen, first = 0, set(), after_id
    for row_id, table_id, hand_id, at in rows:
        if at >= before:
            return deleted, after_id, True
        hand = (str(table_id), str(hand_id))
        if hand not in seen:
            if after_id != first and timer() - started > seconds:
                return deleted, after_id, False  # time is up: this hand starts the next batch
            seen.add(hand)
            events = tx.db.execute(  # by `history_hand` (a condition on the kind would pick the table-wide index); in
                # order, which PostgreSQL does not promise without ORDER BY: the statistics read the betting order
                "SELECT at, kind, event FROM history WHERE table_id = ? AND hand_id = ? ORDER BY id", hand
            ).fetchall()
            if max(row[0] for row in events) < before and any(row[1] in _ENDED for row in events):
                if deleted and deleted + len(events) > budget:
                    return deleted, after_id, False  # this hand starts the next batch
                _summarise(tx, *hand)
                tx.db.execute("DELETE FROM history WHERE table_id = ? AND hand_id = ?", hand)
                deleted += len(events)
        after_id = row_id
    return deleted, after_id, len(rows) < budget


def _summarise(tx: Tx, table_id: str, hand_id: str) -> None:
    """Move what a Hold'em hand counts in the statistics from `hand_figures` to `pruned_stats`."""
    chat_id, counts = take_hand(tx.db, table_id, hand_id)
    if counts:
        add_pruned_counts(tx, chat_id, counts)


def vacuum_step(tx: Tx) -> int:
    """Give up to `VACUUM_PAGES` free pages back to the file system (with incremental vacuum on); the free pages
    left."""
    free: int = tx.db.execute("PRAGMA freelist_count").fetchone()[0]
    for _ in range(min(free, VACUUM_PAGES)):  # Python's sqlite3 steps a pragma once, and each step frees one page
        tx.db.execute("PRAGMA incremental_vacuum(1)")
    left: int = tx.db.execute("PRAGMA freelist_count").fetchone()[0]
    return left
