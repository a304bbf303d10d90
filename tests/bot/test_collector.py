"""The collector's settings after start-up: what start-up made is frozen, and the measured thresholds are set; and
what an action makes goes when it is done, leaving nothing for a full collection."""

import asyncio
import gc
import types

import pytest

from bot.collector import THRESHOLDS, starting_up, tune_collector
from bot.games.context import Action, Names, Refusal
from bot.service import Service
from bot.store import Tx
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import play_out, press_label


def test_tuning_freezes_what_exists_and_sets_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        made_at_start_up = [[number] for number in range(1000)]
        tune_collector()
        assert gc.get_freeze_count() >= len(made_at_start_up), "start-up's objects are frozen"
        assert gc.get_threshold() == THRESHOLDS
        assert THRESHOLDS[0] * THRESHOLDS[1] <= 1_000, "a middle collection stays short (what it traverses)"
        assert THRESHOLDS[0] * THRESHOLDS[1] * THRESHOLDS[2] >= 50_000_000, "full collections are rare"
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


async def test_actions_and_refusals_leave_nothing_for_a_full_collection(service: Service) -> None:
    """An action's objects go as soon as it is done, freed by their reference counts: none waits in a reference cycle
    for the next full collection, which comes after about a million actions (at 1,000 tables, 15 s of presses had
    left 3.3 million such objects, 3.5 s to collect, the bot's memory growing all the while). A refusal's too: its
    traceback holds the frames of the store's batch."""
    players = {"ann": ANN, "bob": BOB}
    for actor in players.values():
        await service.handle(PLACE, actor, "/join")
    dealt = await service.handle(PLACE, ANN, "/deal")
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable is kept in `gc.garbage`, to be looked at
    try:
        assert (await service.handle(PLACE, ANN, "/join")).error, "refused: he is seated already"
        assert (await service.press(PLACE, BOB, press_label(dealt, "fold"))).error, "refused: not his turn"
        await play_out(service, PLACE, players, dealt)
        gc.collect()
        left = sorted({type(thing).__name__ for thing in gc.garbage
                       if isinstance(thing, Action | Names | Refusal | Tx | asyncio.Future | types.FrameType)})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
