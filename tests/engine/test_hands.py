"""Hand ranking: five-card hands, tie-breaks, three-card hands, Russian combinations, Caribbean suits."""

from collections import Counter
from itertools import combinations

import pytest

from engine.cards import ALL_CARDS, parse_cards
from engine.hands import (
    HandCategory,
    RussianCategory,
    ThreeCardCategory,
    best_combination_pair,
    caribbean_key,
    evaluate,
    evaluate_russian,
    evaluate_three,
    is_qualifying_three,
)


def value(text: str):
    return evaluate(parse_cards(text))


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("As Ks Qs Js Ts", HandCategory.STRAIGHT_FLUSH),
        ("5d 4d 3d 2d Ad", HandCategory.STRAIGHT_FLUSH),
        ("9c 9d 9h 9s 2c", HandCategory.FOUR_OF_A_KIND),
        ("9c 9d 9h 2s 2c", HandCategory.FULL_HOUSE),
        ("Ah 9h 7h 4h 2h", HandCategory.FLUSH),
        ("5c 4d 3h 2s Ac", HandCategory.STRAIGHT),
        ("Qc Kd Ah 2s 3c", HandCategory.HIGH_CARD),
        ("7c 7d 7h Ks 2c", HandCategory.THREE_OF_A_KIND),
        ("7c 7d Kh Ks 2c", HandCategory.TWO_PAIR),
        ("7c 7d Ah Ks 2c", HandCategory.PAIR),
    ],
)
def test_categories(cards: str, category: HandCategory) -> None:
    assert value(cards).category is category


def test_royal_flush_is_recognisable() -> None:
    assert value("As Ks Qs Js Ts").is_royal_flush
    assert not value("Ks Qs Js Ts 9s").is_royal_flush


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ac Ad Kh 9s 3c", "Ac Ad Kh 9s 2d"),  # fifth kicker decides
        ("Kc Kd 5h 5s 2c", "Kh Ks 4h 4s Ac"),  # two pair: second pair before the kicker
        ("Kc Kd 5h 5s 3c", "Kh Ks 5d 5c 2c"),  # two pair: then the kicker
        ("3c 3d 3h 2s 2c", "2h 2d 2s As Ac"),  # full house: trips first
        ("6c 5d 4h 3s 2c", "5h 4d 3s 2h Ac"),  # the wheel is the lowest straight
        ("Ah Jh 8h 6h 4h", "Kd Qd Jd 9d 7d"),  # flush by its top card
        ("2d 3h 4s 6c 7d", "2c 3d 4h 5s 7c"),  # high card down the line
    ],
)
def test_tie_breaks(better: str, worse: str) -> None:
    assert value(better) > value(worse)


def test_equal_ranks_compare_equal_whatever_the_suits() -> None:
    assert value("Ac Kd Qh Js 9c") == value("Ad Kh Qs Jc 9d")
    assert value("Ac Kd Qh Js 9c") != value("Ad Kh Qs Jc 8d")


def test_no_wrap_around_straight() -> None:
    assert value("Qc Kd Ah 2s 3c").category is HandCategory.HIGH_CARD


@pytest.mark.parametrize(
    ("cards", "used", "category"),
    [
        ("As Ks 2d 3c 4h 5s 9d", "5s 4h 3c 2d As", HandCategory.STRAIGHT),
        ("As Ks Qs Js 9s Ts 2d", "As Ks Qs Js Ts", HandCategory.STRAIGHT_FLUSH),
        ("9c 9d 9h 8s 8c 8d", "9c 9d 9h 8s 8c", HandCategory.FULL_HOUSE),
        ("Ah Kh 2h 7h 9h 3h Qd", "Ah Kh 9h 7h 3h", HandCategory.FLUSH),
        ("Ac Ad Kc Kd Qc Qd 2s", "Ac Ad Kc Kd Qc", HandCategory.TWO_PAIR),
    ],
)
def test_best_five_of_six_or_seven(cards: str, used: str, category: HandCategory) -> None:
    result = value(cards)
    assert result.category is category
    assert sorted(result.cards) == sorted(parse_cards(used)) or result == evaluate(parse_cards(used))
    # the chosen cards themselves: five different cards from those given, of the expected ranks (where two cards of
    # a rank could serve, either suit will do), which by themselves are worth the whole result
    chosen = list(result.cards)
    assert len(set(chosen)) == 5 and set(chosen) <= set(parse_cards(cards))
    assert Counter(card.rank for card in chosen) == Counter(card.rank for card in parse_cards(used))
    assert evaluate(chosen) == result and evaluate(chosen).cards == result.cards


def test_evaluate_refuses_bad_sizes_and_duplicates() -> None:
    with pytest.raises(ValueError):
        evaluate(parse_cards("As Ks Qs Js"))
    with pytest.raises(ValueError):
        evaluate([*parse_cards("As Ks Qs Js"), parse_cards("As")[0]])


def test_all_three_card_hands() -> None:
    counts = Counter(evaluate_three(three).category for three in combinations(ALL_CARDS, 3))
    assert counts == {
        ThreeCardCategory.STRAIGHT_FLUSH: 48,
        ThreeCardCategory.THREE_OF_A_KIND: 52,
        ThreeCardCategory.STRAIGHT: 720,
        ThreeCardCategory.FLUSH: 1096,
        ThreeCardCategory.PAIR: 3744,
        ThreeCardCategory.HIGH_CARD: 16440,
    }


def test_three_card_order_and_qualification() -> None:
    three = lambda text: evaluate_three(parse_cards(text))  # noqa: E731
    assert three("Ac Kd Qh") > three("3c 2d Ah")  # A-K-Q top straight, A-2-3 lowest
    assert three("3c 2d Ah").category is ThreeCardCategory.STRAIGHT
    assert three("3c 2d Ah") > three("Kh 9h 2h")  # a straight beats a flush
    assert is_qualifying_three(three("Qc 4d 2h"))
    assert not is_qualifying_three(three("Jc 9d 2h"))
    assert is_qualifying_three(three("2c 2d 3h"))
    assert is_qualifying_three(three("Ac 4d 2h"), min_high_rank=14)
    assert not is_qualifying_three(three("Kc 4d 2h"), min_high_rank=14)


RUSSIAN_PAYS = {
    RussianCategory.ROYAL_FLUSH: 100, RussianCategory.STRAIGHT_FLUSH: 50, RussianCategory.FOUR_OF_A_KIND: 20,
    RussianCategory.FULL_HOUSE: 7, RussianCategory.FLUSH: 5, RussianCategory.STRAIGHT: 4,
    RussianCategory.THREE_OF_A_KIND: 3, RussianCategory.TWO_PAIR: 2, RussianCategory.PAIR: 1,
    RussianCategory.ACE_KING: 1,
}


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        ("Ac Ad Kh 8s 9c", 2),  # pair + ace-king
        ("Ac Ad Ah As 7c 7d", 27),  # four of a kind + full house
        ("Ac Kd Qh Js Tc 9d", 8),  # two straights
        ("Ah Kh Qh Jh Th 9h", 150),  # royal + straight flush
        ("Ac Ad Ah As 9c", 20),  # four of a kind only
        ("Ac Kd 7h 5s 2c", 1),  # ace-king alone
        ("Qc Jd 7h 5s 2c", 0),  # no game
    ],
)
def test_russian_second_combination(cards: str, total: int) -> None:
    assert best_combination_pair(parse_cards(cards), RUSSIAN_PAYS)[2] == total


@pytest.mark.parametrize(
    ("cards", "paid"),
    [
        ("Qc Qd 9h 9s 5c", ["two_pair"]),  # not a pair of queens + a pair of nines: the nines are inside two pair
        ("Ac Ad Kh Ks 7c", ["two_pair"]),  # not a pair of aces + ace-king (or + a pair of kings)
        ("Ac Ad Kh 8s 9c", ["pair", "ace_king"]),  # the king outside the aces: a second combination
        ("Qc Qd 9h 9s 5c 5d", ["two_pair", "two_pair"]),  # the fives outside queens and nines
    ],
)
def test_russian_paid_combinations_are_the_hands_own_first(cards: str, paid: list[str]) -> None:
    """RULES.md §3: a second combination is paid beside the hand's own when one has a card outside it. Where a pair of
    smaller ones pays the same total (two pairs, or a pair and ace-king, as much as two pair), the hand's own
    combination is what is paid and named, as the rule reads: Q-Q-9-9-5 is two pair (2), not a pair of queens with a
    pair of nines as its second combination."""
    first, second, _ = best_combination_pair(parse_cards(cards), RUSSIAN_PAYS)
    assert [combo.category.name.lower() for combo in (first, second) if combo is not None] == paid


def test_russian_categories() -> None:
    assert evaluate_russian(parse_cards("Ac Kd 7h 5s 2c")).category is RussianCategory.ACE_KING
    assert evaluate_russian(parse_cards("Qc Kd 7h 5s 2c")).category is RussianCategory.NO_GAME
    assert evaluate_russian(parse_cards("Ts Js Qs Ks As")).category is RussianCategory.ROYAL_FLUSH
    assert evaluate_russian(parse_cards("2c 2d 7h 5s 3c")).category is RussianCategory.PAIR


def test_caribbean_suit_tie_break() -> None:
    hearts = caribbean_key(value("Ah Kc 9d 7s 3c"))
    spades = caribbean_key(value("As Kd 9c 7h 3d"))
    assert hearts > spades
    assert value("Ah Kc 9d 7s 3c") == value("As Kd 9c 7h 3d")
    assert caribbean_key(value("Ac Kc 9d 7s 3c")) > caribbean_key(value("Ad Kh 9c 7h 3d"))
    # the suit only matters when the ranks tie
    assert caribbean_key(value("As Kd 9c 7h 4d")) > hearts
