"""The odds code: published figures reproduced, and the fast simulations agree with the engine round by round."""

import random

import pytest

from engine.cards import ALL_CARDS, Deck, parse_cards
from engine.hands import HandCategory, RussianCategory, evaluate, evaluate_russian
from engine.house import odds
from engine.house.caribbean import CaribbeanRound, CaribbeanRules
from engine.house.common import Limits, Phase
from engine.house.russian import RussianRound, RussianRules
from engine.house.texas import TexasRound, TexasRules
from engine.house.three_card import ThreeCardRules


def test_fast_table_matches_evaluate() -> None:
    table = odds.five_card_table()
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(52), 7)
        assert table.best(cards) == evaluate([ALL_CARDS[i] for i in cards]).strength


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


def engine_russian(deck: Deck) -> int:
    round_ = RussianRound.new(RussianRules())
    round_.place_bets("p", 1, 10, balance=10**6)
    round_.deal(deck)
    hand = evaluate_russian(round_.boxes[0].cards)
    round_.act("p", "play" if hand.category >= RussianCategory.ACE_KING else "fold")
    if round_.phase is Phase.DEALER_GAME:
        round_.act("p", "dealer_game" if hand.category >= RussianCategory.THREE_OF_A_KIND else "decline")
    return round_.result().players["p"]


def engine_texas(deck: Deck) -> int:
    round_ = TexasRound.new(TexasRules(limits=UNCAPPED))
    round_.place_bets("p", 1, 10, balance=10**6)
    round_.deal(deck)
    hole = round_.boxes[0].cards
    if evaluate(hole + round_.community[:3]).category >= HandCategory.PAIR:
        round_.act("p", "bet")
    else:
        round_.act("p", "buy")
        pair = evaluate(hole + round_.community[:4]).category >= HandCategory.PAIR
        round_.act("p", "bet" if pair else "fold")
    return round_.result().players["p"]


@pytest.mark.parametrize(("simulate", "play", "count"), [
    (odds.caribbean, engine_caribbean, 10), (odds.russian, engine_russian, 11), (odds.texas, engine_texas, 9)])
def test_simulation_agrees_with_the_engine_round_by_round(simulate, play, count) -> None:  # type: ignore[no-untyped-def]
    config = {odds.caribbean: CaribbeanRules(suit_tiebreak=False), odds.texas: TexasRules(limits=UNCAPPED)}
    for seed in range(400):
        cards = random.Random(seed).sample(range(52), count)
        report = simulate(1, random.Random(seed), config.get(simulate))
        expected = play(Deck.stacked([ALL_CARDS[i] for i in cards]))
        assert -report.house_edge / 100 * 10 == pytest.approx(expected), seed
