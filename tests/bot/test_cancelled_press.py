"""A caller that stops waiting while its job waits in the store's queue: the job still commits, and what follows the
commit in this process (the table's timers) happens all the same."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store, Tx
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import listen


@contextlib.asynccontextmanager
async def database_thread_held(store: Store) -> AsyncIterator[threading.Event]:
    """The store's database thread busy until the yielded event is set (or the block ends): a batch written
    meanwhile waits in its queue behind it."""
    entered, release = threading.Event(), threading.Event()

    def hold(_connection: Any) -> None:
        entered.set()
        release.wait(10)

    holding = asyncio.create_task(store.outside_transaction(hold))
    while not entered.is_set():
        await asyncio.sleep(0.001)
    try:
        yield release
    finally:
        release.set()
        await holding


async def cancelled_while_queued(store: Store, waiting: asyncio.Task[Any]) -> None:
    """Cancel `waiting` once its job is queued behind the held database thread, then let the thread go on, and
    return once the job's batch is settled (the store's next transaction is behind it)."""
    async with database_thread_held(store) as release:
        for _ in range(10):  # the job queued, its batch taken by the store's writer and queued for the thread
            await asyncio.sleep(0)
        assert not waiting.done(), "the job did not wait behind the held thread"
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        release.set()
    await store.transact(lambda tx: None, now=0.0)


async def test_a_press_cancelled_while_its_job_waits_still_arms_the_next_turn(service: Service, store: Store,
                                                                              clock: FakeClock) -> None:
    """Ann calls, and her press's caller is cancelled (Discord abandoned the interaction) while its job waits for
    the database thread. The call is kept, so Bob's turn timer must be armed: it was armed only when the caller got
    the outcome, so the table waited for ever (the scheduler kept Ann's old turn, which finds nothing to do)."""
    heard = listen(service)
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # heads-up: the dealer, small blind, acts first
    clock.advance(5)  # Ann's turn ran from the deal; Bob's runs from her call, 5 s later
    await cancelled_while_queued(store, asyncio.create_task(service.handle(PLACE, ANN, "/call")))

    turns = [timer.due_at for timer in service.scheduler.armed if timer.table_id == PLACE.table_id]
    assert turns == [clock.now() + 60]  # a Hold'em turn: 60 s by default
    clock.advance(60)
    assert await service.scheduler.fire_due() == 1
    assert len(heard) == 1 and heard[0].table is not None  # Bob's turn ran out: his time bank goes
    assert heard[0].table.text.endswith("⏳ Bob is using the time bank: 60\xa0s.")


async def test_a_transaction_s_then_runs_after_its_commit_even_for_a_cancelled_caller(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """`then` gets the job's result once it is committed, whether its caller still waits or not; a job that fails
    has none run; one that raises is logged, and the batch's other callers get their outcomes all the same."""
    got: list[object] = []

    def broken(_result: object) -> None:
        raise RuntimeError("broken then")

    def refused(_tx: Tx) -> None:
        raise ValueError("refused")

    async with database_thread_held(store) as release:
        abandoned = asyncio.create_task(store.transact(lambda tx: "abandoned", now=0.0, then=got.append))
        failing = asyncio.create_task(store.transact(refused, now=0.0, then=got.append))
        raising = asyncio.create_task(store.transact(lambda tx: "raising", now=0.0, then=broken))
        waited = asyncio.create_task(store.transact(lambda tx: "waited", now=0.0, then=got.append))
        for _ in range(10):
            await asyncio.sleep(0)
        abandoned.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await abandoned
        assert got == []  # nothing is committed yet
        release.set()
        with caplog.at_level(logging.ERROR, logger="bot.store"):
            assert await waited == "waited"
    assert got == ["abandoned", "waited"]
    with pytest.raises(ValueError, match="refused"):
        await failing
    assert await raising == "raising"
    assert [str(record.exc_info[1]) for record in caplog.records if record.exc_info] == ["broken then"]
