"""Start-up: every stored timer re-armed and every snapshot checked, but only a table that cannot resume is loaded;
the others are loaded by their first timer or action, which then does exactly what it would have done without the
restart."""

import asyncio
import itertools
import random
import sqlite3
from pathlib import Path
from typing import Any

from bot.clock import FakeClock
from bot.games.holdem import HoldemController
from bot.output import Actor, Place, Reply
from bot.service import Service
from bot.store import Store, Tx
from bot.store.tx import loads
from tests.bot.helpers import (
    Overriding,
    at,
    corrupt_saved_hand,
    everything_public,
    everything_said,
    ledger_ok,
    listen,
    logged_actions,
    play_out,
    press_label,
    restart_after_downtime,
    started_service,
    statements_traced,
)
from tests.bot.test_service_tournament_options import rebuy_night_with_a_bust
from tests.bot.test_shared_database import crashed_after_a_quiet_bust

PLAYERS = {actor.user_id: actor for actor in (Actor("ann", "Ann"), Actor("bob", "Bob"), Actor("cat", "Cat"))}
PLACE = Place("chat", "chat/poker")
BROKEN = Place("chat", "chat/broken")
LOAD_SNAPSHOT = "SELECT chat_id, config, state, snapshot_seq, last_number FROM tables"
"""The start of `Tx.load_snapshot`'s statement: a stored table read whole."""


async def test_a_table_not_loaded_at_start_up_times_out_and_plays_on_as_if_never_restarted(tmp_path: Path) -> None:
    """Two copies of one database: the first goes on running, the second restarts. After start-up only the table
    whose hand cannot be read back is in memory (voided); the other's turn timer and first press load it and answer
    exactly as the running copy does. On SQLite only: the copy is SQLite's online backup of the file (start-up reads
    the same store on either database, as the other tests here show on both)."""
    clock = FakeClock()
    store = await Store.open(tmp_path / "running.db")
    running = await started_service(store, clock, seed=1)
    for place in (PLACE, BROKEN):
        for actor in PLAYERS.values():
            await running.handle(place, actor, "/join 200")
        dealt = await running.handle(place, PLAYERS["ann"], "/deal")
        assert dealt.table is not None and dealt.table.to_act is not None
        called = await running.press(place, PLAYERS[dealt.table.to_act], press_label(dealt, "call"))
        assert called.error is None  # a logged action after the hand's snapshot: the restart replays it
    await corrupt_saved_hand(store, BROKEN, clock.now())
    await store.outside_transaction(lambda connection: connection.backup(sqlite3.connect(tmp_path / "copy.db")))

    copy = await Store.open(tmp_path / "copy.db")
    restarted = await started_service(copy, FakeClock(clock.now()), seed=1)
    assert restarted.live_state(PLACE.table_id) is None, "a table that can resume waits for its first action"
    assert restarted.live_state(BROKEN.table_id) is not None, "the unreadable hand was voided at start-up"
    assert [timer.table_id for timer in restarted.scheduler.armed] == [PLACE.table_id]
    heard_running, heard_restarted = listen(running, PLACE.table_id), listen(restarted, PLACE.table_id)

    for service in (running, restarted):
        assert isinstance(service.clock, FakeClock)
        for _ in range(2):  # past the 60-second turn, then past the 60-second time bank it started
            service.clock.advance(61)
            await service.scheduler.fire_due()
    assert len(heard_restarted) == 2 and heard_running == heard_restarted
    assert "using the time bank" in everything_public(heard_restarted[0])
    assert "Bob ran out of time." in everything_public(heard_restarted[1])
    assert restarted.live_state(PLACE.table_id) == running.live_state(PLACE.table_id)

    last = heard_running[-1]
    assert last.table is not None and last.table.to_act is not None
    payload = press_label(last, "check", "call")
    answers = [await service.press(PLACE, PLAYERS[last.table.to_act], payload) for service in (running, restarted)]
    assert answers[0].error is None and answers[0] == answers[1]
    assert restarted.live_state(PLACE.table_id) == running.live_state(PLACE.table_id)
    await ledger_ok(restarted)
    await store.close()
    await copy.close()


async def test_a_house_round_that_cannot_be_read_back_is_voided_at_start_up(store: Store) -> None:
    """A round voided at a restart is void whole: its bets, and the fees already paid for it (a card bought), go back
    to the players, through the ledger."""
    clock = FakeClock()
    service = await started_service(store, clock, seed=2)
    house = Place("chat", "chat/house")
    await service.handle(house, PLAYERS["ann"], "/game russian")
    for line in ("/ante 10", "/deal", "/buy"):
        assert (await service.handle(house, PLAYERS["bob"], line)).error is None, line
    assert await store.read(lambda tx: tx.balances(f"box:{house.table_id}:")) != {}
    assert await store.read(lambda tx: tx.balance(f"held:{house.table_id}:bob")) == 20  # his BET, kept for it
    assert await store.read(lambda tx: tx.balance("wallet:chat:bob")) == 1000 - 10 - 20 - 10  # ANTE, BET, card

    def corrupt(tx: Tx) -> None:
        config, state = loads(tx.load_table_json(house.table_id)[1]), service.live_state(house.table_id)
        assert state is not None
        stored = loads(state)[1]
        stored["round"] = {"phase": "nonsense"}
        tx.save_table(house.table_id, "chat", config, stored)

    await store.transact(corrupt, now=clock.now())
    await store.close()
    reopened = await Store.open(store.location)
    restarted = await started_service(reopened, clock, seed=3)
    heard = listen(restarted, house.table_id)
    for _ in range(100):  # the replies start-up caused are delivered by a task once the adapter subscribes
        if heard:
            break
        await asyncio.sleep(0.01)
    assert heard and heard[0].public == ["The round could not be resumed after a restart: it is void, and every chip "
                                         "paid into it, bets and fees, went back to whoever paid it."]
    boxes = await reopened.read(lambda tx: tx.balances(f"box:{house.table_id}:"))
    assert all(chips == 0 for chips in boxes.values())
    assert await reopened.read(lambda tx: tx.balance(f"held:{house.table_id}:bob")) == 0
    assert await reopened.read(lambda tx: tx.balance("wallet:chat:bob")) == 1000, "the ANTE, the BET and the fee back"
    await ledger_ok(restarted)
    await reopened.close()


async def test_a_check_that_fails_unexpectedly_resumes_that_table_the_full_way(store: Store) -> None:
    """Whatever the check raises, start-up goes on; that table is resumed (loaded, and voided if need be) as before."""

    def failing(state: dict[str, Any]) -> bool:
        raise RuntimeError("a check this version gets wrong")

    clock = FakeClock()
    service = Service(store, clock, rng=random.Random(2))
    for actor in PLAYERS.values():
        await service.handle(PLACE, actor, "/join 200")
    assert (await service.handle(PLACE, PLAYERS["ann"], "/deal")).error is None
    await store.close()
    reopened = await Store.open(store.location)
    failing_check = Overriding(HoldemController(), revive=failing)
    restarted = Service(reopened, clock, rng=random.Random(3), controllers={"holdem": failing_check})
    await restarted.start()
    assert restarted.live_state(PLACE.table_id) is not None
    assert [timer.table_id for timer in restarted.scheduler.armed] == [PLACE.table_id]
    await reopened.close()


async def test_a_logged_table_replays_on_the_snapshot_start_up_read_unless_it_was_stored_again(
        store: Store) -> None:
    """After a crash a table's first action replays its log on the snapshot start-up already made live, reading no
    snapshot again, and ends where the table stood; a table stored again since start-up (not through a live table)
    is read from the store instead. On PostgreSQL another process may have moved any table on meanwhile: each is read
    from the store."""
    clock = FakeClock()
    running = Service(store, clock, rng=random.Random(1))
    places = (PLACE, Place("chat", "chat/other"))
    for place in places:
        for actor in PLAYERS.values():
            await running.handle(place, actor, "/join 200")
        dealt = await running.handle(place, PLAYERS["ann"], "/deal")
        assert dealt.table is not None and dealt.table.to_act is not None
        assert (await running.press(place, PLAYERS[dealt.table.to_act], press_label(dealt, "call"))).error is None
    before = {place: running.live_state(place.table_id) for place in places}
    assert await logged_actions(store) == 2
    # a crash: no snapshot at shutdown, the next service starts on the same file
    restarted = await started_service(store, clock, seed=2)
    statements: list[str] = []

    def snapshots_read() -> int:
        """How many stored snapshots were read (`Tx.load_snapshot`) since the last call."""
        count = sum(statement.startswith(LOAD_SNAPSHOT) for statement in statements)
        statements.clear()
        return count

    async with statements_traced(store, statements.append):
        await restarted.handle(PLACE, PLAYERS["ann"], "/table")
        assert snapshots_read() == (1 if store.dialect.is_shared else 0)  # PLACE's, the only table it acted at
        assert restarted.live_state(PLACE.table_id) == before[PLACE]

    other = places[1]

    def stored_again(tx: Tx) -> None:  # the hand taken out of the stored table, behind the service's back
        chat_id, config, state = tx.load_table_json(other.table_id)
        tx.save_table_json(other.table_id, chat_id, config, state.replace('"hand":{', '"was":{', 1))

    await store.transact(stored_again, now=clock.now())
    async with statements_traced(store, statements.append):
        await restarted.handle(other, PLAYERS["ann"], "/table")
        assert snapshots_read() == 1  # the other table's, the only one it acted at
    live = restarted.live_state(other.table_id)
    assert live is not None and live != before[other] and '"was":{' in live


async def test_after_a_start_each_table_in_play_is_shown_again_paced_and_changing_nothing(store: Store) -> None:
    """What an adapter had queued for the platform before it stopped may be lost (a crash): after a start, each of
    its platform's tables with a hand or round in play is handed to its listener as it stands, at most `per_second`
    a second; tables between hands, paused ones and another platform's are left alone, and nothing is logged."""
    clock = FakeClock()
    running = Service(store, clock, rng=random.Random(1))
    playing, between, paused, elsewhere = (Place(f"chat{name}", name) for name in ("x:1", "x:2", "x:3", "y:1"))
    last: dict[Place, Reply] = {}
    for place in (playing, between, paused, elsewhere):
        for actor in PLAYERS.values():
            await running.handle(place, actor, "/join 200")
        if place is not between:
            dealt = await running.handle(place, PLAYERS["ann"], "/deal")
            assert dealt.table is not None and dealt.table.to_act is not None
            last[place] = await running.press(place, PLAYERS[dealt.table.to_act], press_label(dealt, "call"))
    await running.pause([paused.table_id])
    # a crash: the next service starts on the same database, with the log to replay
    restarted = await started_service(store, FakeClock(clock.now()), seed=2)
    heard = listen(restarted, "x:")
    shown_at: list[float] = []

    async def timed(_place: Place, _reply: Reply) -> None:
        shown_at.append(asyncio.get_running_loop().time())

    restarted.subscribe("x:", timed)
    places_in_play = [Place(f"chatx:{number}", f"x:{number}") for number in range(4, 7)]
    for place in places_in_play:  # three more in play: the pace shows
        for actor in PLAYERS.values():
            await restarted.handle(place, actor, "/join 200")
        last[place] = await restarted.handle(place, PLAYERS["ann"], "/deal")
    logged = await logged_actions(store)

    await restarted.show_tables_in_play("x:", per_second=20)
    assert [reply.table for reply in heard] == [last[place].table for place in (playing, *places_in_play)]
    assert all(reply.public == [] and reply.private == {} for reply in heard)
    assert min(later - earlier for earlier, later in itertools.pairwise(shown_at)) >= 0.05 * 0.9
    assert await logged_actions(store) == logged, "showing a table is no action"


async def test_one_table_shown_again_is_that_table_alone_not_one_whose_id_starts_with_its_digits(
        store: Store) -> None:
    """A Discord channel that takes the bot back shows its own table again (`exact`): its id `dc:123` as a prefix
    also named `dc:1234`, whose table was shown too, in another channel that had lost nothing."""
    service = await started_service(store, FakeClock(), seed=1)
    back, longer = Place("dc:guild", "dc:123"), Place("dc:guild", "dc:1234")
    last: dict[str, Reply] = {}
    for place in (back, longer):
        for actor in PLAYERS.values():
            await service.handle(place, actor, "/join 200")
        last[place.table_id] = await service.handle(place, PLAYERS["ann"], "/deal")
        assert last[place.table_id].table is not None
    shown: list[str] = []

    async def noted(place: Place, _reply: Reply) -> None:
        shown.append(place.table_id)

    service.subscribe("dc:", noted)
    await service.show_tables_in_play("dc:123", per_second=100, exact=True)
    assert shown == ["dc:123"]
    await service.show_tables_in_play("dc:", per_second=100)
    assert shown == ["dc:123", "dc:123", "dc:1234"], "a platform's prefix still shows all its tables"


async def test_start_up_learns_the_chats_with_tables_so_their_first_timers_read_no_names_or_settings(
        store: Store) -> None:
    """After downtime thousands of timers come due at once, and each read its chat's settings and players' names
    alone: start-up now learns those of every chat with a table in one read each, and a chat without a table is
    not learned. On PostgreSQL, where another process may rename a player or change a setting meanwhile, they are
    read by each action as before (only accounts, which never change, are mirrored there)."""
    clock = FakeClock()
    running = Service(store, clock, rng=random.Random(1))
    for actor in PLAYERS.values():
        await running.handle(PLACE, actor, "/join 200")
    dealt = await running.handle(PLACE, PLAYERS["ann"], "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    await store.transact(lambda tx: tx.ensure_player("elsewhere", "zed", "Zed"), now=clock.now())  # no table there

    later = FakeClock(clock.now())
    reopened = await Store.open(store.location)  # a new process: it has learned nothing yet
    try:
        restarted = await started_service(reopened, later, seed=2)
        noted: list[str] = []
        async with statements_traced(reopened, noted.append):
            heard = listen(restarted, PLACE.table_id)
            later.advance(3600)
            await restarted.scheduler.fire_due()
            assert heard and heard[0].table is not None, "the turn timer fired and the table moved on"
            reads = [sql for sql in noted if "FROM players" in sql or "FROM chats" in sql]
            assert bool(reads) == store.dialect.is_shared, reads

            noted.clear()
            assert await reopened.read(lambda tx: tx.player_name("elsewhere", "zed")) == "Zed"
            assert [sql for sql in noted if "FROM players" in sql], "a chat without a table was not learned"
    finally:
        await reopened.close()


async def night_with_add_ons(store: Store, clock: FakeClock) -> Service:
    """A running service whose table plays `home-night` with one add-on each, Ann and Bob in it, its first hand
    played out."""
    running = await started_service(store, clock, seed=4)
    ann, bob = PLAYERS["ann"], PLAYERS["bob"]
    assert (await running.handle(PLACE, ann, "/tournament create home-night addon 1")).error is None
    for actor in (ann, bob):
        assert (await running.handle(PLACE, actor, "/join")).error is None
    started = await running.handle(PLACE, ann, "/tournament start")
    await play_out(running, PLACE, PLAYERS, started, ("check", "call"))
    return running


async def test_add_ons_missed_with_a_break_the_bot_was_down_across_are_sold_after_the_restart(store: Store) -> None:
    """Down from 18:10 to 20:10, the bot missed the 19:00-20:00 break, the only time add-ons are sold (RULES.md §1c is
    silent on this): after the restart they are sold between hands for the hour the break lasted, with its button,
    and said so; not before, and not after 21:10."""
    clock = FakeClock(at(18, 0))
    running = await night_with_add_ons(store, clock)
    ann, bob = PLAYERS["ann"], PLAYERS["bob"]
    clock.current = at(18, 10)
    assert (await running.handle(PLACE, ann, "/addon")).error == "Add-ons are sold during the first break."
    await store.close()

    later = FakeClock(at(20, 10))
    reopened, restarted, heard = await restart_after_downtime(store.location, later)
    said = [message for reply in heard for message in reply.public]
    assert ("The first break, when add-ons are sold, passed while the bot was offline: add-ons are on sale between "
            "hands until 21:10 (/addon).") in said
    table = await restarted.handle(PLACE, bob, "/table")
    assert table.table is not None and table.table.to_act is not None, "the restart dealt the next hand at once"
    assert (await restarted.handle(PLACE, ann, "/addon")).error == (
        "Take the add-on between hands: wait for this hand to end.")
    await play_out(restarted, PLACE, PLAYERS, table, ("check", "call"))
    idle = await restarted.handle(PLACE, ann, "/table")
    added = await restarted.press(PLACE, ann, press_label(idle, "addon"))  # the button between hands
    assert "Ann takes the add-on: 300 chips for 50." in added.public
    later.current = at(21, 10)
    assert (await restarted.handle(PLACE, bob, "/addon")).error == "Add-ons are sold during the first break."
    await ledger_ok(restarted)
    await reopened.close()


async def test_a_wall_clock_jumping_across_the_first_break_while_the_bot_runs_sells_no_add_ons_again(
        store: Store) -> None:
    """The bot runs on while its wall clock jumps from 18:00 to 20:10 (a suspended machine waking, an NTP step): no
    downtime lies between a stop and a start-up, so the add-ons of the break the clock jumped over are not sold again
    (its announcement's timer fires late, in a running bot)."""
    clock = FakeClock(at(18, 0))
    running = await night_with_add_ons(store, clock)
    ann, bob = PLAYERS["ann"], PLAYERS["bob"]
    heard = listen(running, PLACE.table_id)
    clock.current = at(20, 10)
    await running.scheduler.fire_due()
    said = "\n".join(message for reply in heard for message in reply.public)
    assert said.startswith("⏱ Level 2: limits 50/100 (blinds 25/50), the last level"), said  # the late timer fired
    assert "passed while the bot was offline" not in said
    table = await running.handle(PLACE, bob, "/table")
    await play_out(running, PLACE, PLAYERS, table, ("check", "call"))
    assert (await running.handle(PLACE, ann, "/addon")).error == "Add-ons are sold during the first break."
    await ledger_ok(running)


async def test_a_restart_after_a_crash_counts_the_downtime_from_the_last_heartbeat_not_the_last_write(
        store: Store) -> None:
    """A player busts at 18:20 in a rebuy night, the table's last write; the bot lives on, quiet, saying it is alive
    (its heartbeat) until it crashes at 18:50, and starts again at 19:30, past the rebuy period's end at 19:00: the
    downtime took 10 minutes of the period, not the 40 since the last write, and only those are given back (until
    19:40), on SQLite as with several processes."""
    await crashed_after_a_quiet_bust(store)
    reopened, _, heard = await restart_after_downtime(store.location, FakeClock(at(19, 30)))
    assert ("The rebuy period ended while the bot was offline: it runs again until 19:40, for as long as the downtime "
            "cut it short.") in everything_said(heard)
    await reopened.close()


async def test_a_clean_stop_an_older_version_recorded_still_ends_the_tables_service(store: Store) -> None:
    """An older version stopped cleanly at 18:40 (its `stops` row; no heartbeat, its timers armed by nobody named)
    after a player busted at 18:20; the bot starts again at 19:30, past the rebuy period's end at 19:00: the tables
    were served until the stop, so the period runs again for 20 minutes (until 19:50), not for the 40 since the
    table's last write."""
    clock = FakeClock(at(18, 0))
    service = await started_service(store, clock, seed=3)
    await rebuy_night_with_a_bust(service, clock)
    clock.current = at(18, 40)
    await service.stop()

    def as_an_older_version_left_it(tx: Tx) -> None:
        tx.db.execute("DELETE FROM processes")
        tx.db.execute("UPDATE timers SET armed_by = NULL")
        tx.db.execute("INSERT INTO stops(at) VALUES (?)", (at(18, 40),))

    await store.transact(as_an_older_version_left_it, now=at(18, 40))
    await store.close()
    reopened, _, heard = await restart_after_downtime(store.location, FakeClock(at(19, 30)))
    assert ("The rebuy period ended while the bot was offline: it runs again until 19:50, for as long as the downtime "
            "cut it short.") in everything_said(heard)
    await reopened.close()


async def test_the_texts_a_paused_tables_chat_missed_are_taken_once_after_a_restart(store: Store) -> None:
    """A table pauses with two texts its chat missed, and six more are dropped while it stays paused: the last five
    (`KEPT_TEXTS`) are stored, oldest first. After a restart the resume takes them to post, once (they were kept in
    the adapters' memory, and a restart lost them): resumed again, or paused and resumed anew, it has none."""
    clock = FakeClock(at(18, 0))
    service = Service(store, clock, rng=random.Random(3))
    await service.start()
    assert (await service.handle(PLACE, PLAYERS["ann"], "/join 200")).error is None
    texts = [f"Clock: level {number} begins (hand 1)." for number in range(2, 10)]
    await service.pause([PLACE.table_id], {PLACE.table_id: texts[:2]})
    for text in texts[2:]:
        await service.pause([PLACE.table_id], {PLACE.table_id: [text]})
    await service.stop()
    await store.close()
    reopened, restarted, _ = await restart_after_downtime(store.location, clock)
    assert await restarted.resume([PLACE.table_id]) == {PLACE.table_id: texts[3:]}
    assert await restarted.resume([PLACE.table_id]) == {}
    await restarted.pause([PLACE.table_id])
    assert await restarted.resume([PLACE.table_id]) == {PLACE.table_id: []}
    await reopened.close()
