"""The wall clock stepping back or forward (NTP, a resumed VM) and the bot being down: no table stops, no backlog.

The tournament is `home-night` started at 18:00 UTC: 10/20 until 19:00, a break until 20:00, then 50/100. Its clock
announces "Break in 5 min" (18:55), "Break in 1 min" (18:59), the break (19:00), "Limits go up to 50/100 in 5 min"
and "in 1 min" (19:55, 19:59) and "Play resumes" (20:00).
"""

import asyncio

import pytest

from bot.clock import FakeClock
from bot.output import Place, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    at,
    corrupt_saved_hand,
    ledger_ok,
    listen,
    play_out,
    press_label,
    public_lines,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
HOUR = 3600
LAST_LEVEL = "⏱ Level 2: limits 50/100 (blinds 25/50), the last level: it plays until the tournament ends."
"""The clock's state on the last level (50/100), as it is posted after a step or downtime past the break."""


async def start_night(service: Service) -> Reply:
    """Create, register three players and start the tournament (the first hand is dealt)."""
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None and started.table is not None and started.table.key == "h1"
    return started


async def minutes_pass(service: Service, clock: FakeClock, minutes: int) -> None:
    """The clock runs on minute by minute, every due timer firing (turns time out, hands go on)."""
    for _ in range(minutes):
        clock.advance(60)
        await service.scheduler.fire_due()


async def test_a_wall_clock_stepped_back_before_the_start_still_answers_and_deals(store: Store) -> None:
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    started = await start_night(service)
    heard = listen(service)
    clock.step(-HOUR)  # 17:00 on the wall: before the tournament's start
    shown = await service.handle(PLACE, BOB, "/clock")
    level_one = "⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."  # its hour from the start, still
    assert shown.error is None and shown.public == [level_one]
    status = await service.handle(PLACE, CAT, "/tournament status")
    assert status.error is None and status.private == {"cat": [level_one]}
    busy = await service.handle(PLACE, ANN, "/deal")
    assert busy.error == "A hand is in play: wait for it to end."
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    clock.advance(8)
    assert await service.scheduler.fire_due() == 1
    dealt = [reply.table.key for reply in heard if reply.table is not None]
    assert dealt == ["h2"], "the next-hand timer dealt the next hand"
    await ledger_ok(service)


async def test_announcements_come_on_time_after_the_wall_clock_steps_back(store: Store) -> None:
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    await start_night(service)
    heard = listen(service)
    clock.advance(50 * 60)
    clock.step(-HOUR)  # 18:50 becomes 17:50 on the wall
    clock.advance(5 * 60)
    await service.scheduler.fire_due()
    assert public_lines(heard) == ["⏱ Break in 5 minutes."], "five real minutes later, not an hour and five"
    clock.advance(4 * 60)
    await service.scheduler.fire_due()
    clock.advance(60)
    await service.scheduler.fire_due()
    assert public_lines(heard) == ["⏱ Break in 5 minutes.", "⏱ Break in 1 minute.", "⏸ Break until 20:00."]
    on_break = await service.handle(PLACE, ANN, "/clock")
    assert on_break.public == ["⏸ Break until 20:00 (1h00m left)."], "the clock never runs back to level 1"
    await ledger_ok(service)


async def test_a_wall_clock_stepped_forward_posts_the_current_state_once_and_cuts_no_turn(store: Store) -> None:
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    started = await start_night(service)
    heard = listen(service)
    clock.step(2 * HOUR + 10 * 60)  # 20:10 on the wall, with the first hand in play
    assert await service.scheduler.fire_due() == 1, "the clock's appointment is due, the turn is not"
    assert [line for reply in heard for line in reply.public] == [LAST_LEVEL], "no turn ran out of time"
    replies = await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    assert replies[-1].table is not None and replies[-1].table.to_act is None
    clock.advance(8)
    await service.scheduler.fire_due()
    second = [reply for reply in heard if reply.table is not None and reply.table.key == "h2"]
    assert second and second[0].table is not None
    assert second[0].table.text.splitlines()[0] == "Hold'em — hand #2 · blinds 25/50 · home-limit", (
        "the next hand is dealt at the new limits (50/100)")
    await ledger_ok(service)


@pytest.mark.parametrize("subscribed_first", [True, False])
async def test_after_downtime_the_clock_posts_its_current_state_once(tmp_path, subscribed_first: bool) -> None:
    """Not six stale lines at once; and an adapter that subscribes after the timers fired still gets the line."""
    clock = FakeClock(at(18))
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=5)
    await start_night(service)
    await store.close()

    clock.current = at(20, 10)  # the bot was stopped across six announcements
    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=6)
    heard = listen(restarted) if subscribed_first else []
    await restarted.scheduler.fire_due()
    if not subscribed_first:  # the timer loop starts before the adapters subscribe
        heard = listen(restarted)
        for _ in range(3):
            await asyncio.sleep(0)
    assert public_lines(heard) == [LAST_LEVEL]
    await ledger_ok(restarted)
    await store.close()


async def test_a_late_lone_announcement_is_replaced_by_the_current_state(store: Store) -> None:
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    await start_night(service)
    heard = listen(service)
    clock.current = at(18, 57)  # "Break in 5 min" would be two minutes stale
    await service.scheduler.fire_due()
    assert public_lines(heard) == ["⏱ Level 1: limits 10/20 (blinds 5/10), 3m left; next: break."]


async def test_a_hand_voided_at_start_up_is_announced_in_its_chat(tmp_path) -> None:
    clock = FakeClock(at(18))
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=3)
    for actor in (ANN, BOB, CAT):
        await service.handle(PLACE, actor, "/join 200")
    start = await service.handle(PLACE, ANN, "/deal")
    await service.press(PLACE, PLAYERS[start.table.to_act], press_label(start, "call"))

    await corrupt_saved_hand(store, PLACE, clock.now())
    await store.close()
    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=4)
    heard: list[tuple[Place, Reply]] = []
    arrived = asyncio.Event()

    async def listener(place: Place, reply: Reply) -> None:  # an adapter that subscribes after start-up
        heard.append((place, reply))
        arrived.set()

    restarted.subscribe("chat/", listener)
    await asyncio.wait_for(arrived.wait(), timeout=30)  # a guard against a hang, no bound on the pace
    assert heard[0][0] == PLACE
    assert heard[0][1].public == ["Hand #1 could not be resumed after a restart: it is void and every chip went back "
                                  "to whoever put it in."]
    await ledger_ok(restarted)
    await store.close()


async def test_after_a_resume_the_next_warning_is_said_as_itself(store: Store) -> None:
    """The status said at the resume covers the pause: the warning that follows is not taken for a backlog."""
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    await start_night(service)
    await minutes_pass(service, clock, 50)
    assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
    await minutes_pass(service, clock, 20)
    resumed = await service.handle(PLACE, ANN, "/tournament resume")  # 19:10: inside the wall clock's break
    assert resumed.error is None and resumed.public == ["⏸ Break until 20:00 (50m left)."]
    heard = listen(service)
    await minutes_pass(service, clock, 45)
    assert public_lines(heard) == ["⏱ Limits go up to 50/100 in 5 minutes."]
    await ledger_ok(service)


async def test_after_a_skip_the_next_warning_is_said_as_itself(store: Store) -> None:
    clock = FakeClock(at(18))
    service = await started_service(store, clock, seed=5)
    assert (await service.handle(PLACE, ANN, "/tournament create 10/20 20m; 20/40 20m; break 10m; 40/80")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    await minutes_pass(service, clock, 3)
    assert (await service.handle(PLACE, ANN, "/tournament skip")).error is None  # 20/40 from 18:03 until 18:23
    heard = listen(service)
    await minutes_pass(service, clock, 15)
    assert public_lines(heard) == ["⏱ Break in 5 minutes."]
