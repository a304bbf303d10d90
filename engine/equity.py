"""Hold'em and Omaha equity: a player's share of the pot against opponents, by exact enumeration or seeded simulation.

Two hole cards mean Hold'em, four mean Omaha (exactly two of them with three of the board, `engine.omaha`); every
hand in one question holds as many cards as the asker's.

Opponents are either random (their hole cards unknown: every two cards not seen by the player are equally likely)
or known (for tests and odds tooling). The unknown cards are the board still to come plus the random opponents'
hole cards; when every way to deal them is few enough (`exact_limit`), all of them are enumerated, else `trials`
random deals are drawn with a numpy generator seeded from the `random.Random` passed in. Hands are scored with
`engine.fast_eval.strength_batch` (Omaha: `engine.omaha.strength_batch`, 60 five-card hands per player and deal,
so an Omaha deal counts 60 times against `exact_limit`).

The cards a player cannot see (folded hands, burnt cards) stay in the unknown deck: equity is what the asker could
compute himself, never a leak of anyone's real cards.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engine import omaha
from engine.cards import Card
from engine.fast_eval import strength_batch

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["DEFAULT_TRIALS", "EXACT_LIMIT", "Equity", "deal_count", "equity"]

EXACT_LIMIT = 200_000
"""Enumerate every deal of the unknown cards when there are at most this many (a heads-up turn is 45,540), else
simulate. Each deal scores one hand per player, about 0.1 µs each in numpy."""

DEFAULT_TRIALS = 5_000
"""Simulated deals when enumeration is too long: the equity's standard error is then at most 0.7 points."""


@dataclass(frozen=True, slots=True)
class Equity:
    """A player's chances: `win` (alone best), `tie` (sharing the best hand) as fractions of the deals, and
    `equity` (his expected share of the pot: wins plus each tie's share). `method` is "exact" or "simulation";
    `deals` counts the deals scored; `std_error` is the equity's standard error (0 when exact)."""

    win: float
    tie: float
    equity: float
    method: str
    deals: int
    std_error: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return asdict(self)


def deal_count(unknown: int, board_missing: int, random_opponents: int, hole_cards: int = 2) -> int:
    """How many distinct deals complete the board and give each random opponent `hole_cards` cards from `unknown`
    cards (opponents are told apart, so one deal per ordered assignment)."""
    total = math.comb(unknown, board_missing)
    left = unknown - board_missing
    for _ in range(random_opponents):
        total *= math.comb(left, hole_cards)
        left -= hole_cards
    return total


def _check(hole: Sequence[Card], board: Sequence[Card], opponents: int, known: Sequence[Sequence[Card]]) -> None:
    if len(hole) not in (2, omaha.HOLE_CARDS):
        raise ValueError(f"need two (Hold'em) or four (Omaha) hole cards, got {len(hole)}")
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"a board holds 0, 3, 4 or 5 cards, got {len(board)}")
    if opponents < 0:
        raise ValueError("the number of random opponents cannot be negative")
    if any(len(hand) != len(hole) for hand in known):
        raise ValueError(f"each known opponent holds {len(hole)} cards")
    if opponents + len(known) < 1:
        raise ValueError("need at least one opponent")
    if (1 + opponents + len(known)) * len(hole) + 5 > 52:
        raise ValueError("too many opponents for one deck")
    seen = [*hole, *board, *(card for hand in known for card in hand)]
    if len(set(seen)) != len(seen):
        raise ValueError("a card appears twice")


def equity(
    hole: Sequence[Card],
    board: Sequence[Card] = (),
    *,
    opponents: int = 0,
    known: Sequence[Sequence[Card]] = (),
    rng: random.Random | None = None,
    trials: int = DEFAULT_TRIALS,
    exact_limit: int = EXACT_LIMIT,
) -> Equity:
    """The equity of `hole` on `board` against `opponents` random hands and the `known` hands.

    Exact when at most `exact_limit` deals complete the hand; otherwise `trials` deals simulated with a generator
    seeded from `rng` (required then). ValueError for impossible input (repeated cards, a board of 1, 2 or 6 cards,
    no opponent).
    """
    import numpy as np

    _check(hole, board, opponents, known)
    seen = {card.index for card in (*hole, *board, *(card for hand in known for card in hand))}
    unknown = np.array([index for index in range(52) if index not in seen], dtype=np.int8)
    size = len(hole)
    missing = 5 - len(board)
    need = missing + size * opponents
    if need > unknown.size:
        raise ValueError("not enough cards left for that many opponents")
    count = deal_count(unknown.size, missing, opponents, size)
    cost = len(omaha.HOLE_PAIRS) * len(omaha.BOARD_TRIPLES) if size == omaha.HOLE_CARDS else 1
    if count * cost <= exact_limit:
        deals = _enumerate(unknown.size, missing, opponents, size)
        method = "exact"
    else:
        if rng is None:
            raise ValueError("simulating needs a random source")
        if trials < 1:
            raise ValueError("need at least one trial")
        generator = np.random.default_rng(rng.getrandbits(64))
        deals = np.argsort(generator.random((trials, unknown.size)), axis=1)[:, :need].astype(np.int8)
        method = "simulation"
    cards = unknown[deals]
    rows = cards.shape[0]
    full_board = np.concatenate([np.tile(np.array([c.index for c in board], dtype=np.int8), (rows, 1)),
                                 cards[:, :missing]], axis=1)
    mine = _score(np.array([c.index for c in hole], dtype=np.int8), None, full_board)
    theirs = [_score(np.array([c.index for c in hand], dtype=np.int8), None, full_board) for hand in known]
    theirs += [_score(None, cards[:, missing + size * i:missing + size * (i + 1)], full_board)
               for i in range(opponents)]
    best = np.max(np.stack(theirs), axis=0)
    sharing = 1 + np.sum(np.stack(theirs) == mine, axis=0)
    wins = mine > best
    ties = mine == best
    shares = np.where(wins, 1.0, np.where(ties, 1.0 / sharing, 0.0))
    value = float(shares.mean())
    error = 0.0 if method == "exact" or rows < 2 else float(shares.std(ddof=1) / math.sqrt(rows))
    return Equity(win=float(wins.mean()), tie=float(ties.mean()), equity=value, method=method, deals=rows,
                  std_error=error)


def _score(fixed: npt.NDArray[Any] | None, dealt: npt.NDArray[Any] | None,
           board: npt.NDArray[Any]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Strengths of hole cards (the same `fixed` ones on every row, or one `dealt` set per row) with the board: any
    five of seven for two hole cards, Omaha's two plus three for four."""
    import numpy as np

    if dealt is None:
        assert fixed is not None
        dealt = np.tile(fixed, (board.shape[0], 1))
    if dealt.shape[1] == omaha.HOLE_CARDS:
        return omaha.strength_batch(dealt, board)
    return strength_batch(np.concatenate([dealt, board], axis=1))


def _enumerate(unknown: int, missing: int, opponents: int, hole_cards: int = 2) -> npt.NDArray[Any]:
    """Every deal as a row of positions into the unknown cards: the board's missing cards, then `hole_cards` per
    opponent."""
    import numpy as np

    rows = np.array(list(itertools.combinations(range(unknown), missing)), dtype=np.int8)
    rows = rows.reshape(math.comb(unknown, missing), missing)
    pairs = np.array(list(itertools.combinations(range(unknown), hole_cards)), dtype=np.int8)
    for _ in range(opponents):
        used = np.zeros((rows.shape[0], unknown), dtype=bool)
        if rows.shape[1]:
            np.put_along_axis(used, rows.astype(np.int64), True, axis=1)
        clash = np.any(used[:, pairs], axis=2)
        keep_row, keep_pair = np.nonzero(~clash)
        rows = np.concatenate([rows[keep_row], pairs[keep_pair]], axis=1)
    return rows
