"""The garbage collector's settings for a long-running bot: what start-up built is frozen, thresholds by measurement,
and the full collection made only when Python's memory has grown."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

NEVER = 2**31 - 1
"""The largest third threshold Python takes: middle collections before a full one. Each collection `before_batch` makes
counts as one, so at a thousand batches a second the count would take some 25 days to reach it."""

THRESHOLDS = (10_000, 2, NEVER)
"""Young-generation allocations before a collection (a backstop: `before_batch` makes the young collections while the
bot acts), and young (then middle) collections before the next older one: the collector never makes a full collection
by itself (`FullCollections` makes them)."""

GROWTH = 0.25
"""How much the memory blocks Python has allocated grow after a full collection before the next is due."""

OVERDUE = 0.5
"""How much they may grow while a due full collection waits for a lull: past it, it is made at once."""

LULL_SECONDS = 2.0
"""No player's press for this long is a lull, when a full collection holds nobody up."""

LULL_LOOK_SECONDS = 1.0
"""How often a due full collection looks for a lull."""

log = logging.getLogger("pokerbot")


def tune_collector(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """Freeze every object start-up made (modules, catalogues, resumed tables) and set the thresholds.

    Frozen objects are never traversed by a young or middle collection (a full one unfreezes them first:
    `full_collection`). A young or middle collection costs in proportion to the live objects it traverses, and what
    an action keeps (the table's new state, its newest message) survives it. Collections counted by allocations (the
    earlier (500, 2)) came every dozen actions in the middle of a batch, so they also traversed the objects of the
    batch's actions still waiting for their commit, which die with it, and each object surviving went through the
    young and then the middle generation: 13-15% of the time at 1,000 and 10,000 saturated tables went in them. So the
    young collections are made between batches instead (`before_batch`), straight into the oldest generation, what a
    batch made is frozen after it (`after_batch`), and the first threshold is only a backstop for the allocations made
    outside batches (an adapter's, while no table acts), a few milliseconds at most.

    A full collection traverses every live object, at about a microsecond each on this machine (a cache miss per
    object and pass: the objects lie all over the heap): 0.4-0.67 s at 10,000 tables, whose state is some 40 tracked
    objects a table, about 32 of them remade by each action (the newest table message and its story, the hand's
    events). No threshold keeps that under 20 ms, and freezing often does not either: 1 s of presses after a freeze
    made a full collection of 56-60 ms, 3 s 186 ms. So the third threshold is `NEVER`, and `FullCollections` makes
    one when memory says garbage may have piled up among the old and frozen objects: reference cycles that outlived a
    young collection, which actions and timers never make (`tests/bot/test_collector.py`: until 2026-12-02 each
    action left some 90 objects there, 3.3 million after 15 s at 1,000 tables) but a library may. Under the earlier
    threshold, 50,000, the collector made one every few minutes at 10,000 busy tables, holding every table for half a
    second.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def before_batch() -> None:
    """The young collection made just before the store writes a batch of actions, while the collector is tuned (its
    third threshold `NEVER`) and on: what it traverses is what was made since the last batch (the callers' next
    presses, an adapter's requests; what the last batch itself kept was frozen after it, `after_batch`, unless it
    ran in the database thread or a job failed), each object once, promoted at once to the oldest generation (a
    middle collection of an empty middle generation), and none of the objects the next batch's actions make and drop.

    Measured alternated with (500, 2) in 2 s phases of saturated presses: at 1,000 tables 57 ms of collecting a second
    against 111, 299 µs of CPU an action against 335 (six pairs, each one lower); at 10,000 tables 69 ms against 129,
    397 µs against 459 (four pairs); the longest collection 3.4 and 4.6 ms."""
    if gc.isenabled() and gc.get_threshold()[2] == NEVER:
        gc.collect(1)


def after_batch() -> None:
    """Freeze what a batch of actions just made, while the collector is tuned and on, instead of leaving it for the
    next young collection to traverse: called only for a batch that ran in the event loop's thread (so no other task
    of the loop ran meanwhile) and whose every job was kept. An action's objects hold no reference cycle
    (`tests/bot/test_collector.py`): they go by their reference counts when the table's next action replaces them,
    frozen or not. So the young collection before the next batch traverses only what was made between the batches (the
    callers' next presses, an adapter's requests): the cycles an adapter's libraries make are still found there, and
    one alive at that moment waits for a full collection, which unfreezes everything first (`FullCollections`),
    as it did in the oldest generation before. Another thread may run while the batch waits on SQLite (a `/stats`
    query on the reading connection, a picture being drawn): a cycle it made and dropped in that time waits for a
    full collection too.

    Measured at 1,000 saturated tables (`benchmarks/kinds.py`): the collector's time a press from 10-15 µs to
    3.3-3.8 µs (of the 59 objects a press that a young collection traversed, about 42 were what the batch's actions
    kept: the table's new state, its message, the story's lines)."""
    if gc.isenabled() and gc.get_threshold()[2] == NEVER:
        gc.freeze()


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


def full_collection() -> int:
    """A collection of every object, the frozen ones too (start-up's, and what each batch made: `after_batch`); the
    number of unreachable objects found. What it leaves alive is in the oldest generation, which no young collection
    traverses, and the next batch freezes it again."""
    gc.unfreeze()
    return gc.collect()


class FullCollections:
    """The full collection the tuned collector never makes by itself, due once the memory blocks Python has
    allocated (`sys.getallocatedblocks`: objects alive and garbage not yet freed) have grown by `GROWTH` since just
    after the last (or since this began, after start-up's). Garbage in reference cycles that reached the oldest
    generation costs memory, so memory is what calls for it: about a quarter of what is alive at most waits in them,
    and a bot whose actions make none (as ours) pays the pause only as its libraries' cycles or its live tables add
    up. The count right after a collection is what is alive, so the next is called for by growth past that, never
    past a peak the garbage itself had made.

    A due collection waits for a lull (`quiet`: nobody pressing for a moment), since it holds every table while it
    runs: some 50 ms at 1,000 busy tables, half a second to 0.75 s at 10,000 (every object, start-up's and the frozen
    tables' too: `full_collection`). A bot never quiet makes it anyway once memory has grown by `OVERDUE`."""

    def __init__(self, blocks: Callable[[], int] = sys.getallocatedblocks, growth: float = GROWTH, *,
                 quiet: Callable[[], bool] = lambda: True, overdue: float = OVERDUE,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._blocks = blocks
        self._growth = growth
        self._quiet = quiet
        self._overdue = overdue
        self._sleep = sleep
        """How `run` waits between two looks (a test's notes each wait)."""
        self.alive = blocks()
        """The blocks allocated right after the last full collection (what was alive then), or when this began."""
        self.made = 0
        """Full collections made so far."""
        self.waiting = False
        """Whether one is due and waits for a lull."""

    def collect_if_due(self) -> bool:
        """Make a full collection if it is due (the allocated blocks have grown by `growth` since the last) and the
        bot is quiet, or it is overdue; whether one was made."""
        blocks = self._blocks()
        if blocks < self.alive * (1 + self._growth):
            self.waiting = False
            return False
        lull = self._quiet()
        if not lull and blocks < self.alive * (1 + self._overdue):
            self.waiting = True
            return False
        began = time.perf_counter()
        found = full_collection()
        took = time.perf_counter() - began
        grown_from, self.alive = self.alive, self._blocks()
        self.made += 1
        self.waiting = False
        log.info("full collection%s: %d unreachable objects in %.0f ms (%d memory blocks allocated after it, %d after "
                 "the last)", "" if lull else " without a lull", found, took * 1000, self.alive, grown_from)
        return True

    async def run(self, every: float = 60.0, lull_every: float = LULL_LOOK_SECONDS) -> None:
        """Look every `every` seconds, for as long as the bot runs; every `lull_every` while one waits for a lull."""
        while True:
            await self._sleep(lull_every if self.waiting else every)
            self.collect_if_due()
