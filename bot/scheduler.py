"""The one owner of every timer (turn time-outs, level changes, next-hand starts), from deadlines in the store."""

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


@dataclass(order=True)
class Timer:
    """A deadline: when it is due, which table it belongs to, and what it carries."""

    due_at: float
    key: str = field(compare=False)
    table_id: str = field(compare=False)
    payload: dict[str, Any] = field(compare=False, default_factory=dict)


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
        """Arm (or move) the timer `key`."""
        self._timers[key] = Timer(due_at, key, table_id, payload or {})
        self._changed.set()

    def disarm(self, key: str) -> None:
        """Forget the timer `key` if armed."""
        if self._timers.pop(key, None) is not None:
            self._changed.set()

    def due_at(self, key: str) -> float | None:
        """When `key` fires, or None."""
        timer = self._timers.get(key)
        return timer.due_at if timer else None

    @property
    def armed(self) -> list[Timer]:
        """Every armed timer, soonest first."""
        return sorted(self._timers.values())

    async def fire_due(self) -> int:
        """Fire every timer due by now, soonest first; return how many fired. A failing timer is logged."""
        fired = 0
        while True:
            due = [timer for timer in self.armed if timer.due_at <= self._clock.now()]
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
            delay = max(0.0, upcoming[0].due_at - self._clock.now()) if upcoming else 3600.0
            # asyncio.wait, not wait_for: on Python 3.11 wait_for swallows a cancellation that arrives just as the
            # event is set (a timer armed right before shutdown), and the loop would then never stop.
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({changed}, timeout=min(delay, 3600.0))
            finally:
                changed.cancel()
