"""The collector's settings after start-up: what start-up made is frozen, the measured thresholds are set, the young
collections come between the store's batches, a full collection is made only when memory has grown (at a lull, unless
it has grown by half); and what an action or a timer makes goes when it is done, leaving nothing for a full
collection."""

import asyncio
import gc
import sys
import types
import weakref

import pytest

from bot.clock import FakeClock
from bot.collector import LULL_SECONDS, NEVER, THRESHOLDS, FullCollections, starting_up, tune_collector
from bot.games.context import Action, Names, Refusal
from bot.replay import ReplayTx
from bot.service import Service
from bot.store import Store, Tx
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import kept_garbage, play_out, press_label


def test_tuning_freezes_what_exists_and_sets_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        made_at_start_up = [[number] for number in range(1000)]
        tune_collector()
        assert gc.get_freeze_count() >= len(made_at_start_up), "start-up's objects are frozen"
        assert gc.get_threshold() == THRESHOLDS
        assert THRESHOLDS[2] == NEVER, "full collections are made by `FullCollections`, not by the collector"
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def _in_generation(thing: object, generation: int) -> bool:
    return any(found is thing for found in gc.get_objects(generation=generation))


def _is_young(thing: object) -> bool:
    """Whether a young or middle collection would traverse it."""
    return _in_generation(thing, 0) or _in_generation(thing, 1)


def _is_frozen(thing: object) -> bool:
    """Tracked by the collector, but in none of its generations: in the permanent one (`gc.freeze`)."""
    return gc.is_tracked(thing) and not any(_in_generation(thing, generation) for generation in range(3))


async def test_each_batch_begins_with_a_young_collection_into_the_oldest_generation(store: Store) -> None:
    """What was made between two batches (the callers' next presses, an adapter's requests) is collected before the
    next batch and promoted at once to the oldest generation, so it is traversed once (collections counted by
    allocations came in the middle of batches and traversed what each kept twice: 13-15% of the time at 1,000
    saturated tables). Only with the tuned collector: under Python's own third threshold each of these would count
    towards a full collection. Both with a first threshold no batch reaches, so only the store can have collected.
    The batch itself then freezes the oldest generation with what it made (`after_batch`)."""
    before = gc.get_threshold()
    try:
        for tuned in (False, True):
            if tuned:
                tune_collector((100_000, 2, NEVER))
            else:
                gc.set_threshold(100_000, 2, 10)
            gc.collect()
            kept = [["what an action kept"]]
            assert _is_young(kept)
            await store.transact(lambda tx: tx.ensure_chat("chat"), now=0.0)
            assert _is_young(kept) is not tuned
            assert _is_frozen(kept) is tuned, "promoted, then frozen with the batch"
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_what_a_batch_made_is_frozen_unless_a_job_failed(store: Store) -> None:
    """No young collection traverses what a batch's actions made (their objects hold no cycle: they go by their
    reference counts), so it is frozen right after the batch. Not when a job failed: what failed goes to the next young
    collection as everything did before."""
    before = gc.get_threshold()
    try:
        tune_collector((100_000, 2, NEVER))
        made = await store.transact(lambda tx: [["made by the job"]], now=0.0)
        assert _is_frozen(made) and _is_frozen(made[0])
        kept: list[list[list[str]]] = []

        def fails(tx: Tx) -> None:
            kept.append([["made by a job that failed"]])
            raise Refusal("no")

        with pytest.raises(Refusal):
            await store.transact(fails, now=0.0)
        assert _is_young(kept[0]), "left for the next young collection"
        gc.set_threshold(100_000, 2, 10)  # the collector not tuned (tests, a bot before start-up ends): nothing frozen
        made = await store.transact(lambda tx: [["made with the collector not tuned"]], now=0.0)
        assert _is_young(made) and _is_young(made[0])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_start_up_runs_without_collections_then_tunes_the_collector() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        with starting_up():
            assert not gc.isenabled(), "nothing start-up keeps is traversed again and again while it builds"
            made_at_start_up = [[number] for number in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(made_at_start_up) and gc.get_threshold() == THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_start_up_that_fails_leaves_the_collector_on_and_nothing_frozen() -> None:
    frozen = gc.get_freeze_count()
    with pytest.raises(OSError), starting_up():
        made_before_it_failed = [[number] for number in range(1000)]
        raise OSError(f"the database cannot be opened ({len(made_before_it_failed)} objects made)")
    assert gc.isenabled() and gc.get_freeze_count() == frozen


async def test_actions_refusals_and_timers_leave_nothing_for_a_full_collection(service: Service,
                                                                             clock: FakeClock) -> None:
    """An action's objects go as soon as it is done, freed by their reference counts: none waits in a reference cycle
    for a full collection, which the bot makes only once its memory has grown (at 1,000 tables, 15 s of presses had
    left 3.3 million such objects, 3.5 s to collect, the bot's memory growing all the while). A refusal's too: its
    traceback holds the frames of the store's batch. And a timer's: a turn's time bank started and ran out, the next
    hand dealt by its timer."""
    players = {"ann": ANN, "bob": BOB}
    for actor in players.values():
        await service.handle(PLACE, actor, "/join")
    dealt = await service.handle(PLACE, ANN, "/deal")
    with kept_garbage(paused=True) as garbage:
        assert (await service.handle(PLACE, ANN, "/join")).error, "refused: he is seated already"
        assert (await service.press(PLACE, BOB, press_label(dealt, "fold"))).error, "refused: not his turn"
        await play_out(service, PLACE, players, dealt)
        await service.handle(PLACE, ANN, "/deal")
        fired = 0
        for _ in range(3):  # the turn runs out and its time bank starts; the bank runs out; the next hand is dealt
            clock.advance(3600)
            fired += await service.scheduler.fire_due()
        gc.collect()
        left = sorted({type(thing).__name__ for thing in garbage
                       if isinstance(thing, Action | Names | Refusal | Tx | asyncio.Future | types.FrameType)})
    assert fired == 3 and left == []


async def test_what_batches_froze_holds_no_garbage_for_a_full_collection(service: Service, clock: FakeClock) -> None:
    """With the collector tuned, each batch freezes what its actions made (`after_batch`), and no young collection
    looks at it again: a cycle among it would wait for a full collection. So none is made: seating, a hand played
    out, refusals and the timers, then everything unfrozen and collected, finds no action's, refusal's,
    transaction's, future's or frame's garbage."""
    players = {"ann": ANN, "bob": BOB}
    before = gc.get_threshold()
    gc.unfreeze()  # what an earlier test froze (a bot started and stopped) is not this test's to find
    gc.collect()
    try:
        tune_collector((100_000, 2, NEVER))
        for actor in players.values():
            await service.handle(PLACE, actor, "/join")
        dealt = await service.handle(PLACE, ANN, "/deal")
        assert _is_frozen(dealt) and _is_frozen(dealt.table), "the batches froze what they made"
        assert (await service.handle(PLACE, ANN, "/join")).error, "refused: he is seated already"
        await play_out(service, PLACE, players, dealt)
        await service.handle(PLACE, ANN, "/deal")
        for _ in range(3):
            clock.advance(3600)
            await service.scheduler.fire_due()
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = sorted({type(thing).__name__ for thing in gc.garbage
                       if isinstance(thing, Action | Names | Refusal | Tx | asyncio.Future | types.FrameType)})
        assert left == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*before)


def test_a_replay_goes_as_soon_as_it_is_done() -> None:
    """A replay (a table resumed from its snapshot and the actions logged after it) holds the store's transaction for
    the reads the log does not answer: it is freed by its reference count, not left in a cycle with the reads it
    hands out (15 s of presses at 10,000 tables had left 181 transactions so, for the next full collection)."""

    class Store:
        def balances(self, prefix: str) -> dict[str, int]:
            return {f"{prefix}ann": 40}

    gc.disable()
    try:
        replay = ReplayTx([["balance", 990]], Store())
        assert replay.balance("stack:t:ann") == 990, "what the log recorded"
        assert replay.balances("stack:t:") == {"stack:t:ann": 40}, "then the store, once the log holds no more"
        assert replay.move("a", "b", 5) is None, "writes do nothing"
        gone = weakref.ref(replay)
        del replay
        assert gone() is None
    finally:
        gc.enable()


def _full_collections_made_by_itself() -> int:
    """How many full collections the collector makes by itself while 400,000 tracked objects are made and kept."""
    started: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            started.append(2)

    gc.callbacks.append(note)
    try:
        kept = [[number] for number in range(400_000)]
    finally:
        gc.callbacks.remove(note)
    del kept
    return len(started)


def test_the_tuned_collector_never_makes_a_full_collection_by_itself() -> None:
    """Young and middle collections go on as set, but not a full one: it would traverse every table's state (0.4-0.67 s
    at 10,000 busy tables). Shown with the smallest thresholds, so that 400,000 objects make 100,000 middle
    collections: with Python's third threshold (10) the collector makes full ones among them."""
    before = gc.get_threshold()
    try:
        tune_collector((1, 1, 10))
        assert _full_collections_made_by_itself() > 0, "the check can see a full collection"
        gc.unfreeze()
        tune_collector((1, 1, THRESHOLDS[2]))
        assert _full_collections_made_by_itself() == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


class _Node:
    other: object


def _garbage_in_a_cycle() -> weakref.ref[_Node]:
    """A reference cycle no one else holds, which only a collection frees; a weak reference to it."""
    node = _Node()
    node.other = node
    return weakref.ref(node)


def test_a_full_collection_is_made_once_memory_has_grown_by_a_quarter() -> None:
    # the readings in the order they are taken: at the start, at each look, and right after each collection
    readings = [400_000, 499_999, 500_000, 420_000, 524_999, 525_000, 430_000]
    collections = FullCollections(blocks=lambda: readings.pop(0))
    gc.disable()  # the cycle stays until a collection made on purpose
    try:
        garbage = _garbage_in_a_cycle()
        assert not collections.collect_if_due() and garbage() is not None, "grown by less than a quarter"
        assert collections.collect_if_due() and garbage() is None and collections.made == 1
        assert collections.alive == 420_000, "what is alive after it, which the next quarter counts from"
        garbage = _garbage_in_a_cycle()
        assert not collections.collect_if_due() and garbage() is not None, "less than a quarter over 420,000"
        assert collections.collect_if_due() and garbage() is None and collections.made == 2
        assert readings == []
    finally:
        gc.enable()


def test_the_count_after_a_full_collection_is_of_what_is_alive() -> None:
    """Python's own count of its allocated blocks: garbage in cycles counts until a full collection frees it, so the
    next quarter is counted from what is alive, not from what the garbage had grown to."""
    collections = FullCollections(growth=0.0)  # due at once: the collection is what is looked at
    gc.disable()
    try:
        garbage = [_garbage_in_a_cycle() for _ in range(20_000)]
        with_garbage = sys.getallocatedblocks()
        assert collections.collect_if_due() and all(node() is None for node in garbage)
        assert collections.alive < with_garbage - 20_000
    finally:
        gc.enable()


def test_a_full_collection_finds_garbage_among_the_frozen_objects() -> None:
    """What start-up and every batch froze is collected too: a cycle among them that became garbage is freed."""
    collections = FullCollections(blocks=lambda: 1, growth=0.0)  # due at once
    gc.disable()
    try:
        node = _Node()
        node.other = node
        garbage = weakref.ref(node)
        gc.freeze()
        del node
        gc.collect()
        assert garbage() is not None, "a plain collection does not look at frozen objects"
        assert collections.collect_if_due() and garbage() is None
        assert gc.get_freeze_count() == 0, "what is alive is left in the oldest generation for the next batch"
    finally:
        gc.unfreeze()
        gc.enable()


async def test_full_collections_are_looked_for_while_the_bot_runs() -> None:
    blocks = [100_000]
    collections = FullCollections(blocks=lambda: blocks[-1])
    watching = asyncio.create_task(collections.run(every=0.01))
    try:
        await asyncio.sleep(0.05)
        assert collections.made == 0
        blocks.append(200_000)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if collections.made:
                break
        assert collections.made == 1
    finally:
        watching.cancel()


def test_a_due_full_collection_waits_for_a_lull_unless_memory_has_grown_by_half() -> None:
    blocks, lull = [100_000], [False]
    collections = FullCollections(blocks=lambda: blocks[-1], quiet=lambda: lull[0])
    blocks.append(130_000)  # due: grown by more than a quarter
    assert not collections.collect_if_due() and collections.waiting and collections.made == 0
    lull[0] = True
    assert collections.collect_if_due() and not collections.waiting and collections.made == 1
    lull[0] = False
    blocks.append(int(collections.alive * 1.3))
    assert not collections.collect_if_due() and collections.waiting
    blocks.append(int(collections.alive * 1.5))  # overdue: made though players are pressing
    assert collections.collect_if_due() and collections.made == 2 and not collections.waiting


async def test_a_waiting_full_collection_looks_for_a_lull_more_often() -> None:
    looks = 0

    def quiet_from_the_21st_look() -> bool:
        nonlocal looks
        looks += 1
        return looks > 20

    waits: list[float] = []  # each wait the watcher asked for, in order (none waited: no real time is measured)
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    blocks = [100_000]
    collections = FullCollections(blocks=lambda: blocks[-1], quiet=quiet_from_the_21st_look, sleep=sleep)
    blocks.append(130_000)  # due from the first look
    watching = asyncio.create_task(collections.run(every=0.2, lull_every=0.005))
    try:
        while not collections.made:
            await real_sleep(0)
        assert looks == 21
        # a look after 0.2 s, then every 5 ms until the lull (every 0.2 s, the 21 looks would take 4.2 s), then
        # every 0.2 s again once it is made
        assert waits == [0.2] + [0.005] * 20 + [0.2]
    finally:
        watching.cancel()


async def test_the_store_is_quiet_once_no_player_has_pressed_for_a_while(tmp_path) -> None:
    store = await Store.open(tmp_path / "quiet.db")
    try:
        assert store.quiet_for(LULL_SECONDS)  # nobody has pressed yet
        await store.transact(lambda tx: tx.ensure_chat("c"), now=1.0)
        # windows wide enough that a slow commit on a busy machine cannot outlast them
        assert not store.quiet_for(LULL_SECONDS) and not store.quiet_for(0.5)
        await asyncio.sleep(0.6)
        assert store.quiet_for(0.5)
        await store.transact(lambda tx: tx.ensure_chat("c"), now=1.0, background=True)  # a timer's job
        assert store.quiet_for(0.5)
    finally:
        await store.close()
