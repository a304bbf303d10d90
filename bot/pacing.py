"""A platform's rolling request window, which the adapters' outgoing queues wait on (Telegram's per chat and per bot,
Discord's edits of a channel): at most so many requests in any so many seconds."""

from __future__ import annotations

import math
from collections import deque


class Window:
    """At most `count` requests in any `seconds`, counting each from when its answer arrived; with a `burst`, also
    spread: `burst` requests may go back to back, and the n-th request back may be no more recent than
    (n - burst + 1) steps of seconds / (count - burst + 1) (for n = count: the whole window).

    Without the spread a busy group would spend its 20 requests in the first seconds of a minute and then show
    nothing for the rest of it; with it, an idle group still answers a burst at once, and a busy one is sent a
    request every few seconds, evenly, without ever exceeding the window.

    Telegram counts a request when it receives it, which is before its answer reaches us: stamping at the answer
    (and counting requests still in flight as "now") makes our count never smaller than Telegram's, so a request
    this window admits is never one Telegram refuses. (Discord's delivery stamps its edits as they start, `stamp`:
    discord.py waits out the bucket inside the request, and the window only keeps room for the edits after them.)
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

    def stamp(self, now: float) -> None:
        """A request counted from `now`, with no answer to wait for (`start` and `finish` at once)."""
        self._stamps.append(now)

    def start(self) -> None:
        """A request was sent."""
        self._in_flight += 1

    def finish(self, now: float) -> None:
        """A request sent earlier was answered (or failed) at `now`."""
        self._in_flight -= 1
        self._stamps.append(now)
