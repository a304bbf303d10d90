"""A computer player's Hold'em strategy for practice seats: simple, documented, and using the legal actions only.

Preflop (no board yet):
- raise with a pair of nines or better, ace-king, or ace-queen suited (bet or raise the minimum; call when the
  raising is closed);
- call with any other pair, suited connectors (same suit, neighbouring ranks) or two broadway cards (ten or higher)
  when the call costs at most `PREFLOP_CALL_LIMIT` big blinds;
- otherwise check when free, else fold.
Postflop:
- bet or raise the minimum with two pair or better that the hole cards make (a hand stronger than the board alone);
- with a pair that uses a hole card, or a draw before the river (four to a flush, or four ranks in a row, with a hole
  card), call when the price is small (at most a third of the pot, bets included), check when free;
- otherwise check when free, else fold.
Omaha (four hole cards): preflop the hand is rated as the best of its six two-card starting hands; postflop the made
hand is Omaha's (exactly two hole cards with three of the board) and a pair may be any two hole cards of a rank.
The strategy sees only its own cards, the board, the pot and the legal actions: nothing another player hides.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.hands import HandCategory, evaluate
from engine.holdem_types import Action, Bet, Call, Check, Fold, LegalActions, RaiseTo
from engine.omaha import HOLE_CARDS, evaluate_omaha

__all__ = ["PREFLOP_CALL_LIMIT", "PRICE_SHARE", "Strength", "View", "decide", "postflop_strength", "preflop_strength"]

PREFLOP_CALL_LIMIT = 4
"""The most a playable (not premium) starting hand calls before the flop, in big blinds."""

PRICE_SHARE = 3
"""A pair or a draw calls a bet when the call is at most the pot (bets included) divided by this."""


class Strength(StrEnum):
    """How the strategy rates its hand: what it does follows from this alone (and the price)."""

    STRONG = "strong"
    """Raise: a premium starting hand, or two pair or better made with the hole cards."""
    PLAYABLE = "playable"
    """Call when cheap: a playable starting hand, a pair with a hole card, or a draw."""
    WEAK = "weak"
    """Check when free, else fold."""


@dataclass(frozen=True, slots=True)
class View:
    """What the computer player knows when it must act: its cards, the board, the pot and what is legal."""

    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    legal: LegalActions
    pot: int
    big_blind: int


def preflop_strength(hole: Sequence[Card]) -> Strength:
    """The rating of a starting hand (see the module's documentation)."""
    if len(hole) == HOLE_CARDS:
        order = list(Strength)  # strongest first
        return min((preflop_strength(pair) for pair in itertools.combinations(hole, 2)), key=order.index)
    high, low = sorted((card.rank for card in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if high == low:
        return Strength.STRONG if high >= 9 else Strength.PLAYABLE
    if (high, low) == (14, 13) or ((high, low) == (14, 12) and suited):
        return Strength.STRONG
    if (suited and high - low == 1) or low >= 10:
        return Strength.PLAYABLE
    return Strength.WEAK


def _board_category(board: Sequence[Card]) -> HandCategory:
    """The best category the board alone makes (straights and flushes need five board cards)."""
    if len(board) >= 5:
        return evaluate(board).category
    counts = sorted(Counter(card.rank for card in board).values(), reverse=True)
    if counts[0] == 4:
        return HandCategory.FOUR_OF_A_KIND
    if counts[0] == 3:
        return HandCategory.THREE_OF_A_KIND
    if counts[0] == 2:
        return HandCategory.TWO_PAIR if len(counts) > 1 and counts[1] == 2 else HandCategory.PAIR
    return HandCategory.HIGH_CARD


def _has_draw(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Four to a flush or four ranks in a row, with at least one hole card in it."""
    cards = [*hole, *board]
    suits = Counter(card.suit for card in cards)
    if any(count == 4 and any(card.suit == suit for card in hole) for suit, count in suits.items()):
        return True
    ranks = {card.rank for card in cards} | ({1} if any(card.rank == 14 for card in cards) else set())
    own = {card.rank for card in hole} | ({1} if any(card.rank == 14 for card in hole) else set())
    for start in range(1, 12):
        run = set(range(start, start + 4))
        if run <= ranks and run & own:
            return True
    return False


def postflop_strength(hole: Sequence[Card], board: Sequence[Card]) -> Strength:
    """The rating of a made hand or draw on a flop, turn or river (see the module's documentation)."""
    omaha = len(hole) == HOLE_CARDS
    category = (evaluate_omaha(hole, board) if omaha else evaluate([*hole, *board])).category
    if category >= HandCategory.TWO_PAIR and category > _board_category(board):
        return Strength.STRONG
    board_ranks = {card.rank for card in board}
    hole_ranks = [card.rank for card in hole]
    paired = len(set(hole_ranks)) < len(hole_ranks) or any(rank in board_ranks for rank in hole_ranks)
    if paired or (len(board) < 5 and _has_draw(hole, board)):
        return Strength.PLAYABLE
    return Strength.WEAK


def decide(view: View) -> Action:
    """The computer player's action: always one of the legal ones in `view.legal`."""
    legal = view.legal
    strength = postflop_strength(view.hole, view.board) if view.board else preflop_strength(view.hole)
    if strength is Strength.STRONG:
        if legal.can_bet:
            return Bet(legal.min_to)
        if legal.can_raise:
            return RaiseTo(legal.min_to)
        return Call() if legal.can_call else Check()
    if legal.can_check:
        return Check()
    if strength is Strength.PLAYABLE:
        limit = PREFLOP_CALL_LIMIT * view.big_blind if not view.board else view.pot // PRICE_SHARE
        if legal.call_amount <= limit:
            return Call()
    return Fold()
