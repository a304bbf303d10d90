"""The house games' return to the player under stated strategies: exact enumeration or seeded simulation.

Figures are in units of the initial wager (the ANTE, or the PAIRPLUS bet), without the table's maximum payout.
Strategies:
- Three Card Poker: play Q-6-4 or better, fold the rest (exact over every player and dealer hand).
- Caribbean Poker: never exchange; raise with A-K-J-8-3 or better, fold the rest (simulation).
- Russian Poker: play ace-king or better, fold the rest, never buy or exchange; buy the dealer a game (when he has no
  game) with three of a kind or better (simulation; one box).
- Texas Poker: BET at once with a pair or better in the five cards (two own + three open); otherwise buy the fourth
  card, then BET with a pair or better in the six known cards, else fold; never exchange (simulation; one box).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

from engine.cards import ALL_CARDS, parse_cards
from engine.hands import HandCategory, caribbean_key, evaluate, evaluate_three, is_qualifying_three
from engine.house.caribbean import CaribbeanRules
from engine.house.russian import RussianRules, russian_multiple
from engine.house.texas import TexasRules
from engine.house.three_card import ThreeCardRules

STRATEGIES = {
    "three-card": "play Q-6-4 or better",
    "caribbean": "never exchange; raise with A-K-J-8-3 or better",
    "russian": "play ace-king or better, never draw; buy the dealer a game with three of a kind or better",
    "texas": "BET at once with a pair in the five; else buy, then BET with a pair in the six, else fold",
}
"""The strategy each game's figures assume, in one line."""


@dataclass(frozen=True, slots=True)
class OddsReport:
    """One bet's figures: house edge (percent of the initial wager), its standard error, rounds (or deals) counted."""

    game: str
    bet: str
    strategy: str
    method: str
    house_edge: float
    std_error: float
    rounds: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return asdict(self)


# --- fast five-card strength (same integers as engine.hands.evaluate) ------------------------------------

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_CARD_PRIME = [_PRIMES[index >> 2] for index in range(52)]


class FiveCardTable:
    """`strength(a, b, c, d, e)` of five card indices by prime-product lookup, built once from `hands.evaluate`."""

    def __init__(self) -> None:
        self.plain: dict[int, int] = {}
        self.flush: dict[int, int] = {}
        for ranks in combinations_with_replacement(range(13), 5):
            if max(ranks.count(rank) for rank in ranks) > 4:
                continue
            key = math.prod(_PRIMES[rank] for rank in ranks)
            distinct = len(set(ranks)) == 5
            seen: dict[int, int] = {}
            indices = []
            for position, rank in enumerate(ranks):
                suit = (1 if position == 1 else 0) if distinct else seen.get(rank, 0)
                seen[rank] = seen.get(rank, 0) + 1
                indices.append(rank * 4 + suit)
            self.plain[key] = evaluate([ALL_CARDS[index] for index in indices]).strength
            if distinct:
                self.flush[key] = evaluate([ALL_CARDS[rank * 4] for rank in ranks]).strength

    def strength(self, a: int, b: int, c: int, d: int, e: int) -> int:
        """The strength of five distinct cards given by `Card.index`."""
        key = _CARD_PRIME[a] * _CARD_PRIME[b] * _CARD_PRIME[c] * _CARD_PRIME[d] * _CARD_PRIME[e]
        if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
            return self.flush[key]
        return self.plain[key]

    def best(self, cards: Sequence[int]) -> int:
        """The strength of the best five of 5-7 cards."""
        strength = self.strength
        return max(strength(*five) for five in combinations(cards, 5))


_TABLE: FiveCardTable | None = None


def five_card_table() -> FiveCardTable:
    """The shared lookup table (built on first use, about a tenth of a second)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = FiveCardTable()
    return _TABLE


def _strength_of(text: str) -> int:
    return evaluate(parse_cards(text)).strength


_PAIR_MIN = int(HandCategory.PAIR) << 20
_CATEGORY_NAMES = {int(category): category.name.lower() for category in HandCategory}
_ROYAL = _strength_of("As Ks Qs Js Ts")


def _name_of(strength: int) -> str:
    return "royal_flush" if strength == _ROYAL else _CATEGORY_NAMES[strength >> 20]


def _is_ace_king_or_better(strength: int) -> bool:
    return strength >= _PAIR_MIN or (strength >> 12) == 0xED


class _Tally:
    """Running mean and standard error of per-round results."""

    def __init__(self) -> None:
        self.count, self.total, self.squares = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    def report(self, game: str, bet: str) -> OddsReport:
        mean = self.total / self.count
        variance = max(self.squares / self.count - mean * mean, 0.0)
        error = math.sqrt(variance / self.count) if self.count > 1 else 0.0
        return OddsReport(game, bet, STRATEGIES[game], "simulation", -100 * mean, 100 * error, self.count)


# --- Three Card Poker: exact -----------------------------------------------------------------------------


def three_card_pairplus(rules: ThreeCardRules | None = None) -> OddsReport:
    """PAIRPLUS house edge by enumerating all 22,100 hands."""
    rules = rules or ThreeCardRules()
    total = 0
    hands = list(combinations(ALL_CARDS, 3))
    for hand in hands:
        multiple = rules.pairplus.get(evaluate_three(hand).category.name.lower(), 0)
        total += multiple if multiple else -1
    return OddsReport("three-card", "pairplus", "none needed", "exact", -100 * total / len(hands), 0.0, len(hands))


def three_card_ante(rules: ThreeCardRules | None = None) -> OddsReport:
    """ANTE/PLAY house edge (Q-6-4 strategy) over every player hand against every dealer hand, by counting."""
    rules = rules or ThreeCardRules()
    hands = list(combinations(range(52), 3))
    values = {hand: evaluate_three([ALL_CARDS[i] for i in hand]) for hand in hands}
    strengths = {hand: value.strength for hand, value in values.items()}
    every = sorted(strengths.values())
    by_card: list[list[int]] = [[] for _ in range(52)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    for hand, value in strengths.items():
        for card in hand:
            by_card[card].append(value)
        for pair in combinations(hand, 2):
            by_pair.setdefault(pair, []).append(value)
    for bucket in (*by_card, *by_pair.values()):
        bucket.sort()
    qualify = min(value.strength for value in values.values() if is_qualifying_three(value, rules.qualifying_rank))
    threshold = evaluate_three(parse_cards("Qs 6d 4c")).strength
    dealer_count = math.comb(49, 3)
    total = 0
    for hand, value in strengths.items():
        if value < threshold:
            total -= dealer_count
            continue

        def below(x: int, hand: tuple[int, int, int] = hand, value: int = value) -> int:
            count = bisect_left(every, x) - (value < x)
            count -= sum(bisect_left(by_card[card], x) for card in hand)
            return count + sum(bisect_left(by_pair[pair], x) for pair in combinations(hand, 2))

        not_qualified = below(qualify)
        lower = max(0, below(value) - not_qualified)
        equal = below(value + 1) - below(max(value, qualify)) if value + 1 > qualify else 0
        higher = dealer_count - not_qualified - lower - equal
        total += not_qualified + 2 * lower - 2 * higher
        bonus = rules.ante_bonus.get(values[hand].category.name.lower(), 0)
        total += bonus * (dealer_count if rules.ante_bonus_always else not_qualified + lower + equal)
    deals = len(hands) * dealer_count
    return OddsReport("three-card", "ante", STRATEGIES["three-card"], "exact", -100 * total / deals, 0.0, deals)


# --- simulations -----------------------------------------------------------------------------------------


def caribbean(rounds: int, rng: random.Random, rules: CaribbeanRules | None = None) -> OddsReport:
    """Caribbean Poker by simulation; ties push unless `rules.suit_tiebreak` (then the engine's tie-break decides)."""
    rules = rules or CaribbeanRules()
    strength = five_card_table().strength
    raise_from = _strength_of("As Kd Jc 8h 3s")
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    paytable = rules.paytable
    for _ in range(rounds):
        a, b, c, d, e, f, g, h, i, j = sample(deck, 10)
        mine = strength(a, b, c, d, e)
        if mine < raise_from:
            add(-1)
            continue
        dealer = strength(f, g, h, i, j)
        if not _is_ace_king_or_better(dealer):
            add(1)
        elif mine > dealer or (mine == dealer and rules.suit_tiebreak and _suit_wins((a, b, c, d, e),
                                                                                     (f, g, h, i, j))):
            add(1 + 2 * paytable.get(_name_of(mine), 0))
        elif mine < dealer or rules.suit_tiebreak:
            add(-3)
        else:
            add(0)
    return tally.report("caribbean", "ante")


def _suit_wins(mine: Sequence[int], dealer: Sequence[int]) -> bool:
    return caribbean_key(evaluate([ALL_CARDS[i] for i in mine])) > caribbean_key(
        evaluate([ALL_CARDS[i] for i in dealer]))


def russian(rounds: int, rng: random.Random, rules: RussianRules | None = None) -> OddsReport:
    """Russian Poker by simulation (one box, the strategy in `STRATEGIES`)."""
    rules = rules or RussianRules()
    strength = five_card_table().strength
    multiples: dict[int, int] = {}
    trips = int(HandCategory.THREE_OF_A_KIND) << 20
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    for _ in range(rounds):
        cards = sample(deck, 11)
        mine = strength(*cards[:5])
        if not _is_ace_king_or_better(mine):
            add(-1)
            continue
        dealer = strength(*cards[5:10])
        fee = 0
        if not _is_ace_king_or_better(dealer):
            if not rules.dealer_game or mine < trips:
                add(1)
                continue
            fee = 1
            low = sorted(cards[5:10])  # no pair: the last is his highest card, discarded
            dealer = strength(low[0], low[1], low[2], low[3], cards[10])
            if not _is_ace_king_or_better(dealer):
                add(-fee)
                continue
        if mine < dealer:
            add(-3 - fee)
        elif mine == dealer:
            add(-fee)
        else:
            multiple = multiples.get(mine)
            if multiple is None:
                multiple = multiples[mine] = russian_multiple([ALL_CARDS[i] for i in cards[:5]], rules)
            add(2 * multiple - fee)
    return tally.report("russian", "ante")


def texas(rounds: int, rng: random.Random, rules: TexasRules | None = None) -> OddsReport:
    """Texas Poker by simulation (one box, the strategy in `STRATEGIES`)."""
    rules = rules or TexasRules()
    table = five_card_table()
    strength, best = table.strength, table.best
    paytable = rules.paytable
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    straight_flush = int(HandCategory.STRAIGHT_FLUSH) << 20
    for _ in range(rounds):
        h1, h2, d1, d2, c1, c2, c3, c4, c5 = sample(deck, 9)
        mine = strength(h1, h2, c1, c2, c3)
        fee = 0
        if mine < _PAIR_MIN:
            fee = 1
            if best((h1, h2, c1, c2, c3, c4)) < _PAIR_MIN:
                add(-2)
                continue
            mine = best((h1, h2, c1, c2, c3, c4, c5))
        dealer = best((d1, d2, c1, c2, c3, c4, c5))
        qualifies = dealer >= _PAIR_MIN
        if rules.half_payout and mine >= straight_flush and (not qualifies or dealer >= mine):
            add((1 + 2 * paytable.get(_name_of(mine), 0)) / 2 - fee)
        elif not qualifies:
            add(1 - fee)
        elif mine < dealer:
            add(-3 - fee)
        elif mine == dealer:
            add(-fee)
        else:
            add(1 + 2 * paytable.get(_name_of(mine), 0) - fee)
    return tally.report("texas", "ante")


def odds(game: str, rounds: int, rng: random.Random, config: Any = None) -> list[OddsReport]:
    """Every bet's figures for a game by name ("three-card" is exact and ignores `rounds` and `rng`)."""
    if game == "three-card":
        return [three_card_pairplus(config), three_card_ante(config)]
    simulators: dict[str, Callable[[int, random.Random, Any], OddsReport]] = {
        "caribbean": caribbean, "russian": russian, "texas": texas}
    simulate = simulators.get(game)
    if simulate is None:
        raise ValueError(f"unknown game {game!r}; choose from three-card, caribbean, russian, texas")
    return [simulate(rounds, rng, config)]
