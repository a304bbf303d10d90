"""Hand ranking for every game: five-card high hands, three-card hands, Russian Poker's combinations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from engine import fast_eval
from engine.cards import Card, Suit

__all__ = [
    "HandCategory",
    "HandValue",
    "RussianCategory",
    "ThreeCardCategory",
    "ThreeCardValue",
    "best_combination_pair",
    "caribbean_key",
    "category_of",
    "evaluate",
    "evaluate_russian",
    "evaluate_three",
    "is_qualifying_three",
    "ranks_of",
]


class HandCategory(IntEnum):
    """Five-card high-hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_RANK_BITS = 4


def _pack(category: int, ranks: Sequence[int]) -> int:
    """One integer that orders hands: the category, then up to five tie-break ranks."""
    value = category
    for index in range(5):
        value = (value << _RANK_BITS) | (ranks[index] if index < len(ranks) else 0)
    return value


def category_of(strength: int) -> HandCategory:
    """The category of a hand from its ordering integer (`HandValue.strength`, `strength`)."""
    return HandCategory(strength >> 5 * _RANK_BITS)


def ranks_of(strength: int) -> tuple[int, ...]:
    """The tie-break ranks of a hand from its ordering integer, most significant first (as `HandValue.ranks`)."""
    return _unpack_ranks(strength)


def _unpack_ranks(packed: int) -> tuple[int, ...]:
    """The tie-break ranks `_pack` put into an ordering integer, most significant first."""
    out = []
    for _ in range(5):
        out.append(packed & 0xF)
        packed >>= _RANK_BITS
    return tuple(rank for rank in reversed(out) if rank)


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """The best five-card hand out of some cards: ordered by `strength`, equal when ranks are equal."""

    strength: int
    category: HandCategory
    cards: tuple[Card, ...]

    @property
    def is_royal_flush(self) -> bool:
        """The ace-high straight flush."""
        return self.category is HandCategory.STRAIGHT_FLUSH and self.ranks[0] == 14

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, most significant first (a wheel straight starts with 5)."""
        return _unpack_ranks(self.strength)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.strength == other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= other.strength

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > other.strength

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)


def _straight_top(ranks: set[int]) -> int:
    """The top rank of the highest five-rank run in `ranks` (ace plays low in the wheel), or 0."""
    for top in range(14, 4, -1):
        if all((rank if rank != 1 else 14) in ranks for rank in range(top - 4, top + 1)):
            return top
    return 0


def _run_cards(cards: Iterable[Card], top: int) -> tuple[Card, ...]:
    """Pick one card of each rank of the straight ending at `top`, top first."""
    by_rank: dict[int, Card] = {}
    for card in sorted(cards, reverse=True):
        by_rank.setdefault(card.rank, card)
    return tuple(by_rank[rank if rank != 1 else 14] for rank in range(top, top - 5, -1))


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The best five-card high hand out of 5, 6 or 7 cards."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"evaluate needs 5 to 7 cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("the same card appears twice")
    by_suit: dict[Suit, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card)
    suited = next((group for group in by_suit.values() if len(group) >= 5), None)
    if suited is not None:
        top = _straight_top({card.rank for card in suited})
        if top:
            return HandValue(_pack(HandCategory.STRAIGHT_FLUSH, [top]), HandCategory.STRAIGHT_FLUSH,
                             _run_cards(suited, top))
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, reverse=True):
        by_rank.setdefault(card.rank, []).append(card)
    groups = sorted(by_rank.values(), key=lambda group: (len(group), group[0].rank), reverse=True)
    sizes = [len(group) for group in groups]
    if sizes[0] == 4:
        kicker = max(card for group in groups[1:] for card in group)
        return _made(HandCategory.FOUR_OF_A_KIND, groups[0] + [kicker], [groups[0][0].rank, kicker.rank])
    if sizes[0] == 3 and sizes[1] >= 2:
        pair = groups[1][:2]
        return _made(HandCategory.FULL_HOUSE, groups[0] + pair, [groups[0][0].rank, pair[0].rank])
    if suited is not None:
        best = sorted(suited, reverse=True)[:5]
        return _made(HandCategory.FLUSH, best, [card.rank for card in best])
    top = _straight_top(set(by_rank))
    if top:
        return HandValue(_pack(HandCategory.STRAIGHT, [top]), HandCategory.STRAIGHT,
                         _run_cards(cards, top))
    if sizes[0] == 3:
        kickers = sorted((card for group in groups[1:] for card in group), reverse=True)[:2]
        return _made(HandCategory.THREE_OF_A_KIND, groups[0] + kickers,
                     [groups[0][0].rank] + [card.rank for card in kickers])
    if sizes[0] == 2 and sizes[1] == 2:
        kicker = max(card for group in groups[2:] for card in group)
        return _made(HandCategory.TWO_PAIR, groups[0] + groups[1] + [kicker],
                     [groups[0][0].rank, groups[1][0].rank, kicker.rank])
    if sizes[0] == 2:
        kickers = sorted((card for group in groups[1:] for card in group), reverse=True)[:3]
        return _made(HandCategory.PAIR, groups[0] + kickers,
                     [groups[0][0].rank] + [card.rank for card in kickers])
    best = sorted(cards, reverse=True)[:5]
    return _made(HandCategory.HIGH_CARD, best, [card.rank for card in best])


def _made(category: HandCategory, cards: Sequence[Card], ranks: Sequence[int]) -> HandValue:
    return HandValue(_pack(category, ranks), category, tuple(cards))


def strength(cards: Sequence[Card]) -> int:
    """Only the ordering integer of `evaluate(cards)`, through the fast table lookup (for showdowns and odds)."""
    return fast_eval.strength_of_cards(cards)


# --- Caribbean Poker -------------------------------------------------------------------------------------

CARIBBEAN_SUIT_ORDER: Mapping[Suit, int] = {Suit.SPADES: 0, Suit.DIAMONDS: 1, Suit.CLUBS: 2, Suit.HEARTS: 3}
"""Caribbean tie-break: hearts > clubs > diamonds > spades."""


def caribbean_key(value: HandValue) -> tuple[int, int]:
    """An ordering key for Caribbean Poker: the hand, then the suit of its highest card when ranks are equal.

    The highest card is the first card in ranking order (the pair's card before kickers); where two cards of that
    rank are in the hand, the better suit counts.
    """
    lead_rank = value.cards[0].rank
    lead_suit = max(CARIBBEAN_SUIT_ORDER[card.suit] for card in value.cards if card.rank == lead_rank)
    return value.strength, lead_suit


# --- Three Card Poker ------------------------------------------------------------------------------------


class ThreeCardCategory(IntEnum):
    """Three-card categories, weakest first: a straight beats a flush."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5


@dataclass(frozen=True, order=True, slots=True)
class ThreeCardValue:
    """A three-card hand, ordered by `strength`."""

    strength: int
    category: ThreeCardCategory
    high_rank: int
    """The highest rank that counts (3 for A-2-3, the pair's rank for a pair)."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """The tie-break ranks, most significant first (a straight's top card; a pair's rank, then its kicker)."""
        return _unpack_ranks(self.strength)


def evaluate_three(cards: Sequence[Card]) -> ThreeCardValue:
    """Rank a three-card hand (RULES §5); A-K-Q is the top straight and A-2-3 the lowest."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError("a three-card hand needs three different cards")
    ranks = sorted((card.rank for card in cards), reverse=True)
    is_flush = len({card.suit for card in cards}) == 1
    straight_top = 0
    if ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3:
        straight_top = ranks[0]
    elif ranks == [14, 3, 2]:
        straight_top = 3
    if straight_top:
        category = ThreeCardCategory.STRAIGHT_FLUSH if is_flush else ThreeCardCategory.STRAIGHT
        order = [straight_top]
    elif ranks[0] == ranks[2]:
        category, order = ThreeCardCategory.THREE_OF_A_KIND, [ranks[0]]
    elif is_flush:
        category, order = ThreeCardCategory.FLUSH, ranks
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        category, order = ThreeCardCategory.PAIR, [pair, kicker]
    else:
        category, order = ThreeCardCategory.HIGH_CARD, ranks
    return ThreeCardValue(_pack(category, order), category, order[0])


def is_qualifying_three(value: ThreeCardValue, min_high_rank: int = 12) -> bool:
    """Whether a three-card hand is at least `min_high_rank`-high (default queen-high: dealer qualifies)."""
    return value.category > ThreeCardCategory.HIGH_CARD or value.high_rank >= min_high_rank


# --- Russian Poker ---------------------------------------------------------------------------------------


class RussianCategory(IntEnum):
    """Russian Poker hands, weakest first: ace-king sits between no game and a pair; royal is its own."""

    NO_GAME = 0
    ACE_KING = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10


def russian_category(value: HandValue) -> RussianCategory:
    """The Russian Poker category of a five-card hand."""
    if value.category is HandCategory.HIGH_CARD:
        ranks = {card.rank for card in value.cards}
        return RussianCategory.ACE_KING if {14, 13} <= ranks else RussianCategory.NO_GAME
    if value.is_royal_flush:
        return RussianCategory.ROYAL_FLUSH
    return RussianCategory(value.category + 1)


@dataclass(frozen=True, slots=True)
class RussianHand:
    """A Russian Poker hand: its best five cards and its Russian category (ordered through `value`)."""

    value: HandValue
    category: RussianCategory


def evaluate_russian(cards: Sequence[Card]) -> RussianHand:
    """The best five out of 5 or 6 cards, with the ace-king category."""
    value = evaluate(cards)
    return RussianHand(value, russian_category(value))


@dataclass(frozen=True, slots=True)
class Combination:
    """One combination inside a hand: its category and the cards that form it."""

    category: RussianCategory
    cards: frozenset[Card]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that name it, most significant first: a pair's rank, two pair's high then low pair, a full
        house's three then two, a five-card combination's tie-break ranks; none for ace-king."""
        if self.category is RussianCategory.ACE_KING:
            return ()
        if len(self.cards) == 5:
            return evaluate(list(self.cards)).ranks
        counts: dict[int, int] = {}
        for card in self.cards:
            counts[card.rank] = counts.get(card.rank, 0) + 1
        return tuple(sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True))


def combinations_in(cards: Sequence[Card]) -> list[Combination]:
    """Every combination formed by some of the cards (a pair is two cards, a straight five, …)."""
    found: list[Combination] = []
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        for size, category in ((2, RussianCategory.PAIR), (3, RussianCategory.THREE_OF_A_KIND),
                               (4, RussianCategory.FOUR_OF_A_KIND)):
            found.extend(Combination(category, frozenset(combo)) for combo in combinations(group, size))
    pairs = [combo for combo in found if combo.category is RussianCategory.PAIR]
    trips = [combo for combo in found if combo.category is RussianCategory.THREE_OF_A_KIND]
    for first, second in combinations(pairs, 2):
        if not first.cards & second.cards and _rank_of(first) != _rank_of(second):
            found.append(Combination(RussianCategory.TWO_PAIR, first.cards | second.cards))
    for trip in trips:
        for pair in pairs:
            if _rank_of(pair) != _rank_of(trip):
                found.append(Combination(RussianCategory.FULL_HOUSE, trip.cards | pair.cards))
    for ace in by_rank.get(14, []):
        for king in by_rank.get(13, []):
            found.append(Combination(RussianCategory.ACE_KING, frozenset((ace, king))))
    for five in combinations(cards, 5):
        value = evaluate(five)
        if value.category in (HandCategory.STRAIGHT, HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH):
            found.append(Combination(russian_category(value), frozenset(five)))
    return found


def _rank_of(combo: Combination) -> int:
    return next(iter(combo.cards)).rank


def best_combination_pair(
    cards: Sequence[Card], paytable: Mapping[RussianCategory, int]
) -> tuple[Combination | None, Combination | None, int]:
    """Russian Poker's "second combination": the one or two combinations paying the most in total.

    The second pays no more than the first and has at least one card outside the first. Of pairs paying the same
    total, the one whose first pays most: Q-Q-9-9-5 is two pair alone, not a pair with the other pair as its second
    (RULES.md §3: the second is paid beside the hand's own combination). Returns (first, second, total multiple);
    (None, None, 0) when the hand holds no paying combination.
    """
    paying = [combo for combo in combinations_in(cards) if paytable.get(combo.category, 0) > 0]
    best: tuple[Combination | None, Combination | None, int] = (None, None, 0)
    best_first = 0
    for first in paying:
        first_pay = paytable[first.category]
        if (first_pay, first_pay) > (best[2], best_first):
            best, best_first = (first, None, first_pay), first_pay
        for second in paying:
            second_pay = paytable[second.category]
            if second is first or second_pay > first_pay or not second.cards - first.cards:
                continue
            if (first_pay + second_pay, first_pay) > (best[2], best_first):
                best, best_first = (first, second, first_pay + second_pay), first_pay
    return best
