"""The practice computer player: hand ratings, chosen actions, and whole hands played only by it."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.betting import STRUCTURES
from engine.cards import Deck, parse_cards
from engine.holdem import Action, Bet, Call, Check, Fold, Hand, LegalActions, RaiseTo, SeatPlayer, Variant
from engine.practice import Strength, View, decide, postflop_strength, preflop_strength
from tests.engine.holdem_helpers import start


@pytest.mark.parametrize(("hole", "rating"), [
    ("9c 9d", Strength.STRONG), ("As Ah", Strength.STRONG), ("Ad Kc", Strength.STRONG), ("Ah Qh", Strength.STRONG),
    ("Ah Qc", Strength.PLAYABLE), ("8c 8d", Strength.PLAYABLE), ("2c 2d", Strength.PLAYABLE),
    ("7h 6h", Strength.PLAYABLE), ("Kd Tc", Strength.PLAYABLE), ("Jc Ts", Strength.PLAYABLE),
    ("7h 6c", Strength.WEAK), ("7h 5h", Strength.WEAK), ("Ac 9d", Strength.WEAK), ("7c 2d", Strength.WEAK),
])
def test_starting_hands_are_rated(hole: str, rating: Strength) -> None:
    assert preflop_strength(parse_cards(hole)) is rating


@pytest.mark.parametrize(("hole", "board", "rating"), [
    ("Ah Kd", "As Kc 2d", Strength.STRONG),             # two pair with both hole cards
    ("Qs 3d", "Ks Kc Qd", Strength.STRONG),             # kings and queens: a hole card makes the second pair
    ("2c 3d", "Ks Kc Qd Qh 9s", Strength.WEAK),         # the board's two pair belongs to everyone
    ("Jc 3d", "Ks Kc Qd Qh 9s", Strength.WEAK),         # a better kicker, still only the board's two pair
    ("Qc 3d", "Ks Kc Qd Qh 9s", Strength.STRONG),       # queens full
    ("4c 5d", "6s 7h 8c", Strength.STRONG),             # a straight
    ("Ah 7h", "Kh 2h 9c", Strength.PLAYABLE),           # four to a flush
    ("9c 8d", "7s 6h 2c", Strength.PLAYABLE),           # four in a row
    ("Ac 2d", "3s 4h 9c", Strength.PLAYABLE),           # ace-low four in a row
    ("9c 8d", "7s 6h 2c Kd Jd", Strength.WEAK),         # no draw counts on the river
    ("Kd 4c", "Ks 9h 2c", Strength.PLAYABLE),           # top pair
    ("Ac Kc", "2h 7d 9s", Strength.WEAK),               # ace high
    ("2h 3h", "Ac Ad 9s", Strength.WEAK),               # the board's pair only
])
def test_made_hands_and_draws_are_rated(hole: str, board: str, rating: Strength) -> None:
    assert postflop_strength(parse_cards(hole), parse_cards(board)) is rating


def legal(*, owed: int = 0, can_bet: bool = False, can_raise: bool = False, min_to: int = 0) -> LegalActions:
    return LegalActions(player="bot:x", can_fold=owed > 0, can_check=owed == 0, call_amount=owed, can_bet=can_bet,
                        can_raise=can_raise, min_to=min_to, max_to=min_to, all_in=0, can_pawn=False)


def view(hole: str, board: str, legal_actions: LegalActions, pot: int = 30, big_blind: int = 20) -> View:
    return View(tuple(parse_cards(hole)), tuple(parse_cards(board)), legal_actions, pot, big_blind)


@pytest.mark.parametrize(("hole", "board", "legal_actions", "pot", "expected"), [
    ("As Ah", "", legal(owed=20, can_raise=True, min_to=40), 30, RaiseTo(40)),
    ("As Ah", "", legal(owed=20), 30, Call()),                       # raising closed: call
    ("7h 6h", "", legal(owed=20, can_raise=True, min_to=40), 30, Call()),
    ("7h 6h", "", legal(owed=100, can_raise=True, min_to=200), 150, Fold()),  # over four big blinds
    ("7c 2d", "", legal(owed=20, can_raise=True, min_to=40), 30, Fold()),
    ("7c 2d", "", legal(can_raise=True, min_to=40), 40, Check()),     # the big blind checks his option
    ("Ah Kd", "As Kc 2d", legal(can_bet=True, min_to=20), 40, Bet(20)),
    ("Ah Kd", "As Kc 2d", legal(owed=20, can_raise=True, min_to=40), 60, RaiseTo(40)),
    ("Kd 4c", "Ks 9h 2c", legal(owed=20, can_raise=True, min_to=40), 60, Call()),   # 20 <= 60 / 3
    ("Kd 4c", "Ks 9h 2c", legal(owed=40, can_raise=True, min_to=80), 80, Fold()),   # 40 > 80 / 3
    ("Kd 4c", "Ks 9h 2c", legal(can_bet=True, min_to=20), 40, Check()),
    ("Ac Kc", "2h 7d 9s", legal(owed=20, can_raise=True, min_to=40), 60, Fold()),
])
def test_actions_follow_the_rating_and_the_price(hole, board, legal_actions, pot, expected) -> None:
    assert decide(view(hole, board, legal_actions, pot)) == expected


def play_by_strategy(hand: Hand) -> list[tuple[str, Action]]:
    """Let the strategy act for everyone until the hand ends, checking each choice is legal; the actions played."""
    played: list[tuple[str, Action]] = []
    for _ in range(200):
        if hand.is_over:
            return played
        player = hand.to_act
        assert player is not None
        action = decide(View(hand.hole_cards(player), hand.board, hand.legal_actions(), hand.pot_total, hand.level))
        assert hand.can_act(player, action), (action, hand.legal_actions())
        hand.act(player, action)
        played.append((player, action))
    raise AssertionError("the hand did not end")


def test_a_fixed_deck_hand_between_computer_players() -> None:
    # Home-limit at 20 (blinds 10/20), a on the button. a's seven-deuce folds first; b's aces (small blind) raise to
    # 40 and c's king-queen suited (big blind) calls; on the flop Ac 9d 4s b's set bets 20 and c's king high, nothing
    # made and no draw, folds to it. So a keeps 500, b wins c's 40: 540, c 460.
    hand, _ = start(STRUCTURES["home-limit"], {"a": 500, "b": 500, "c": 500}, "a",
                    {"a": "7c 2d", "b": "As Ah", "c": "Kh Qh"}, "Ac 9d 4s 3c 8h", level=20)
    played = play_by_strategy(hand)
    assert played == [("a", Fold()), ("b", RaiseTo(40)), ("c", Call()), ("b", Bet(20)), ("c", Fold())]
    assert hand.result is not None
    assert hand.stacks == {"a": 500, "b": 540, "c": 460}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6), st.sampled_from(sorted(STRUCTURES)))
def test_computer_players_always_act_legally_and_finish(seed: int, players: int, structure: str) -> None:
    rng = random.Random(seed)
    seats = [SeatPlayer(f"bot:{n}", rng.randrange(20, 600)) for n in range(players)]
    hand, _ = Hand.start(seats, 0, 20, STRUCTURES[structure], Deck(rng), hand_number=1)
    play_by_strategy(hand)
    assert sum(hand.stacks.values()) == sum(seat.stack for seat in seats)


@pytest.mark.parametrize(("hole", "board", "rating"), [
    ("As Ah 7c 2d", "", Strength.STRONG),        # the aces among the six two-card hands
    ("Jh Th 4c 2d", "", Strength.PLAYABLE),      # two broadway cards
    ("7c 2d 8s 3h", "", Strength.WEAK),
    # one king in the hand with the board's two makes trips (two hole cards and three board cards)
    ("Kd 9s 5c 2h", "Kc Ks 7d", Strength.STRONG),
    ("9c 9d Tc Jd", "Kc 8d 9h", Strength.STRONG),  # a set with the hole pair
    # four hearts on the board and one in the hand: no flush in Omaha, nothing made, no draw either
    ("Ah 7c 4d 2s", "Kh Qh 9h 6h", Strength.WEAK),
])
def test_omaha_hands_are_rated(hole: str, board: str, rating: Strength) -> None:
    cards, shared = parse_cards(hole), parse_cards(board)
    assert (postflop_strength(cards, shared) if shared else preflop_strength(cards)) is rating


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6))
def test_computer_players_play_pot_limit_omaha_legally(seed: int, players: int) -> None:
    rng = random.Random(seed)
    seats = [SeatPlayer(f"bot:{n}", rng.randrange(20, 600)) for n in range(players)]
    hand, _ = Hand.start(seats, 0, 20, STRUCTURES["pot-limit"], Deck(rng), hand_number=1, variant=Variant.OMAHA)
    play_by_strategy(hand)
    assert sum(hand.stacks.values()) == sum(seat.stack for seat in seats)
