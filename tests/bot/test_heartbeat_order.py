"""The heartbeat and the downtime it tells: a start-up reads the downtime before its process's first heartbeat,
whatever order the start's steps come in (a heartbeat written first would end the downtime before it is counted); and
with several processes (PostgreSQL), a process heard from within `ALIVE_SECONDS` served its tables until now, for a
start-up and a takeover alike."""

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
from tests.bot.helpers import at, everything_said, listen, table_showed
from tests.bot.test_service_tournament_options import rebuy_night_with_a_bust
from tests.bot.test_shared_database import beat_last_at, crashed_after_a_quiet_bust, stop_watching, two_services

BOB_WINS_AT_THE_BREAK = [
    "⏸ Break until 20:00.", "Bob finishes with 600 chips, worth 100.",
    "🏆 The tournament is over. Winner: Bob!\nPlaces: 1. Bob · 2. Ann",
    "Settlement (money units):\nAnn: paid 50, cashed out 0, net −50\nBob: paid 50, cashed out 100, net +50\n"
    "Payments:\nAnn → Bob: 50"]
"""What the clock's 19:00 appointment says when it fires on time in the rebuy night of `quiet_until_the_break`: the
rebuy period over with Ann out, Bob, the lone player, has won."""


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
        assert [reply.public for reply in heard] == [[
            "⏸ Break until 20:00 (30m left).\n1 player left of 2 entries; 0 rebuys; paid in: 100.",
            "The rebuy period ended while the bot was offline: it runs again until 19:40, for as long as the downtime "
            "cut it short."]]
        assert table_showed(heard) == (
            "Texas Hold'em — seats:\n  Bob — 600\nHand #1: Bob wins 600.\nWaiting until 19:40 for a busted player to "
            "come back — rebuy (/rebuy): Ann. If nobody does, the last player left wins.")
        assert await reopened.read(lambda tx: tx.db.execute(
            "SELECT alive_at FROM processes WHERE process_id = ?", (reopened.process_id,)).fetchone()) == (at(19, 30),)
    finally:
        beating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beating
        await reopened.close()


async def quiet_until_the_break(one: Service, clock: FakeClock, last_beat: float) -> tuple[str, float]:
    """`one` runs a rebuy night, its table quiet since a bust at 18:20 and the clock's warnings of the break (in 5
    minutes, in 1), its last heartbeat at `last_beat`; it fires nothing more. The key and due time of the clock's
    19:00 appointment (the rebuy period's end, the first break's start), armed by `one` and unfired."""
    await rebuy_night_with_a_bust(one, clock)
    for warning in (at(18, 55), at(18, 59)):
        clock.current = warning
        assert await one.scheduler.fire_due() == 1
    [(key, _, due_at, _)] = await one.store.read(lambda tx: tx.timers())
    assert due_at == at(19, 0)
    await beat_last_at(one, clock, last_beat)
    return key, due_at


async def test_a_process_starting_leaves_a_live_processs_just_due_appointment_to_it(postgres_url: str) -> None:
    """Service `one` runs a rebuy night, its table quiet since a bust at 18:20 and the clock's warnings of the break,
    but `one` alive (its last heartbeat at 18:59:58, a fresh one). At 19:00:01 service `two` starts, the clock's
    19:00 appointment (the rebuy period's end, the first break's start) just due and not yet fired by `one`: `two`'s
    start-up counts no downtime for it (it counted the 2 s from `one`'s heartbeat to 19:00 and gave them back to the
    rebuy period, the break then announced as if the bot had been offline) and holds it as `one` armed it: whichever
    of the two claims it first fires it on time, as the rebuy period's end."""
    clock = FakeClock(at(18, 0))
    async with two_services(postgres_url, clock) as (one, two):
        await one.start()
        key, due_at = await quiet_until_the_break(one, clock, at(18, 59) + 58)
        clock.current = at(19, 0) + 1
        heard = listen(two)  # what `two` says from its start on
        await two.start()
        assert two.scheduler.due_at(key) == due_at, "held as armed, not fired at the start as one missed"
        assert await two.scheduler.fire_due() == 1
        assert [reply.public for reply in heard] == [BOB_WINS_AT_THE_BREAK]
        assert table_showed(heard) == "The tournament is over: /tournament close shows its places and who pays whom."
        assert await two.store.read(lambda tx: tx.check_ledger()) == []


async def test_a_takeover_from_a_stalled_process_counts_no_downtime_while_it_is_alive(postgres_url: str) -> None:
    """As above, `one`'s last heartbeat at 18:59:57, then it stalls: alive (its store open), it neither beats nor
    fires the clock's 19:00 appointment. At 19:00:03 service `two` takes the appointment over (`watch_timers`: it is
    `TAKEOVER_SECONDS` overdue). `one` was heard from 6 s before: its beat late, but within `ALIVE_SECONDS` (as a
    beat waiting behind the players' writes is), so it served the table until now, as a start-up at this moment
    counts it, and the break begins as on time. Counted from the heartbeat, the 3 s before 19:00 were downtime: the
    rebuy period ran again "while the bot was offline". `one`, going on, fires it no second time."""
    clock = FakeClock(at(18, 0))
    watching: asyncio.Task[None] | None = None
    async with two_services(postgres_url, clock, started=True) as (one, two):  # `two` holds none of `one`'s timers
        try:
            heard_one, heard_two = listen(one), listen(two)
            await quiet_until_the_break(one, clock, at(18, 59) + 57)
            said_by_one = everything_said(heard_one)
            clock.current = at(19, 0) + 3
            watching = asyncio.create_task(two.watch_timers(every=0.01))
            async with asyncio.timeout(5):
                while await two.scheduler.fire_due() == 0:
                    await asyncio.sleep(0.01)
            assert await one.scheduler.fire_due() == 1  # its claim finds the next appointment armed: nothing done
            assert everything_said(heard_one) == said_by_one
            assert [reply.public for reply in heard_two] == [BOB_WINS_AT_THE_BREAK]
            assert await two.store.read(lambda tx: tx.check_ledger()) == []
        finally:
            await stop_watching(watching)
