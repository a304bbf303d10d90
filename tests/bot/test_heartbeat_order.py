"""A start-up reads the downtime before its process's first heartbeat, whatever order the start's steps come in: a
heartbeat written first would end the downtime before it is counted (SQLite counts it from the last heartbeat)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from functools import partial

import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store
from bot.store.downtime import BeatBeforeStart, beat, start_beating
from tests.bot.helpers import at, everything_said, listen
from tests.bot.test_shared_database import crashed_after_a_quiet_bust


async def test_a_heartbeat_before_the_start_up_is_refused_and_writes_nothing(store: Store) -> None:
    """`beat` refuses until `start_beating` has read the downtime and written the process's first heartbeat."""
    with pytest.raises(BeatBeforeStart):
        await store.transact(partial(beat, process_id="p"), now=100.0)
    assert await store.read(lambda tx: tx.db.execute("SELECT * FROM processes").fetchall()) == []
    await store.transact(partial(start_beating, process_id="p"), now=100.0)
    await store.transact(partial(beat, process_id="p"), now=105.0)
    assert await store.read(lambda tx: tx.db.execute("SELECT * FROM processes").fetchall()) == [("p", 105.0)]


async def test_the_heartbeat_started_before_the_start_up_leaves_the_downtime_to_it(store: Store) -> None:
    """A rebuy night's player busts at 18:20; the bot lives on, its last heartbeat at 18:50, and crashes. At 19:30
    the bot starts again, its heartbeat task (`watch_timers`) set going before the start-up, the steps swapped: its
    heartbeats wait for the start-up, which counts the downtime from 18:50 and gives back the 10 minutes it took of
    the rebuy period (until 19:40). Written first, a heartbeat at 19:30 left no downtime to count, nothing given
    back."""
    await crashed_after_a_quiet_bust(store)

    reopened = await Store.open(store.location)
    later = FakeClock(at(19, 30))
    restarted = Service(reopened, later, rng=random.Random(5))
    heard = listen(restarted)
    beating = asyncio.create_task(restarted.watch_timers(every=0.01))
    try:
        await asyncio.sleep(0.1)  # several heartbeats tried
        await restarted.start()
        await restarted.scheduler.fire_due()
        await asyncio.sleep(0.1)  # and beating after the start
        assert ("The rebuy period ended while the bot was offline: it runs again until 19:40, for as long as the "
                "downtime cut it short.") in everything_said(heard)
        assert await reopened.read(lambda tx: tx.db.execute(
            "SELECT alive_at FROM processes WHERE process_id = ?", (reopened.process_id,)).fetchone()) == (at(19, 30),)
    finally:
        beating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beating
        await reopened.close()
