"""The one place the application reads the time, so tests can drive a fake clock."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """A source of the current time in Unix seconds."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()


class FakeClock:
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.current = start

    def now(self) -> float:
        """The fake current time."""
        return self.current

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.current += seconds
