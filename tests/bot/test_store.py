"""The store: migrations, the double-entry ledger, conditional debits, group commit, snapshots and timers."""

import asyncio
import functools
import random
import sqlite3
import threading
from pathlib import Path

import pytest

import bot.store
import bot.store.ledger
from bot.clock import FakeClock
from bot.scheduler import CATCH_UP_CONCURRENCY, Scheduler
from bot.store import InsufficientFunds, Store, Tx
from bot.store.schema import MIGRATIONS, accounts_by_name, accounts_table
from engine.reasons import Reason, grant_by
from tests.bot.helpers import figures_unmarked
from tests.bot.test_checkpoint import quiet_checkpointer


async def test_schema_is_migrated_with_wal_and_version(tmp_path) -> None:
    store = await Store.open(tmp_path / "a.db")
    await store.close()
    raw = sqlite3.connect(tmp_path / "a.db")
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # timers are looked up by due time only by several processes on PostgreSQL: SQLite's writes keep no index of it
    assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'timers_due'").fetchall() == []
    reopened = await Store.open(tmp_path / "a.db")  # a second open applies nothing twice
    await reopened.close()


async def test_the_writer_keeps_its_journals_in_memory(tmp_path) -> None:
    # a savepoint's journal spilled to a temporary file past 64 KB cost ~30 writes per action
    store = await Store.open(tmp_path / "a.db")
    try:
        assert await store.outside_transaction(lambda db: db.execute("PRAGMA temp_store").fetchone()[0]) == 2
        jobs = [store.transact(lambda tx, n=n: tx.save_table(f"t{n}", "c", {}, {"pad": "x" * 200_000}), now=1.0)
                for n in range(8)]  # one batch whose jobs each change far more than 64 KB
        jobs.append(store.transact(lambda tx: tx.move("c", "wallet:c:ann", "pot:t", 1, "bet"), now=1.0))
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        assert outcomes[:8] == [None] * 8 and isinstance(outcomes[8], InsufficientFunds)
        assert await store.read(lambda tx: tx.load_table("t7")) == ({}, {"pad": "x" * 200_000})
        assert await store.read(lambda tx: tx.check_ledger()) == []
    finally:
        await store.close()


def _read_calls() -> int:
    """The read system calls this process has made so far (Linux counts them in /proc/self/io)."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return int(fields["syscr"])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts system calls through Linux's /proc")
async def test_the_writer_keeps_a_busy_bots_pages_in_memory(tmp_path) -> None:
    # SQLite's own default, 2 MB of pages, made each action at 10,000 busy tables read ~10 pages back from the system
    store = await Store.open(tmp_path / "a.db", checkpointer=quiet_checkpointer())  # its passes read the log
    try:
        accounts = [f"stack:chat{n}/poker:player{n}" for n in range(40_000)]  # some 6 MB of rows and index

        def open_all(tx: Tx) -> None:
            for account in accounts:
                tx.move("c", "mint:c", account, 10, "grant")

        await store.transact(open_all, now=1.0)
        await store.read(lambda tx: tx.balances("stack:"))  # every page read once
        rng = random.Random(1)

        def bet(tx: Tx, source: str, target: str) -> None:
            tx.move("c", source, target, 1, "bet")

        before = _read_calls()
        for _ in range(20):  # batches of moves between accounts all over the file, as busy tables make them
            await asyncio.gather(*(store.transact(functools.partial(bet, source=source, target=target), now=2.0)
                                   for source, target in (rng.sample(accounts, 2) for _ in range(50))))
        assert _read_calls() - before < 100  # 1,000 moves; with 2 MB of pages, about 2,000 reads
        assert await store.read(lambda tx: tx.check_ledger()) == []
    finally:
        await store.close()


async def test_moves_keep_balances_and_rows_in_step(store: Store) -> None:
    def grant_and_bet(tx: Tx) -> None:
        tx.move("c", "mint:c", "wallet:c:ann", 100, "grant")
        tx.move("c", "wallet:c:ann", "box:t:ann:1", 30, "ante", table_id="t", hand_id="r1")

    await store.transact(grant_and_bet, now=1.0)
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 70
    assert await store.read(lambda tx: tx.balance("mint:c")) == -100
    assert await store.read(lambda tx: tx.check_ledger()) == []
    rows = await store.read(lambda tx: tx.ledger_rows("t", "r1"))
    assert [(row.source, row.target, row.amount) for row in rows] == [("wallet:c:ann", "box:t:ann:1", 30)]


async def test_a_moves_reason_is_stored_as_its_text(store: Store) -> None:
    """The ledger keeps each reason's text (stored data: `/export` and older rows read it), a listed `Reason` or one
    composed from the lists alike, on either database."""

    def granted(tx: Tx) -> None:
        tx.move("c", "mint:c", "wallet:c:ann", 100, Reason.WELCOME_GRANT)
        tx.move("c", "mint:c", "wallet:c:ann", 50, grant_by("bob"))

    await store.transact(granted, now=1.0)
    rows = await store.read(lambda tx: tx.db.execute("SELECT reason FROM ledger ORDER BY id").fetchall())
    assert [tuple(row) for row in rows] == [("welcome grant",), ("grant by bob",)]


async def test_a_debit_below_zero_rolls_back_the_whole_transaction(store: Store) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 50, "grant"), now=1.0)

    def overspend(tx: Tx) -> None:
        tx.move("c", "wallet:c:ann", "pot:t", 40, "bet")
        tx.move("c", "wallet:c:ann", "pot:t", 40, "bet")

    with pytest.raises(InsufficientFunds):
        await store.transact(overspend, now=2.0)
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 50
    assert await store.read(lambda tx: tx.balance("pot:t")) == 0
    assert await store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.parametrize("amount", [0, -5, 2.5])
async def test_bad_amounts_are_refused(store: Store, amount) -> None:
    """A move of no chips, of less, or of a fraction of one is refused and changes nothing. Compiled (issue 17's
    build), a fraction is refused before the move's own check, by the annotation (`amount: int`) at the call."""
    refusal = TypeError if isinstance(amount, float) and bot.store.ledger.__file__.endswith(".so") else ValueError
    with pytest.raises(refusal):
        await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", amount, "grant"), now=1.0)
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 0


async def test_concurrent_transactions_commit_together_and_fail_alone(store: Store) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 10, "grant"), now=1.0)
    jobs = [store.transact(lambda tx: tx.move("c", "wallet:c:ann", "pot:t", 1, "bet"), now=2.0) for _ in range(15)]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    assert sum(isinstance(result, InsufficientFunds) for result in results) == 5
    assert await store.read(lambda tx: tx.balance("pot:t")) == 10
    assert await store.read(lambda tx: tx.check_ledger()) == []


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """What each batch ran, by job name (jobs made by `named` note their name in the batch running them)."""
    seen: list[list[str]] = []
    real = bot.store._run_batch

    def run_batch(connection, *, batch, **kwargs):
        seen.append([])
        return real(connection, batch=batch, **kwargs)

    monkeypatch.setattr(bot.store, "_run_batch", run_batch)
    return seen


def named(batches: list[list[str]], name: str):
    """A job that notes its name in the batch it runs in."""
    return lambda tx: batches[-1].append(name)


async def test_timers_falling_due_together_let_a_players_press_go_first_and_alone(
        store: Store, batches: list[list[str]]) -> None:
    """Twenty timers fall due together and a player presses a button meanwhile: his job commits in a batch of its
    own, and the timers then go one per batch while he may press again (all of them fire, in due order)."""
    timers = [store.transact(named(batches, f"timer {index}"), now=0.0, background=True) for index in range(20)]
    await asyncio.gather(*timers, store.transact(named(batches, "press"), now=0.0))
    assert batches[0] == ["press"]
    assert batches[1:] == [[f"timer {index}"] for index in range(20)]


async def test_a_timer_that_has_waited_long_enough_goes_beside_the_players_jobs(
        store: Store, batches: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Players pressing without a pause do not hold a due timer back for ever: once it has waited
    `BACKGROUND_WAIT`, one timer goes in each of their batches."""
    monkeypatch.setattr(bot.store, "BACKGROUND_WAIT", 0.0)
    timers = [store.transact(named(batches, f"timer {index}"), now=0.0, background=True) for index in range(3)]
    presses = [store.transact(named(batches, f"press {index}"), now=0.0) for index in range(2)]
    await asyncio.gather(*timers, *presses)
    assert batches[0] == ["press 0", "press 1", "timer 0"]


async def test_a_timer_a_player_waits_for_is_hurried_into_the_next_batch(
        store: Store, batches: list[list[str]]) -> None:
    """Timers queued behind a player's presses each hold their table; a player who needs one's table (`hurry`) has
    it go in the next batch with the players' jobs, not after `BACKGROUND_WAIT` and the timers queued before it.
    Hurrying what no queued job holds changes nothing."""
    timers = [asyncio.ensure_future(store.transact(named(batches, f"timer {index}"), now=0.0, background=True,
                                                   holding=f"t{index}")) for index in range(5)]
    press = asyncio.ensure_future(store.transact(named(batches, "press"), now=0.0))
    await asyncio.sleep(0)  # all of them queued, the first batch not yet written
    store.hurry("t3")
    store.hurry("t9")
    await asyncio.gather(*timers, press)
    assert batches[0] == ["press", "timer 3"]
    assert batches[1:] == [[f"timer {index}"] for index in (0, 1, 2, 4)]


async def test_timers_due_with_nobody_pressing_commit_together(
        store: Store, batches: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """After downtime, before anyone presses, a backlog of due timers is caught up in group commits; the last
    press `PLAYERS_ACTIVE_SECONDS` ago or longer no longer counts."""
    await store.transact(named(batches, "press"), now=0.0)
    monkeypatch.setattr(bot.store, "PLAYERS_ACTIVE_SECONDS", 0.0)
    await asyncio.gather(*(store.transact(named(batches, f"timer {index}"), now=0.0, background=True)
                           for index in range(5)))
    assert batches[1:] == [[f"timer {index}" for index in range(5)]]


async def test_a_backlog_of_due_timers_fills_the_batches(store: Store, batches: list[list[str]]) -> None:
    """After downtime the scheduler fires many tables' due timers side by side, so that the store commits them in a
    few large batches rather than many small ones (each batch has its commit and its young collection)."""
    clock = FakeClock(0.0)
    scheduler = Scheduler(clock, lambda key, table_id, payload: store.transact(
        named(batches, key), now=0.0, background=True))
    for table in range(256):
        scheduler.arm(f"turn:{table}", f"t{table}", 1.0)
    clock.advance(3600)
    assert await scheduler.fire_due() == 256
    assert sorted(name for batch in batches for name in batch) == sorted(f"turn:{table}" for table in range(256))
    assert len(batches) <= 256 // CATCH_UP_CONCURRENCY + 2 <= 6  # with 8 firing at once, 32 batches


async def test_a_job_failing_after_writing_leaves_nothing_and_its_batch_keeps_the_rows_it_was_told(
        store: Store) -> None:
    await store.transact(lambda tx: tx.ensure_chat("c"), now=1.0)
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 10, "grant"), now=1.0)

    def start(tx: Tx) -> int:
        tx.move("c", "wallet:c:ann", "pot:t", 4, "bet", table_id="t", hand_id="h1")
        return tx.save_tournament(None, "c", "t", "running", {"n": 1})

    def start_then_fail(tx: Tx) -> int:
        tx.move("c", "wallet:c:ann", "box:t:ann:1", 3, "ante", table_id="t", hand_id="r1")
        tx.save_tournament(None, "c", "t", "running", {"n": 2})
        raise RuntimeError("refused after writing")

    jobs = [store.transact(start, now=2.0), store.transact(start_then_fail, now=2.0),
            store.transact(lambda tx: tx.balance("wallet:c:ann"), now=2.0), store.transact(start, now=2.0)]
    first, failed, balance, last = await asyncio.gather(*jobs, return_exceptions=True)
    assert isinstance(failed, RuntimeError) and balance == 6
    states = await store.read(lambda tx: tx.db.execute("SELECT id, state FROM tournaments ORDER BY id").fetchall())
    assert states == [(first, '{"n":1}'), (last, '{"n":1}')]  # the ids the jobs were told are those kept
    assert await store.read(lambda tx: tx.balance("pot:t")) == 8
    assert await store.read(lambda tx: tx.ledger_rows("t", "r1")) == []
    assert await store.read(lambda tx: tx.check_ledger()) == []
    # the box account was never kept: a move must create it again
    await store.transact(lambda tx: tx.move("c", "wallet:c:ann", "box:t:ann:1", 1, "ante"), now=3.0)
    assert await store.read(lambda tx: tx.balance("box:t:ann:1")) == 1


async def test_a_sqlite_batch_takes_no_savepoint_and_a_refusal_before_writing_undoes_nothing(tmp_path) -> None:
    # a savepoint per job copied every page the job changed into its journal
    store = await Store.open(tmp_path / "a.db")
    statements: list[str] = []
    await store.outside_transaction(lambda db: db.set_trace_callback(statements.append))

    def refuse(tx: Tx) -> None:
        tx.balance("wallet:c:ann")
        raise ValueError("refused")

    jobs = [store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 5, "grant"), now=1.0),
            store.transact(refuse, now=1.0),
            store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 5, "grant"), now=1.0)]
    outcomes = await asyncio.gather(*jobs, return_exceptions=True)
    await store.outside_transaction(lambda db: db.set_trace_callback(None))
    assert outcomes[0] is None and isinstance(outcomes[1], ValueError) and outcomes[2] is None
    assert not [sql for sql in statements if sql.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK"))]
    assert statements.count("BEGIN IMMEDIATE") == statements.count("COMMIT") == 1
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 10
    await store.close()


async def test_tables_history_and_timers_round_trip(store: Store) -> None:
    def save(tx: Tx) -> None:
        tx.save_table("t", "c", {"game": "holdem"}, {"hand": 3})
        tx.add_history("t", "h3", [{"kind": "Folded"}, {"kind": "PotAwarded"}])
        tx.set_timer("turn:t", "t", 99.5, {"hand": "h3"})

    await store.transact(save, now=5.0)
    assert await store.read(lambda tx: tx.load_table("t")) == ({"game": "holdem"}, {"hand": 3})
    assert await store.read(lambda tx: tx.history("t", "h3")) == [{"kind": "Folded"}, {"kind": "PotAwarded"}]
    assert await store.read(lambda tx: tx.timers()) == [("turn:t", "t", 99.5, {"hand": "h3"})]
    await store.transact(lambda tx: tx.clear_timer("turn:t"), now=6.0)
    assert await store.read(lambda tx: tx.timers()) == []


async def test_the_hands_that_ended_are_read_in_the_order_they_began(store: Store) -> None:
    """The reads of the hands that ended find the right ones through the index of where hands begin
    (`hand_spans_in_log`: a table's hands follow one another, so the last to begin ended last), with no index of
    their ends to write at each hand's end (migration 21): the last few hands, and a tournament's, a hand in play
    when it began among them. On SQLite each read runs through that index rather than over the table's spans."""
    def save(tx: Tx) -> None:
        tx.save_table("t", "c", {"game": "holdem"}, {})
        for number in (1, 2, 3):
            tx.add_history("t", f"h{number}", [{"kind": "HandStarted"}, {"kind": "PlayerCalled"}]
                           + ([{"kind": "HandEnded"}] if number != 2 else []))  # hand 2 was voided
        tx.add_history("t", "t1", [{"kind": "TournamentStarted"}])
        tx.add_history("t", "h4", [{"kind": "HandStarted"}, {"kind": "HandEnded"}])
        tx.add_history("t", "t1", [{"kind": "TournamentFinished"}])
        tx.add_history("t", "h5", [{"kind": "HandStarted"}])
        tx.add_history("t", "t2", [{"kind": "TournamentStarted"}])  # while hand 5 is played: it counts
        tx.add_history("t", "h5", [{"kind": "HandEnded"}])
        tx.add_history("t", "h6", [{"kind": "HandStarted"}, {"kind": "HandEnded"}])
        tx.add_history("t", "t2", [{"kind": "TournamentFinished"}])
        tx.add_history("t", "h7", [{"kind": "HandStarted"}, {"kind": "HandEnded"}])

    await store.transact(save, now=5.0)
    assert await store.read(lambda tx: tx.finished_hands("t", 2)) == ["h6", "h7"]
    assert await store.read(lambda tx: tx.finished_hands("t", 5)) == ["h3", "h4", "h5", "h6", "h7"]
    assert await store.read(lambda tx: tx.tournament_hands("t", 1)) == ["h4"]
    assert await store.read(lambda tx: tx.tournament_hands("t", 2)) == ["h5", "h6"]
    if store.dialect.is_shared:
        return
    statements: list[str] = []

    def plans(tx: Tx) -> list[str]:
        tx.db.set_trace_callback(statements.append)
        tx.finished_hands("t", 2)
        tx.tournament_hands("t", 1)
        tx.db.set_trace_callback(None)
        return [" ".join(str(row[-1]) for row in tx.db.execute(f"EXPLAIN QUERY PLAN {sql}"))
                for sql in statements if "LIKE 'h%'" in sql]

    found = await store.read(plans)
    assert len(found) == 3 and all("USING INDEX hand_spans_in_log" in plan for plan in found), found
    indexes = await store.read(lambda tx: [row[0] for row in tx.db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hand_spans'")])
    assert "hand_spans_ended" not in indexes and "hand_spans_in_log" in indexes


async def test_check_ledger_catches_a_tampered_balance(store: Store) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 10, "grant"), now=1.0)
    await store.transact(lambda tx: tx.db.execute("UPDATE accounts SET balance = 11 WHERE name = 'wallet:c:ann'"),
                         now=2.0)
    problems = await store.read(lambda tx: tx.check_ledger())
    assert any("sum to 1" in problem for problem in problems)
    assert any("wallet:c:ann holds 11" in problem for problem in problems)


async def test_a_rolled_back_transaction_leaves_nothing_in_the_memory_of_known_rows(store: Store) -> None:
    def write_then_fail(tx: Tx) -> None:
        tx.set_chat_settings("c", {"language": "ru"})
        tx.ensure_player("c", "ann", "Ann")
        tx.move("c", "mint:c", "wallet:c:ann", 5, "grant")
        raise RuntimeError("refused after writing")

    with pytest.raises(RuntimeError):
        await store.transact(write_then_fail, now=1.0)
    assert await store.read(lambda tx: tx.chat_settings("c")) == {}
    assert await store.read(lambda tx: tx.player_name("c", "ann")) == "ann"
    # the accounts were never kept: the move must create them again (taken as known, it would find none to debit)
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 7, "grant"), now=2.0)
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 7
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_known_rows_follow_committed_changes(store: Store, tmp_path) -> None:
    await store.transact(lambda tx: tx.ensure_player("c", "ann", "Ann"), now=1.0)
    assert await store.read(lambda tx: tx.player_name("c", "ann")) == "Ann"
    await store.transact(lambda tx: tx.ensure_player("c", "ann", "Annie"), now=2.0)
    await store.transact(lambda tx: tx.set_chat_settings("c", {"grant": 50}), now=3.0)
    assert await store.read(lambda tx: tx.player_name("c", "ann")) == "Annie"
    settings = await store.read(lambda tx: tx.chat_settings("c"))
    settings["grant"] = 0  # each caller gets its own copy
    assert await store.read(lambda tx: tx.chat_settings("c")) == {"grant": 50}
    await store.close()
    reopened = await Store.open(store.location)  # and the database agrees
    assert await reopened.read(lambda tx: (tx.player_name("c", "ann"), tx.chat_settings("c"))) == (
        "Annie", {"grant": 50})
    await reopened.close()


async def test_a_hands_figures_leave_out_the_events_of_a_rolled_back_transaction(store: Store) -> None:
    """The store keeps a hand's events in memory to work out its figures at its end: only those of kept
    transactions, as its history rows hold them."""
    await store.transact(lambda tx: tx.save_table("c/t", "c", {}, {}), now=1.0)

    def record(*events: dict[str, object], fail: bool = False, end: bool = False):
        def job(tx: Tx) -> None:
            tx.add_history("c/t", "h1", list(events))
            if fail:
                raise RuntimeError("refused after recording")
            if end:
                tx.summarise_hand("c", "c/t", "h1")
        return job

    await store.transact(record({"kind": "HandStarted"}, {"kind": "PlayerCalled", "player": "ann"}), now=2.0)
    with pytest.raises(RuntimeError):
        await store.transact(record({"kind": "PlayerRaised", "player": "bob"}, fail=True), now=3.0)
    await store.transact(record({"kind": "PlayerFolded", "player": "bob"},
                                {"kind": "HandEnded", "net": {"ann": 10, "bob": -10}}, end=True), now=4.0)
    rows = await store.read(lambda tx: tx.db.execute(
        "SELECT user_id, vpip, pfr, net FROM hand_figures ORDER BY user_id").fetchall())
    assert [tuple(row) for row in rows] == [("ann", 1, 0, 10), ("bob", 0, 0, -10)]


class _Abort(BaseException):
    """Escapes a job's savepoint handling (as a cancelled thread or a failed COMMIT would): the whole batch fails."""


async def test_a_failed_batch_forgets_what_its_transactions_learned(store: Store) -> None:
    def grant(tx: Tx) -> None:
        tx.move("c", "mint:c", "wallet:c:ann", 5, "grant")

    def abort(tx: Tx) -> None:
        raise _Abort

    results = await asyncio.gather(store.transact(grant, now=1.0), store.transact(abort, now=1.0),
                                   return_exceptions=True)
    assert all(isinstance(result, _Abort) for result in results), "both ran in the batch that failed"
    await store.transact(grant, now=2.0)  # the accounts must be created again, not taken as known
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 5
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_a_query_reads_the_committed_state_while_a_transaction_is_open(store: Store) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 100, "grant"), now=1.0)
    writing, release, busy = threading.Event(), threading.Event(), threading.Event()

    def slow_grant(tx: Tx) -> None:
        tx.move("c", "mint:c", "wallet:c:ann", 50, "grant")
        writing.set()
        release.wait(5)

    # the grant's batch runs in the database thread (it is busy as the batch comes: on SQLite a batch that can start
    # at once runs in the event loop's thread, and nothing else runs there meanwhile)
    occupied = asyncio.create_task(store.outside_transaction(lambda connection: busy.wait(5)))
    grant = asyncio.create_task(store.transact(slow_grant, now=2.0))
    await asyncio.sleep(0.01)
    busy.set()
    await occupied
    try:
        assert await asyncio.to_thread(writing.wait, 5)
        seen = await store.query(lambda tx: tx.balance("wallet:c:ann"))  # answered while the writer is busy
        grant_still_open = not grant.done()
    finally:
        release.set()
    await grant
    assert seen == 100 and grant_still_open  # the uncommitted 50 was not seen
    assert await store.query(lambda tx: tx.balance("wallet:c:ann")) == 150
    # the read-only connection writes nothing (SQLite: "attempt to write a readonly database"; PostgreSQL: "cannot
    # execute INSERT in a read-only transaction")
    with pytest.raises(Exception, match=r"readonly|read-only"):
        await store.query(lambda tx: tx.ensure_chat("elsewhere"))


async def test_processes_starting_together_on_an_empty_postgresql_database_migrate_it_once(postgres_url: str) -> None:
    """Several bot processes started at once on a new database each open the store: one applies the migrations
    (`pg_advisory_lock`), the others wait for it and find the schema up to date."""
    import psycopg

    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(4)))
    try:
        with psycopg.connect(postgres_url) as connection:
            assert connection.execute("SELECT version FROM schema_version").fetchall() == [(len(MIGRATIONS),)]
            indexes = connection.execute(  # `Service.watch_timers` finds the overdue timers by it
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'timers'")
            assert ("timers_due",) in indexes.fetchall()
        for number, store in enumerate(stores):  # each one works
            await store.transact(lambda tx, number=number: tx.save_table(f"t{number}", "c", {}, {}), now=1.0)
    finally:
        for store in stores:
            await store.close()


async def test_a_batch_runs_in_the_event_loops_thread_unless_the_database_thread_or_a_checkpoint_holds_it(
        store: Store) -> None:
    """On SQLite a batch that can start at once runs in the loop's thread (no hop, no hand-over of the interpreter
    lock); one that would wait (the database thread busy, a checkpoint pass holding the gate) goes to the database
    thread, so the event loop never waits for the store. On PostgreSQL (a round trip per statement) always there."""
    def thread_of_job(tx: Tx) -> int:
        return threading.get_ident()

    loop_thread = threading.get_ident()
    if store.dialect.is_shared:
        assert await store.transact(thread_of_job, now=1.0) != loop_thread
        assert await store.read(thread_of_job) != loop_thread
        return
    assert await store.transact(thread_of_job, now=1.0) == loop_thread
    assert await store.read(thread_of_job) == loop_thread

    release = threading.Event()
    busy = asyncio.ensure_future(store.outside_transaction(lambda connection: release.wait(5)))
    job = asyncio.ensure_future(store.transact(thread_of_job, now=2.0))
    await asyncio.sleep(0.01)
    assert not job.done()  # it waits in the thread's queue, while the event loop goes on (this test runs)
    release.set()
    await busy
    assert await job != loop_thread

    assert store._gate.acquire(timeout=5)  # as a checkpoint pass that needs the writer still
    try:
        job = asyncio.ensure_future(store.transact(thread_of_job, now=3.0))
        await asyncio.sleep(0.01)
        assert not job.done()
    finally:
        store._gate.release()
    assert await job != loop_thread


def _as_rowid_accounts(path: Path, *, broken: bool = False) -> None:
    """The database at `path` as schema 23 left it on SQLite: `accounts` a rowid table (found by an index of its names),
    with a ledger row referring to an account that is gone when `broken`."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    db.execute("BEGIN")
    db.execute(accounts_table("old_accounts"))
    db.execute("INSERT INTO old_accounts SELECT name, chat_id, kind, may_go_negative, balance FROM accounts")
    db.execute("DROP TABLE accounts")
    db.execute("ALTER TABLE old_accounts RENAME TO accounts")
    if broken:
        db.execute("DELETE FROM accounts WHERE name = 'wallet:c:bob'")
    figures_unmarked(db)
    db.execute(f"PRAGMA user_version = {MIGRATIONS.index(accounts_by_name)}")
    db.execute("COMMIT")
    db.close()


def _accounts_table(path: Path) -> str:
    db = sqlite3.connect(path)
    sql = str(db.execute("SELECT sql FROM sqlite_master WHERE name = 'accounts'").fetchone()[0])
    db.close()
    return sql


async def _three_accounts(path: Path) -> None:
    store = await Store.open(path)
    for player, chips in (("ann", 10), ("bob", 7)):
        await store.transact(lambda tx, who=player, n=chips: tx.move("c", "mint:c", f"wallet:c:{who}", n, "grant"),
                             now=1.0)
    await store.close()


async def test_on_sqlite_the_accounts_are_one_b_tree_keyed_by_their_names(tmp_path: Path) -> None:
    """Migration 24 rebuilds the rowid table of accounts as a `WITHOUT ROWID` one: the same balances, the ledger's
    check passes, and the ledger's rows still must name an account (its foreign keys are on again after it)."""
    path = tmp_path / "bot.db"
    await _three_accounts(path)
    _as_rowid_accounts(path)
    assert "WITHOUT ROWID" not in _accounts_table(path)
    store = await Store.open(path)
    assert "WITHOUT ROWID" in _accounts_table(path)
    assert await store.read(lambda tx: (tx.balance("wallet:c:ann"), tx.balance("wallet:c:bob"))) == (10, 7)
    assert await store.read(lambda tx: tx.check_ledger()) == []
    with pytest.raises(sqlite3.IntegrityError):  # a ledger row naming no account is refused, as before
        await store.transact(lambda tx: tx.db.execute(
            "INSERT INTO ledger(at, chat_id, source, target, amount, reason) VALUES (1, 'c', 'mint:c', 'nobody', 1, "
            "'x')"), now=2.0)
    await store.close()


async def test_the_rebuild_of_the_accounts_stops_at_a_ledger_row_naming_no_account(tmp_path: Path) -> None:
    """Its foreign keys off for the rebuild, the migration checks them before it commits: a ledger row naming an
    account that is not there fails it, and the database stays as it was (schema 23, the rowid table)."""
    path = tmp_path / "bot.db"
    await _three_accounts(path)
    _as_rowid_accounts(path, broken=True)
    with pytest.raises(RuntimeError, match="migration 24 left a row referring to nothing"):
        await Store.open(path)
    assert "WITHOUT ROWID" not in _accounts_table(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == MIGRATIONS.index(accounts_by_name)
    db.close()
