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
    group_burst: int = 3
    """How many requests a group may be sent back to back; beyond them its budget is spread evenly over the minute
    (see `Window`), so a busy table is shown every few seconds instead of in a burst followed by a long silence."""
    hold: float = 2.5
    """Seconds a table state that found the group's budget spent may wait for a newer state to go with it."""
    notice_wait: float = 6.0
    """Seconds a notice (a text, a picture, a new table message) may be overtaken by edits of the table message."""

    def window(self, chat_id: int) -> Window:
        """A new window for one chat (a group or channel has a negative id, a private chat a positive one)."""
        if chat_id < 0:
            return Window(self.group[0], self.group[1] / self.time_scale, self.group_burst)
        return Window(self.private[0], self.private[1] / self.time_scale)

    def bot_window(self) -> Window:
        """The window every request of the bot shares."""
        return Window(self.bot[0], self.bot[1] / self.time_scale)


class Window:
    """At most `count` requests in any `seconds`, counting each from when its answer arrived; with a `burst`, also
    spread: `burst` requests may go back to back, and the n-th request back may be no more recent than
    (n - burst + 1) steps of seconds / (count - burst + 1) (for n = count: the whole window).

    Without the spread a busy group would spend its 20 requests in the first seconds of a minute and then show
    nothing for the rest of it; with it, an idle group still answers a burst at once, and a busy one is sent a
    request every few seconds, evenly, without ever exceeding the window.

    Telegram counts a request when it receives it, which is before its answer reaches us: stamping at the answer
    (and counting requests still in flight as "now") makes our count never smaller than Telegram's, so a request
    this window admits is never one Telegram refuses.
    """

    def __init__(self, count: int, seconds: float, burst: int | None = None) -> None:
        self.count = count
        self.seconds = seconds
        self.burst = min(burst or count, count)
        self._step = seconds / (count - self.burst + 1)
        self._stamps: deque[float] = deque()
        self._in_flight = 0

    def wait(self, now: float, spread: bool = True, spare: int = 0) -> float:
        """Seconds until one more request may start (0: now; infinite: when a request in flight is answered).
        Without `spread`, only the window's count binds: for what no later request will supersede. With `spare`,
        until one more may start with that many requests left to go back to back after it (counted as in flight):
        how the least urgent request waits for room it takes from nobody (`Outbox` retiring an old message)."""
        while self._stamps and self._stamps[0] <= now - self.seconds:
            self._stamps.popleft()
        ahead = self._in_flight + spare  # requests that count as sent now
        if ahead >= self.burst:
            return math.inf
        if not spread:
            over = len(self._stamps) + ahead - self.count  # the stamps that must leave the window first
            return 0.0 if over < 0 else self._stamps[over] + self.seconds - now
        wait = 0.0
        # the n-th request back must be (n - burst + 1) steps old
        deepest = min(len(self._stamps), self.count - ahead)
        for back in range(max(self.burst - ahead, 1), deepest + 1):
            wait = max(wait, self._stamps[-back] + (back + ahead - self.burst + 1) * self._step - now)
        return wait

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
