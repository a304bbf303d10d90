"""Deadlines armed by logged actions live in the action log's rows (`Tx.set_timer` with `logged`): the timer's row
is written once and then only points there, yet every reader (a restart, a firing timer, a pause lifted, the
pruning) finds the deadline the last action armed."""

import random
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store, Tx
from bot.store.pauses import pause_tables, resume_tables
from bot.store.prune import prune_batch
from tests.bot.helpers import press_label

KEY = "holdem:t"


def arm(due_at: float, step: int, seq: int) -> object:
    """An action of table `t` (number `seq`) arming the turn timer, logged as the service logs one."""

    def job(tx: Tx) -> None:
        tx.set_timer(KEY, "t", due_at, {"kind": "turn", "step": step}, logged=True)
        tx.log_action("t", seq, '{"k":"c"}')

    return job


def row(tx: Tx) -> tuple[float, str, int | None]:
    """The timer's own row: due time, payload, and the log row it points to."""
    found = tx.db.execute("SELECT due_at, payload, logged_from FROM timers WHERE key = ?", (KEY,)).fetchone()
    return float(found[0]), str(found[1]), found[2]


@pytest.fixture
async def store(tmp_path: Path) -> Store:
    opened = await Store.open(tmp_path / "bot.db")
    await opened.transact(lambda tx: tx.save_table("t", "c", {}, {}), now=0.0)
    yield opened
    await opened.close()


async def test_the_row_is_written_once_and_every_reader_finds_the_last_deadline(store: Store) -> None:
    for seq in range(1, 6):
        await store.transact(arm(100.0 + seq, seq, seq), now=float(seq))
    # the first logged arming pointed the row to the log; the four after it left the row alone
    assert await store.read(row) == (101.0, '{"kind":"turn","step":1}', 1)
    assert await store.read(lambda tx: tx.timers()) == [(KEY, "t", 105.0, {"kind": "turn", "step": 5})]
    assert await store.read(lambda tx: tx.timers(due_by=104.0)) == []
    assert await store.read(lambda tx: tx.claim_timer(KEY)) == (105.0, {"kind": "turn", "step": 5})


async def test_a_restart_finds_the_last_deadline_in_the_log(tmp_path: Path, store: Store) -> None:
    await store.transact(arm(101.0, 1, 1), now=1.0)
    await store.transact(arm(102.0, 2, 2), now=2.0)
    await store.transact(lambda tx: tx.log_action("t", 3, '{"k":"h"}'), now=3.0)  # a row with no deadline after
    await store.close()
    reopened = await Store.open(tmp_path / "bot.db")
    try:  # a new store knows nothing in memory: the row says where to look
        assert await reopened.read(lambda tx: tx.timers()) == [(KEY, "t", 102.0, {"kind": "turn", "step": 2})]
        await reopened.transact(arm(103.0, 3, 4), now=4.0)  # arming it again points the row anew, from row 4
        assert await reopened.read(row) == (103.0, '{"kind":"turn","step":3}', 4)
    finally:
        await reopened.close()


async def test_another_timer_of_the_table_armed_later_does_not_hide_it(store: Store) -> None:
    await store.transact(arm(101.0, 1, 1), now=1.0)

    def clock(tx: Tx) -> None:  # a second timer of the table, in a later row without the first one
        tx.set_timer("clock:t", "t", 500.0, {"kind": "clock"}, logged=True)
        tx.log_action("t", 2, '{"k":"c"}')

    await store.transact(clock, now=2.0)
    assert await store.read(lambda tx: tx.timers()) == [(KEY, "t", 101.0, {"kind": "turn", "step": 1}),
                                                        ("clock:t", "t", 500.0, {"kind": "clock"})]


async def test_a_logged_deadline_left_out_of_the_log_fails_its_transaction(store: Store) -> None:
    with pytest.raises(RuntimeError, match="left out of the action log"):
        await store.transact(lambda tx: tx.set_timer(KEY, "t", 101.0, {}, logged=True), now=1.0)
    assert await store.read(lambda tx: tx.timers()) == []


async def test_disarming_or_writing_it_otherwise_ends_the_pointing(store: Store) -> None:
    await store.transact(arm(101.0, 1, 1), now=1.0)
    await store.transact(lambda tx: tx.set_timer(KEY, "t", 200.0, {"kind": "next"}), now=2.0)
    assert await store.read(row) == (200.0, '{"kind":"next"}', None)
    assert await store.read(lambda tx: tx.timers()) == [(KEY, "t", 200.0, {"kind": "next"})]
    await store.transact(arm(102.0, 2, 2), now=3.0)  # logged again: the row points anew
    assert await store.read(row) == (102.0, '{"kind":"turn","step":2}', 2)
    await store.transact(lambda tx: tx.clear_timer(KEY), now=4.0)
    assert await store.read(lambda tx: tx.timers()) == []
    await store.transact(arm(103.0, 3, 3), now=5.0)  # and after a disarm
    assert await store.read(lambda tx: tx.timers()) == [(KEY, "t", 103.0, {"kind": "turn", "step": 3})]


async def test_lifting_a_pause_moves_the_last_deadline_not_the_rows(store: Store) -> None:
    await store.transact(arm(101.0, 1, 1), now=1.0)
    await store.transact(arm(130.0, 2, 2), now=2.0)
    await store.transact(lambda tx: pause_tables(tx, ["t"]), now=10.0)  # 120 s left of the turn
    moved = await store.transact(lambda tx: resume_tables(tx, ["t"], 30.0), now=1000.0)
    assert moved == [(KEY, "t", 1120.0, {"kind": "turn", "step": 2})]
    assert await store.read(lambda tx: tx.timers()) == moved


async def test_pruning_the_rows_that_hold_a_deadline_writes_it_into_its_row_first(store: Store) -> None:
    def hand(tx: Tx) -> None:  # a hand long over, its last action arming the next hand's timer, then a snapshot
        tx.record("t", "h1", [{"kind": "HandStarted"}])
        tx.set_timer(KEY, "t", 105.0, {"kind": "turn", "step": 1}, logged=True)  # what the timer's row then holds
        tx.log_action("t", 1, '{"k":"c"}')
        tx.record("t", "h1", [{"kind": "HandEnded"}])
        tx.set_timer(KEY, "t", 109.0, {"kind": "next"}, logged=True)
        tx.log_action("t", 2, '{"k":"c"}')
        tx.save_snapshot("t", "c", "{}", "{}", 2)

    await store.transact(hand, now=100.0)
    deleted, _, _ = await store.transact(lambda tx: prune_batch(tx, before=10_000.0), now=20_000.0)
    assert deleted == 2
    assert await store.read(lambda tx: tx.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]) == 0
    assert await store.read(row) == (109.0, '{"kind":"next"}', None)
    assert await store.read(lambda tx: tx.timers()) == [(KEY, "t", 109.0, {"kind": "next"})]


async def test_a_hands_actions_write_no_timer_row_and_a_restart_arms_the_last_turn(tmp_path: Path) -> None:
    """Through the service: a three-handed hand's actions each arm the turn timer anew; the timer's row is the one
    the first logged arming (the seating's next-hand timer) pointed to the log, and a restarted bot arms the turn of
    the player to act now, as the running one has it armed."""
    clock = FakeClock()
    store = await Store.open(tmp_path / "bot.db")
    service = Service(store, clock, rng=random.Random(3))
    place, actors = Place("chat", "chat/poker"), {name: Actor(name, name.title()) for name in ("ann", "bob", "cat")}
    for actor in actors.values():
        await service.handle(place, actor, "/join 200")
    reply = await service.handle(place, actors["ann"], "/deal")
    key = f"holdem:{place.table_id}"
    pointed = await store.read(lambda tx: tx.db.execute("SELECT * FROM timers WHERE key = ?", (key,)).fetchone())
    for _ in range(2):
        clock.advance(5.0)
        assert reply.table is not None and reply.table.to_act is not None
        reply = await service.press(place, actors[reply.table.to_act], press_label(reply, "call"))
        assert reply.error is None
    assert await store.read(lambda tx: tx.db.execute("SELECT * FROM timers WHERE key = ?", (key,)).fetchone()) \
        == pointed
    [(_, _, due_at, payload)] = await store.read(lambda tx: tx.timers())
    assert due_at == service.scheduler.due_at(key) == clock.now() + 60  # the turn the last press armed
    assert payload["kind"] == "turn" and pointed[2] < due_at  # the row still holds the first logged deadline
    await store.close()

    reopened = await Store.open(tmp_path / "bot.db")
    restarted = Service(reopened, FakeClock(clock.now()), rng=random.Random(3))
    try:
        await restarted.start()
        assert restarted.scheduler.due_at(key) == due_at
        assert [(timer.key, timer.payload) for timer in restarted.scheduler.armed] == [(key, payload)]
    finally:
        await reopened.close()
