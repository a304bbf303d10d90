"""The fast evaluator: the same integers as `hands.evaluate`, the same order as independent evaluators."""

import functools
import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fast_eval
from engine.cards import ALL_CARDS, parse_cards
from engine.hands import HandCategory, evaluate, strength


@functools.cache
def all_five_card_hands() -> np.ndarray:
    """Every 5-card hand as card indices, one row each (2,598,960 rows)."""
    flat = np.fromiter((index for five in combinations(range(52), 5) for index in five), dtype=np.int8)
    return flat.reshape(-1, 5)


def random_hands(rng: random.Random, size: int, count: int) -> list[list[int]]:
    return [rng.sample(range(52), size) for _ in range(count)]


def flush_heavy_hands(rng: random.Random, size: int, count: int) -> list[list[int]]:
    """Hands holding five or more cards of one suit (rare among random hands), often straight flushes."""
    hands = []
    for _ in range(count):
        suit = rng.randrange(4)
        suited_count = rng.randint(5, size)
        if rng.random() < 0.3:
            top = rng.randint(3, 12)  # five in a row; 3 means the wheel A-2-3-4-5
            ranks = [(top - offset) % 13 for offset in range(5)]
            ranks += rng.sample([rank for rank in range(13) if rank not in ranks], suited_count - 5)
        else:
            ranks = rng.sample(range(13), suited_count)
        suited = [rank * 4 + suit for rank in ranks]
        rest = rng.sample([index for index in range(52) if index not in suited], size - suited_count)
        hand = suited + rest
        rng.shuffle(hand)
        hands.append(hand)
    return hands


def test_shipped_tables_equal_a_fresh_build() -> None:
    fast_eval.load_tables()
    keys, values, flush = fast_eval.build_tables()
    assert list(fast_eval._RAW["keys"]) == keys
    assert list(fast_eval._RAW["values"]) == values
    assert list(fast_eval._RAW["flush"]) == flush
    assert len(keys) == 6175 + 18395 + 49205  # rank multisets of 5, 6 and 7 cards, at most four alike


def test_perfect_hash_gives_every_key_its_own_slot() -> None:
    fast_eval.load_tables()
    keys = np.frombuffer(fast_eval._RAW["keys"], dtype=np.uint32).astype(np.int64)
    shift = fast_eval._RAW["shift"]
    offsets = np.frombuffer(fast_eval._RAW["offsets"], dtype=np.int32).astype(np.int64)
    slots = (keys & ((1 << shift) - 1)) + offsets[keys >> shift]
    assert slots.min() >= 0
    assert len(np.unique(slots)) == len(keys)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_fast_path_equals_evaluate_on_random_hands(size: int) -> None:
    rng = random.Random(size)
    for hand in random_hands(rng, size, 6000) + flush_heavy_hands(rng, size, 2000):
        cards = [ALL_CARDS[index] for index in hand]
        expected = evaluate(cards).strength
        assert fast_eval.strength_of_indices(hand) == expected, cards
        assert fast_eval.strength_of_cards(cards) == expected, cards
        assert strength(cards) == expected, cards


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=5, max_size=7, unique=True))
def test_fast_path_equals_evaluate(cards: list) -> None:
    assert fast_eval.strength_of_indices([card.index for card in cards]) == evaluate(cards).strength


def test_evaluate_matches_the_fast_path_on_a_slice_of_all_five_card_hands() -> None:
    hands = all_five_card_hands()[::97]
    batch = fast_eval.strength_batch(hands)
    for row, value in zip(hands.tolist(), batch.tolist(), strict=True):
        assert evaluate([ALL_CARDS[index] for index in row]).strength == value


def test_scalar_and_batch_agree_on_all_five_card_hands() -> None:
    hands = all_five_card_hands()
    batch = fast_eval.strength_batch(hands)
    scalar = [fast_eval.strength_of_indices(row) for row in hands.tolist()]
    assert scalar == batch.tolist()
    assert len(np.unique(batch)) == 7462
    categories = np.bincount(batch >> 20, minlength=len(HandCategory))
    assert categories.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
    royal = evaluate(parse_cards("Ah Kh Qh Jh Th")).strength
    assert int((batch == royal).sum()) == 4


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_equals_scalar(size: int) -> None:
    rng = random.Random(100 + size)
    hands = random_hands(rng, size, 20000) + flush_heavy_hands(rng, size, 5000)
    expected = [fast_eval.strength_of_indices(hand) for hand in hands]
    for dtype in (np.int64, np.int8, np.uint8):
        result = fast_eval.strength_batch(np.array(hands, dtype=dtype))
        assert result.dtype == np.int64
        assert result.tolist() == expected


def test_seven_card_order_agrees_with_phevaluator() -> None:
    phevaluator = pytest.importorskip("phevaluator")
    their_id = [phevaluator.Card(str(card)).id_ for card in ALL_CARDS]
    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7]
    ours = fast_eval.strength_batch(hands)
    theirs = np.array([phevaluator.evaluate_cards(*(their_id[index] for index in row)) for row in hands.tolist()])
    # phevaluator ranks 1 as the best hand: compare the sign of every consecutive difference
    assert np.array_equal(np.sign(np.diff(ours)), -np.sign(np.diff(theirs)))
    assert len(np.unique(ours)) == len(np.unique(theirs))


def test_seven_card_order_agrees_with_treys() -> None:
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    their_card = [treys.Card.new(str(card)) for card in ALL_CARDS]
    rng = random.Random(11)
    hands = random_hands(rng, 7, 20000) + flush_heavy_hands(rng, 7, 5000)
    ours = [fast_eval.strength_of_indices(hand) for hand in hands]
    theirs = [evaluator.evaluate([their_card[i] for i in hand[:2]], [their_card[i] for i in hand[2:]])
              for hand in hands]
    for index in range(len(hands) - 1):
        ours_order = (ours[index + 1] > ours[index]) - (ours[index + 1] < ours[index])
        theirs_order = (theirs[index + 1] < theirs[index]) - (theirs[index + 1] > theirs[index])
        assert ours_order == theirs_order, (hands[index], hands[index + 1])


@pytest.mark.parametrize("bad", [[0, 1, 2, 3], list(range(8)), [0, 4, 8, 12, 16, 20, 24, 28, 32]])
def test_wrong_sizes_are_refused(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        fast_eval.strength_of_indices(bad)
    with pytest.raises(ValueError):
        fast_eval.strength_of_cards([ALL_CARDS[index] for index in bad])


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((3, 4), dtype=np.int64),  # four columns
        np.zeros((3, 8), dtype=np.int64),  # eight columns
        np.zeros(7, dtype=np.int64),  # one dimension
        np.array([[0, 1, 2, 3, 4, 5, 52]]),  # no card 52
        np.array([[0, 1, 2, 3, 4, 5, -1]]),
        np.array([[0.0, 1, 2, 3, 4]]),  # not integers
        np.array([[0, 0, 0, 0, 0, 0, 0]]),  # seven times the same card
        np.array([[0, 1, 2, 3, 0, 1, 2]]),  # seven deuces
    ],
)
def test_batch_refuses_what_is_not_a_hand(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        fast_eval.strength_batch(bad)


def test_empty_batch() -> None:
    assert fast_eval.strength_batch(np.zeros((0, 7), dtype=np.int64)).tolist() == []


def test_card_entry_reads_cards_as_evaluate_does() -> None:
    royal = parse_cards("As Ks Qs Js Ts 2d 3c")
    assert fast_eval.strength_of_cards(royal) == evaluate(royal).strength
    assert evaluate(royal).is_royal_flush


def test_the_shipped_table_file_is_what_the_build_tool_writes() -> None:
    assert fast_eval.table_bytes() == fast_eval.DATA_PATH.read_bytes(), "run python tools/build_fast_eval.py"
