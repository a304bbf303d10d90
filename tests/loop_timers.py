"""The timers code asks the event loop for, and which code asked: a test asserts the waits themselves (the durations
asked for), which a loaded machine cannot stretch, instead of timing by the wall clock what came of them."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from contextvars import Context
from types import CodeType, FrameType
from typing import Any


class LoopTimers:
    """Every timer set on the running loop while it records, in order: each with the seconds it was set for and the
    function that asked for it (the first caller outside asyncio: `asyncio.sleep`, `asyncio.timeout` and `call_later`
    all come to `call_at`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._call_at = loop.call_at
        self.asked: list[tuple[CodeType | None, float]] = []
        """Each timer set: the code of the function that asked for it, and its seconds from when it was set."""

    def call_at(self, when: float, callback: Callable[..., object], *args: Any,
                context: Context | None = None) -> asyncio.TimerHandle:
        """The loop's `call_at`, recorded."""
        self.asked.append((_asking(sys._getframe(1)), when - self._loop.time()))
        return self._call_at(when, callback, *args, context=context)

    def asked_by(self, function: Callable[..., object], since: int = 0) -> list[float]:
        """The seconds of each timer `function` asked for itself (through asyncio, not through a library it called),
        of those set after the first `since`."""
        code = function.__code__
        return [seconds for asking, seconds in self.asked[since:] if asking is code]


def _asking(frame: FrameType | None) -> CodeType | None:
    """The code of the first frame from `frame` outward that is not asyncio's own."""
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == "asyncio":
        frame = frame.f_back
    return None if frame is None else frame.f_code
