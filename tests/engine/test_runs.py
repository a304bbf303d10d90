"""Run it twice (RULES.md §1a): the question, the two boards from one deck, and each pot split between them."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.betting import HOME_LIMIT, Street
from engine.bounty import eliminators
from engine.cards import ALL_CARDS, Deck, parse_cards
from engine.common import RuleError, all_moves
from engine.hands import evaluate
from engine.holdem import (
    NO_LIMIT,
    POT_LIMIT,
    AllIn,
    Bet,
    BoardDealt,
    Call,
    Check,
    Fold,
    Hand,
    PotAward,
    PotAwarded,
    RaiseTo,
    RunsOffered,
    SeatPlayer,
    ShowdownRules,
    Variant,
)
from engine.pots import Pot
from engine.runs import award_runs, halves

RULES = ShowdownRules(muck=True, run_it_twice=True)


def _deck(holes: str, cards: str) -> Deck:
    """Hole cards (dealing order), then `cards` in deck order (burns included)."""
    return Deck.stacked(parse_cards(holes) + parse_cards(cards))


# A (button, small blind) and B (big blind) heads-up: hole cards A1 B1 A2 B2 (B is left of the button, dealt first)
HOLES = "Kc Ah Kd As"  # B: Kc Kd, A: Ah As
FIRST_RUN = "2c 7d 9h Jc 3c 8s 5c 4d"  # burn, flop 7d 9h Jc, burn, turn 8s, burn, river 4d
SECOND_RUN = "6c Ks Th 2h 2d Qh 3d 2s"  # burn, flop Ks Th 2h, burn, turn Qh, burn, river 2s: B's kings win


def _all_in_preflop(stacks: tuple[int, int] = (101, 100), rules: ShowdownRules = RULES) -> tuple[Hand, list]:
    players = [SeatPlayer("B", stacks[1]), SeatPlayer("A", stacks[0])]
    hand, events = Hand.start(players, 1, 10, NO_LIMIT, _deck(HOLES, FIRST_RUN + " " + SECOND_RUN), 1, rules=rules)
    events += hand.act("A", _all_in())
    events += hand.act("B", _call())
    return hand, events


def _all_in() -> AllIn:
    return AllIn()


def _call() -> Call:
    return Call()


def test_all_in_with_cards_to_come_asks_everyone_and_twice_deals_two_boards():
    hand, events = _all_in_preflop()
    assert isinstance(events[-1], RunsOffered) and set(hand.runs_asked) == {"A", "B"}
    assert not hand.is_over and hand.to_act is None
    hand = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))  # a restart while the question is open
    events = hand.choose_runs("A", twice=True)
    assert hand.runs_asked == ("B",)
    with pytest.raises(RuleError):
        hand.choose_runs("A", twice=True)
    events += hand.choose_runs("B", twice=True)
    boards = [event for event in events if isinstance(event, BoardDealt)]
    assert [(event.run, event.street.value) for event in boards] == [
        (1, "flop"), (1, "turn"), (1, "river"), (2, "flop"), (2, "turn"), (2, "river")]
    assert hand.board == tuple(parse_cards("7d 9h Jc 8s 4d"))
    assert hand.second_board == tuple(parse_cards("Ks Th 2h Qh 2s"))
    awarded = [(event.run, event.amount, event.winners) for event in events if isinstance(event, PotAwarded)]
    assert awarded == [(1, 100, {"A": 100}), (2, 100, {"B": 100})]  # A's aces hold on one board, B's kings win two
    assert hand.result is not None and hand.result.net == {"A": 0, "B": 0}


def test_anyone_saying_once_or_the_time_running_out_runs_it_once():
    for answer in ("once", "timeout"):
        hand, _ = _all_in_preflop()
        hand.choose_runs("B", twice=True)
        events = hand.choose_runs("A", twice=False) if answer == "once" else hand.runs_timeout()
        assert {event.run for event in events if isinstance(event, BoardDealt)} == {0}
        assert hand.is_over and hand.second_board == () and hand.result is not None
        assert hand.result.net == {"A": 100, "B": -100}


def test_an_odd_pot_gives_the_odd_chip_to_the_first_run():
    assert halves(201, 2) == (101, 100) and halves(201, 1) == (201,)


def test_not_offered_in_fixed_limit_or_when_off_or_when_two_still_have_chips():
    players = [SeatPlayer("B", 100), SeatPlayer("A", 100)]
    hand, events = Hand.start(players, 1, 10, HOME_LIMIT, _deck(HOLES, FIRST_RUN), 1, rules=RULES)
    while not hand.is_over:  # fixed limit: calls and checks to the river, then the showdown
        legal = hand.legal_actions()
        events += hand.act(legal.player, _call() if legal.call_amount else Check())
    assert not any(isinstance(event, RunsOffered) for event in events)
    hand, events = _all_in_preflop(rules=ShowdownRules(muck=True))
    assert hand.is_over and not any(isinstance(event, RunsOffered) for event in events)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 500), st.sets(st.sampled_from("ABCD"), min_size=1)), min_size=1,
                max_size=4),
       st.lists(st.integers(0, 5), min_size=4, max_size=4), st.lists(st.integers(0, 5), min_size=4, max_size=4))
def test_each_pot_split_in_halves_each_awarded_on_its_board(raw_pots, first, second):
    contenders = ["A", "B", "C", "D"]
    pots = [Pot(amount, tuple(player for player in contenders if player in eligible)) for amount, eligible in raw_pots]
    strengths = [dict(zip(contenders, first, strict=True)), dict(zip(contenders, second, strict=True))]
    awards = award_runs(pots, strengths, contenders)
    for index, pot in enumerate(pots):
        mine = [award for award in awards if award.pot_index == index]
        assert [award.run for award in mine] == [1, 2]
        assert sum(sum(award.winners.values()) for award in mine) == pot.amount  # chips conserved
        assert mine[0].amount == (pot.amount + 1) // 2 and mine[1].amount == pot.amount // 2  # odd chip: run 1
        for award, board in zip(mine, strengths, strict=True):
            best = max(board[player] for player in pot.eligible)
            assert {player for player in award.winners} == {p for p in pot.eligible if board[p] == best}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(20, 400), min_size=2, max_size=5), st.randoms(use_true_random=False))
def test_a_hand_run_twice_conserves_chips_and_pays_each_half_on_its_board(stacks, rng):
    players = [SeatPlayer(f"p{index}", stack) for index, stack in enumerate(stacks)]
    order = list(ALL_CARDS)
    rng.shuffle(order)
    deck = Deck.stacked(order)
    hand, events = Hand.start(players, 0, 10, NO_LIMIT, deck, 1, rules=RULES)
    total = sum(stacks)
    while (player := hand.to_act) is not None:
        if hand.can_act(player, AllIn()):
            events += hand.act(player, AllIn())
        else:
            events += hand.act(player, Call() if hand.legal_actions().call_amount else Check())
    while hand.runs_asked:
        events += hand.choose_runs(hand.runs_asked[0], twice=True)
    assert hand.is_over and hand.result is not None
    assert sum(hand.stacks.values()) == total
    assert sum(move.amount for move in all_moves(events) if move.target == "pot") == sum(
        move.amount for move in all_moves(events) if move.source == "pot")
    assert len(hand.second_board) == 5, "all in preflop, and everyone said twice"
    awards = [event for event in events if isinstance(event, PotAwarded)]
    halves = {(event.pot_index, event.run): event.amount for event in awards}
    pot_count = len(awards) // 2
    assert sorted(halves) == [(index, run) for index in range(pot_count) for run in (1, 2)]
    for index in range(pot_count):
        assert halves[index, 1] - halves[index, 2] in (0, 1)  # two halves, an odd chip to the first run
    for event in awards:
        board = hand.board if event.run == 1 else hand.second_board
        strength = {p: evaluate(list(hand.hole_cards(p)) + list(board)).strength for p in event.eligible}
        best = max(strength.values())
        assert set(event.winners) == {p for p in event.eligible if strength[p] == best}


def test_omaha_run_twice_reads_each_board_with_exactly_two_hole_cards():
    """Pot-limit Omaha all-in preflop, run twice: on the first board A's one heart makes no flush (Hold'em's reading
    would give him one and the pot), so B's kings win it; on the second A's full house wins."""
    holes = "Kc Qh Kd Jc 2s 7s 3s 8d"  # one at a time from B (left of the button): B Kc Kd 2s 3s, A Qh Jc 7s 8d
    first = "6c 4h 5h 9h 6d Th 6s 2c"  # burn, flop 4h 5h 9h, burn, turn Th, burn, river 2c
    second = "As Qs Qc 7h Ad 3d Ac 4c"  # burn, flop Qs Qc 7h, burn, turn 3d, burn, river 4c
    players = [SeatPlayer("B", 25), SeatPlayer("A", 25)]
    hand, events = Hand.start(players, 1, 10, POT_LIMIT, _deck(holes, first + " " + second), 1, rules=RULES,
                              variant=Variant.OMAHA)
    events += hand.act("A", AllIn())
    events += hand.act("B", Call())
    assert hand.runs_asked == ("B", "A")
    hand = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))  # the variant survives a restart
    events = hand.choose_runs("A", twice=True) + hand.choose_runs("B", twice=True)
    assert evaluate([hand.hole_cards("A")[0], *hand.board]).category.name == "FLUSH"  # Qh: Hold'em's reading
    awarded = [(event.run, event.amount, event.winners, event.category) for event in events
               if isinstance(event, PotAwarded)]
    assert awarded == [(1, 25, {"B": 25}, "pair"), (2, 25, {"A": 25}, "full house")]
    assert hand.result is not None and hand.result.net == {"A": 0, "B": 0}


def test_a_bounty_goes_to_the_winners_of_both_halves_of_the_pot_that_busted_him():
    """C, all-in and beaten on both boards, loses one half to A and the other to B: both eliminated him."""
    pots = (PotAward(150, ("A", "B", "C"), {"A": 75}, "pair", 1), PotAward(150, ("A", "B", "C"), {"B": 75}, "flush", 2),
            PotAward(40, ("A", "B"), {"B": 20}, "pair", 1), PotAward(40, ("A", "B"), {"B": 20}, "flush", 2))
    assert eliminators("C", pots) == {"A": 75, "B": 75}


def all_in_heads_up(variant: Variant, players: int, street_folds: bool) -> tuple[Hand, list]:
    """`players` seated with 60 each: all-ins preflop (or, with `street_folds`, everyone calls and the first to act
    on the flop bets all he has), everyone else folds, until two are all-in; the hand and its events."""
    seats = [SeatPlayer(f"p{index}", 60) for index in range(players)]  # two pot raises put anyone all-in
    hand, events = Hand.start(seats, 0, 10, POT_LIMIT, Deck.stacked([]), 1, variant=variant, rules=RULES)
    if street_folds:
        while hand.board == ():
            legal = hand.legal_actions()
            events += hand.act(legal.player, _call() if legal.call_amount else Check())
        events += hand.act(hand.legal_actions().player, Bet(hand.legal_actions().max_to))
    while len(hand.players) - len(hand.folded) > 2:
        legal = hand.legal_actions()
        events += hand.act(legal.player, Fold() if legal.can_fold else Check())
    while not hand.is_over and hand.to_act is not None:
        legal = hand.legal_actions()
        events += hand.act(legal.player, RaiseTo(legal.max_to) if legal.can_raise else _call())
    return hand, events


@pytest.mark.parametrize(("variant", "players", "street_folds"), [
    (Variant.OMAHA, 10, False),  # 40 hole cards: 12 left, one board from the preflop takes 8
    (Variant.OMAHA, 11, False),
    (Variant.OMAHA, 11, True),  # 44 hole cards and the flop's 4: 4 left, the turn and river take 4 once
    (Variant.HOLDEM, 19, False),  # 38 hole cards: 14 left
])
def test_a_deck_too_short_for_two_boards_runs_it_once_without_asking(variant, players, street_folds):
    hand, events = all_in_heads_up(variant, players, street_folds)
    assert [(event.street, event.run) for event in events if isinstance(event, BoardDealt)] == [
        (Street.FLOP, 0), (Street.TURN, 0), (Street.RIVER, 0)]  # one board
    assert not any(isinstance(event, RunsOffered) for event in events)
    assert hand.is_over and hand.second_board == () and len(hand.board) == 5
    assert sum(hand.stacks.values()) == 60 * players


@pytest.mark.parametrize(("variant", "players", "street_folds"), [
    (Variant.OMAHA, 9, False),  # 36 hole cards: 16 left, two boards from the preflop take 16
    (Variant.OMAHA, 10, True),  # 40 hole cards and the flop's 4: 8 left, the turn and river twice take 8
    (Variant.HOLDEM, 18, False),  # 36 hole cards: 16 left
])
def test_a_deck_just_long_enough_for_two_boards_asks_to_run_it_twice(variant, players, street_folds):
    """The case above with one player fewer: the same play reaches the question, so it is the short deck alone
    that keeps the hand above from asking."""
    hand, events = all_in_heads_up(variant, players, street_folds)
    assert isinstance(events[-1], RunsOffered) and len(hand.runs_asked) == 2
