"""The house games' return to the player under stated strategies: exact enumeration or seeded simulation.

Figures are in units of the initial wager (the ANTE, or the PAIRPLUS bet), without the table's maximum payout. Hands
are scored with `engine.fast_eval` (the same integers as `engine.hands.evaluate(...).strength`).
Strategies:
- Three Card Poker: play Q-6-4 or better, fold the rest (exact over every player and dealer hand).
- Caribbean Poker: never exchange; raise with A-K-J-8-3 or better, fold the rest (simulation).
- Russian Poker: play a pair or better; without one, buy a sixth card with four to a flush or a straight and then play
  ace-king or better (else fold); play ace-king; fold the rest; never exchange; buy the dealer a game (when he has no
  game) with a straight or better (simulation; one box). House edge 15.5% ± 0.2 of the ANTE (1,000,000 rounds) against
  19.4% for "play ace-king or better, never draw, buy the dealer a game with trips". Variants compared on the same
  100,000 deals (± 0.8): buying a sixth card to a pair 29%, exchanging three to a pair 20%, exchanging junk around its
  high cards instead of folding it no better (16.4-16.8% against 16.6%), buying the dealer a game with two pair 19%.
- Texas Poker: BET at once with a straight or better in the five cards (two own + three open); otherwise buy the fourth
  card with a pair that uses an own card, or four to a flush or a straight (with an own card), else fold; after buying,
  BET with the same (a pair using an own card, or four to a flush or a straight, in the six known cards), else fold;
  never exchange (simulation; one box). House edge 21.8% of the ANTE ± 0.18 (one standard error; 95% interval
  21.4-22.2%) over 4,000,000 rounds (`pokerbot odds texas --rounds 4000000 --seed 20260514`). Pairs made by the
  community cards alone are worthless: the dealer holds them too. The former "BET at once with any pair, else buy and
  BET with a pair" lost 117% (worse than folding every hand, 100%). Variants compared on the same deals (± 0.6-1.0):
  betting at once with two pair or better 34-43%, with trips 27-29%, with a flush or never 22% (equal within the
  error), buying only with pairs and flush draws 24%, betting after buying with pairs of four or better only 29-30%.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from engine.cards import ALL_CARDS, parse_cards
from engine.fast_eval import strength_of_indices
from engine.hands import HandCategory, caribbean_key, evaluate, evaluate_three, is_qualifying_three
from engine.house.caribbean import LINE_NAMES as CARIBBEAN_LINE_NAMES
from engine.house.caribbean import CaribbeanRules
from engine.house.russian import RussianRules, russian_multiple
from engine.house.texas import TexasRules
from engine.house.three_card import ThreeCardRules

STRATEGIES = {
    "three-card": "play Q-6-4 or better",
    "caribbean": "never exchange; raise with A-K-J-8-3 or better",
    "russian": "play a pair or better or ace-king; with four to a flush or straight buy, then play ace-king or better; "
               "fold the rest; buy the dealer a game with a straight or better",
    "texas": "BET at once with a straight or better; buy with a pair using an own card or four to a flush or straight; "
             "after buying BET with the same, else fold",
}
"""The strategy each game's figures assume, in one line."""

PAYTABLES = {"three-card": {"pairplus": "pairplus", "ante": "ante_bonus"}, "caribbean": {"ante": "paytable"},
             "russian": {"ante": "paytable"}, "texas": {"ante": "paytable"}}
"""For each game and bet, the rules' field holding the paytable (hand name → multiple) its figure depends on: the
BET's paytable, or Three Card Poker's PAIRPLUS and ANTE bonus."""

CHUNK = 10_000
"""Rounds simulated between two calls of `odds`'s `progress` callback."""


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


def _strength_of(text: str) -> int:
    return evaluate(parse_cards(text)).strength


_PAIR_MIN = int(HandCategory.PAIR) << 20
_CATEGORY_NAMES = {int(category): category.name.lower() for category in HandCategory}
_ROYAL = _strength_of("As Ks Qs Js Ts")


def _name_of(strength: int) -> str:
    return "royal_flush" if strength == _ROYAL else _CATEGORY_NAMES[strength >> 20]


def _is_ace_king_or_better(strength: int) -> bool:
    return strength >= _PAIR_MIN or (strength >> 12) == 0xED


_WINDOWS = tuple(0b11111 << low for low in range(1, 11))  # five-rank straight windows over bits 1 (ace low)..14


def _rank_bits(cards: Sequence[int]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << ((card >> 2) + 2)
    return bits | 2 if bits >> 14 & 1 else bits


def own_pair_rank(own: Sequence[int], shared: Sequence[int] = ()) -> int:
    """The highest rank of a pair (or more) that uses at least one `own` card (card indices), else 0."""
    ranks = [card >> 2 for card in (*own, *shared)]
    return max(((card >> 2) + 2 for card in own if ranks.count(card >> 2) >= 2), default=0)


def four_to_a_flush(own: Sequence[int], shared: Sequence[int] = ()) -> bool:
    """Whether four or more of the cards share a suit, at least one of them an `own` card."""
    suits = [card & 3 for card in (*own, *shared)]
    return any(suits.count(card & 3) >= 4 for card in own)


def four_to_a_straight(own: Sequence[int], shared: Sequence[int] = ()) -> bool:
    """Whether four ranks of the cards lie in one five-rank straight window (ace high or low), one an `own` rank."""
    ranks, mine = _rank_bits((*own, *shared)), _rank_bits(own)
    return any((ranks & window).bit_count() >= 4 and mine & window for window in _WINDOWS)


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
    strength = strength_of_indices
    raise_from = _strength_of("As Kd Jc 8h 3s")
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    paytable = rules.paytable
    for _ in range(rounds):
        a, b, c, d, e, f, g, h, i, j = sample(deck, 10)
        mine = strength((a, b, c, d, e))
        if mine < raise_from:
            add(-1)
            continue
        dealer = strength((f, g, h, i, j))
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
    strength = strength_of_indices
    multiples: dict[int, int] = {}
    straight = int(HandCategory.STRAIGHT) << 20
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    for _ in range(rounds):
        cards = sample(deck, 12)
        hand, top = cards[:5], 10
        mine = strength(hand)
        fee = 0
        if mine < _PAIR_MIN and (four_to_a_flush(hand) or four_to_a_straight(hand)):
            fee, top = 1, 11
            hand = [*cards[:5], cards[10]]
            mine = strength(hand)
        if not _is_ace_king_or_better(mine):
            add(-1 - fee)
            continue
        dealer = strength(cards[5:10])
        if not _is_ace_king_or_better(dealer):
            if not rules.dealer_game or mine < straight:
                add(1 - fee)
                continue
            fee += 1
            low = sorted(cards[5:10])  # no pair: the last is his highest card, discarded
            dealer = strength((low[0], low[1], low[2], low[3], cards[top]))
            if not _is_ace_king_or_better(dealer):
                add(-fee)
                continue
        if mine < dealer:
            add(-3 - fee)
        elif mine == dealer:
            add(-fee)
        elif len(hand) == 6:
            add(2 * russian_multiple([ALL_CARDS[i] for i in hand], rules) - fee)
        else:
            multiple = multiples.get(mine)
            if multiple is None:
                multiple = multiples[mine] = russian_multiple([ALL_CARDS[i] for i in hand], rules)
            add(2 * multiple - fee)
    return tally.report("russian", "ante")


def _texas_draws(own: Sequence[int], shared: Sequence[int]) -> bool:
    return bool(own_pair_rank(own, shared)) or four_to_a_flush(own, shared) or four_to_a_straight(own, shared)


def texas(rounds: int, rng: random.Random, rules: TexasRules | None = None) -> OddsReport:
    """Texas Poker by simulation (one box, the strategy in `STRATEGIES`)."""
    rules = rules or TexasRules()
    strength = strength_of_indices
    paytable = rules.paytable
    tally = _Tally()
    add, sample, deck = tally.add, rng.sample, range(52)
    straight = int(HandCategory.STRAIGHT) << 20
    straight_flush = int(HandCategory.STRAIGHT_FLUSH) << 20
    for _ in range(rounds):
        h1, h2, d1, d2, c1, c2, c3, c4, c5 = sample(deck, 9)
        mine = strength((h1, h2, c1, c2, c3))
        fee = 0
        if mine < straight:
            if not _texas_draws((h1, h2), (c1, c2, c3)):
                add(-1)
                continue
            fee = 1
            if not _texas_draws((h1, h2), (c1, c2, c3, c4)):
                add(-2)
                continue
            mine = strength((h1, h2, c1, c2, c3, c4, c5))
        dealer = strength((d1, d2, c1, c2, c3, c4, c5))
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


STANDARD_RULES: dict[str, Any] = {
    "three-card": ThreeCardRules(
        pairplus={"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 4, "pair": 1},
        ante_bonus={"straight_flush": 5, "three_of_a_kind": 4, "straight": 1}, ante_bonus_always=True),
    "caribbean": CaribbeanRules(suit_tiebreak=False),
}
"""The casino paytables behind the published house edges (Three Card Poker PAIRPLUS 2.32%, ANTE/PLAY 3.37%; Caribbean
Stud 5.32%), where they differ from this bot's tables (RULES.md); the other games have no published standard."""


def paytables(game: str, config: Any = None) -> dict[str, dict[str, int]]:
    """The paytables a game's figures assume, by field name (`paytable`, `pairplus`, `ante_bonus`), for `config` or
    the game's default rules."""
    rules = config if config is not None else _RULES[game]()
    return {name: dict(getattr(rules, name)) for name in PAYTABLES[game].values()}


LINE_NAMES: dict[str, Mapping[str, str]] = {"caribbean": CARIBBEAN_LINE_NAMES}
"""Per game, the paytable lines a settled round says by another name than their key (`paytables`' keys): a paytable
shown to players names them so."""


def line_name(game: str, hand: str) -> str:
    """The name a paytable shown to players gives its line `hand` (a key of `paytables`' tables) at `game`."""
    return LINE_NAMES.get(game, {}).get(hand, hand)


def merged(reports: Sequence[OddsReport]) -> OddsReport:
    """One report from the reports of consecutive runs of one simulation: the figures of a single run as long."""
    tally = _Tally()
    for report in reports:
        mean, error = -report.house_edge / 100, report.std_error / 100
        tally.count += report.rounds
        tally.total += mean * report.rounds
        tally.squares += report.rounds * (error * error * report.rounds + mean * mean)  # n · (variance + mean²)
    return tally.report(reports[0].game, reports[0].bet)


def odds(game: str, rounds: int, rng: random.Random, config: Any = None,
         progress: Callable[[int], object] | None = None) -> list[OddsReport]:
    """Every bet's figures for a game by name ("three-card" is exact and ignores `rounds` and `rng`). A simulation
    calls `progress` with the rounds just simulated every `CHUNK` rounds, with the same figures as without it."""
    if game == "three-card":
        return [three_card_pairplus(config), three_card_ante(config)]
    simulators: dict[str, Callable[[int, random.Random, Any], OddsReport]] = {
        "caribbean": caribbean, "russian": russian, "texas": texas}
    simulate = simulators.get(game)
    if simulate is None:
        raise ValueError(f"unknown game {game!r}; choose from three-card, caribbean, russian, texas")
    if progress is None:
        return [simulate(rounds, rng, config)]
    parts = []
    for start in range(0, rounds, CHUNK):
        parts.append(simulate(min(CHUNK, rounds - start), rng, config))
        progress(parts[-1].rounds)
    return [merged(parts)]


_RULES: dict[str, type[Any]] = {"three-card": ThreeCardRules, "caribbean": CaribbeanRules, "russian": RussianRules,
                                "texas": TexasRules}
