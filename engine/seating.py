"""Between hands at a Hold'em table: where the button goes next (RULES.md §1: one seat clockwise each hand)."""

from __future__ import annotations

from collections.abc import Sequence


def next_button(in_play: Sequence[bool], previous: int, big_blind: int | None = None) -> int:
    """The seat index of the next button: the first seat after `previous` (clockwise) that is dealt in.

    `in_play[i]` says whether seat i is dealt in (has chips, is not sitting out); `previous` is the last hand's
    button (-1 before the first hand). Seats that are out are skipped, so the button never lands on an empty chair.
    `big_blind` is the seat that posted the last hand's big blind, if it is still there. Heads-up the seat after the
    button posts the big blind, so when that seat posted it last hand (three went to two: the button left), the
    button goes to that seat instead, as a card room places it (TDA 34): nobody posts the big blind twice in a row.
    """
    count = len(in_play)
    seats = [(previous + step) % count for step in range(1, count + 1) if in_play[(previous + step) % count]]
    if not seats:
        raise ValueError("nobody is dealt in")
    if len(seats) == 2 and seats[1] == big_blind:
        return big_blind
    return seats[0]


def dealing_order(in_play: Sequence[bool], button: int) -> list[int]:
    """The seat indices dealt in, clockwise from the button (which comes first): the small and big blind follow it
    (heads-up the button posts the small blind, and the other seat the big)."""
    count = len(in_play)
    return [(button + step) % count for step in range(count) if in_play[(button + step) % count]]
