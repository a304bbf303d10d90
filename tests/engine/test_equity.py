"""Hold'em equity: exact enumeration checked against a plain evaluator loop, simulation against known figures."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, parse_cards
from engine.equity import deal_count, equity
from engine.hands import strength


def brute_force(hole, board, known):
    """Exact equity by dealing every board completion and scoring with `hands.strength` (the slow reference)."""
    seen = {*hole, *board, *(card for hand in known for card in hand)}
    rest = [card for card in ALL_CARDS if card not in seen]
    total = 0.0
    count = 0
    for extra in combinations(rest, 5 - len(board)):
        full = [*board, *extra]
        mine = strength([*hole, *full])
        theirs = [strength([*hand, *full]) for hand in known]
        best = max(theirs)
        if mine > best:
            total += 1
        elif mine == best:
            total += 1 / (1 + theirs.count(mine))
        count += 1
    return total / count


def test_known_river_results_are_exact() -> None:
    crushed = equity(parse_cards("As Ah"), parse_cards("2c 7d 9h Ts Kd"), known=[parse_cards("Kc Kh")])
    assert (crushed.method, crushed.deals, crushed.equity, crushed.win, crushed.tie) == ("exact", 1, 0.0, 0.0, 0.0)
    split = equity(parse_cards("2s 3h"), parse_cards("Ac Kc Qc Jc Tc"),
                   known=[parse_cards("4d 5d"), parse_cards("6h 7h")])
    assert (split.win, split.tie) == (0.0, 1.0)
    assert split.equity == pytest.approx(1 / 3)


def test_aces_against_kings_preflop() -> None:
    result = equity(parse_cards("As Ah"), known=[parse_cards("Kc Kd")], rng=random.Random(5), trials=20_000)
    assert result.method == "simulation" and result.deals == 20_000
    assert 0.805 < result.equity < 0.830
    assert result.std_error == pytest.approx(0.0028, abs=0.0005)


def test_aces_against_one_random_hand() -> None:
    result = equity(parse_cards("Ad Ac"), opponents=1, rng=random.Random(9), trials=20_000)
    assert result.method == "simulation"
    assert abs(result.equity - 0.852) < 4 * result.std_error  # the published 85.2 %


def test_exact_heads_up_on_the_river_matches_a_plain_loop() -> None:
    hole, board = parse_cards("Qh Jh"), parse_cards("Th 9c 2h 2d Ks")
    result = equity(hole, board, opponents=1)
    assert result.method == "exact" and result.deals == 990
    seen = {*hole, *board}
    rest = [card for card in ALL_CARDS if card not in seen]
    expected = sum(brute_force(hole, board, [list(hand)]) for hand in combinations(rest, 2)) / 990
    assert result.equity == pytest.approx(expected)


def test_the_turn_heads_up_is_exact() -> None:
    hole, board = parse_cards("7s 7d"), parse_cards("Ac Kd 7h 2s")
    result = equity(hole, board, opponents=1)
    assert result.method == "exact" and result.deals == deal_count(46, 1, 1) == 45_540
    assert 0.9 < result.equity < 1.0
    rest = [card for card in ALL_CARDS if card not in {*hole, *board}]
    expected = sum(brute_force(hole, board, [list(hand)]) for hand in combinations(rest, 2)) / 1035
    assert result.equity == pytest.approx(expected)


@settings(max_examples=25, deadline=None)
@given(st.permutations(ALL_CARDS), st.sampled_from([3, 4, 5]))
def test_known_hands_share_the_pot_exactly(deck, board_size) -> None:
    hole, other, board = deck[:2], deck[2:4], deck[4:4 + board_size]
    mine = equity(hole, board, known=[other])
    theirs = equity(other, board, known=[hole])
    assert mine.method == "exact"
    assert mine.equity + theirs.equity == pytest.approx(1.0)
    assert mine.equity == pytest.approx(brute_force(hole, board, [other]))


def test_the_same_seed_gives_the_same_simulation() -> None:
    first = equity(parse_cards("8c 9c"), opponents=3, rng=random.Random(1), trials=2000)
    again = equity(parse_cards("8c 9c"), opponents=3, rng=random.Random(1), trials=2000)
    assert first == again
    assert 0.15 < first.equity < 0.35


def test_random_opponents_never_get_seen_cards() -> None:
    # only a dealt copy of the ace of clubs could tie these four aces: the opponent's cards come from the unseen ones
    result = equity(parse_cards("Ac 2d"), parse_cards("Ah Ad As Kc Ks"), opponents=1)
    assert (result.method, result.deals, result.win) == ("exact", 990, 1.0)


@pytest.mark.parametrize(("hole", "board", "known", "opponents"), [
    ("As", "", [], 1),
    ("As Ah", "Kd Qd", [], 1),
    ("As Ah", "As Kd Qd", [], 1),
    ("As Ah", "", [], 0),
    ("As Ah", "", ["As Kd"], 0),
])
def test_impossible_input_is_refused(hole, board, known, opponents) -> None:
    with pytest.raises(ValueError):
        equity(parse_cards(hole), parse_cards(board), known=[parse_cards(hand) for hand in known],
               opponents=opponents, rng=random.Random(0))


def test_simulating_needs_a_random_source() -> None:
    with pytest.raises(ValueError):
        equity(parse_cards("As Ah"), opponents=2)


def omaha_brute_force(hole, board, known):
    """Exact Omaha equity by dealing every board completion and scoring every 2-of-4 × 3-of-5 with `hands.strength`."""

    def best(cards, full):
        return max(strength([*pair, *three]) for pair in combinations(cards, 2) for three in combinations(full, 3))

    seen = {*hole, *board, *(card for hand in known for card in hand)}
    rest = [card for card in ALL_CARDS if card not in seen]
    total, count = 0.0, 0
    for extra in combinations(rest, 5 - len(board)):
        full = [*board, *extra]
        mine, theirs = best(hole, full), [best(hand, full) for hand in known]
        top = max(theirs)
        total += 1 if mine > top else 1 / (1 + theirs.count(mine)) if mine == top else 0
        count += 1
    return total / count


def test_omaha_equity_on_the_turn_matches_a_plain_loop() -> None:
    hole, other, board = parse_cards("As Ah Kd Qc"), parse_cards("9c Tc Jh 8h"), parse_cards("Kc 8d 3s 9h")
    result = equity(hole, board, known=[other])
    assert (result.method, result.deals) == ("exact", 40)
    assert result.equity == pytest.approx(omaha_brute_force(hole, board, [other]))
    # a seven-card evaluation would count the board's pairs and the hand's four cards: Omaha's answer differs
    assert result.equity != pytest.approx(brute_force(hole[:2], board, [other[:2]]))


def test_omaha_equity_against_a_random_hand_is_simulated_with_four_cards_each() -> None:
    result = equity(parse_cards("As Ah Ks Kh"), opponents=1, rng=random.Random(3), trials=3000)
    assert result.method == "simulation" and result.deals == 3000
    assert 0.6 < result.equity < 0.8  # double-suited aces and kings: about 70 % against a random Omaha hand
    with pytest.raises(ValueError):
        equity(parse_cards("As Ah Ks Kh"), known=[parse_cards("2c 3c")])
    with pytest.raises(ValueError):
        equity(parse_cards("As Ah Ks"), opponents=1, rng=random.Random(0))
