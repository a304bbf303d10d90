"""Pot-Limit Omaha (RULES.md §1b): the two-plus-three evaluation against brute force, pot-limit bounds, the deal,
and the rabbit hunt (§1a) of a hand that ended before the river."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from engine.betting import NO_LIMIT, POT_LIMIT, Street
from engine.cards import ALL_CARDS, Deck, parse_cards
from engine.common import IllegalAmount, RuleError
from engine.hands import evaluate
from engine.holdem import AllIn, Hand, HandsShown, HandStarted, RabbitHunted, RaiseTo, SeatPlayer, Variant
from engine.omaha import best_five, evaluate_omaha, strength, strength_batch
from tests.engine.holdem_helpers import run_script, start


def _brute_force(hole, board) -> int:
    """Every 2-of-4 hole cards with every 3-of-5 board cards, scored by the reference evaluator."""
    return max(evaluate([*pair, *three]).strength
               for pair in itertools.combinations(hole, 2) for three in itertools.combinations(board, 3))


def test_omaha_strength_matches_brute_force_on_random_deals():
    rng = random.Random(19)
    for _ in range(3000):
        cards = rng.sample(ALL_CARDS, 9)
        hole, board = cards[:4], cards[4:]
        assert strength(hole, board) == _brute_force(hole, board)
        value = evaluate_omaha(hole, board)
        assert value.strength == strength(hole, board)
        assert len(set(value.cards) & set(hole)) == 2 and len(set(value.cards) & set(board)) == 3


@pytest.mark.parametrize(("hole", "board", "category", "not_category"), [
    # four hearts on the board and one in the hand is no flush: two hole cards must play
    ("Ah Kc Qd Js", "2h 5h 8h 9h Tc", "straight", "flush"),
    # one ace in the hand on a board of two aces and two kings: trips, not the full house seven-card poker would see
    ("As 7c 8d 2s", "Ah Ad Kc Ks 3h", "three of a kind", "full house"),
    # a board straight does not play: the hand makes only what two hole cards and three board cards make
    ("Ac Ad 2c 2d", "5s 6h 7d 8c 9s", "pair", "straight"),
    # four of a kind in the hand plays only two of them
    ("Kc Kd Kh Ks", "2c 7d 9h Js 3c", "pair", "four of a kind"),
])
def test_omaha_uses_exactly_two_hole_cards(hole, board, category, not_category):
    value = evaluate_omaha(parse_cards(hole), parse_cards(board))
    assert value.category.name.lower().replace("_", " ") == category != not_category
    assert value.strength == _brute_force(parse_cards(hole), parse_cards(board))


def test_omaha_batch_matches_one_at_a_time():
    rng = random.Random(7)
    deals = [rng.sample(ALL_CARDS, 9) for _ in range(400)]
    holes = np.array([[card.index for card in deal[:4]] for deal in deals])
    boards = np.array([[card.index for card in deal[4:]] for deal in deals])
    assert strength_batch(holes, boards).tolist() == [strength(deal[:4], deal[4:]) for deal in deals]


def test_bad_omaha_input_is_refused():
    with pytest.raises(ValueError, match="twice"):
        best_five(parse_cards("Ah Kh Qh Jh"), parse_cards("Ah 2c 3d"))
    with pytest.raises(ValueError, match="board"):
        best_five(parse_cards("Ah Kh Qh Jh"), parse_cards("2c 3d"))


HOLES = {"A": "As Ah Kd Qc", "B": "2c 7d 3h 8s", "C": "9c 9d Tc Jd"}
BOARD = "Kc 8d 3s 9h 4c"


def test_an_omaha_hand_deals_four_cards_and_shows_down_with_two_plus_three():
    hand, events = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    assert isinstance(events[0], HandStarted) and events[0].variant == "omaha" and events[0].structure == "pot-limit"
    assert all(len(hand.hole_cards(player)) == 4 for player in "ABC")
    events = run_script(hand, "A call; B call; C check; " + "B check; C check; A check; " * 3)
    shown = next(event for event in events if isinstance(event, HandsShown))
    # C's nines with the board's nine make trips (9c 9d + 9h and two more), beating A's aces
    assert shown.categories == {"A": "pair", "B": "two pair", "C": "three of a kind"}
    assert hand.stacks == {"A": 990, "B": 990, "C": 1020}


def test_omaha_seats_at_most_eleven():
    players = [SeatPlayer(f"p{index}", 100) for index in range(12)]
    with pytest.raises(RuleError) as refused:
        Hand.start(players, 0, 10, POT_LIMIT, Deck(random.Random(1)), hand_number=1, variant=Variant.OMAHA)
    assert refused.value.code == "too_many_players" and refused.value.params["max"] == 11
    hand, _ = Hand.start(players[:11], 0, 10, POT_LIMIT, Deck(random.Random(1)), hand_number=1,
                         variant=Variant.OMAHA)
    assert len({card for player in hand.players for card in hand.hole_cards(player)}) == 44


def test_pot_limit_bounds_preflop_and_after_a_raise():
    hand, _ = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    legal = hand.legal_actions()  # A, under the gun three-handed: pot 15, call 10, raise to 10 + 25 = 35
    assert (legal.player, legal.min_to, legal.max_to, legal.all_in) == ("A", 20, 35, 0)
    with pytest.raises(IllegalAmount) as refused:
        hand.act("A", RaiseTo(36))
    assert refused.value.code == "over_pot_limit" and refused.value.params == {"amount": 36, "min": 20, "max": 35}
    assert hand.stacks["A"] == 1000 and hand.to_act == "A"  # refused: nothing changed
    run_script(hand, "A raise 35")
    legal = hand.legal_actions()  # B (small blind 5): pot 50, call 30 → 80, to 35 + 80 = 115
    assert (legal.min_to, legal.max_to) == (60, 115)
    run_script(hand, "B raise 115; C call; A call")
    assert hand.street is Street.FLOP and hand.pot_total == 345
    legal = hand.legal_actions()  # a bet on the flop: at most the pot
    assert (legal.can_bet, legal.min_to, legal.max_to) == (True, 10, 345)


def test_pot_limit_all_in_only_when_the_stack_is_within_the_pot():
    hand, _ = start(POT_LIMIT, {"A": 30, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    assert hand.legal_actions().all_in == 30  # 30 is within the pot limit of 35
    with pytest.raises(IllegalAmount) as refused:  # more than his stack: the usual range, not the pot limit
        hand.act("A", RaiseTo(31))
    assert refused.value.code == "amount_range"
    hand.act("A", AllIn())
    assert hand.stacks["A"] == 0
    hand, _ = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    assert hand.legal_actions().all_in == 0
    assert not hand.can_act("A", AllIn())


def test_a_short_big_blind_is_called_in_full_and_counted_in_the_pot_limit():
    # C posts 6 of a 10-chip big blind, all-in. RULES.md §1: the others still call the full blind, so A's pot-limit
    # raise is 10 (the bet) + 11 (the pot: 5 + 6) + 10 (his call) = 31 (pokerkit, taking 6 as the bet, would differ)
    hand, _ = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 6}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.min_to, legal.max_to) == ("A", 10, 20, 31)
    run_script(hand, "A raise 31")
    legal = hand.legal_actions()  # B: the pot is 42, his call 26 → 31 + 68 = 99
    assert (legal.player, legal.call_amount, legal.max_to) == ("B", 26, 99)


FIVE = {"A": "As Ah Kd Qc", "B": "2c 7d 3h 8s", "C": "9c 9d Tc Jd", "D": "5c 5d 6h 6s", "E": "4h 4s 7c 2h"}


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    # D raises to 20 (a full raise of 10) and E calls; A's all-in to 26 alone (6 more) would not reopen it for D...
    stacks = {"A": 26, "B": 34, "C": 1000, "D": 1000, "E": 1000}
    hand, _ = start(POT_LIMIT, {**stacks, "B": 1000}, "A", FIVE, BOARD, variant=Variant.OMAHA)
    run_script(hand, "D raise 20; E call; A allin; B call; C fold")
    assert hand.to_act == "D" and not hand.legal_actions().can_raise
    # ... but with B's all-in to 34 as well, D faces 14 more than he bet: a full raise, so he may raise again
    hand, _ = start(POT_LIMIT, stacks, "A", FIVE, BOARD, variant=Variant.OMAHA)
    run_script(hand, "D raise 20; E call; A allin; B allin; C fold")
    legal = hand.legal_actions()  # pot 20 + 20 + 26 + 34 + 10 = 110, D's call 14: at most 34 + 124 = 158
    assert (legal.player, legal.can_raise, legal.call_amount, legal.min_to, legal.max_to) == ("D", True, 14, 44, 158)


def test_no_limit_holdem_keeps_the_whole_stack_as_its_limit():
    hand, _ = start(NO_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A",
                    {"A": "As Ah", "B": "2c 7d", "C": "9c 9d"}, BOARD)
    assert hand.legal_actions().max_to == 1000


def test_an_omaha_hand_survives_saving():
    hand, _ = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    run_script(hand, "A raise 35")
    again = Hand.from_dict(hand.to_dict())
    assert again.variant is Variant.OMAHA and again.legal_actions() == hand.legal_actions()
    assert again.hole_cards("C") == hand.hole_cards("C")


def test_rabbit_hunt_shows_the_board_that_would_have_come():
    hand, _ = start(POT_LIMIT, {"A": 1000, "B": 1000, "C": 1000}, "A", HOLES, BOARD, variant=Variant.OMAHA)
    with pytest.raises(RuleError) as refused:
        hand.rabbit_cards()
    assert refused.value.code == "rabbit_running"
    run_script(hand, "A call; B call; C check; B bet 30; C fold; A fold")
    before = hand.to_dict()
    assert hand.board == tuple(parse_cards("Kc 8d 3s")) and hand.is_over
    assert hand.rabbit_cards() == tuple(parse_cards("9h 4c"))  # the turn and the river, their burns skipped
    assert hand.to_dict() == before  # nothing changes: asking again gives the same cards
    (event,) = hand.rabbit_hunt("B")
    assert isinstance(event, RabbitHunted) and not event.moves
    assert (event.player, event.hand_number, event.board, event.cards) == (
        "B", 1, tuple(parse_cards("Kc 8d 3s")), tuple(parse_cards("9h 4c")))
    assert hand.to_dict() == before


def test_rabbit_hunt_after_a_preflop_fold_shows_five_cards_and_none_after_the_river():
    hand, _ = start(NO_LIMIT, {"A": 100, "B": 100}, "A", {"A": "As Ah", "B": "2c 7d"}, BOARD)
    run_script(hand, "A fold")
    assert hand.rabbit_cards() == tuple(parse_cards(BOARD))
    hand, _ = start(NO_LIMIT, {"A": 100, "B": 100}, "A", {"A": "As Ah", "B": "2c 7d"}, BOARD)
    run_script(hand, "A call; B check; " + "B check; A check; " * 3)
    with pytest.raises(RuleError) as refused:
        hand.rabbit_cards()
    assert refused.value.code == "rabbit_river"
