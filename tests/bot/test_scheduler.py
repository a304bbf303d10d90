"""The scheduler: timers fire once when due, soonest first, can be moved or disarmed, and a failing one is logged."""

import asyncio

from bot.clock import FakeClock
from bot.scheduler import Scheduler


async def test_timers_fire_once_in_order_when_due() -> None:
    clock = FakeClock(100.0)
    fired: list[str] = []

    async def fire(key, table_id, payload):
        fired.append(f"{key}:{payload['n']}")

    scheduler = Scheduler(clock, fire)
    scheduler.arm("b", "t", 130.0, {"n": 2})
    scheduler.arm("a", "t", 110.0, {"n": 1})
    scheduler.arm("c", "t", 500.0, {"n": 3})
    assert await scheduler.fire_due() == 0
    clock.advance(40)
    assert await scheduler.fire_due() == 2
    assert fired == ["a:1", "b:2"]
    assert await scheduler.fire_due() == 0, "a fired timer does not fire again"
    assert [timer.key for timer in scheduler.armed] == ["c"]


async def test_rearming_moves_and_disarming_cancels() -> None:
    clock = FakeClock(0.0)
    fired: list[str] = []

    async def fire(key, table_id, payload):
        fired.append(key)

    scheduler = Scheduler(clock, fire)
    scheduler.arm("turn", "t", 10.0)
    scheduler.arm("turn", "t", 60.0)
    scheduler.arm("next", "t", 5.0)
    scheduler.disarm("next")
    clock.advance(30)
    assert await scheduler.fire_due() == 0
    assert scheduler.due_at("turn") == 60.0
    clock.advance(30)
    await scheduler.fire_due()
    assert fired == ["turn"]


async def test_a_failing_timer_is_logged_and_the_others_still_fire(caplog) -> None:
    clock = FakeClock(0.0)
    fired: list[str] = []

    async def fire(key, table_id, payload):
        if key == "bad":
            raise RuntimeError("boom")
        fired.append(key)

    scheduler = Scheduler(clock, fire)
    scheduler.arm("bad", "t", 1.0)
    scheduler.arm("good", "t", 2.0)
    clock.advance(5)
    assert await scheduler.fire_due() == 2
    assert fired == ["good"]
    assert "timer bad failed" in caplog.text


async def test_the_run_loop_wakes_for_a_newly_armed_timer() -> None:
    class Real:
        def now(self) -> float:
            return asyncio.get_running_loop().time()

    clock = Real()
    done = asyncio.Event()

    async def fire(key, table_id, payload):
        done.set()

    scheduler = Scheduler(clock, fire)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0.01)
    scheduler.arm("soon", "t", clock.now() + 0.05)
    await asyncio.wait_for(done.wait(), timeout=2)
    task.cancel()


async def test_cancelling_the_loop_right_after_a_timer_is_armed_stops_it() -> None:
    """A timer armed just before shutdown must not swallow the cancellation (asyncio.wait_for does so on 3.11)."""
    clock = FakeClock(0.0)

    async def fire(key, table_id, payload):
        pass

    for _ in range(20):
        scheduler = Scheduler(clock, fire)
        task = asyncio.create_task(scheduler.run())
        await asyncio.sleep(0)  # the loop is now waiting for a change
        scheduler.arm("turn", "t", 60.0)  # wakes it...
        task.cancel()  # ...and shutdown cancels it before it runs again
        done, _ = await asyncio.wait({task}, timeout=1)
        assert task in done and task.cancelled(), "the loop went on after it was cancelled"
