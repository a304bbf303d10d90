"""Two services on one PostgreSQL database (as two bot processes would be): each sees what the other did."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Iterable
from functools import partial

import pytest

from bot.adapter_memory import AdapterMemory
from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.replay import state_json
from bot.service import Service
from bot.service.takeover import TAKEOVER_SECONDS
from bot.store import Store, Tx
from bot.store.downtime import FORGET_PROCESS_SECONDS, beat, start_beating
from bot.telegram.hints import UNWRITTEN_SECONDS, Dealt
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import everything_said, listen, restart_after_downtime, started_service
from tests.bot.test_service_tournament_options import at, rebuy_night_with_a_bust


async def stop_watching(watching: asyncio.Task[None] | None, *stores: Store) -> None:
    """A test's end: the watching task (if started) cancelled and awaited, then the stores closed."""
    if watching is not None:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
    for store in stores:
        await store.close()


async def beat_last_at(service: Service, clock: FakeClock, when: float) -> None:
    """`service`'s process says it is alive (the heartbeat its `watch_timers` writes) at `when`, then beats no more
    (it dies, or stops, before its next heartbeat)."""
    clock.current = when
    beating = asyncio.create_task(service.watch_timers(every=0.01))

    def last_heartbeat(tx: Tx) -> float | None:
        return tx.db.execute("SELECT MAX(alive_at) FROM processes").fetchone()[0]

    async with asyncio.timeout(5):
        while await service.store.read(last_heartbeat) != when:
            await asyncio.sleep(0.01)
    await stop_watching(beating)


async def crashed_after_a_quiet_bust(store: Store) -> None:
    """A rebuy night on `store`: a player busts at 18:20 (the table's last write), the bot lives on, its last
    heartbeat at 18:50, and crashes (its store closed, no clean stop)."""
    clock = FakeClock(at(18, 0))
    service = await started_service(store, clock, seed=3)
    await rebuy_night_with_a_bust(service, clock)
    await beat_last_at(service, clock, at(18, 50))
    await store.close()


@contextlib.asynccontextmanager
async def two_services(postgres_url: str, clock: FakeClock, *, started: bool = False) -> AsyncIterator[
        tuple[Service, Service]]:
    """Two services on one database, each with its own store (as two processes would be), seeded 1 and 2 (`started`:
    their timers armed, as at a process's start); their stores closed at the end."""
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        one = Service(first, clock, rng=random.Random(1))
        two = Service(second, clock, rng=random.Random(2))
        if started:
            await one.start()
            await two.start()
        yield one, two
    finally:
        await first.close()
        await second.close()


async def test_a_service_reads_a_table_again_after_another_changed_it(postgres_url: str) -> None:
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        first = one.store
        assert (await one.handle(PLACE, ANN, "/join 200")).error is None  # `one` keeps the table in memory
        assert (await two.handle(PLACE, BOB, "/join 200")).error is None  # and `two` changes it
        view = (await one.handle(PLACE, ANN, "/table")).table
        assert view is not None and "Bob" in view.text  # `one` saw the action number move, read it again
        assert (await one.handle(PLACE, ANN, "/deal")).error is None  # so it deals to both, keeping Bob's seat
        assert "Bob" in ((await two.handle(PLACE, BOB, "/table")).table or view).text
        assert await first.read(lambda tx: tx.check_ledger()) == []


async def test_two_services_take_turns_in_a_hand_each_replaying_the_others_logged_actions(postgres_url: str) -> None:
    """Between two snapshots a hand's actions are rows of the action log: a service whose live table is behind the
    table's stored action number reads it again (snapshot, log replayed) before it acts, so the hand goes on where
    the other service left it, and each service's live table is what a restart would resume."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        services, first, second = [one, two], one.store, two.store
        for actor in (ANN, BOB, CAT):
            assert (await services[0].handle(PLACE, actor, "/join 200")).error is None
        assert (await services[1].handle(PLACE, ANN, "/deal")).error is None
        logged = acted = 0
        for turn in range(12):
            service = services[turn % 2]
            for actor in (ANN, BOB, CAT):
                if ((await service.handle(PLACE, actor, "/call")).error is None
                        or (await service.handle(PLACE, actor, "/check")).error is None):
                    acted += 1
                    break
            logged = max(logged, await first.read(
                lambda tx: tx.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]))
            stored = await second.read(lambda tx, service=service: service.stored_table(tx, PLACE.table_id))
            assert stored is not None and state_json(list(stored)) == service.live_state(PLACE.table_id)
        assert acted >= 6 and logged > 0
        assert await first.read(lambda tx: tx.check_ledger()) == []


async def test_the_telegram_adapters_rows_keep_64_bit_ids_on_postgresql(postgres_url: str) -> None:
    """A supergroup's id (-100…) and a message id do not fit PostgreSQL's 4-byte INTEGER: the adapter's tables are
    created with 8-byte ones, and its writes use the SQL both databases speak."""
    from bot.adapter_memory import AdapterMemory
    from bot.telegram.memory import Memory, Posted

    clock = FakeClock()
    store = await Store.open(postgres_url)
    try:
        memory = Memory(AdapterMemory(store, clock))
        await memory.load()
        group, user = -1001234567890, 7_000_000_000
        assert await memory.refuse_photos(group, True)
        assert await memory.hint_once(group, user)
        await memory.open_private_chat(user)
        await memory.remember_table("tg:1/t", Posted("h1", group, 2_500_000_000))
        again = Memory(AdapterMemory(store, clock))
        await again.load()
        assert group in again.no_photos and (group, user) in again.hinted and user in again.private_chats
        assert again.tables["tg:1/t"].message_id == 2_500_000_000
    finally:
        await store.close()


async def test_a_stale_timer_leaves_the_turn_timer_another_service_armed_just_after_it(postgres_url: str) -> None:
    """Service `one` armed the turn's time-out; service `two` took the action half a second later and armed the next
    turn's time-out under the same key, due half a second after `one`'s. When `one`'s stale copy fires, the stored
    row is another deadline of the key (a later step): `one` leaves it alone, so `two` fires it when it is due and the
    hand goes on (it used to claim that row and fire its stale payload, which did nothing: the hand then waited
    forever, no time-out left)."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        first = one.store
        for actor in (ANN, BOB):
            assert (await one.handle(PLACE, actor, "/join 200")).error is None
        assert (await one.handle(PLACE, ANN, "/set time_bank 0")).error is None
        assert (await one.handle(PLACE, ANN, "/deal")).error is None
        [(key, _, armed_at, payload)] = await first.read(lambda tx: tx.timers())
        clock.advance(0.5)
        assert (await two.handle(PLACE, ANN, "/call")).error is None  # `one`'s copy of the timer is stale now
        [(_, _, due_at, newer)] = await first.read(lambda tx: tx.timers())
        assert newer != payload and armed_at < due_at <= armed_at + 1
        clock.current = armed_at
        assert await one.scheduler.fire_due() == 1
        assert await first.read(lambda tx: tx.timers()) == [(key, PLACE.table_id, due_at, newer)]
        clock.current = due_at
        assert await two.scheduler.fire_due() == 1
        kinds = await first.read(lambda tx: [event["kind"] for _, _, _, event in tx.every_event()])
        assert kinds[-2:] == ["PlayerChecked", "BoardDealt"]  # Bob timed out (checked): the flop
        assert await first.read(lambda tx: tx.check_ledger()) == []


async def test_a_stopped_services_turn_timer_is_taken_over_by_another_once_overdue(postgres_url: str) -> None:
    """Service `one` arms a turn's time-out and stops before it fires (its process died). Service `two`, started
    before the timer was armed, does not hold it, until `watch_timers` finds it overdue by `TAKEOVER_SECONDS`: then
    `two` fires it, the hand goes on, and the turn's row is gone (the next hand's start, armed by `two`, replaces it).
    Before that, `two` leaves it to `one`."""
    clock = FakeClock()
    watching: asyncio.Task[None] | None = None
    async with two_services(postgres_url, clock, started=True) as (one, two):  # nothing armed yet: `two` holds none
        first, second = one.store, two.store
        try:
            for actor in (ANN, BOB):
                assert (await one.handle(PLACE, actor, "/join 200")).error is None
            assert (await one.handle(PLACE, ANN, "/set time_bank 0")).error is None
            assert (await one.handle(PLACE, ANN, "/deal")).error is None
            [timer] = await second.read(lambda tx: tx.timers())
            key, _, due_at, _ = timer
            await first.close()  # `one` stops with its timer armed and unfired
            watching = asyncio.create_task(two.watch_timers(every=0.01))
            clock.current = due_at + TAKEOVER_SECONDS - 0.5
            await asyncio.sleep(0.1)  # several looks: not overdue enough yet
            assert two.scheduler.due_at(key) is None and await two.scheduler.fire_due() == 0
            clock.current = due_at + TAKEOVER_SECONDS
            async with asyncio.timeout(5):
                while await two.scheduler.fire_due() == 0:
                    await asyncio.sleep(0.01)
            kinds = await second.read(lambda tx: [event["kind"] for _, _, _, event in tx.every_event()])
            assert "PlayerFolded" in kinds and kinds[-1] == "HandEnded", kinds  # the player to act timed out: folded
            [(_, _, next_at, payload)] = await second.read(lambda tx: tx.timers())  # the turn's row is gone:
            assert payload["kind"] == "next" and two.scheduler.due_at(key) == next_at  # `two` armed the next hand's
            assert await second.read(lambda tx: tx.check_ledger()) == []
        finally:
            await stop_watching(watching)


async def test_a_stopped_services_tournament_gives_back_the_rebuy_period_its_downtime_cut_short(
        postgres_url: str) -> None:
    """Service `one` runs a rebuy night; a player busts at 18:20 (its last write at the table) and `one` dies. Nobody
    serves the table until `two` takes over the clock's 19:00 appointment at 19:30 (`watch_timers`): the table was
    down from 18:20, as after a start-up, so the rebuy period runs again from the takeover for the 40 minutes the
    downtime took from it, and the busted player rebuys through `two`."""
    clock = FakeClock(at(18, 0))
    watching: asyncio.Task[None] | None = None
    async with two_services(postgres_url, clock, started=True) as (one, two):
        first, second = one.store, two.store
        try:
            busted = await rebuy_night_with_a_bust(one, clock)
            await first.close()  # `one` dies with the clock's appointment armed
            watching, said = await _taken_over_at_half_past_seven(two, clock)
            assert ("The rebuy period ended while the bot was offline: it runs again until 20:10, for as long as the "
                    "downtime cut it short.") in said
            back = await two.handle(PLACE, busted, "/rebuy")
            assert back.error is None and back.public == [f"{busted.name} rebuys: 300 chips for 50."]
            assert await second.read(lambda tx: tx.check_ledger()) == []
        finally:
            await stop_watching(watching)


async def _taken_over_at_half_past_seven(two: Service, clock: FakeClock) -> tuple[asyncio.Task[None], str]:
    """`two` watches the timers from 19:30 and takes over those the dead process left (all overdue) until the rebuy
    period is said to run again (3 s at most): its watching task, and what the table heard."""
    heard = listen(two)
    watching = asyncio.create_task(two.watch_timers(every=0.01))
    clock.current = at(19, 30)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(3):
            while "The rebuy period ended while the bot was offline" not in everything_said(heard):
                await two.scheduler.fire_due()
                await asyncio.sleep(0.01)
    return watching, everything_said(heard)


@pytest.mark.parametrize(("stops_cleanly", "comes_back"), [
    (False, "taken over"), (False, "started"), (True, "taken over"), (True, "started")])
async def test_a_table_is_down_from_its_process_last_heartbeat_or_clean_stop_taken_over_or_started_again(
        postgres_url: str, stops_cleanly: bool, comes_back: str) -> None:
    """As above, but `one` lives on after the bust at 18:20, its table quiet (nothing written), saying it is alive
    (the heartbeat `watch_timers` writes): until it dies at 18:50, or until 18:39 and it stops cleanly at 18:40 (a
    minute after its last heartbeat, where a real one beats every `BEAT_SECONDS`, so that it reads in minutes).
    `two`, running, writes at another table at 19:29 and at 19:30 either takes over the clock's 19:00 appointment, or
    leaves it to a third process starting then. Either way the table was served until 18:50 (or 18:40), so the
    downtime took 10 (or 20) minutes of the rebuy period, not the 40 since the table's last write, and only those are
    given back: the period runs again until 19:40 (or 19:50). Another process's write says nothing of this table."""
    clock = FakeClock(at(18, 0))
    watching: asyncio.Task[None] | None = None
    async with two_services(postgres_url, clock, started=True) as (one, two):
        first, second = one.store, two.store
        stores: list[Store] = []
        try:
            await rebuy_night_with_a_bust(one, clock)
            if stops_cleanly:
                await beat_last_at(one, clock, at(18, 39))
                clock.current = at(18, 40)
                await one.stop()
            else:
                await beat_last_at(one, clock, at(18, 50))
            await first.close()  # `one` is gone with the clock's appointment armed
            clock.current = at(19, 29)
            assert (await two.handle(Place("other", "other/table"), CAT, "/join 200")).error is None
            if comes_back == "taken over":
                watching, said = await _taken_over_at_half_past_seven(two, clock)
            else:
                clock.current = at(19, 30)
                third, _, heard = await restart_after_downtime(postgres_url, clock)
                stores.append(third)
                said = everything_said(heard)
            until = "19:50" if stops_cleanly else "19:40"
            assert (f"The rebuy period ended while the bot was offline: it runs again until {until}, for as long as "
                    "the downtime cut it short.") in said
            assert await second.read(lambda tx: tx.check_ledger()) == []
        finally:
            await stop_watching(watching, *stores)


async def test_a_process_first_heartbeat_forgets_processes_long_gone_that_left_no_timer(postgres_url: str) -> None:
    """Each start leaves a heartbeat's row: the next process to start removes those not heard from for
    `FORGET_PROCESS_SECONDS`, but not one whose timer is still there (a takeover counts from its heartbeat)."""
    store = await Store.open(postgres_url)
    try:
        long_ago = 1_000.0
        for process_id in ("gone", "armed", "recent"):
            await store.transact(partial(start_beating, process_id=process_id), now=long_ago)
        await store.transact(partial(beat, process_id="recent"), now=long_ago + 60)
        await store.transact(lambda tx: tx.db.execute(
            "INSERT INTO timers(key, table_id, due_at, payload, armed_by) VALUES ('k', 't', 1.0, '{}', 'armed')"),
            now=long_ago)
        now = long_ago + FORGET_PROCESS_SECONDS + 30
        await store.transact(partial(start_beating, process_id="new"), now=now)
        rows = await store.read(lambda tx: sorted(tx.db.execute("SELECT process_id, alive_at FROM processes")))
        assert rows == [("armed", long_ago), ("new", now), ("recent", long_ago + 60)]
    finally:
        await store.close()


async def test_an_old_message_waiting_to_lose_its_buttons_is_queued_by_one_process_until_it_stops(
        postgres_url: str) -> None:
    """Process `one` queued an old table message to lose its buttons (its row claimed by `one`). Process `two`,
    starting meanwhile, does not queue it again (a second "remove buttons" edit); while `one` renews its claim, `two`
    leaves it alone; once `one` has stopped and its claim is `LEASE_SECONDS` stale, `two`'s watch takes it over and
    queues it, once."""
    from bot.adapter_memory import AdapterMemory
    from bot.output import OldMessage, PostedMessage
    from bot.retiring import LEASE_SECONDS, queue_kept

    clock = FakeClock()
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    watching: asyncio.Task[None] | None = None
    try:
        one, two = AdapterMemory(first, clock), AdapterMemory(second, clock)
        old = OldMessage(PLACE, 6, "Hand 1", photo=False)
        await one.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h2", 7), retiring=old)
        queued: list[list[OldMessage]] = []

        async def queue(messages: Iterable[OldMessage]) -> None:
            queued.append(list(messages))

        async def shown() -> None:
            pass

        watching = asyncio.create_task(queue_kept(shown(), two, "telegram", queue, every=0.01))
        await asyncio.sleep(0.1)
        assert queued and not any(queued), "`one` holds it: `two` queues nothing at its start nor later"
        clock.advance(LEASE_SECONDS - 1)
        await one.renew_retiring()
        clock.advance(LEASE_SECONDS - 1)  # `one` renewed its claim a lease ago less a second: it still holds it
        await asyncio.sleep(0.1)
        assert not any(queued)
        await first.close()  # `one` stops
        clock.advance(2)
        async with asyncio.timeout(5):
            while not any(queued):
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert [messages for messages in queued if messages] == [[old]], "taken over once"
        assert await two.claim_retiring("telegram", LEASE_SECONDS) == [], "`two` holds it now"
    finally:
        await stop_watching(watching, first, second)


async def test_two_processes_starting_together_claim_each_old_message_once(postgres_url: str) -> None:
    """Old messages a stopped process left (claims stale, or from before claims were kept) are each claimed by one
    of two processes that start at once, never by both."""
    from bot.adapter_memory import AdapterMemory
    from bot.output import OldMessage, PostedMessage
    from bot.retiring import LEASE_SECONDS

    clock = FakeClock()
    stores = [await Store.open(postgres_url) for _ in range(3)]
    try:
        gone, *starting = (AdapterMemory(store, clock) for store in stores)
        olds = [OldMessage(PLACE, number) for number in range(1, 41)]
        for number, old in enumerate(olds, start=100):
            await gone.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h", number), retiring=old)
        clock.advance(LEASE_SECONDS + 1)
        claimed = await asyncio.gather(*(memory.claim_retiring("telegram", LEASE_SECONDS) for memory in starting))
        assert sorted(claimed[0] + claimed[1], key=lambda old: old.message_id) == olds
    finally:
        for store in stores:
            await store.close()


async def test_a_cleanly_stopped_process_leaves_its_old_messages_to_the_next_at_once(postgres_url: str) -> None:
    """Process `one` claimed an old table message waiting to lose its buttons and stops cleanly (`Service.stop`):
    its claim is released, so process `two`, starting at once, claims it without waiting `LEASE_SECONDS` for the
    claim to go stale; a third process's claim, still running, stays its own."""
    from bot.adapter_memory import AdapterMemory
    from bot.output import OldMessage, PostedMessage
    from bot.retiring import LEASE_SECONDS

    clock = FakeClock()
    first, second, third = [await Store.open(postgres_url) for _ in range(3)]
    try:
        one = await started_service(first, clock, seed=1)
        two, running = AdapterMemory(second, clock), AdapterMemory(third, clock)
        old, kept = OldMessage(PLACE, 6, "Hand 1", photo=False), OldMessage(PLACE, 8, "Hand 2", photo=False)
        await one.memory.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h2", 7), retiring=old)
        await running.remember_table_message("telegram", PLACE.table_id, PostedMessage(-5, "h3", 9), retiring=kept)
        assert await two.claim_retiring("telegram", LEASE_SECONDS) == [], "both are held"
        clock.advance(1)
        await one.stop()
        await first.close()
        assert await two.claim_retiring("telegram", LEASE_SECONDS) == [old]
        assert await running.claim_retiring("telegram", LEASE_SECONDS) == [], "`two` holds it now"
    finally:
        for store in (first, second, third):
            await store.close()


async def test_two_players_of_one_name_joining_one_chat_at_once_through_two_processes_read_apart(
        postgres_url: str) -> None:
    """In each of 20 chats Bob plays already; two players both named Ann (two users) join at the same moment, each
    at a table of his own in the chat (a Discord server's two channels), one through each process: both are seated,
    no error reaches either, and the chat reads them apart ("Ann" and "Ann (2)"), where both transactions, neither
    seeing the other's new row, labelled theirs as the first Ann."""
    clock = FakeClock()
    chats = [f"c{number}" for number in range(20)]
    async with two_services(postgres_url, clock) as (one, two):
        for chat in chats:
            assert (await one.handle(Place(chat, f"{chat}/a"), BOB, "/join 200")).error is None
        joins = [service.handle(Place(chat, f"{chat}/{table}"), Actor(f"{chat}-{table}", "Ann"), "/join 200")
                 for chat in chats for service, table in ((one, "a"), (two, "b"))]
        replies = await asyncio.gather(*joins)
        assert [reply.error for reply in replies] == [None] * len(joins)
        for chat in chats:
            names = await one.store.read(lambda tx, chat=chat: sorted(
                tx.player_name(chat, f"{chat}-{table}") for table in "ab"))
            assert names == ["Ann", "Ann (2)"], (chat, names)
        assert await one.store.read(lambda tx: tx.check_ledger()) == []


class CountedMemory(AdapterMemory):
    """The adapters' memory in the store, counting how often a hand's dealt-in record is read (`dealt_in_hand`)."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        super().__init__(store, clock)
        self.reads = 0

    async def dealt_in_hand(self, table_id: str, key: str) -> dict[int, str] | None:
        """The record, counted (`AdapterMemory.dealt_in_hand`)."""
        self.reads += 1
        return await super().dealt_in_hand(table_id, key)


@contextlib.asynccontextmanager
async def two_processes_dealt(postgres_url: str) -> AsyncIterator[tuple[Dealt, Dealt, Store, FakeClock,
                                                                        CountedMemory]]:
    """Two processes' records of who was dealt in each Telegram table's hand, on one database, both started (their
    records read); the first one's store, their clock, and the second one's memory counting its reads of a hand's
    record. Their stores closed at the end."""
    clock = FakeClock()
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        counted = CountedMemory(second, clock)
        one, two = Dealt(AdapterMemory(first, clock), clock), Dealt(counted, clock)
        await one.load()
        await two.load()
        yield one, two, first, clock, counted
    finally:
        await first.close()
        await second.close()


async def forget_every_dealt_in(store: Store) -> None:
    """The database loses its dealt-in rows: what a process still knows, it knows from its memory."""
    await store.transact(lambda tx: tx.db.execute("DELETE FROM telegram_dealt"), now=0.0)


async def test_a_process_that_did_not_deal_the_hand_knows_who_was_dealt_in_on_telegram(postgres_url: str) -> None:
    """Both processes have started (read the dealt-in record) when `one` deals a Telegram hand, telling Ann and Bob
    their cards: when `two` shows that hand (a player's action through it), it knows them, for the cards hint under
    the table message, where it used to know nobody and the hint named nobody. The next hand, dealt by `two`, is
    known to `one` in turn; the record is read once per hand by a process that did not deal it."""
    async with two_processes_dealt(postgres_url) as (one, two, store, _, _):
        table = "tg:-5/0"
        assert await one.record(table, "h1", {11: "Ann", 12: "Bob"}) == ((11, "Ann"), (12, "Bob"))
        assert await two.unnamed(table, "h1", [11, 13]) == [13]
        assert sorted(await two.record(table, "h1", {})) == [(11, "Ann"), (12, "Bob")]
        assert await two.record(table, "h2", {12: "Bob"}) == ((12, "Bob"),)
        assert await one.record(table, "h2", {}) == ((12, "Bob"),)
        await forget_every_dealt_in(store)
        assert await one.record(table, "h2", {}) == ((12, "Bob"),), "read once: kept since"


@pytest.mark.parametrize("before", ["h1", None], ids=["an earlier hand kept", "none kept"])
async def test_a_process_that_shows_a_hand_before_its_dealer_recorded_it_reads_the_record_again(
        postgres_url: str, before: str | None) -> None:
    """`two` shows hand 2 (a player typed an action through it) an instant after `one` dealt it, before `one` wrote
    who it dealt in: the record then still holds an earlier hand (or none, the table's first), so `two` reads it
    again the next time it shows hand 2 and knows Ann and Bob from then on, with no further read. A record of a
    later hand says hand 2 is over: nobody to wait for."""
    async with two_processes_dealt(postgres_url) as (one, two, store, _, _):
        table = "tg:-5/0"
        if before is not None:
            await one.record(table, before, {13: "Cat"})
        assert await two.record(table, "h2", {}) == ()
        assert await one.record(table, "h2", {11: "Ann", 12: "Bob"}) == ((11, "Ann"), (12, "Bob"))
        assert await two.unnamed(table, "h2", [11, 12, 13]) == [13]
        await forget_every_dealt_in(store)
        assert await two.record(table, "h2", {}) == ((11, "Ann"), (12, "Bob")), "read again once: kept since"

        await one.record(table, "h4", {12: "Bob"})
        assert await two.record(table, "h3", {}) == ()
        await one.record(table, "h3", {11: "Ann"})  # (a late write of an older hand: `two` asks no more)
        assert await two.record(table, "h3", {}) == ()


async def test_a_hand_its_dealer_never_recorded_is_read_again_only_while_the_dealer_could_still_write_it(
        postgres_url: str) -> None:
    """`one` deals hand 2 and never writes who it dealt in (it stopped first, or the database refused the write).
    `two`, showing hand 2 at each action through it, reads the record again while `one` could still be writing it,
    `UNWRITTEN_SECONDS` from the first time it found none, and then no more: the hint names those `two` told itself.
    Hand 3's record, written, is read once."""
    async with two_processes_dealt(postgres_url) as (one, two, _, clock, counted):
        table = "tg:-5/0"
        await one.record(table, "h1", {13: "Cat"})
        assert await two.record(table, "h2", {}) == ()
        clock.advance(UNWRITTEN_SECONDS - 1)
        assert await two.unnamed(table, "h2", [11, 12]) == [11, 12]
        assert counted.reads == 2
        clock.advance(1)
        assert await two.unnamed(table, "h2", [11, 12]) == [11, 12]
        assert await two.record(table, "h2", {12: "Bob"}) == ((12, "Bob"),)
        clock.advance(60)
        assert await two.unnamed(table, "h2", [11, 12]) == [11]
        assert counted.reads == 2, "no read since"

        await one.record(table, "h3", {11: "Ann"})
        assert await two.record(table, "h3", {}) == ((11, "Ann"),)
        assert await two.unnamed(table, "h3", [11, 12]) == [12]
        assert counted.reads == 3


async def test_an_action_another_process_commits_as_the_lock_is_granted_is_counted(postgres_url: str) -> None:
    """`Tx.lock_table` reads where the table's log ends after its lock is granted: an action another process
    committed between the locking statement's start and its lock is counted, so this process does not log its own
    under the same number (a duplicate key, seen once in the crash test's three processes). A waiting lock (`FOR
    UPDATE`, where the store's is `NOWAIT`) holds that instant open for the test."""
    import dataclasses

    from bot.store import postgres
    from bot.store.dialect import POSTGRESQL

    await (await Store.open(postgres_url)).close()  # the schema
    other, this = postgres.connect(postgres_url), postgres.connect(postgres_url)
    try:
        Tx(other, 0.0, dialect=POSTGRESQL).ensure_chat("c")
        other.execute("INSERT INTO tables(table_id, chat_id, config, state, updated_at) "
                      "VALUES ('t', 'c', '{}', '{}', 0)")
        other.execute("BEGIN")
        other.execute("SELECT 1 FROM tables WHERE table_id = 't' FOR UPDATE")
        other.execute("INSERT INTO actions(table_id, seq, at, entry) VALUES ('t', 1, 0, '{}')")
        this.execute("BEGIN")
        waiting = Tx(this, 0.0, dialect=dataclasses.replace(POSTGRESQL, lock_row=" FOR UPDATE"))
        locking = asyncio.create_task(asyncio.to_thread(waiting.lock_table, "t"))
        await asyncio.sleep(0.5)
        assert not locking.done(), "the lock waits for the other process"
        other.execute("COMMIT")
        assert await locking == 1
    finally:
        this.execute("ROLLBACK")
        other.close()
        this.close()
