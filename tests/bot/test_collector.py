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
        assert THRESHOLDS[0] > before[0], "fewer, larger young collections than the default"
        assert THRESHOLDS[0] * THRESHOLDS[1] <= 10_000, "a middle collection stays short (what it traverses)"
        assert THRESHOLDS[1] * THRESHOLDS[2] > before[1] * before[2] * 100, "full collections are rare"
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
