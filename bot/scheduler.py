"""The one owner of every timer (turn time-outs, level changes, next-hand starts), from deadlines in the store.

Deadlines are stored as wall-clock instants (they must survive a restart), but a timer waits on the monotonic clock:
when it is armed, its deadline becomes "so many seconds from now" on `Clock.monotonic()`. So a step of the wall clock
changes nothing already armed: after a step back a turn still ends on time, not an hour late, and after a step forward
no player loses his turn early. The exception is an *appointment* (a payload with `APPOINTMENT` true: the tournament
clock's next announcement, "break at 19:00"): it also fires as soon as the wall clock reaches its instant, because a
card room runs its schedule by the clock on the wall; a step forward brings it due at once (the tournament then posts
its current state once, not every announcement it skipped).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import Clock

log = logging.getLogger(__name__)

Fire = Callable[[str, str, dict[str, Any]], Awaitable[None]]
"""What runs when a timer is due: (key, table id, payload)."""

APPOINTMENT = "appointment"
"""The payload key that makes a timer an appointment: due at its wall-clock instant too, not only after its wait."""

WALL_CHECK_SECONDS = 60.0
"""While an appointment is armed, the run loop looks at the wall clock at least this often (to see a step forward)."""


@dataclass(order=True)
class Timer:
    """A deadline: when it is due on the monotonic clock, its wall-clock instant, its table, and what it carries."""

    deadline: float
    due_at: float = field(compare=False)
    key: str = field(compare=False)
    table_id: str = field(compare=False)
    payload: dict[str, Any] = field(compare=False, default_factory=dict)

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
        self._changed = asyncio.Event()

    def arm(self, key: str, table_id: str, due_at: float, payload: dict[str, Any] | None = None) -> None:
        """Arm (or move) the timer `key` for the wall-clock instant `due_at`, waiting on the monotonic clock."""
        deadline = self._clock.monotonic() + (due_at - self._clock.now())
        self._timers[key] = Timer(deadline, due_at, key, table_id, payload or {})
        self._changed.set()

    def disarm(self, key: str) -> None:
        """Forget the timer `key` if armed."""
        if self._timers.pop(key, None) is not None:
            self._changed.set()

    def due_at(self, key: str) -> float | None:
        """The wall-clock instant `key` was armed for, or None."""
        timer = self._timers.get(key)
        return timer.due_at if timer else None

    @property
    def armed(self) -> list[Timer]:
        """Every armed timer, soonest first."""
        return sorted(self._timers.values())

    def _wait(self, timer: Timer) -> float:
        """Seconds until `timer` is due (zero or less: due now)."""
        wait = timer.deadline - self._clock.monotonic()
        if timer.is_appointment:
            wait = min(wait, timer.due_at - self._clock.now())
        return wait

    async def fire_due(self) -> int:
        """Fire every timer due by now, soonest first; return how many fired. A failing timer is logged."""
        fired = 0
        while True:
            due = [timer for timer in self.armed if self._wait(timer) <= 0]
            if not due:
                return fired
            timer = due[0]
            self._timers.pop(timer.key, None)
            fired += 1
            try:
                await self._fire(timer.key, timer.table_id, timer.payload)
            except Exception:
                log.exception("timer %s failed", timer.key)

    async def run(self) -> None:
        """Fire timers as they come due, until cancelled."""
        while True:
            await self.fire_due()
            self._changed.clear()
            upcoming = self.armed
            delay = min((self._wait(timer) for timer in upcoming), default=3600.0)
            if any(timer.is_appointment for timer in upcoming):
                delay = min(delay, WALL_CHECK_SECONDS)
            # asyncio.wait, not wait_for: on Python 3.11 wait_for swallows a cancellation that arrives just as the
            # event is set (a timer armed right before shutdown), and the loop would then never stop.
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({changed}, timeout=min(max(0.0, delay), 3600.0))
            finally:
                changed.cancel()
