"""The one owner of every timer (turn time-outs, level changes, next-hand starts), from deadlines in the store.

Deadlines are stored as wall-clock instants (they must survive a restart), but a timer waits on the monotonic clock:
when it is armed, its deadline becomes "so many seconds from now" on `Clock.monotonic()`. So a step of the wall clock
changes nothing already armed: after a step back a turn still ends on time, not an hour late, and after a step forward
no player loses his turn early. The exception is an *appointment* (a payload with `APPOINTMENT` true: the tournament
clock's next announcement, "break at 19:00"): it also fires as soon as the wall clock reaches its instant, because a
card room runs its schedule by the clock on the wall; a step forward brings it due at once (the tournament then posts
its current state once, not every announcement it skipped).

The armed timers sit in two heaps (every timer by its monotonic deadline; appointments also by their wall-clock
instant), so arming, moving or disarming one costs O(log n) whatever the number of tables. A turn timer moved later
(every action re-arms its table's) keeps its heap entry: the entry is moved to the new deadline only once its old
deadline has passed, at most once per turn length, so a busy table adds nothing to the heap. A disarmed timer's
entry, or one moved sooner, is left in place and skipped when it reaches the top (lazy deletion); such entries leave
as their deadlines pass, and the heaps are rebuilt, an O(n) pause, only when they far outnumber the live ones.

Due timers are started in due order, several at once (at most one per table, so a table's timers still run one after
another and a timer its predecessor disarmed never fires): after downtime the backlog is caught up at the store's
group-commit speed, not one commit at a time.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import Clock

log = logging.getLogger(__name__)

Fire = Callable[[str, str, dict[str, Any]], Awaitable[None]]
"""What runs when a timer is due: (key, table id, payload)."""

APPOINTMENT = "appointment"
"""The payload key that makes a timer an appointment: due at its wall-clock instant too, not only after its wait."""
DOWN_SINCE = "down_since"
"""The payload key of an appointment that fell due while the bot was down: the instant the downtime began (a wall
clock timestamp), which start-up adds when it arms it (`bot.service.startup.start_tables`). A wall clock that steps
forward in a running bot brings appointments due late too, but without it: that is no downtime."""
BY_PAUSE = "by_pause"
"""The payload key that says an appointment's `DOWN_SINCE` is when its table paused (the bot could not reach the
chat: `bot.service.pauses.resume_play` adds both), not when the bot went down: what is given back says so."""

WALL_CHECK_SECONDS = 60.0
"""While an appointment is armed, the run loop looks at the wall clock at least this often (to see a step forward)."""

CATCH_UP_CONCURRENCY = 64
"""The most timers firing at once (of different tables): after downtime, with nobody pressing, the store commits all
of them queued together, so a backlog goes in few large batches (each batch has its commit and its young collection:
catching up 10,000 turn timers after a crash took 3.99 s at 64 against 4.61 s at 8 on average, six alternated pairs,
`benchmarks/NOTES.md`). A player who presses meanwhile waits for the batch being written (at 10,000 tables up to
about 60 ms with 64, 27 ms with 8), and from then on the store takes one timer a batch beside the players' jobs
(`bot.store.BACKGROUND_PER_BATCH`)."""

STALE_SLACK = 100_000
"""Stale heap entries tolerated beyond twice the armed timers before the heaps are rebuilt. A rebuild holds the event
loop for about 1.5 µs an entry (30 ms at 10,000 tables when it came every 20,000 entries); stale entries leave by
themselves as their deadlines pass, so it is for a pathological churn only."""

_Entry = tuple[float, int, "Timer"]
"""A heap entry: the sort key, a tie-breaker in arming order, and the timer (stale once it is no longer armed). A
deadline entry's key may be earlier than its timer's deadline: the timer was moved later since (`_deadline_reached`)."""


@dataclass(order=True, slots=True)
class Timer:
    """A deadline: when it is due on the monotonic clock, its wall-clock instant, its table, and what it carries."""

    deadline: float
    due_at: float = field(compare=False)
    key: str = field(compare=False)
    table_id: str = field(compare=False)
    payload: dict[str, Any] = field(compare=False, default_factory=dict)
    order: int = field(compare=False, default=0)
    """When it was last armed, among all timers: the tie-breaker of equal deadlines."""

    # written out, not generated: see bot/compiled.py
    def __init__(self, deadline: float, due_at: float, key: str, table_id: str, payload: dict[str, Any] | None = None,
                 order: int = 0) -> None:
        self.deadline = deadline
        self.due_at = due_at
        self.key = key
        self.table_id = table_id
        self.payload = {} if payload is None else payload
        self.order = order

    @property
    def is_appointment(self) -> bool:
        """True when the wall clock reaching `due_at` also brings it due."""
        return bool(self.payload.get(APPOINTMENT))


class Scheduler:
    """Keeps the armed deadlines in memory (the store keeps them durably) and fires each once when due.

    The service arms and disarms timers after the transaction that stored them commits; at start-up it re-arms
    everything the store holds. `run()` is the real loop; tests call `fire_due()` after moving a fake clock.
    """

    def __init__(self, clock: Clock, fire: Fire) -> None:
        self._clock = clock
        self._fire = fire
        self._timers: dict[str, Timer] = {}
        self._by_deadline: list[_Entry] = []
        """Every armed timer by monotonic deadline, plus stale entries of timers since moved, disarmed or fired."""
        self._by_wall: list[_Entry] = []
        """Appointments by wall-clock instant (stale entries likewise)."""
        self._order = itertools.count()
        self._changed = asyncio.Event()
        self._wake_at = -math.inf
        """The monotonic instant the run loop sleeps until: only a timer due sooner needs to wake it."""
        self._firing: dict[str, float] = {}
        """The timers being fired, with the instant each was armed for."""

    def arm(self, key: str, table_id: str, due_at: float, payload: dict[str, Any] | None = None) -> None:
        """Arm (or move) the timer `key` for the wall-clock instant `due_at`, waiting on the monotonic clock."""
        deadline = self._clock.monotonic() + (due_at - self._clock.now())
        payload = payload or {}
        order = next(self._order)
        armed = self._timers.get(key)
        if (armed is not None and deadline > armed.deadline and not armed.is_appointment
                and not payload.get(APPOINTMENT)):
            # moved later: its heap entry stays, and moves once its old deadline has passed (`_deadline_reached`)
            armed.deadline, armed.due_at, armed.table_id, armed.payload, armed.order = (
                deadline, due_at, table_id, payload, order)
            return
        timer = self._timers[key] = Timer(deadline, due_at, key, table_id, payload, order)
        heapq.heappush(self._by_deadline, (deadline, order, timer))
        if timer.is_appointment:
            heapq.heappush(self._by_wall, (due_at, order, timer))
        if len(self._by_deadline) > 2 * len(self._timers) + STALE_SLACK:
            self._compact()
        if deadline < self._wake_at or timer.is_appointment:
            self._changed.set()

    def disarm(self, key: str) -> None:
        """Forget the timer `key` if armed (the run loop, if it was waiting for it, wakes up to find nothing due)."""
        self._timers.pop(key, None)

    def due_at(self, key: str) -> float | None:
        """The wall-clock instant `key` was armed for, or None."""
        timer = self._timers.get(key)
        return timer.due_at if timer else None

    @property
    def armed(self) -> list[Timer]:
        """Every armed timer, soonest first."""
        return sorted(self._timers.values())

    def _is_armed(self, timer: Timer) -> bool:
        return self._timers.get(timer.key) is timer

    def _compact(self) -> None:
        """Drop the stale entries (O(n), once they outnumber the armed timers by `STALE_SLACK`: O(1) an arm overall)."""
        # in place: `fire_due` may hold on to a heap while a firing timer arms another
        self._by_deadline[:] = [entry for entry in self._by_deadline if self._is_armed(entry[2])]
        self._by_wall[:] = [entry for entry in self._by_wall if self._is_armed(entry[2])]
        heapq.heapify(self._by_deadline)
        heapq.heapify(self._by_wall)

    def _first(self, heap: list[_Entry]) -> _Entry | None:
        """The first entry of `heap` whose timer is armed, popping the stale entries above it."""
        while heap:
            if self._is_armed(heap[0][2]):
                return heap[0]
            heapq.heappop(heap)
        return None

    def _deadline_reached(self) -> Timer | None:
        """The armed timer whose monotonic deadline has come, if any. An entry reached whose timer was moved later
        since goes to the new deadline: each moved timer once per old deadline passed, not all at once."""
        now = self._clock.monotonic()
        while (entry := self._first(self._by_deadline)) is not None and entry[0] <= now:
            timer = entry[2]
            if entry[0] >= timer.deadline:
                return timer
            heapq.heapreplace(self._by_deadline, (timer.deadline, timer.order, timer))
        return None

    def _next_due(self) -> tuple[Timer, list[_Entry]] | None:
        """The armed timer to fire now, if any, and the heap it tops: the soonest deadline reached, else an
        appointment whose wall-clock instant has come."""
        first = self._deadline_reached()
        if first is not None:
            return first, self._by_deadline
        appointment = self._first(self._by_wall)
        if appointment is not None and appointment[2].due_at <= self._clock.now():
            return appointment[2], self._by_wall
        return None

    def _delay(self) -> float:
        """Seconds the run loop may sleep before something could be due (the first entry's key: a timer moved later
        since wakes the loop once at its old deadline, to be moved)."""
        first = self._first(self._by_deadline)
        delay = first[0] - self._clock.monotonic() if first is not None else 3600.0
        appointment = self._first(self._by_wall)
        if appointment is not None:
            delay = min(delay, appointment[2].due_at - self._clock.now(), WALL_CHECK_SECONDS)
        return min(max(0.0, delay), 3600.0)

    async def fire_due(self) -> int:
        """Fire every timer due by now, started in due order; return how many fired. A failing timer is logged.

        Timers of different tables run side by side (at most `CATCH_UP_CONCURRENCY`). A due timer whose table is
        busy with another is set aside, and put back (if still armed) when that one is done, so the tables behind it
        go on firing meanwhile."""
        fired = 0
        running: dict[str, asyncio.Task[None]] = {}
        waiting: dict[str, list[tuple[list[_Entry], _Entry]]] = {}
        """Per busy table, the heap entries of its due timers set aside until its running one is done."""
        try:
            while True:
                due = self._next_due() if len(running) < CATCH_UP_CONCURRENCY else None
                if due is not None:
                    timer, heap = due
                    if timer.table_id in running:
                        waiting.setdefault(timer.table_id, []).append((heap, heapq.heappop(heap)))
                        continue
                    del self._timers[timer.key]
                    fired += 1
                    self._firing[timer.key] = timer.due_at  # from now on, not once its task has started
                    task = asyncio.create_task(self._fire_one(timer))
                    task.add_done_callback(functools.partial(self._fired, timer))  # cancelled before it started too
                    running[timer.table_id] = task
                    continue
                if not running:
                    return fired
                await asyncio.wait(running.values(), return_when=asyncio.FIRST_COMPLETED)
                for table_id in [table_id for table_id, task in running.items() if task.done()]:
                    del running[table_id]
                    for heap, entry in waiting.pop(table_id, []):
                        if self._is_armed(entry[2]):
                            heapq.heappush(heap, entry)
        except BaseException as error:  # cancelled (the bot stops); a return found nothing running or set aside
            stopped = error
        # cleaned up out of the except block: compiled (mypyc), an await in a `finally` or in the handler of an
        # awaited error corrupts the exception's state (`tests/test_compiled_awaits.py`)
        for task in running.values():
            task.cancel()
        if running:
            await asyncio.gather(*running.values(), return_exceptions=True)
        for entries in waiting.values():  # cancelled meanwhile: what was set aside stays armed
            for heap, entry in entries:
                heapq.heappush(heap, entry)
        raise stopped

    async def _fire_one(self, timer: Timer) -> None:
        try:
            await self._fire(timer.key, timer.table_id, timer.payload)
        except Exception:
            log.exception("timer %s failed", timer.key)

    def _fired(self, timer: Timer, task: asyncio.Task[None]) -> None:
        if self._firing.get(timer.key) == timer.due_at:
            del self._firing[timer.key]

    def firing_due_at(self, key: str) -> float | None:
        """The wall-clock instant the timer `key` now firing was armed for (None when it is not firing)."""
        return self._firing.get(key)

    async def run(self) -> None:
        """Fire timers as they come due, until cancelled."""
        while True:
            await self.fire_due()
            self._changed.clear()
            delay = self._delay()
            self._wake_at = self._clock.monotonic() + delay
            # asyncio.wait, not wait_for: on Python 3.11 wait_for swallows a cancellation that arrives just as the
            # event is set (a timer armed right before shutdown), and the loop would then never stop.
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({changed}, timeout=delay)
            finally:
                changed.cancel()
                self._wake_at = -math.inf
