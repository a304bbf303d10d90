"""Pruning the history (`POKERBOT_HISTORY_DAYS`): old hands summarised into the statistics, their events deleted.

A hand or round is pruned when every action that recorded its events is older than the cutoff and it ended (a
`HandEnded` or `RoundEnded` event): a hand still in play keeps its events, and so do tournaments (registrations,
results), which feed `/stats` and `/history tournament`. Its events leave the log rows that hold them (a row left with
none, and never to be replayed, is deleted) and its span goes. What a pruned Hold'em hand adds to the statistics (its
`hand_figures` rows) moves into `pruned_stats`, under the UTC day it ended on, in the same transaction, so `/stats`
and `/top` show the same totals afterwards, over all time and over the last days. The ledger is never pruned.

The work is done in short transactions of at most `BATCH_EVENTS` events and about `BATCH_SECONDS` each, so the
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
from typing import Any

from bot.clock import Clock
from bot.store import TEMP_STORE, Store, Tx
from bot.store.figures import take_hand
from bot.store.played import add_pruned_counts
from bot.store.tx import dumps

log = logging.getLogger(__name__)

BATCH_EVENTS = 200
"""Spans looked at, and events at most deleted, per transaction: about 2 ms on SQLite (the hands' log rows read,
summarised and rewritten), well inside the 10 ms the writer may be held."""
BATCH_SECONDS = 0.002
"""A batch starts no new hand after this long: on PostgreSQL each statement is a round trip, and a hand costs
about 1.5 ms (its rows read, summarised and changed), so 200 rows would hold the writer for 10 ms or more. With the
hand it is on and the commit, a batch stays well under 10 ms on either database."""
VACUUM_PAGES = 200
"""Free pages given back per transaction."""
DAY = 86_400.0
EVERY = 3_600.0
"""Seconds between two prunings while the bot runs."""
_PRUNED = ("h", "r")
"""The spans pruned: hands and rounds (a tournament's own events stay)."""
_START = (float("-inf"), "", "")
Cursor = tuple[float, str, str]
"""Where a pruning goes on from: the last span looked at (its end's time, table and id)."""
LogRows = list[tuple[int, float, list[list[Any]], list[list[Any]]]]
"""A hand's log rows as `Tx.hand_log` reads them: number, time, events by hand, moves."""


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
                log.info("pruned %d history events older than %d days", deleted, days)
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
    """Prune every ended hand whose actions are all older than `before` (Unix seconds), one short transaction at a
    time, then give the freed pages back; the number of events deleted."""
    deleted, after, done = 0, _START, False
    while not done:
        events, after, done = await store.transact(
            functools.partial(prune_batch, before=before, after=after), now=before
        )
        deleted += events
    if deleted and not store.dialect.is_shared:  # PostgreSQL's autovacuum gives the space back
        free = await store.transact(vacuum_step, now=before)
        while free:  # until none is left, or none could be given back (a file not yet converted)
            free, before_step = await store.transact(vacuum_step, now=before), free
            if free >= before_step:
                break
    return deleted


def prune_batch(tx: Tx, *, before: float, after: Cursor = _START, budget: int = BATCH_EVENTS,
                seconds: float = BATCH_SECONDS, timer: Callable[[], float] = time.perf_counter,
                ) -> tuple[int, Cursor, bool]:
    """One transaction's share of the pruning: the spans that ended after `after`, in the order they ended, up to
    `budget` of them (and of the events deleted), starting no new hand once `seconds` have passed (by `timer`).
    Returns the events deleted, where to go on, and whether no old span is left (the first that ended at `before` or
    later ends the pruning: it and every span after it have an action, their end, that is not older). With several
    processes (PostgreSQL) the spans are claimed: those another process's batch holds are left to it."""
    started = timer()
    # claimed (PostgreSQL): every process prunes, and a span another one holds is its to prune, not read again here,
    # where its figures, not yet gone from `hand_figures`, would be added to the statistics a second time
    spans = tx.db.execute(
        "SELECT ended_at, table_id, hand_id, ended_seq FROM hand_spans WHERE (ended_at, table_id, hand_id) > (?, ?, ?) "
        f"ORDER BY ended_at, table_id, hand_id LIMIT ?{tx.dialect.claim_row}", (*after, budget)).fetchall()
    deleted, looked = 0, False
    for ended_at, table_id, hand_id, ended in spans:
        if ended_at >= before:
            return deleted, after, True
        if ended is not None and str(hand_id).startswith(_PRUNED):
            if looked and timer() - started > seconds:  # pruned or not: each hand's rows took time to read
                return deleted, after, False  # time is up: this hand starts the next batch
            looked = True
            rows = tx.hand_log(str(table_id), str(hand_id))
            mine = [row for row in rows if any(key == hand_id for key, _ in row[2])]
            if not mine or max(row[1] for row in mine) < before:
                events = sum(len(events) for row in mine for key, events in row[2] if key == hand_id)
                if deleted and deleted + events > budget:
                    return deleted, after, False  # this hand starts the next batch
                _summarise(tx, str(table_id), str(hand_id), mine)
                _take_from_log(tx, str(table_id), str(hand_id), mine)
                deleted += events
        after = (float(ended_at), str(table_id), str(hand_id))
    return deleted, after, len(spans) < budget


def _take_from_log(tx: Tx, table_id: str, hand_id: str, rows: LogRows) -> None:
    """Delete the hand's events from its log rows (a row left with none, holding no move of the ledger's, that no
    replay reads goes) and its span (and its table's row's word of it, see `Tx.in_row`), in a few statements whatever
    the rows (on PostgreSQL each is a round trip)."""
    snapshot = tx.snapshot_seq(table_id) or 0
    kept: list[tuple[str, str, int]] = []
    emptied: list[int] = []
    gone: list[int] = []
    for seq, _, recorded, moves in rows:
        rest = [group for group in recorded if group[0] != hand_id]
        if rest:
            kept.append((dumps(rest), table_id, seq))
        else:  # still to be replayed after the snapshot, or the ledger's: kept without events
            (emptied if seq > snapshot or moves else gone).append(seq)
    if kept:
        tx.db.executemany("UPDATE actions SET events = ? WHERE table_id = ? AND seq = ?", kept)
    for numbers, sql in ((emptied, "UPDATE actions SET events = NULL"), (gone, "DELETE FROM actions")):
        if numbers:
            tx.db.execute(f"{sql} WHERE table_id = ? AND seq IN ({', '.join('?' * len(numbers))})",
                          (table_id, *numbers))
    tx.db.execute("DELETE FROM hand_spans WHERE table_id = ? AND hand_id = ?", (table_id, hand_id))
    tx.forget_in_row(table_id, hand_id)  # its table's last: not in play once gone


def _summarise(tx: Tx, table_id: str, hand_id: str, rows: LogRows) -> None:
    """Move what a Hold'em hand counts in the statistics from `hand_figures` to `pruned_stats`: the figures of a hand
    that ended, written in the action that ended it (its log row's time is theirs); a voided hand, a house round or a
    tournament has none."""
    if not hand_id.startswith("h"):
        return
    ended_at = next((at for _, at, recorded, _ in rows for key, events in recorded
                     if key == hand_id and any(event.get("kind") == "HandEnded" for event in events)), None)
    if ended_at is None:
        return
    chat_id = tx.table_chat(table_id)
    if chat_id is None:
        return
    counts = take_hand(tx.db, chat_id, ended_at, table_id, hand_id)
    if counts:
        add_pruned_counts(tx, chat_id, ended_at, counts)


def vacuum_step(tx: Tx) -> int:
    """Give up to `VACUUM_PAGES` free pages back to the file system (with incremental vacuum on); the free pages
    left."""
    free: int = tx.db.execute("PRAGMA freelist_count").fetchone()[0]
    for _ in range(min(free, VACUUM_PAGES)):  # Python's sqlite3 steps a pragma once, and each step frees one page
        tx.db.execute("PRAGMA incremental_vacuum(1)")
    left: int = tx.db.execute("PRAGMA freelist_count").fetchone()[0]
    return left
