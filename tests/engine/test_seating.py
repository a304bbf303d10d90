"""The button moves one seat clockwise each hand, skipping seats that are not dealt in."""

import pytest

from engine.seating import dealing_order, next_button


@pytest.mark.parametrize(
    ("in_play", "previous", "expected"),
    [
        ([True, True, True], -1, 0),
        ([True, True, True], 0, 1),
        ([True, True, True], 2, 0),
        ([True, False, True], 0, 2),
        ([False, True, False, True], 3, 1),
    ],
)
def test_next_button(in_play: list[bool], previous: int, expected: int) -> None:
    assert next_button(in_play, previous) == expected


def test_nobody_in_play_is_an_error() -> None:
    with pytest.raises(ValueError):
        next_button([False, False], 0)


def test_dealing_order_starts_at_the_button_and_skips_seats_out() -> None:
    assert dealing_order([True, False, True, True], 2) == [2, 3, 0]
    assert dealing_order([True, True], 1) == [1, 0]
