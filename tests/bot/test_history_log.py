"""The history in the action log (migration 16): each action's events in its log row, found by the hands' spans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from bot.output import Actor, Reply
from bot.store import Store, Tx
from bot.store.action_log import history_into_action_log
from bot.store.schema import MIGRATIONS
from bot.store.snapshots import logged_tables, snapshots
from bot.store.tx import HISTORY_ONLY
from tests.bot.conftest import PLACE
from tests.bot.helpers import history_rows_of, history_table_from_log, logged_actions
from tests.bot.test_hand_numbers import ADMIN, BOB, Table


def everything_read(tx: Tx) -> dict[str, Any]:
    """What `/history` and the exports read of the table: its ended hands, their records, the tournament's hands, and
    every event of the log."""
    hands = tx.finished_hands(PLACE.table_id, 100)
    return {"hands": hands, "records": tx.hand_records(PLACE.table_id, hands),
            "tournament": tx.tournament_hands(PLACE.table_id, 1), "events": history_rows_of(tx)}


async def played(database: Path | str) -> Table:
    """A table that played two Hold'em hands, a house round, a tournament, and a hand voided at a restart."""
    table = Table(database)
    await table.open()
    await table.play("holdem", ("check", "call"))
    await table.play("caribbean", ("play", "decline", "fold"))
    await table.tournament(("check", "call", "check", "fold"))
    await table.play("holdem", ("bet", "call", "check"))
    await table.play("holdem", ("check", "call"), leave_open=True)
    await table.void()
    return table


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_history_reads_the_same_after_the_migration_from_its_old_table(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The same database with its history as schema 15 kept it (a `history` table of events): migration 16 moves it
    into the log, and every read of it gives what it gave before, event for event, in order."""
    database = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "bot.db"
    table = await played(database)
    assert table.store is not None
    before = await table.store.read(everything_read)
    assert len(before["hands"]) >= 3 and before["tournament"] and before["records"]

    def downgrade(tx: Tx) -> None:
        history_table_from_log(tx)
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(history_into_action_log))  # migration 16 to come

    await table.store.transact(downgrade, now=0.0)
    await table.store.close()
    store = await Store.open(database)
    try:
        after = await store.read(everything_read)
        assert after == before
        moved = await store.read(lambda tx: tx.db.execute(
            "SELECT COUNT(*), MAX(seq) FROM actions WHERE entry = ?", (HISTORY_ONLY,)).fetchone())
        assert moved[0] > 0 and moved[1] == -1  # numbered below every logged action, up to -1
        assert await store.read(lambda tx: tx.check_ledger()) == []
    finally:
        await store.close()


async def test_the_spans_of_a_table_say_where_each_hand_lies_and_ends(tmp_path: Path) -> None:
    """Each hand, round and tournament has one span (the last hand's, voided and so in play until the next, in its
    table's row): its first log row holds its first event, and its end (when it ended) is the row that holds its
    `HandEnded`, `RoundEnded` or `TournamentFinished`; the voided hand has none."""
    table = await played(tmp_path / "bot.db")
    assert table.store is not None

    def spans_and_log(tx: Tx) -> tuple[list[tuple[str, int, int | None]], dict[int, list[list[Any]]]]:
        spans = tx.db.execute(  # the span rows, and the hand the table's row says is in play (a voided one)
            "SELECT hand_id, first_seq, ended_seq FROM hand_spans WHERE table_id = ? UNION SELECT hand_id, hand_seq, "
            "NULL FROM tables WHERE table_id = ? AND hand_id NOT IN (SELECT hand_id FROM hand_spans WHERE "
            "table_id = ?) ORDER BY first_seq", (PLACE.table_id,) * 3).fetchall()
        rows = tx.db.execute("SELECT seq, events FROM actions WHERE table_id = ? AND events IS NOT NULL",
                             (PLACE.table_id,)).fetchall()
        return spans, {seq: orjson.loads(events) for seq, events in rows}

    spans, log = await table.store.read(spans_and_log)
    ending = {"h": "HandEnded", "r": "RoundEnded", "t": "TournamentFinished"}
    assert {hand_id[0] for hand_id, _, _ in spans} == {"h", "r", "t"}
    for hand_id, first, ended in spans:
        firsts = [seq for seq, recorded in log.items() if any(key == hand_id for key, _ in recorded)]
        assert min(firsts) == first, hand_id
        ends = [seq for seq, recorded in log.items()
                if any(key == hand_id and any(event["kind"] == ending[hand_id[0]] for event in events)
                       for key, events in recorded)]
        assert ended == (min(ends) if ends else None), hand_id
    voided = [hand_id for hand_id, _, ended in spans if hand_id.startswith("h") and ended is None]
    assert len(voided) == 1
    await table.store.close()


async def test_the_history_of_a_table_never_stored_has_its_spans_all_the_same(tmp_path: Path) -> None:
    """History written for tables with no row of their own (an import): with no row to say where a hand begins, it
    gets its span row at once (with its end, when the same row ends it), and reads back whole."""
    store = await Store.open(tmp_path / "bot.db")
    played = [{"kind": "HandStarted"}, {"kind": "HandEnded"}]
    try:
        await store.transact(lambda tx: tx.add_history("nowhere", "h1", played[:1]), now=1.0)
        await store.transact(lambda tx: tx.add_history("elsewhere", "h1", played), now=2.0)
        spans = await store.read(lambda tx: tx.db.execute(
            "SELECT table_id, hand_id, first_seq, at, ended_seq FROM hand_spans ORDER BY table_id").fetchall())
        assert [tuple(span) for span in spans] == [("elsewhere", "h1", 1, 2.0, 1), ("nowhere", "h1", 1, 1.0, None)]
        assert await store.read(lambda tx: [tx.history(table, "h1") for table in ("nowhere", "elsewhere")]) == [
            played[:1], played]
    finally:
        await store.close()


async def test_a_log_row_of_history_alone_is_passed_over_by_a_replay_and_numbered_past(tmp_path: Path) -> None:
    """A log row that only holds events (`HISTORY_ONLY`: history written outside an action) after the table's
    snapshot: the restarted table replays the actions around it and skips it, ends as it stood, and its next action
    takes the number after it."""
    table = Table(tmp_path / "bot.db")
    await table.open()
    await table.play("holdem", ("check", "call"), leave_open=True)
    assert table.service is not None and table.store is not None
    await table.do(to_act(await table.do(ADMIN, "/table")), "/call")  # logged after the deal's snapshot
    live = table.service.live_state(PLACE.table_id)
    await table.store.transact(lambda tx: tx.add_history(PLACE.table_id, "n1", [{"kind": "Note"}]), now=0.0)
    last = await table.store.read(lambda tx: tx.db.execute("SELECT MAX(seq) FROM actions").fetchone()[0])
    assert await logged_actions(table.store) == 1
    service = await table.restart()  # no snapshot at the stop: the log is replayed, the history's row skipped
    stored = await table.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    assert stored is not None and live is not None and list(stored) == orjson.loads(live)
    reply = await table.do(to_act(await table.do(ADMIN, "/table")), "/check")
    assert reply.error is None, reply.error
    numbers = await table.store.read(lambda tx: [row[0] for row in tx.db.execute(
        "SELECT seq FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq", (PLACE.table_id, last))])
    assert numbers == [last + 1]
    logged = await table.store.read(lambda tx: tx.every_event(PLACE.table_id))
    assert [event for _, hand_id, _, event in logged if hand_id == "n1"] == [{"kind": "Note"}]
    await table.store.close()


def to_act(reply: Reply) -> Actor:
    """The player whose turn the table message shows."""
    assert reply.table is not None and reply.table.to_act is not None
    return ADMIN if reply.table.to_act == ADMIN.user_id else BOB


async def test_start_up_and_a_clean_stop_look_only_past_each_tables_snapshot(store: Store) -> None:
    """The log keeps every action (the history), so the reads of start-up (every snapshot, and whether actions were
    logged after it) and of a clean stop (the tables with such actions) look each table's log up past its snapshot
    by the log's key, never reading it whole."""
    statements: list[str] = []

    def plans(tx: Tx) -> list[str]:
        tx.db.set_trace_callback(statements.append)
        list(snapshots(tx))
        logged_tables(tx)
        tx.db.set_trace_callback(None)
        return [" / ".join(str(row[-1]) for row in tx.db.execute(f"EXPLAIN QUERY PLAN {sql}")) for sql in statements]

    found = await store.read(plans)
    assert len(found) == 2 and all("SEARCH actions" in plan for plan in found), found
    assert not any("SCAN actions" in plan for plan in found), found


async def test_a_hands_moves_are_in_its_log_rows_and_the_ledger_check_adds_them_up(tmp_path: Path) -> None:
    """Migration 17: a hand's chip moves are recorded in its actions' log rows, not as ledger rows (the buy-ins,
    outside any hand, are); `check_ledger` proves every balance from both, so a log row whose move was changed is
    found, naming the two accounts it put out."""
    table = await played(tmp_path / "bot.db")
    store = table.store
    assert store is not None
    ledger = await store.read(lambda tx: tx.db.execute("SELECT reason, hand_id FROM ledger").fetchall())
    assert ledger and all(hand_id is None for _, hand_id in ledger), ledger  # buy-ins and grants
    moves = await store.read(lambda tx: [move for _, _, move in tx.every_move() if move.hand_id is not None])
    assert {move.hand_id[0] for move in moves if move.hand_id} == {"h", "r", "t"}
    assert await store.read(lambda tx: tx.check_ledger()) == []

    def tamper(tx: Tx) -> tuple[str, str]:
        seq, text = tx.db.execute("SELECT seq, moves FROM actions WHERE table_id = ? AND moves IS NOT NULL "
                                  "ORDER BY seq LIMIT 1", (PLACE.table_id,)).fetchone()
        logged = orjson.loads(text)
        logged[0][2] += 1
        tx.db.execute("UPDATE actions SET moves = ? WHERE table_id = ? AND seq = ?",
                      (orjson.dumps(logged).decode(), PLACE.table_id, seq))
        return logged[0][0], logged[0][1]

    source, target = await store.transact(tamper, now=0.0)
    problems = await store.read(lambda tx: tx.check_ledger())
    assert len(problems) == 2 and problems[0].startswith(min(source, target)) and any(
        problem.startswith(max(source, target)) for problem in problems), problems
    await store.close()


async def test_a_job_that_leaves_a_hands_move_out_of_the_log_fails_and_moves_nothing(store: Store) -> None:
    """A move recorded for the log (`logged`) changes the balances at once; a job that then writes no log row for
    it fails, its writes undone, so no balance ever lacks its record."""
    def grant(tx: Tx) -> None:
        tx.save_table(PLACE.table_id, PLACE.chat_id, {}, {})
        tx.move(PLACE.chat_id, "mint:chat", "stack:chat/table:ann", 100, "grant", table_id=PLACE.table_id)

    def unlogged_move(tx: Tx) -> None:
        tx.move(PLACE.chat_id, "stack:chat/table:ann", "pot:chat/table", 40, "bet", table_id=PLACE.table_id,
                hand_id="h1", logged=True)

    await store.transact(grant, now=1.0)
    with pytest.raises(RuntimeError, match="left out of the action log"):
        await store.transact(unlogged_move, now=2.0)
    assert await store.read(lambda tx: (tx.balance("stack:chat/table:ann"), tx.balance("pot:chat/table"))) == (100, 0)
    assert await store.read(lambda tx: tx.check_ledger()) == []

    def logged_move(tx: Tx) -> None:
        unlogged_move(tx)
        tx.log_action(PLACE.table_id, 1, HISTORY_ONLY)

    await store.transact(logged_move, now=3.0)
    assert await store.read(lambda tx: (tx.balance("stack:chat/table:ann"), tx.balance("pot:chat/table"))) == (60, 40)
    assert await store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_hands_span_is_written_once_when_it_ends(backend: str, tmp_path: Path,
                                                         request: pytest.FixtureRequest) -> None:
    """While a hand is in play its table's row says where it begins and it has no span row; the action that ends it
    writes its span, whole, once. A hand that never ended (voided) gets its span, with no end, when the next hand
    takes its place in the row; one shown after it ended is left as it is. On PostgreSQL too."""
    database = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "bot.db"
    store = await Store.open(database)

    def act(seq: int, hand_id: str, kind: str) -> Any:
        def job(tx: Tx) -> None:
            if seq == 1:
                tx.save_table(PLACE.table_id, PLACE.chat_id, {}, {})
            if tx.dialect.is_shared:
                tx.lock_table(PLACE.table_id)  # as every action there starts
            tx.record(PLACE.table_id, hand_id, [{"kind": kind}])
            tx.log_action(PLACE.table_id, seq, HISTORY_ONLY)
        return job

    def where(tx: Tx) -> tuple[list[tuple[Any, ...]], tuple[Any, ...]]:
        spans = tx.db.execute("SELECT hand_id, first_seq, at, ended_seq FROM hand_spans ORDER BY first_seq")
        row = tx.db.execute("SELECT hand_id, hand_seq, hand_at FROM tables WHERE table_id = ?", (PLACE.table_id,))
        return [tuple(span) for span in spans.fetchall()], tuple(row.fetchone())

    try:
        await store.transact(act(1, "h1", "HandStarted"), now=1.0)
        await store.transact(act(2, "h1", "PlayerChecked"), now=2.0)
        assert await store.read(where) == ([], ("h1", 1, 1.0))
        await store.transact(act(3, "h1", "HandEnded"), now=3.0)
        await store.transact(act(4, "h1", "HandShown"), now=4.0)  # shown after it ended
        assert await store.read(where) == ([("h1", 1, 1.0, 3)], ("h1", 1, 1.0))
        assert await store.read(lambda tx: tx.finished_hands(PLACE.table_id, 5)) == ["h1"]
        await store.transact(act(5, "h2", "HandStarted"), now=5.0)  # voided: it never ends
        await store.transact(act(6, "h3", "HandStarted"), now=6.0)
        assert await store.read(where) == ([("h1", 1, 1.0, 3), ("h2", 5, 5.0, None)], ("h3", 6, 6.0))
        logged = await store.read(lambda tx: [[seq for seq, *_ in tx.hand_log(PLACE.table_id, hand_id)]
                                              for hand_id in ("h1", "h2", "h3")])
        assert logged == [[1, 2, 3, 4], [5], [6]]  # each up to the next one's first row, the one in play to the end
    finally:
        await store.close()
