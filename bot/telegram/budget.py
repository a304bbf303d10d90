"""Telegram's send budget: at most so many requests in any rolling window, per chat and for the whole bot."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """How many sends and edits Telegram accepts: per group, per private chat, and per bot (count, seconds).

    `time_scale` divides every window (a test or a benchmark against a fake Bot API on the same fast clock)."""

    group: tuple[int, float] = (20, 60.0)
    private: tuple[int, float] = (1, 1.0)
    bot: tuple[int, float] = (30, 1.0)
    time_scale: float = 1.0

    def window(self, chat_id: int) -> Window:
        """A new window for one chat (a group or channel has a negative id, a private chat a positive one)."""
        count, seconds = self.group if chat_id < 0 else self.private
        return Window(count, seconds / self.time_scale)

    def bot_window(self) -> Window:
        """The window every request of the bot shares."""
        return Window(self.bot[0], self.bot[1] / self.time_scale)


class Window:
    """At most `count` requests in any `seconds`, counting each from when its answer arrived.

    Telegram counts a request when it receives it, which is before its answer reaches us: stamping at the answer
    (and counting requests still in flight as "now") makes our count never smaller than Telegram's, so a request
    this window admits is never one Telegram refuses.
    """

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._stamps: deque[float] = deque()
        self._in_flight = 0

    def wait(self, now: float) -> float:
        """Seconds until one more request may start (0: now; infinite: when a request in flight is answered)."""
        while self._stamps and self._stamps[0] <= now - self.seconds:
            self._stamps.popleft()
        used = len(self._stamps) + self._in_flight
        if used < self.count:
            return 0.0
        if self._in_flight >= self.count:
            return math.inf
        return self._stamps[used - self.count] + self.seconds - now

    def is_idle(self, now: float) -> bool:
        """Whether nothing counts any more (the window may be forgotten)."""
        self.wait(now)
        return not self._stamps and not self._in_flight

    def start(self) -> None:
        """A request was sent."""
        self._in_flight += 1

    def finish(self, now: float) -> None:
        """A request sent earlier was answered (or failed) at `now`."""
        self._in_flight -= 1
        self._stamps.append(now)
