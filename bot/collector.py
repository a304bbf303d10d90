"""The garbage collector's settings for a long-running bot: what start-up built is frozen, thresholds by measurement."""

from __future__ import annotations

import gc

THRESHOLDS = (1_000, 5, 10_000)
"""Young-generation allocations before a collection, and young (then middle) collections before the next older one."""


def tune_collector(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """Freeze every object start-up made (modules, catalogues, resumed tables) and set the thresholds.

    Frozen objects are never traversed again, so a full collection looks only at what was made since. A young or
    middle collection costs in proportion to the objects it traverses, and nearly every object a table's state gets
    survives them (the state lives until the table's next action): so the pause is set by the first two thresholds,
    and the third keeps full collections rare. Measured at 10,000 live tables with the scheduler running (5 s
    saturated, then 5 s of random arrivals at half that rate; pauses timed by `gc.callbacks` in the collecting
    thread's CPU time, as the wall time on this shared 2-core machine, load 6-9, includes waiting for a core; about
    140 tracked objects made per action): (50,000, 20, 100), the first choice, paused 74-117 ms in young
    collections; (10,000, 20, 100) 12-26 ms; (5,000, 10, 1,000) 15 ms young but 127-157 ms in middle ones;
    (2,000, 10, 1,000) 40-64 ms middle; (1,000, 5, 1,000) at most 5-12 ms in any collection (28-50 ms in wall time
    under that load), 0.35-0.5 s in all per 5 s, as the default (700, 10, 10) spends, whose full collections paused
    307 ms of CPU (850 ms wall). A full collection still costs that much once the tables loaded since the freeze
    add up (it traverses each of them); 10,000 middle collections before one is about 50 million tracked
    allocations, some 350,000 actions.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
