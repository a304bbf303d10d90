"""The odds code: published figures reproduced, and the fast simulations agree with the engine round by round."""

import random
from collections import Counter

import pytest

from engine.cards import ALL_CARDS, Card, Deck, parse_cards
from engine.hands import HandCategory, RussianCategory, evaluate, evaluate_russian
from engine.house import odds
from engine.house.boxes import Limits, Phase
from engine.house.caribbean import CaribbeanRound, CaribbeanRules
from engine.house.russian import RussianRound, RussianRules
from engine.house.texas import TexasRound, TexasRules
from engine.house.three_card import ThreeCardRules


def test_pairplus_40_30_6_4_1_exact() -> None:
    rules = ThreeCardRules(pairplus={"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 4, "pair": 1})
    report = odds.three_card_pairplus(rules)
    assert report.method == "exact" and round(report.house_edge, 2) == 2.32


def test_ante_play_with_5_4_1_bonus_whenever_playing_exact() -> None:
    rules = ThreeCardRules(ante_bonus={"straight_flush": 5, "three_of_a_kind": 4, "straight": 1},
                           ante_bonus_always=True)
    report = odds.three_card_ante(rules)
    assert round(report.house_edge, 2) == 3.37 and report.rounds == 22100 * 18424


def test_caribbean_standard_within_three_standard_errors() -> None:
    report = odds.caribbean(150_000, random.Random(2024), CaribbeanRules(suit_tiebreak=False))
    assert abs(report.house_edge - 5.32) < 3 * report.std_error
    assert report.std_error < 0.7


UNCAPPED = Limits(max_payout=None, max_boxes=1)


def engine_caribbean(deck: Deck) -> int:
    round_ = CaribbeanRound.new(CaribbeanRules(limits=Limits(max_payout=None, min_side=10, max_side=10),
                                               suit_tiebreak=False))
    round_.place_bets("p", 1, 10, balance=10**6)
    round_.deal(deck)
    value = evaluate(round_.boxes[0].cards)
    threshold = evaluate(parse_cards("As Kd Jc 8h 3s"))
    round_.act("p", "play" if value >= threshold else "fold")
    return round_.result().players["p"]


def four_to_a_flush(cards: list[Card]) -> bool:
    return max(Counter(card.suit for card in cards).values()) >= 4


def four_to_a_straight(cards: list[Card]) -> bool:
    ranks = {card.rank for card in cards} | ({1} if any(card.rank == 14 for card in cards) else set())
    return any(len(ranks & set(range(low, low + 5))) >= 4 for low in range(1, 11))


def engine_russian(deck: Deck) -> int:
    round_ = RussianRound.new(RussianRules())
    round_.place_bets("p", 1, 10, balance=10**6)
    round_.deal(deck)
    cards = round_.boxes[0].cards
    if evaluate_russian(cards).category < RussianCategory.PAIR and (four_to_a_flush(cards) or
                                                                    four_to_a_straight(cards)):
        round_.act("p", "buy")
    hand = evaluate_russian(round_.boxes[0].cards)
    round_.act("p", "play" if hand.category >= RussianCategory.ACE_KING else "fold")
    if round_.phase is Phase.DEALER_GAME:
        round_.act("p", "dealer_game" if hand.category >= RussianCategory.STRAIGHT else "decline")
    return round_.result().players["p"]


def texas_draws(hole: list[Card], shared: list[Card]) -> bool:
    """A pair using a hole card, or four to a flush or a straight that use a hole card."""
    cards = hole + shared
    pair = any(sum(1 for other in cards if other.rank == card.rank) >= 2 for card in hole)
    flush = any(sum(1 for other in cards if other.suit == card.suit) >= 4 for card in hole)

    def low_high(card: Card) -> set[int]:
        return {card.rank, 1} if card.rank == 14 else {card.rank}

    ranks = set().union(*(low_high(card) for card in cards))
    mine = set().union(*(low_high(card) for card in hole))
    straight = any(len(ranks & set(range(low, low + 5))) >= 4 and mine & set(range(low, low + 5))
                   for low in range(1, 11))
    return pair or flush or straight


def engine_texas(deck: Deck) -> int:
    round_ = TexasRound.new(TexasRules(limits=UNCAPPED))
    round_.place_bets("p", 1, 10, balance=10**6)
    round_.deal(deck)
    hole = round_.boxes[0].cards
    if evaluate(hole + round_.community[:3]).category >= HandCategory.STRAIGHT:
        round_.act("p", "bet")
    elif not texas_draws(hole, round_.community[:3]):
        round_.act("p", "fold")
    else:
        round_.act("p", "buy")
        round_.act("p", "bet" if texas_draws(hole, round_.community[:4]) else "fold")
    return round_.result().players["p"]


@pytest.mark.parametrize(("simulate", "play", "count"), [
    (odds.caribbean, engine_caribbean, 10), (odds.russian, engine_russian, 12), (odds.texas, engine_texas, 9)])
def test_simulation_agrees_with_the_engine_round_by_round(simulate, play, count) -> None:  # type: ignore[no-untyped-def]
    config = {odds.caribbean: CaribbeanRules(suit_tiebreak=False), odds.texas: TexasRules(limits=UNCAPPED)}
    for seed in range(400):
        cards = random.Random(seed).sample(range(52), count)
        report = simulate(1, random.Random(seed), config.get(simulate))
        expected = play(Deck.stacked([ALL_CARDS[i] for i in cards]))
        assert -report.house_edge / 100 * 10 == pytest.approx(expected), seed


@pytest.mark.parametrize("simulate", [odds.russian, odds.texas])
def test_documented_strategies_lose_less_than_folding_every_hand(simulate) -> None:  # type: ignore[no-untyped-def]
    # Folding at once loses exactly the ANTE (100%); a strategy a player would follow must do better
    # (the former Texas strategy lost 117%).
    report = simulate(30_000, random.Random(9))
    assert 0 < report.house_edge < 100 - 10 * report.std_error


def test_draw_predicates_match_a_card_by_card_reading() -> None:
    rng = random.Random(4)
    for _ in range(5000):
        indices = rng.sample(range(52), rng.choice([5, 6]))
        own, shared = indices[:2], indices[2:]
        cards = [ALL_CARDS[i] for i in indices]
        fast = bool(odds.own_pair_rank(own, shared)) or odds.four_to_a_flush(own, shared) or \
            odds.four_to_a_straight(own, shared)
        assert fast == texas_draws(cards[:2], cards[2:]), cards
        assert odds.four_to_a_flush(indices) == four_to_a_flush(cards)
        assert odds.four_to_a_straight(indices) == four_to_a_straight(cards), cards


@pytest.mark.parametrize("game", ["caribbean", "russian", "texas"])
def test_a_simulation_reporting_progress_gives_the_same_figures(game: str) -> None:
    """With a `progress` callback the rounds are simulated in chunks, told as they finish, and merged into exactly
    the figures of one run on the same seed."""
    told: list[int] = []
    rounds = 2 * odds.CHUNK + 123
    (chunked,) = odds.odds(game, rounds, random.Random(3), progress=told.append)
    (whole,) = odds.odds(game, rounds, random.Random(3))
    assert told == [odds.CHUNK, odds.CHUNK, 123]
    assert chunked.rounds == whole.rounds == rounds
    assert chunked.house_edge == pytest.approx(whole.house_edge, abs=1e-9)
    assert chunked.std_error == pytest.approx(whole.std_error, rel=1e-9)


def test_paytables_name_what_each_game_pays() -> None:
    assert odds.paytables("three-card") == {"pairplus": dict(ThreeCardRules().pairplus),
                                            "ante_bonus": dict(ThreeCardRules().ante_bonus)}
    standard = odds.STANDARD_RULES["caribbean"]
    assert odds.paytables("caribbean", standard) == {"paytable": dict(CaribbeanRules().paytable)}
    assert odds.paytables("russian")["paytable"]["ace_king"] == 1
