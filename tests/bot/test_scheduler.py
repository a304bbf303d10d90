"""The scheduler: timers fire once when due, soonest first, can be moved or disarmed, and a failing one is logged;
they wait on the monotonic clock, so a step of the wall clock neither delays nor hurries them (appointments aside)."""

import asyncio
import random

import pytest

from bot.clock import FakeClock
from bot.scheduler import APPOINTMENT, Scheduler


def recording(start: float) -> tuple[FakeClock, list[str], Scheduler]:
    """A fake clock at `start`, the keys of the timers fired (in order), and a scheduler that fires into that list."""
    clock = FakeClock(start)
    fired: list[str] = []

    async def fire(key: str, table_id: str, payload: dict[str, object]) -> None:
        fired.append(key)

    return clock, fired, Scheduler(clock, fire)


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
    clock, fired, scheduler = recording(0.0)
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

        def monotonic(self) -> float:
            return asyncio.get_running_loop().time()

    clock = Real()
    done = asyncio.Event()

    async def fire(key, table_id, payload):
        done.set()

    scheduler = Scheduler(clock, fire)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0.01)
    scheduler.arm("soon", "t", clock.now() + 0.05)
    await asyncio.wait_for(done.wait(), timeout=30)  # a guard against a hang, no bound on the pace
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
        done, _ = await asyncio.wait({task}, timeout=30)  # a guard: a loop that went on never ends
        assert task in done and task.cancelled(), "the loop went on after it was cancelled"


async def test_a_wall_clock_stepped_back_an_hour_still_fires_timers_on_time() -> None:
    clock, fired, scheduler = recording(1000.0)
    scheduler.arm("turn", "t", 1060.0)
    scheduler.arm("clock", "t", 1300.0, {APPOINTMENT: True})
    clock.step(-3600)  # NTP sets the wall clock back an hour
    clock.advance(59)
    assert await scheduler.fire_due() == 0
    clock.advance(1)
    assert await scheduler.fire_due() == 1 and fired == ["turn"], "the turn ends after its 60 s, not an hour late"
    clock.advance(240)
    assert await scheduler.fire_due() == 1 and fired == ["turn", "clock"], "an appointment is not an hour late either"


async def test_timers_armed_after_a_step_back_wait_their_own_length() -> None:
    clock, _, scheduler = recording(1000.0)
    clock.step(-3600)
    scheduler.arm("turn", "t", clock.now() + 60)
    clock.advance(60)
    assert await scheduler.fire_due() == 1


async def test_a_wall_clock_stepped_forward_fires_appointments_but_no_turn_early() -> None:
    clock, fired, scheduler = recording(1000.0)
    scheduler.arm("turn", "t", 1060.0)
    scheduler.arm("next", "t", 1010.0)
    scheduler.arm("clock", "t", 1900.0, {APPOINTMENT: True})
    clock.step(3600)  # a VM resumed: the wall clock jumps an hour ahead
    assert await scheduler.fire_due() == 1 and fired == ["clock"], "the schedule on the wall is due, turns are not"
    clock.advance(10)
    assert await scheduler.fire_due() == 1 and fired == ["clock", "next"]
    clock.advance(50)
    assert await scheduler.fire_due() == 1 and fired == ["clock", "next", "turn"]


@pytest.mark.parametrize("step", [-3600, 3600])
async def test_the_run_loop_fires_a_turn_on_time_across_a_wall_clock_step(step: int) -> None:
    """The real loop on the real monotonic clock: the wall clock steps an hour right after the turn is armed."""
    loop = asyncio.get_running_loop()

    class Stepped:
        offset = 0.0

        def now(self) -> float:
            return loop.time() + self.offset

        def monotonic(self) -> float:
            return loop.time()

    clock = Stepped()
    done = asyncio.Event()

    async def fire(key, table_id, payload):
        done.set()

    scheduler = Scheduler(clock, fire)
    armed_at = loop.time()
    scheduler.arm("turn", "t", clock.now() + 0.05)
    clock.offset = step
    task = asyncio.create_task(scheduler.run())
    await asyncio.wait_for(done.wait(), timeout=30)  # a guard: obeying the step, it would wait an hour (-3600)
    elapsed = loop.time() - armed_at
    task.cancel()
    assert elapsed >= 0.04, elapsed  # and not at once (+3600): a late firing on a loaded machine is no failure


async def test_a_hundred_thousand_timers_armed_in_random_order_fire_in_due_order() -> None:
    """Each arm and each firing is O(log n): with a re-sort per firing this would take hours, here seconds."""
    clock = FakeClock(0.0)
    fired: list[float] = []

    async def fire(key, table_id, payload):
        fired.append(payload["at"])

    scheduler = Scheduler(clock, fire)
    instants = [float(second) for second in range(1, 100_001)]
    random.Random(17).shuffle(instants)
    for number, due in enumerate(instants):
        scheduler.arm(f"k{number}", f"t{number}", due, {"at": due})
    for number in range(0, 100_000, 7):  # moved to the same instant: an old heap entry left behind each time
        scheduler.arm(f"k{number}", f"t{number}", instants[number], {"at": instants[number]})
    clock.advance(50_000)
    assert await scheduler.fire_due() == 50_000
    clock.advance(50_000)
    assert await scheduler.fire_due() == 50_000
    assert fired == sorted(instants), "every timer fired once, in due order"
    assert scheduler.armed == []


async def test_due_timers_of_different_tables_fire_side_by_side_and_one_table_in_turn() -> None:
    """After downtime the backlog is not caught up one commit at a time: table a's timer waits for table b's, which
    only runs if they fire together; a timer its table's previous timer disarmed does not fire."""
    clock = FakeClock(0.0)
    fired: list[str] = []
    b_ran = asyncio.Event()

    async def fire(key, table_id, payload):
        if key == "a:turn":
            await asyncio.wait_for(b_ran.wait(), timeout=30)  # a guard: run one after another, it never comes
            scheduler.disarm("a:next")
        if key == "b:turn":
            b_ran.set()
        fired.append(key)

    scheduler = Scheduler(clock, fire)
    scheduler.arm("a:turn", "a", 1.0)
    scheduler.arm("a:next", "a", 2.0)
    scheduler.arm("b:turn", "b", 3.0)
    scheduler.arm("b:next", "b", 4.0)
    clock.advance(10)
    assert await scheduler.fire_due() == 3
    assert sorted(fired) == ["a:turn", "b:next", "b:turn"], "a:next was disarmed by a:turn before its turn came"
    assert fired.index("b:turn") < fired.index("a:turn")


async def test_a_timer_armed_later_than_the_one_the_loop_waits_for_does_not_wake_it() -> None:
    """Arming is cheap for the run loop too: only a timer due sooner than its wake-up (or an appointment) wakes it."""
    clock = FakeClock(0.0)

    async def fire(key, table_id, payload):
        pass

    scheduler = Scheduler(clock, fire)
    scheduler.arm("soon", "t", 10.0)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    scheduler.arm("later", "u", 20.0)
    assert not scheduler._changed.is_set()
    scheduler.arm("sooner", "v", 5.0)
    assert scheduler._changed.is_set()
    task.cancel()


async def test_a_due_timer_counts_as_firing_from_the_moment_it_leaves_the_armed_ones() -> None:
    """Never neither armed nor firing: a timer taken off the heap is firing before its task has even started (a watcher
    would otherwise count it as done); once its task is over, or cancelled, it is not firing."""
    clock = FakeClock(0.0)
    fired: list[str] = []
    never = asyncio.Event()

    async def fire(key, table_id, payload):
        fired.append(key)
        if key == "b":
            await never.wait()

    scheduler = Scheduler(clock, fire)
    scheduler.arm("a", "t", 1.0)
    clock.advance(5)
    firing = asyncio.create_task(scheduler.fire_due())
    await asyncio.sleep(0)  # fire_due took the timer and made its task, which has not run yet
    assert fired == [] and scheduler.due_at("a") is None
    assert scheduler.firing_due_at("a") == 1.0
    assert await firing == 1
    assert fired == ["a"] and scheduler.firing_due_at("a") is None
    scheduler.arm("b", "t", 2.0)
    firing = asyncio.create_task(scheduler.fire_due())
    while fired != ["a", "b"]:
        await asyncio.sleep(0)
    assert scheduler.firing_due_at("b") == 2.0
    firing.cancel()
    await asyncio.gather(firing, return_exceptions=True)
    assert scheduler.firing_due_at("b") is None


async def test_a_timer_rearmed_later_at_every_action_adds_nothing_to_the_heap() -> None:
    """A busy table re-arms its turn timer at every action: its heap entry stays and moves only once its old deadline
    has passed, so the heap does not grow with the actions (it grew by one entry an action, and rebuilding it held the
    event loop 30 ms at 10,000 tables), and each timer still fires once, at its last deadline. A quiet table's timer,
    due first, is what keeps old entries from being dropped at the top of the heap as they come."""
    clock, fired, scheduler = recording(0.0)
    scheduler.arm("quiet", "q", 30.0)
    for second in range(1, 21):  # twenty actions a table, one a second, each re-arming its 60 s turn
        clock.advance(1)
        for table in range(1000):
            scheduler.arm(f"turn:{table}", f"t{table}", second + 60.0 + table / 1000)
        assert await scheduler.fire_due() == 0
        assert len(scheduler._by_deadline) == 1001
    clock.advance(50)  # past the first deadlines (61 s), not the last ones (80 s): the entries move, none fires
    assert await scheduler.fire_due() == 1
    assert fired == ["quiet"]
    assert len(scheduler._by_deadline) == 1000
    clock.advance(10.5)
    assert await scheduler.fire_due() == 501, "the last deadlines up to now (80.000-80.500 s)"
    clock.advance(0.5)
    assert await scheduler.fire_due() == 499
    assert fired == ["quiet", *(f"turn:{table}" for table in range(1000))]


@pytest.mark.parametrize("seed", range(5))
async def test_timers_moved_later_sooner_and_disarmed_at_random_fire_as_a_plain_model_says(seed: int) -> None:
    """Against a model (each key's last deadline, ties in the order they were last armed): moved later (in place),
    sooner, to the same instant, disarmed and armed again, while the clock moves on and due timers fire."""
    rng = random.Random(seed)
    clock, fired, scheduler = recording(0.0)
    model: dict[str, tuple[float, int]] = {}
    expected: list[str] = []
    for order in range(3000):
        key = f"k{rng.randrange(60)}"
        roll = rng.random()
        if roll < 0.15:
            scheduler.disarm(key)
            model.pop(key, None)
        elif roll < 0.25:
            clock.advance(rng.choice((0, 1, 2, 5)))
            due = sorted((at, armed, name) for name, (at, armed) in model.items() if at <= clock.now())
            expected += [name for _, _, name in due]
            for _, _, name in due:
                del model[name]
            await scheduler.fire_due()
            assert fired == expected
        else:
            at = clock.now() + rng.randrange(0, 30)  # whole seconds: ties and moves to the same instant come often
            scheduler.arm(key, f"t{key}", at)
            model[key] = (at, order)
    clock.advance(100)
    expected += [name for _, _, name in sorted((at, armed, name) for name, (at, armed) in model.items())]
    await scheduler.fire_due()
    assert fired == expected
    assert scheduler.armed == []
