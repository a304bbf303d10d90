"""The garbage collector's settings for a long-running bot: what start-up built is frozen, thresholds by measurement."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (500, 2, 50_000)
"""Young-generation allocations before a collection, and young (then middle) collections before the next older one."""


def tune_collector(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """Freeze every object start-up made (modules, catalogues, resumed tables) and set the thresholds.

    Frozen objects are never traversed again, so a full collection looks only at what was made since. A young or
    middle collection costs in proportion to the objects it traverses, and nearly every object a table's state gets
    survives them (the state lives until the table's next action): so the pause is set by the first two thresholds,
    their product bounding what a middle collection traverses, and the third keeps full collections rare. Measured
    with the scheduler running and actions arriving at random at 300/s (pauses in the collecting thread's CPU time
    through `gc.callbacks`, as the wall time on this shared 2-core machine, load 5-9, includes waiting for a core):
    (1,000, 5, 10,000), the earlier choice, paused up to 12-14 ms in middle collections at 1,000 and at 10,000 tables
    (mean 2-3 ms); (500, 2, 50,000) at most 1.2 ms at 10,000 tables and 2.8 ms at 1,000 (mean 0.4-0.7 ms), in no more
    collecting time in all (287 ms against 396 ms in 12 s at 10,000 tables); (250, 2) and (250, 4) paused about as
    little in twice as many collections. The default (700, 10, 10)'s full collections paused 307 ms of CPU at 10,000
    tables. A full collection still costs that much once the tables loaded since the freeze add up (it traverses each
    of them): 500 x 2 x 50,000 is 50 million tracked allocations between two, as before (hundreds of thousands of
    actions).

    Measured again at 10,000 tables over 15 s of saturated presses, the collector's time in all and the longest
    pause: (500, 2) 1,114-1,157 ms, 1.9-3.3 ms. Each object a table's state gets is traversed in the young generation
    and again in the middle one before the table's next action frees it, so larger thresholds mostly lengthen the
    pauses. An experiment that broke the one cycle each action makes (see `Action.voice`) made the collections rarer
    and costlier in all (1,648-1,698 ms, the rate 5-10% lower) whatever the thresholds ((150, 4) 1,521 ms, (250, 2)
    1,507 ms; pauses up to 8 ms at (2,000, 2), 29 ms at (5,000, 1), 568 ms at (100,000, 2)): it was reverted.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


@contextmanager
def starting_up(thresholds: tuple[int, int, int] = THRESHOLDS) -> Iterator[None]:
    """No collection while start-up builds what it keeps (every table, the chats' names and accounts), then
    `tune_collector` once it has started.

    Nearly everything start-up makes lives on, so each collection during it only traversed the growing heap again:
    at 10,000 stored tables they took 0.3 of a 0.8 s start-up. Garbage start-up makes in cycles waits for the
    collection `tune_collector` begins with."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
    tune_collector(thresholds)
