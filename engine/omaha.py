"""Omaha hand strength (RULES.md §1b): the best five cards made of exactly two hole cards and exactly three board cards.

Four hole cards and five board cards give 6 × 10 = 60 five-card hands; each is scored with the additive lookup of
`engine.fast_eval` (`fast_eval.best_split`: one addition and one table lookup each), and only the winner is turned
into a full `HandValue` (category, cards) by `hands.evaluate`. `strength_batch` does the same for many deals at once
with numpy (equity, benchmarks).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.cards import ALL_CARDS, Card
from engine.fast_eval import best_split
from engine.fast_eval import strength_batch as five_card_batch
from engine.hands import HandValue, evaluate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BOARD_TRIPLES", "HOLE_CARDS", "HOLE_PAIRS", "best_five", "evaluate_omaha", "strength", "strength_batch"]

HOLE_CARDS = 4
"""Cards dealt to each player in Omaha."""


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if not 2 <= len(hole) <= HOLE_CARDS:
        raise ValueError(f"an Omaha hand holds 2 to {HOLE_CARDS} hole cards, got {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"an Omaha hand needs 3 to 5 board cards, got {len(board)}")
    if len({*hole, *board}) != len(hole) + len(board):
        raise ValueError("the same card appears twice")


def best_five(hole: Sequence[Card], board: Sequence[Card]) -> tuple[tuple[Card, ...], int]:
    """The best five cards using exactly two of `hole` and three of `board`, with their strength."""
    _check(hole, board)
    top, indices = best_split([card.index for card in hole], [card.index for card in board])
    return tuple(ALL_CARDS[index] for index in indices), top


def strength(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The ordering integer of the best Omaha hand (comparable with `HandValue.strength`)."""
    return best_five(hole, board)[1]


def evaluate_omaha(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """The best Omaha hand as a `HandValue` (its five cards, category and ranks)."""
    return evaluate(best_five(hole, board)[0])


HOLE_PAIRS = tuple(itertools.combinations(range(HOLE_CARDS), 2))
"""The six ways to take two of four hole cards (positions)."""

BOARD_TRIPLES = tuple(itertools.combinations(range(5), 3))
"""The ten ways to take three of five board cards (positions)."""


def strength_batch(hole: npt.ArrayLike, board: npt.ArrayLike) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The Omaha strength of every row: `hole` an (N, 4) and `board` an (N, 5) integer array of `Card.index`."""
    import numpy as np

    holes = np.asarray(hole)
    boards = np.asarray(board)
    if holes.ndim != 2 or holes.shape[1] != HOLE_CARDS or boards.ndim != 2 or boards.shape[1] != 5 \
            or holes.shape[0] != boards.shape[0]:
        raise ValueError(f"need (N, 4) hole and (N, 5) board arrays, got {holes.shape} and {boards.shape}")
    best: np.ndarray[Any, np.dtype[np.int64]] | None = None
    for first, second in HOLE_PAIRS:
        for a, b, c in BOARD_TRIPLES:
            five = np.stack([holes[:, first], holes[:, second], boards[:, a], boards[:, b], boards[:, c]], axis=1)
            value = five_card_batch(five)
            best = value if best is None else np.maximum(best, value)
    assert best is not None
    return best
