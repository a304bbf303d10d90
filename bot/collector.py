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
    pauses.

    An action leaves no garbage in reference cycles (`Action.voice`, `Store._settle`): a batch's actions outlive the
    young and middle collections made while it runs, so whatever of theirs sat in a cycle reached the oldest
    generation and waited for the full collection. One cycle per action once measured faster over a 5 s window (the
    collections came more often and found less alive), which did not count that: at 1,000 tables 15 s of presses
    left 3.3 million such objects, a full collection of 3.5 s, and the bot's memory grew by some 45 MB a second. With
    the collection after the window counted, no cycle ran 2,674-2,716 actions/s against 2,231-2,277. What a full
    collection still traverses is the tables' state since the freeze: 0.5 s at 10,000 tables after 15 s of presses.
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
