"""Pruning the history (`POKERBOT_HISTORY_DAYS`): old hands leave the history but not the statistics or the ledger."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import history
from bot.clock import FakeClock
from bot.config import load_settings
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store, Tx, figures, prune
from bot.store.action_log import figures_know_tournament_hands, spans_by_their_end
from bot.store.played import PRUNED_TOTALS, UNKNOWN_DAY, pruned_stats_by_day
from bot.store.pruned_tournaments import tournament_chips_out_of_pruned_stats
from bot.store.schema import MIGRATIONS, migrate
from bot.store.tx import dumps, loads
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import figures_unmarked, ledger_ok, play_out, spans_by_their_beginning

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
DAY = 86_400.0


async def play_hands(service: Service, count: int, preference: tuple[str, ...] = ("bet", "call", "check")) -> None:
    for _ in range(count):
        reply = await service.handle(PLACE, ANN, "/deal")
        assert reply.error is None, reply.error
        await play_out(service, PLACE, PLAYERS, reply, preference)


async def seen(service: Service) -> dict[str, Any]:
    """What players and the books show: every player's /stats, /top, Bob's /history 20, and the ledger."""
    stats = [(await service.handle(PLACE, ANN, f"/stats {actor.name}")).public for actor in PLAYERS.values()]
    top = (await service.handle(PLACE, BOB, "/top")).public
    hands = (await service.handle(PLACE, BOB, "/history 20")).private.get("bob", [])
    ledger = await service.store.query(lambda tx: tx.every_move())
    return {"stats": stats, "top": top, "hands": hands, "ledger": ledger}


def history_rows(tx: Tx) -> list[tuple[str, float]]:
    """(hand id, time) of every event the log holds."""
    return [(hand, at) for _, hand, at, _ in tx.every_event()]


@pytest.fixture
async def seated(service: Service) -> Service:
    for actor in PLAYERS.values():
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    return service


async def test_old_hands_leave_the_history_but_not_the_statistics_or_the_ledger(
    seated: Service, clock: FakeClock
) -> None:
    await play_hands(seated, 3)
    await play_hands(seated, 1, ("fold",))
    unfinished = await seated.handle(PLACE, ANN, "/deal")  # in play across the cutoff: it keeps every row
    assert unfinished.error is None and unfinished.table is not None
    clock.advance(10 * DAY)
    await play_out(seated, PLACE, PLAYERS, unfinished, ("check", "call"))
    await play_hands(seated, 2)
    before = await seen(seated)
    assert len(before["hands"]) == 7

    deleted = await prune.prune_history(seated.store, before=clock.now() - 5 * DAY)

    after = await seen(seated)
    assert deleted > 4 * 10
    assert after["stats"] == before["stats"] and after["top"] == before["top"]  # the same totals
    assert after["ledger"] == before["ledger"]  # the ledger is never pruned
    await ledger_ok(seated)
    assert after["hands"] == before["hands"][-3:]  # /history shows the kept hands only
    rows = await seated.store.query(history_rows)
    kept = {hand for hand, _ in rows}
    assert kept == {"h5", "h6", "h7"}
    assert any(at < clock.now() - 5 * DAY for hand, at in rows if hand == "h5")
    assert await prune.prune_history(seated.store, before=clock.now() - 5 * DAY) == 0  # nothing more to do


def moves_as_ledger_rows(tx: Tx) -> None:
    """The moves of the pruned hands (those with no span, none in play) out of their log rows into ledger rows, as a
    bot before migration 17 recorded a hand's moves."""
    kept = {tuple(row) for row in tx.db.execute(
        "SELECT table_id, hand_id FROM hand_spans UNION SELECT table_id, hand_id FROM tables")}
    for table_id, chat_id, seq, at, text in tx.db.execute(
            "SELECT table_id, chat_id, seq, at, moves FROM actions JOIN tables USING (table_id) "
            "WHERE moves IS NOT NULL").fetchall():
        moves = loads(text)
        pruned = [move for move in moves if (table_id, move[4]) not in kept]
        tx.db.executemany(
            "INSERT INTO ledger(at, chat_id, source, target, amount, reason, table_id, hand_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(at, chat_id, *move[:4], table_id, move[4]) for move in pruned])
        rest = [move for move in moves if move not in pruned]
        tx.db.execute("UPDATE actions SET moves = ? WHERE table_id = ? AND seq = ?",
                      (dumps(rest) if rest else None, table_id, seq))


@pytest.mark.parametrize("recorded_in", ["log rows", "ledger rows"])
async def test_hands_pruned_before_migration_25_read_right_after_it(seated: Service, clock: FakeClock,
                                                                    recorded_in: str) -> None:
    """A database whose hands were pruned by a bot before migration 25, which knew no tournament hand from a cash
    game's and so added a tournament hand's chips to `pruned_stats`' net and biggest pot: once upgraded, /stats, /top
    and /history read as they would had today's bot pruned it, and the ledger holds; whether the pruned hands' moves
    are in their log rows or (played before migration 17) in ledger rows. Migration 34 run again, after 35 has kept
    the pruned statistics by day, changes nothing anyone reads, of all time or of the last days."""
    await play_hands(seated, 2, ("fold",))  # the cash pots are the blinds: the tournament's pot is the biggest
    tournament = Place(PLACE.chat_id, f"{PLACE.chat_id}/tournament")
    assert (await seated.handle(tournament, ANN, "/tournament create home-night")).error is None
    for actor in PLAYERS.values():
        assert (await seated.handle(tournament, actor, "/join")).error is None
    started = await seated.handle(tournament, ANN, "/tournament start")
    assert started.error is None, started.error
    await play_out(seated, tournament, PLAYERS, started, ("bet", "call", "check"))
    clock.advance(10 * DAY)
    await play_hands(seated, 1, ("fold",))
    before = await seen(seated)
    assert len(before["hands"]) == 3

    def as_schema_24(tx: Tx) -> None:
        figures_unmarked(tx.db)
        pruned_stats_without_days(tx)
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(figures_know_tournament_hands))  # 25 to come

    def pruned_the_old_way(tx: Tx) -> None:  # every hand's chips counted, as the figures were not marked
        tx.db.execute("UPDATE hand_figures SET tournament = 0")
        assert prune.prune_batch(tx, before=clock.now() - 5 * DAY, seconds=60.0)[0] > 0
        if recorded_in == "ledger rows":
            moves_as_ledger_rows(tx)
        as_schema_24(tx)

    await seated.store.transact(pruned_the_old_way, now=clock.now())
    await seated.store.close()
    reopened = Service(await Store.open(seated.store.location), clock)
    after = await seen(reopened)
    assert after["stats"] == before["stats"] and after["top"] == before["top"]
    assert after["hands"] == before["hands"][-1:]  # /history shows the hand kept
    assert sorted(after["ledger"], key=repr) == sorted(before["ledger"], key=repr)  # every move, wherever recorded
    await ledger_ok(reopened)
    # 34 again, over hands today's pruning took (their tournament chips already left out): the same again
    again = await with_migration_34_again(reopened, clock)
    assert await seen(again) == after
    # ... and over a hand pruned after 35, kept by its day: each day's figures stay that day's, its all time too
    await play_hands(again, 1)
    clock.advance(DAY)
    assert await prune.prune_history(again.store, before=clock.now() - 0.5 * DAY) > 0

    def by_days(tx: Tx) -> list[dict[str, history.PlayerStats]]:
        return [history.chat_stats(tx, PLACE.chat_id, since) for since in (None, clock.now() - 5 * DAY)]

    pruned = await seen(again), await again.store.query(by_days)
    third = await with_migration_34_again(again, clock)
    assert (await seen(third), await third.store.query(by_days)) == pruned
    await third.store.close()


async def with_migration_34_again(service: Service, clock: FakeClock) -> Service:
    """The service's database set back to before migration 34 and opened again (34 and every later one run again):
    a new service on it (the old one is closed)."""
    await service.store.transact(lambda tx: tx.dialect.set_schema_version(
        tx.db, MIGRATIONS.index(tournament_chips_out_of_pruned_stats)), now=clock.now())
    await service.store.close()
    return Service(await Store.open(service.store.location), clock)


def pruned_stats_without_days(tx: Tx) -> None:
    """`pruned_stats` as migrations 3 to 34 kept it: one row per player of a chat, its days added up (what migration
    35 reads of it)."""
    tx.db.execute(f"CREATE TABLE pruned_stats_old AS SELECT chat_id, user_id, {PRUNED_TOTALS} FROM pruned_stats "
                  "GROUP BY chat_id, user_id")
    tx.db.execute("DROP TABLE pruned_stats")
    tx.db.execute("ALTER TABLE pruned_stats_old RENAME TO pruned_stats")


async def test_hands_pruned_before_migration_35_count_in_all_time_only(seated: Service, clock: FakeClock) -> None:
    """Migration 35 on a database whose pruned statistics kept no day: they count in /stats of all time as before,
    and in no period of the last days (as before it: their day is unknown); a hand pruned after it counts in both."""
    await play_hands(seated, 2)
    clock.advance(10 * DAY)
    await play_hands(seated, 1)
    clock.advance(DAY)
    await play_hands(seated, 1)

    def stats_since(days: float | None) -> Callable[[Tx], dict[str, history.PlayerStats]]:
        return lambda tx: history.chat_stats(tx, PLACE.chat_id, None if days is None else clock.now() - days * DAY)

    before = await seen(seated)
    last_days = {days: await seated.store.query(stats_since(days)) for days in (30, 5, 0.5)}
    assert last_days[30] != last_days[5] != last_days[0.5]
    assert await prune.prune_history(seated.store, before=clock.now() - 5 * DAY) > 0

    def as_schema_34(tx: Tx) -> None:
        pruned_stats_without_days(tx)
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(pruned_stats_by_day))  # 35 to come

    await seated.store.transact(as_schema_34, now=clock.now())
    await seated.store.close()
    reopened = Service(await Store.open(seated.store.location), clock)
    days = "SELECT DISTINCT day FROM pruned_stats"
    assert await reopened.store.read(lambda tx: [row[0] for row in tx.db.execute(days)]) == [UNKNOWN_DAY]
    assert (await seen(reopened))["stats"] == before["stats"]  # all time: the same
    assert await reopened.store.query(stats_since(30)) == last_days[5]  # the last days: only the hands kept
    assert await prune.prune_history(reopened.store, before=clock.now() - 0.5 * DAY) > 0  # the hand of 1 day ago
    assert await reopened.store.query(stats_since(5)) == last_days[5]  # pruned with its day: counted there
    assert (await seen(reopened))["stats"] == before["stats"]  # all time: still the same
    await ledger_ok(reopened)
    await reopened.store.close()


async def test_pruning_a_tables_last_hand_takes_it_out_of_the_tables_row(seated: Service, clock: FakeClock) -> None:
    """A table whose last hand ended long ago, pruned: its row no longer names that hand as the last begun there (its
    log rows, kept for their moves, would otherwise count as a hand in play), the ledger holds, and the next hand is
    spanned when it ends as before."""
    await play_hands(seated, 2)
    clock.advance(10 * DAY)
    assert await prune.prune_history(seated.store, before=clock.now() - 5 * DAY) > 0
    named = await seated.store.read(lambda tx: tx.db.execute(
        "SELECT hand_id FROM tables WHERE table_id = ?", (PLACE.table_id,)).fetchone())
    assert named == (None,)
    await ledger_ok(seated)
    await play_hands(seated, 1)
    assert await seated.store.read(lambda tx: tx.finished_hands(PLACE.table_id, 5)) == ["h3"]
    await ledger_ok(seated)


async def test_without_the_setting_nothing_is_pruned(
    seated: Service, clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POKERBOT_HISTORY_DAYS", raising=False)
    days = load_settings(tmp_path / "absent.env").history_days
    assert days is None
    await play_hands(seated, 2)
    rows = await seated.store.query(history_rows)
    clock.advance(1000 * DAY)
    await asyncio.wait_for(prune.keep_history(seated.store, clock, days), 5)  # returns at once: nothing to keep up
    assert await seated.store.query(history_rows) == rows


async def test_with_the_setting_the_bot_prunes_as_it_runs(
    seated: Service, clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POKERBOT_HISTORY_DAYS", "30")
    days = load_settings(tmp_path / "absent.env").history_days
    assert days == 30
    await play_hands(seated, 2)
    clock.advance(31 * DAY)
    await play_hands(seated, 1)
    keeping = asyncio.create_task(prune.keep_history(seated.store, clock, days, every=0.01))
    try:
        for _ in range(500):
            if {hand for hand, _ in await seated.store.query(history_rows)} == {"h3"}:
                break
            await asyncio.sleep(0.01)
        assert {hand for hand, _ in await seated.store.query(history_rows)} == {"h3"}
    finally:
        keeping.cancel()


def test_the_setting_must_be_a_positive_number_of_days(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("0", "-3", "forever"):
        monkeypatch.setenv("POKERBOT_HISTORY_DAYS", value)
        with pytest.raises(ValueError):
            load_settings(tmp_path / "absent.env")


async def test_pruning_works_in_short_batches_that_other_commits_pass(
    seated: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await play_hands(seated, 1)

    def copy_the_hand(tx: Tx) -> None:  # 300 more hands like it, action by action: over 7,000 events
        logged = tx.logged_events(PLACE.table_id, "h1")
        for number in range(2, 302):
            for _, events in logged:
                tx.add_history(PLACE.table_id, f"h{number}", events)
        tx.db.execute(  # behind the table's snapshot, as a hand's log rows are once the next one is dealt
            "UPDATE tables SET snapshot_seq = (SELECT MAX(seq) FROM actions WHERE table_id = ?) WHERE table_id = ?",
            (PLACE.table_id, PLACE.table_id))
        tx.db.execute(  # and their figures, as each hand's end writes them
            "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 301) "
            "INSERT INTO hand_figures SELECT f.chat_id, f.table_id, 'h' || n.i, f.user_id, f.ended_at, "
            f"{', '.join(figures.COUNTS)}, f.tournament FROM n, hand_figures f WHERE f.hand_id = 'h1'"
        )

    await seated.store.transact(copy_the_hand, now=clock.now())
    total = len(await seated.store.query(history_rows))
    stats = (await seated.handle(PLACE, ANN, "/stats")).public
    batches: list[int] = []  # the events each pruning transaction deleted
    free_after: list[int] = []  # the free pages left after each vacuum transaction

    def recorded(name: str, outcomes: list[int]) -> Callable[..., Any]:
        real = getattr(prune, name)

        def step(tx: Tx, **arguments: Any) -> Any:
            outcome = real(tx, **arguments)
            outcomes.append(outcome[0] if name == "prune_batch" else outcome)
            return outcome

        return step

    monkeypatch.setattr(prune, "prune_batch", recorded("prune_batch", batches))
    monkeypatch.setattr(prune, "vacuum_step", recorded("vacuum_step", free_after))
    on_sqlite = not seated.store.dialect.is_shared  # PostgreSQL's autovacuum gives the space back, not the bot
    pages = "PRAGMA page_count"
    pages_before = await seated.store.read(lambda tx: tx.db.execute(pages).fetchone()[0]) if on_sqlite else 0
    clock.advance(10 * DAY)
    pruning = asyncio.create_task(prune.prune_history(seated.store, before=clock.now() - DAY))
    while not batches:
        await asyncio.sleep(0.001)
    granted = await seated.handle(PLACE, Actor("dan", "Dan"), "/balance")  # a new player: a commit with a grant
    pruning_still_running = not pruning.done()
    assert await pruning == total
    assert granted.error is None and pruning_still_running
    assert max(batches) <= prune.BATCH_EVENTS and len(batches) >= total // prune.BATCH_EVENTS
    assert (await seated.handle(PLACE, ANN, "/stats")).public == stats
    if not on_sqlite:
        return
    # the pages go back in several short transactions, none giving back more than its share (each transaction's
    # time in the writer is measured in benchmarks/pruning.py, not asserted here)
    given_back = [earlier - later for earlier, later in itertools.pairwise(free_after)]
    assert len(free_after) > 1 and max(given_back) <= prune.VACUUM_PAGES and free_after[-1] == 0
    free = await seated.store.read(lambda tx: tx.db.execute("PRAGMA freelist_count").fetchone()[0])
    pages_after = await seated.store.read(lambda tx: tx.db.execute(pages).fetchone()[0])
    assert free == 0 and pages_after < pages_before / 2  # the pages are given back to the file system


async def test_a_batch_starts_no_new_hand_once_its_time_is_up(seated: Service, clock: FakeClock) -> None:
    await play_hands(seated, 3)
    clock.advance(10 * DAY)
    ticks = iter(range(1000))  # a second passes at each reading: the time is up after the first hand

    def one_batch(tx: Tx) -> tuple[int, prune.Cursor, bool]:
        return prune.prune_batch(tx, before=clock.now() - DAY, timer=lambda: float(next(ticks)))

    rows = await seated.store.query(history_rows)
    deleted, _, done = await seated.store.transact(one_batch, now=clock.now())
    assert not done and deleted == sum(1 for hand, _ in rows if hand == "h1")
    assert {hand for hand, _ in await seated.store.query(history_rows)} == {"h2", "h3"}
    assert await prune.prune_history(seated.store, before=clock.now() - DAY) == len(rows) - deleted


async def test_a_batch_that_keeps_a_hand_still_stops_once_its_time_is_up(seated: Service, clock: FakeClock) -> None:
    """A hand that ended before the cutoff but was hunted after it (`/rabbit`: a line of its history, logged later)
    is read and kept; reading it took the batch's time, so the batch stops there, pruning nothing yet, rather than
    reading on through the hands that ended after it (here at another table, old enough to go), which the next
    batches prune. The spans are read in the order they ended: a hand that ended after the cutoff is not read at all."""
    other = Place(PLACE.chat_id, f"{PLACE.chat_id}/other")
    for actor in PLAYERS.values():
        assert (await seated.handle(other, actor, "/join 400")).error is None
    await play_hands(seated, 1, ("fold",))  # over before the flop: its rabbit shows the board it would have dealt
    clock.advance(1.0)  # the other table's hands end after it
    for _ in range(2):
        reply = await seated.handle(other, ANN, "/deal")
        assert reply.error is None, reply.error
        await play_out(seated, other, PLAYERS, reply, ("bet", "call", "check"))
    clock.advance(10 * DAY)
    assert (await seated.handle(PLACE, BOB, "/rabbit")).error is None
    in_play = await seated.handle(PLACE, ANN, "/deal")  # begun before the cutoff, ended after it: never read
    assert in_play.error is None
    clock.advance(10 * DAY)
    await play_out(seated, PLACE, PLAYERS, in_play, ("check", "call"))
    before = clock.now() - 15 * DAY  # after every hand but the last ended, before the rabbit
    ticks = iter(range(1000))  # a second passes at each reading: the time is up after the first hand

    def one_batch(tx: Tx) -> tuple[int, prune.Cursor, bool]:
        return prune.prune_batch(tx, before=before, timer=lambda: float(next(ticks)))

    events = await seated.store.query(lambda tx: len(tx.every_event()))
    deleted, _, done = await seated.store.transact(one_batch, now=clock.now())
    assert (deleted, done) == (0, False)
    assert await seated.store.query(lambda tx: len(tx.every_event())) == events
    kept = await seated.store.query(lambda tx: len(tx.every_event(PLACE.table_id)))
    assert await prune.prune_history(seated.store, before=before) == events - kept  # the other table's, all
    assert await seated.store.query(lambda tx: tx.every_event(other.table_id)) == []


async def test_a_hand_that_ended_after_the_cutoff_is_not_read(seated: Service, clock: FakeClock) -> None:
    """The spans are read in the order their hands ended: a hand begun before the cutoff and ended after it (which,
    read in the order hands began, came first and took a batch's time to be read and kept each time) is not read,
    and the first batch prunes the hand that ended first, at another table."""
    other = Place(PLACE.chat_id, f"{PLACE.chat_id}/other")
    for actor in PLAYERS.values():
        assert (await seated.handle(other, actor, "/join 400")).error is None
    straddling = await seated.handle(PLACE, ANN, "/deal")
    assert straddling.error is None
    clock.advance(1.0)
    for _ in range(2):
        reply = await seated.handle(other, ANN, "/deal")
        assert reply.error is None, reply.error
        await play_out(seated, other, PLAYERS, reply, ("bet", "call", "check"))
    clock.advance(10 * DAY)
    await play_out(seated, PLACE, PLAYERS, straddling, ("check", "call"))
    clock.advance(10 * DAY)
    ticks = iter(range(1000))  # a second passes at each reading: the time is up after the first hand

    def one_batch(tx: Tx) -> tuple[int, prune.Cursor, bool]:
        return prune.prune_batch(tx, before=clock.now() - 15 * DAY, timer=lambda: float(next(ticks)))

    first = await seated.store.query(lambda tx: len([row for row in tx.every_event(other.table_id) if row[1] == "h1"]))
    deleted, _, done = await seated.store.transact(one_batch, now=clock.now())
    assert (deleted, done) == (first, False)
    assert {row[1] for row in await seated.store.query(lambda tx: tx.every_event(other.table_id))} == {"h2"}


async def test_the_migration_gives_each_ended_span_the_time_of_its_end(seated: Service, clock: FakeClock) -> None:
    """Migration 23 on a database of schema 22: each span that ended gets the time of the log row that ended it (each
    hand here ends half a minute after it began); the pruning then takes them."""
    for _ in range(3):
        reply = await seated.handle(PLACE, ANN, "/deal")
        assert reply.error is None, reply.error
        clock.advance(30.0)  # each hand ends half a minute after it began
        await play_out(seated, PLACE, PLAYERS, reply, ("bet", "call", "check"))
        clock.advance(60.0)
    open_hand = await seated.handle(PLACE, ANN, "/deal")
    assert open_hand.error is None
    ends = "SELECT hand_id, ended_at FROM hand_spans ORDER BY hand_id"
    expected = await seated.store.read(lambda tx: [tuple(row) for row in tx.db.execute(ends).fetchall()])

    def as_schema_22(tx: Tx) -> None:
        spans_by_their_beginning(tx)
        figures_unmarked(tx.db)
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(spans_by_their_end))

    await seated.store.transact(as_schema_22, now=clock.now())
    await seated.store.close()
    reopened = await Store.open(seated.store.location)
    migrated = await reopened.read(lambda tx: [tuple(row) for row in tx.db.execute(ends).fetchall()])
    assert migrated == expected and [hand for hand, _ in migrated] == ["h1", "h2", "h3"]
    starts = "SELECT at FROM hand_spans ORDER BY hand_id"
    began = await reopened.read(lambda tx: [row[0] for row in tx.db.execute(starts).fetchall()])
    assert all(at == start + 30.0 for (_, at), start in zip(migrated, began, strict=True))  # the ends' own times
    clock.advance(10 * DAY)
    assert await prune.prune_history(reopened, before=clock.now() - DAY) > 0
    assert await reopened.read(lambda tx: [tuple(row) for row in tx.db.execute(ends).fetchall()]) == []
    await reopened.close()


async def test_a_database_made_before_incremental_vacuum_is_converted_once(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path, isolation_level=None)  # as the bot created its files before: no auto_vacuum
    old.execute("PRAGMA journal_mode = WAL")
    migrate(old)
    old.close()
    store = await Store.open(path)
    try:
        assert await store.read(lambda tx: tx.db.execute("PRAGMA auto_vacuum").fetchone()[0]) == 0
        assert await prune.convert_to_incremental_vacuum(store)
        assert not await prune.convert_to_incremental_vacuum(store)
        # the VACUUM copied the database to a file; savepoints journal in memory again
        assert await store.outside_transaction(lambda db: db.execute("PRAGMA temp_store").fetchone()[0]) == 2
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # INCREMENTAL
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    fresh = await Store.open(tmp_path / "new.db")  # a new file has it from the start
    try:
        assert await fresh.query(lambda tx: tx.db.execute("PRAGMA auto_vacuum").fetchone()[0]) == 2
    finally:
        await fresh.close()


async def test_two_processes_pruning_at_once_count_each_hand_once(postgres_url: str) -> None:
    """Every bot process on one PostgreSQL database prunes as it runs, all of them at once after a restart of them
    all: a hand two prunings both read must move its figures into the statistics once (they were counted twice:
    the second took the rows the first had deleted but not yet committed, and added them again)."""
    clock = FakeClock()
    stores = [await Store.open(postgres_url), await Store.open(postgres_url)]
    try:
        service = Service(stores[0], clock)
        await service.start()
        for actor in PLAYERS.values():
            assert (await service.handle(PLACE, actor, "/join 400")).error is None
        await play_hands(service, 2)
        clock.advance(10 * DAY)
        before = await seen(service)
        both_there = threading.Barrier(2, timeout=1)
        take_hand = figures.take_hand

        def take_hand_with_the_other_one(*args: Any, **kwargs: Any) -> dict[str, dict[str, int]]:
            """The first hand: both prunings read it together (if both got it), and the first to take its rows
            commits only once the other has read them too."""
            if both_there.broken:
                return take_hand(*args, **kwargs)
            with contextlib.suppress(threading.BrokenBarrierError):
                both_there.wait()
            taken = take_hand(*args, **kwargs)
            if not both_there.broken:
                both_there.abort()
                time.sleep(0.3)  # the other one reads the rows meanwhile
            return taken

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(prune, "take_hand", take_hand_with_the_other_one)
            await asyncio.gather(*(prune.prune_history(store, before=clock.now() - 5 * DAY) for store in stores))
        after = await seen(service)
        assert after["stats"] == before["stats"] and after["top"] == before["top"]
        assert after["hands"] == []
        await ledger_ok(service)
    finally:
        for store in stores:
            await store.close()
