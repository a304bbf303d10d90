"""The collector's settings after start-up: what start-up made is frozen, and the measured thresholds are set."""

import gc

from bot.collector import THRESHOLDS, tune_collector


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
