"""The collector's settings after start-up: what start-up made is frozen, and the measured thresholds are set."""

import gc

import pytest

from bot.collector import THRESHOLDS, starting_up, tune_collector


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
