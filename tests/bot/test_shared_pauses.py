"""A table paused because the bot cannot reach its chat, with several processes on one PostgreSQL database (two
services, each with its own store): whichever process paused it, every process refuses its play and holds its
timers; whichever lifted the pause, every process lets it play again.

The rebuy night of `tests.bot.test_places_said_stay` (three players, one rebuy each, the period ending with the first
break at 19:00) is started through service `two`, which so holds the table's timers (the turn's time-out, the
clock's appointments); service `one` pauses the table at 18:58:30, its first hand in play."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.output import Reply
from bot.scheduler import APPOINTMENT
from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import at, everything_said, ledger_ok, listen, press_label, shove_out
from tests.bot.test_places_said_stay import GIVEN_BACK, PAUSED, PLAYERS, refused_while_paused, start_the_night
from tests.bot.test_shared_database import stop_watching, two_services

MISSED = "The clock: the break begins at 19:00."
"""A public text the table's chat missed while it was paused."""


async def paused_by_one_with_two_holding_its_timers(one: Service, two: Service, clock: FakeClock,
                                                    language: str) -> Reply:
    """The night started through `two` in `language`, paused through `one` at 18:58:30: the start's reply."""
    reply = await start_the_night(two, clock)
    assert (await two.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert [timer.table_id for timer in two.scheduler.armed] == [PLACE.table_id] * len(two.scheduler.armed) != []
    clock.current = at(18, 58, 30)
    await one.pause([PLACE.table_id])
    return reply


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_table_paused_by_one_process_neither_plays_nor_times_out_in_another_until_one_resumes_it(
        postgres_url: str, language: str) -> None:
    """At 19:00:05 `two`, which never heard of the pause, refuses the player to act and a deal in the player's
    language (the table's pause is read under its lock, when the command runs) and changes nothing; its due timers
    (the turn's time-out, the clock's announcement of the break) are held: nothing is said or changed, and their rows
    stay for the resume. `one` resumes the table at 19:30 and arms its timers itself (`two` holds none of them now):
    the clock's announcement fires at once and the rebuy period gets back the minute and a half the pause took; then
    the hand is played out through `two`, and the player it eliminates is out for now and rebuys there."""
    clock = FakeClock(at(18, 50))
    async with two_services(postgres_url, clock, started=True) as (one, two):
        reply = await paused_by_one_with_two_holding_its_timers(one, two, clock, language)
        assert reply.table is not None and reply.table.to_act is not None
        clock.current = at(19, 0, 5)
        await refused_while_paused(two, language, (PLAYERS[reply.table.to_act], "/allin"), (CAT, "/deal"))
        heard_by_two: list[Reply] = listen(two)
        before = dump(two.store.location)
        assert await two.scheduler.fire_due() == 2  # the turn's time-out and the clock's announcement, due at 18:59
        assert (heard_by_two, dump(two.store.location)) == ([], before)
        heard_by_one: list[Reply] = listen(one)
        clock.current = at(19, 30)
        await one.resume([PLACE.table_id])
        assert (await two.scheduler.fire_due(), await one.scheduler.fire_due()) == (0, 1)  # the announcement: at once
        assert GIVEN_BACK[language] in everything_said(heard_by_one).splitlines()
        assert (await two.handle(PLACE, ANN, "/lang en")).error is None
        said = everything_said(await shove_out(two, reply, PLAYERS, CAT))
        [busted] = [actor for actor in (ANN, BOB) if f"{actor.name} is out for now and may come back with /rebuy "
                    "until 19:31:30." in said]
        assert (await two.handle(PLACE, busted, "/rebuy")).public == [f"{busted.name} rebuys: 300 chips for 50."]
        await ledger_ok(two)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_press_through_a_process_yet_to_learn_of_a_pause_is_refused_and_moves_no_chip(
        postgres_url: str, language: str) -> None:
    """Until its watch looks again (`WATCH_SECONDS`), `two` does not know that `one` paused the table: its
    `is_paused`, which its adapter asks, says False, so the adapter passes on the press of the player to act. The
    service refuses it under the table's row lock, in the player's language, with nothing to show in the chat (no
    text, no table message), and nothing changes: no chip moves. Its watch's next look tells `two` of the pause."""
    clock = FakeClock(at(18, 50))
    async with two_services(postgres_url, clock, started=True) as (one, two):
        reply = await paused_by_one_with_two_holding_its_timers(one, two, clock, language)
        assert reply.table is not None and reply.table.to_act is not None
        assert (one.is_paused(PLACE.table_id), two.is_paused(PLACE.table_id)) == (True, False)
        before = dump(two.store.location)
        for label in ("allin", "fold"):
            pressed = await two.press(PLACE, PLAYERS[reply.table.to_act], press_label(reply, label))
            assert (pressed.error, pressed.public, pressed.private, pressed.table) == (PAUSED[language], [], {}, None)
        assert dump(two.store.location) == before
        watching = asyncio.create_task(two.watch_timers())
        try:
            async with asyncio.timeout(5):
                while not two.is_paused(PLACE.table_id):
                    await asyncio.sleep(0.01)
        finally:
            await stop_watching(watching)
        await ledger_ok(two)


async def test_a_process_that_never_heard_of_a_pause_lifts_it(postgres_url: str) -> None:
    """`one` pauses the table; `two`, whose watch has not run since, is told the bot can reach the chat again (a
    Telegram update routed to it): it resumes the table, arming its timers as they were moved on, and `one` plays
    on at once."""
    clock = FakeClock(at(18, 50))
    async with two_services(postgres_url, clock, started=True) as (one, two):
        reply = await paused_by_one_with_two_holding_its_timers(one, two, clock, "en")
        assert reply.table is not None and reply.table.to_act is not None
        clock.current = at(18, 59)
        await two.resume([PLACE.table_id])
        stored = await one.store.read(lambda tx: sorted((key, due_at) for key, _, due_at, _ in tx.timers()))
        assert sorted((timer.key, timer.due_at) for timer in two.scheduler.armed) == stored != []
        assert (await one.handle(PLACE, PLAYERS[reply.table.to_act], "/allin")).error is None
        await ledger_ok(one)


async def test_every_process_learns_of_a_pause_and_of_its_end_from_its_watch(postgres_url: str) -> None:
    """`Service.is_paused`, which the adapters ask (a Discord channel found again resumes a paused table), follows
    the pauses other processes make and lift: `two`'s watch of the database (`watch_timers`) reads them."""
    clock = FakeClock(at(18, 50))
    async with two_services(postgres_url, clock, started=True) as (one, two):
        assert (await one.handle(PLACE, ANN, "/join 200")).error is None
        watching = asyncio.create_task(two.watch_timers(every=0.01))
        try:
            for pausing, paused in ((one.pause, True), (one.resume, False)):
                await pausing([PLACE.table_id])
                async with asyncio.timeout(5):
                    while two.is_paused(PLACE.table_id) != paused:
                        await asyncio.sleep(0.01)
        finally:
            await stop_watching(watching)


async def test_two_processes_resuming_one_table_at_once_move_its_timers_once(postgres_url: str) -> None:
    """`two`, holding the night's timers, pauses the table at 18:58:30, keeping the text its chat missed. At 19:30
    both processes learn that the chat is reachable again (each a Telegram update routed to it) and resume the table
    at once, their transactions overlapping (a third connection holds the `timers` table until they have both
    begun). The pause is lifted once: the turn's time-out is due the pause's length later, not twice that, the
    clock's appointment keeps its instant, each timer is armed by one process only (the one that lifted the pause):
    both used to move them and arm them; and the missed text is taken by that process alone, to post once."""
    import psycopg

    clock = FakeClock(at(18, 50))
    async with two_services(postgres_url, clock, started=True) as (one, two):
        await start_the_night(two, clock)
        clock.current = at(18, 58, 30)
        await two.pause([PLACE.table_id], {PLACE.table_id: [MISSED]})
        assert list(one.scheduler.armed) == list(two.scheduler.armed) == []
        paused = await one.store.read(lambda tx: tx.timers())
        clock.current = at(19, 30)
        with psycopg.connect(postgres_url) as holding, psycopg.connect(postgres_url, autocommit=True) as looking:
            holding.execute("LOCK TABLE timers IN ACCESS EXCLUSIVE MODE")
            resuming = asyncio.gather(one.resume([PLACE.table_id]), two.resume([PLACE.table_id]))
            async with asyncio.timeout(5):
                while looking.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                      "AND datname = current_database()").fetchone() == (0,):
                    await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # the other resume's transaction begins too (it waits, or is run again)
            holding.rollback()
            taken = await resuming
        assert sorted(taken, key=len) == [{}, {PLACE.table_id: [MISSED]}]
        pause = at(19, 30) - at(18, 58, 30)
        moved = sorted((key, due_at if payload.get(APPOINTMENT) else due_at + pause)
                       for key, _, due_at, payload in paused)
        assert [payload["kind"] for _, _, _, payload in paused] == ["clock", "turn"]
        assert sorted((key, due_at) for key, _, due_at, _ in await one.store.read(lambda tx: tx.timers())) == moved
        assert sorted((timer.key, timer.due_at) for service in (one, two) for timer in service.scheduler.armed) == moved
