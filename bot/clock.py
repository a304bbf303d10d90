"""The one place the application reads the time, so tests can drive a fake clock.

Two clocks, for two questions. `now()` is the wall clock (Unix seconds): what time it is, for the ledger, the history
and the tournament's appointments ("break at 19:00"). `monotonic()` only ever moves forward at the rate of real time:
how long something has waited, for the scheduler's timers. The wall clock can step (NTP corrects it, a virtual machine
resumes); the monotonic one cannot, so a turn of 60 seconds lasts 60 seconds whatever the wall clock does.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """A source of the current time: the wall clock and a monotonic clock."""

    def now(self) -> float:
        """Seconds since the epoch (the wall clock; it may step back or forward)."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary origin that never step: only differences between two readings mean anything."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def monotonic(self) -> float:
        """The system's monotonic clock."""
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told to (tests).

    `advance` is time passing (both clocks move); `step` is the wall clock alone being set (NTP, a resumed VM).
    Setting `current` moves the wall clock to that instant: forward it is time passing, backward a step back.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._wall = start
        self._ticks = 0.0

    @property
    def current(self) -> float:
        """The fake wall-clock time."""
        return self._wall

    @current.setter
    def current(self, value: float) -> None:
        if value >= self._wall:
            self.advance(value - self._wall)
        else:
            self.step(value - self._wall)

    def now(self) -> float:
        """The fake wall-clock time."""
        return self._wall

    def monotonic(self) -> float:
        """The fake monotonic time."""
        return self._ticks

    def advance(self, seconds: float) -> None:
        """Let `seconds` of real time pass."""
        if seconds < 0:
            raise ValueError("time passes forward only; use step() to set the wall clock back")
        self._wall += seconds
        self._ticks += seconds

    def step(self, seconds: float) -> None:
        """Step the wall clock alone by `seconds` (negative: back), as NTP or a resumed VM does."""
        self._wall += seconds
