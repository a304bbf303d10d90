"""Fast hand strength for showdowns and simulations: the same ordering integers as `hands.evaluate`."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import ALL_CARDS


def strength_of_indices(indices: Sequence[int]) -> int:
    """The `HandValue.strength` of 5-7 cards given by `Card.index`."""
    from engine.hands import evaluate

    return evaluate([ALL_CARDS[index] for index in indices]).strength
