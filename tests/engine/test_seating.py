"""The button moves one seat clockwise each hand, skipping seats that are not dealt in; going heads-up nobody posts
the big blind twice in a row."""

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


@pytest.mark.parametrize(
    ("in_play", "previous", "big_blind", "expected"),
    [
        ([True, True, True], 0, 2, 1),  # three go on three: the big blind is no reason to move the button
        ([True, True], -1, 1, 1),  # the button (seat 0, now gone) left: seat 1 posted the big blind, so takes it
        ([True, False, True], 1, 0, 0),  # seat 1 (the button) is out; seat 0, the last big blind, takes it
        ([True, False, True], 1, 2, 2),  # seat 2 posted it (seat 0 then had the button): the usual move is fine
        ([True, True], 0, 1, 1),  # heads-up already: the last big blind is the next button anyway
        ([True, True], 0, None, 1),  # the last big blind left
    ],
)
def test_heads_up_the_last_big_blind_takes_the_button(
        in_play: list[bool], previous: int, big_blind: int | None, expected: int) -> None:
    """Heads-up the seat after the button posts the big blind; the one who posted it last hand does not again."""
    assert next_button(in_play, previous, big_blind) == expected
