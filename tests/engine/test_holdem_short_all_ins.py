"""Golden hands for short all-ins (RULES.md §1): a short big blind already covered, and fixed limit's half-bet rule
(TDA 47-B) with the completion of a bet or raise below half, against no limit's full-raise rule."""

from __future__ import annotations

import dataclasses

import pytest

from engine.betting import FIXED_LIMIT, HOME_LIMIT, NO_LIMIT, STRUCTURES, Street, owed_to_call
from engine.cards import parse_cards
from engine.common import Event, IllegalAmount, RuleError, all_moves
from engine.holdem import (
    BoardDealt,
    Hand,
    PlayerBet,
    PlayerFolded,
    PlayerRaised,
    PotAwarded,
    RaiseTo,
    SeatPlayer,
    UncalledBetReturned,
)
from engine.practice import View, decide
from tests.engine.holdem_helpers import deck_for, parse_action, run_script, start

HOLES = {"A": "2c 7d", "B": "3d 8h", "C": "As Ah", "D": "Kd Kh"}
BOARD = "Kc 9s 4h Jd 6c"


def _holes(stacks: dict[str, int]) -> dict[str, str]:
    return {player: HOLES[player] for player in stacks}


def _conserved(hand: Hand, stacks: dict[str, int], events: list[Event]) -> None:
    """Every chip is accounted for: final stacks sum to the starting ones, and the moves net to the final stacks."""
    assert hand.is_over and sum(hand.stacks.values()) == sum(stacks.values())
    balance: dict[str, int] = {}
    for move in all_moves(events):
        balance[move.source] = balance.get(move.source, 0) - move.amount
        balance[move.target] = balance.get(move.target, 0) + move.amount
    assert balance.get("pot", 0) == 0
    assert {player: stacks[player] + balance.get(f"stack:{player}", 0) for player in stacks} == hand.stacks


def _returned(events: list[Event]) -> list[tuple[str, int]]:
    return [(event.player, event.amount) for event in events if isinstance(event, UncalledBetReturned)]


# --- 1. a short all-in big blind that is already covered -----------------------------------------------------------


@pytest.mark.parametrize("structure", sorted(STRUCTURES.values(), key=lambda structure: structure.name),
                         ids=sorted(STRUCTURES))
def test_a_covered_short_big_blind_asks_nobody_and_deals_on(structure):
    # The issue's hand: s0 (button, small blind 5) already covers s1's all-in big blind of 4. Nobody is asked to call
    # or fold: the uncalled chip comes back and the board is dealt to the showdown.
    deck = deck_for({"s0": "2c 7d", "s1": "As Ah"}, ["s1", "s0"], BOARD)
    hand, events = Hand.start([SeatPlayer("s0", 100), SeatPlayer("s1", 4)], 0, 10, structure, deck, hand_number=1)
    assert hand.is_over and hand.to_act is None
    assert not any(isinstance(event, PlayerFolded) for event in events)
    assert _returned(events) == [("s0", 1)]
    assert len(hand.board) == 5 and sum(isinstance(event, BoardDealt) for event in events) == 3
    pots = [(event.amount, event.winners) for event in events if isinstance(event, PotAwarded)]
    assert pots == [(8, {"s1": 8})]
    assert hand.stacks == {"s0": 96, "s1": 8}
    _conserved(hand, {"s0": 100, "s1": 4}, events)


@pytest.mark.parametrize(("short", "asked"), [(4, False), (5, False), (6, True)])
def test_only_a_big_blind_above_the_small_blind_is_called_and_then_the_full_blind(short, asked):
    # At 5 the blinds are matched (nothing comes back); at 6 the small blind is short of it and must call the full big
    # blind (5 more) or fold, and a time-out folds: the 4 chips of the blind beyond his 5 are then uncalled.
    deck = deck_for({"s0": "2c 7d", "s1": "As Ah"}, ["s1", "s0"], BOARD)
    hand, events = Hand.start([SeatPlayer("s0", 100), SeatPlayer("s1", short)], 0, 10, NO_LIMIT, deck,
                              hand_number=1)
    assert hand.is_over is not asked
    if not asked:
        assert _returned(events) == ([("s0", 5 - short)] if short < 5 else [])
        return
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_fold, legal.can_raise) == ("s0", 5, True, False)
    events += hand.act("s0", hand.timeout_action())
    assert hand.is_over and _returned(events) == [("s1", 1)] and hand.stacks == {"s0": 95, "s1": 11}


def test_a_short_big_blind_with_others_to_act_is_still_called_in_full():
    # Three-handed: the button, first to act, faces the full big blind though the big blind is all-in for 4; once he
    # calls, the small blind owes the rest of it. Had the button folded, the small blind would not be asked.
    stacks = {"A": 100, "B": 100, "C": 4}
    hand, events = start(HOME_LIMIT, stacks, "A", _holes(stacks), BOARD)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_fold, legal.min_to) == ("A", 10, True, 20)
    events += run_script(hand, "A call")
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_fold) == ("B", 5, True)
    events += run_script(hand, "B call; B check; A check; B check; A check; B check; A check")
    assert _returned(events) == []
    pots = [(event.amount, event.eligible) for event in events if isinstance(event, PotAwarded)]
    assert pots == [(12, ("B", "C", "A")), (12, ("B", "A"))]
    _conserved(hand, stacks, events)


@pytest.mark.parametrize(("stacks", "script"), [
    ({"A": 100, "B": 100, "C": 4}, "A fold"),
    ({"A": 100, "B": 100, "C": 4, "D": 100}, "D fold; A fold"),
])
def test_when_the_others_fold_the_small_blind_is_not_asked(stacks, script):
    hand, events = start(NO_LIMIT, stacks, "A", _holes(stacks), BOARD)
    events += run_script(hand, script)
    assert hand.is_over and "B" not in [event.player for event in events if isinstance(event, PlayerFolded)]
    assert _returned(events) == [("B", 1)] and len(hand.board) == 5
    _conserved(hand, stacks, events)


@pytest.mark.parametrize(("structure", "max_to"), [(NO_LIMIT, 100), (FIXED_LIMIT, 20), (HOME_LIMIT, 20)],
                         ids=["no-limit", "fixed-limit", "home-limit"])
def test_a_raise_over_a_short_big_blind_is_measured_from_the_full_blind_and_builds_a_side_pot(structure, max_to):
    # C is all-in for 6 of the 10-chip big blind. A faces the full blind and raises from it to 20 (pokerkit would take
    # 6 as the bet: a call of 6, a raise to 16); B calls 15 more; they check it down. Worked by hand: the main pot is
    # 6 from each of the three (18, C's aces), the side pot 14 from A and B (28, B's king-jack-nine-eight beats A's
    # king-jack-nine-seven), so A 100 - 20 = 80, B 100 - 20 + 28 = 108, C 18.
    stacks = {"A": 100, "B": 100, "C": 6}
    hand, events = start(structure, stacks, "A", _holes(stacks), BOARD)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.min_to, legal.max_to) == ("A", 10, 20, max_to)
    events += run_script(hand, "A raise 20")
    assert (hand.legal_actions().player, hand.legal_actions().call_amount) == ("B", 15)
    events += run_script(hand, "B call; " + "B check; A check; " * 3)
    assert _returned(events) == []
    pots = [(event.amount, event.eligible, tuple(event.winners)) for event in events if isinstance(event, PotAwarded)]
    assert pots == [(18, ("B", "C", "A"), ("C",)), (28, ("B", "A"), ("B",))]
    assert hand.stacks == {"A": 80, "B": 108, "C": 18}
    _conserved(hand, stacks, events)


def test_heads_up_the_small_blind_calls_a_short_big_blind_in_full_and_the_excess_comes_back():
    # s1 is all-in for 7 of the big blind; s0 (button, small blind 5) owes the full blind, 5 more, and may not raise
    # (nobody could call it). He calls 10 in all, 3 of it is uncalled and comes back: the pot is 14, to s1's aces.
    deck = deck_for({"s0": "2c 7d", "s1": "As Ah"}, ["s1", "s0"], BOARD)
    stacks = {"s0": 100, "s1": 7}
    hand, events = Hand.start([SeatPlayer(player, stack) for player, stack in stacks.items()], 0, 10, FIXED_LIMIT,
                              deck, hand_number=1)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_raise) == ("s0", 5, False)
    events += run_script(hand, "s0 call")
    assert _returned(events) == [("s0", 3)]
    pots = [(event.amount, tuple(event.winners)) for event in events if isinstance(event, PotAwarded)]
    assert pots == [(14, ("s1",))]
    assert hand.stacks == {"s0": 93, "s1": 14}
    _conserved(hand, stacks, events)


# --- 2. fixed limit: at least half a bet reopens; below half, the next player may complete -------------------------


def _flop_with_short_bettor(structure, short: int, extra: dict[str, int] | None = None) -> tuple[Hand, list[Event]]:
    """Three-handed (A button), everyone calls 10 preflop; on the flop (10-chip bets) C has `short` chips left and
    bets them all after B checks. A acts next, then B again."""
    stacks = {"A": 100, "B": 100, "C": 10 + short, **(extra or {})}
    hand, events = start(structure, stacks, "A", _holes(stacks), BOARD)
    events += run_script(hand, "A call; B call; C check; B check; C allin")
    assert hand.street is Street.FLOP and hand.current_bet == short and hand.to_act == "A"
    return hand, events


@pytest.mark.parametrize("structure", [HOME_LIMIT, FIXED_LIMIT], ids=["home-limit", "fixed-limit"])
@pytest.mark.parametrize(("short", "reopened", "raise_to"), [
    (4, False, 10),  # just below half: A may complete to 10; B, who checked, may only call
    (5, True, 15),  # exactly half: a full bet; A raises a full bet over it; B may raise too
    (6, True, 16),
])
def test_an_all_in_bet_of_half_a_bet_reopens_and_below_half_is_completed(structure, short, reopened, raise_to):
    hand, events = _flop_with_short_bettor(structure, short)
    bet = next(event for event in reversed(events) if isinstance(event, PlayerBet))
    assert (bet.player, bet.amount, bet.is_all_in) == ("C", short, True)
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.can_bet, legal.can_raise, legal.min_to, legal.max_to) == (
        short, False, True, raise_to, raise_to)
    before = hand.to_dict()
    with pytest.raises(IllegalAmount):
        hand.act("A", RaiseTo(short + 10 if not reopened else raise_to + 1))
    assert hand.to_dict() == before
    run_script(hand, "A call")
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_raise) == ("B", short, reopened)
    if reopened:
        assert legal.min_to == legal.max_to == raise_to
    else:
        with pytest.raises(RuleError) as caught:
            hand.act("B", RaiseTo(raise_to))
        assert caught.value.code == "not_reopened"


@pytest.mark.parametrize("structure", [HOME_LIMIT, FIXED_LIMIT], ids=["home-limit", "fixed-limit"])
def test_a_completion_is_the_rounds_bet(structure):
    # C bets 4 all-in; A completes to 10: a raise of 6 in the chips, the round's opening bet in the rules. So B, who
    # checked, may raise it, and A keeps his raise in home-limit; under the standard cap it is the first of four.
    hand, events = _flop_with_short_bettor(structure, 4)
    events += run_script(hand, "A raise 10")
    completed = events[-1]
    assert isinstance(completed, PlayerRaised) and (completed.to, completed.amount) == (10, 10)
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_raise, legal.min_to) == ("B", 10, True, 20)
    events += run_script(hand, "B raise 20; A raise 30")  # A's raise: his completion was the bet, not a raise
    legal = hand.legal_actions()
    if structure is HOME_LIMIT:
        assert (legal.player, legal.can_raise) == ("B", False)  # B has used his one raise
        with pytest.raises(RuleError) as caught:
            hand.act("B", RaiseTo(40))
        assert caught.value.code == "raise_limit"
    else:
        assert (legal.player, legal.can_raise, legal.min_to) == ("B", True, 40)  # bet 10, raises 20, 30: one left
        events += run_script(hand, "B raise 40")
        legal = hand.legal_actions()
        assert (legal.player, legal.can_raise, legal.call_amount) == ("A", False, 10)
        with pytest.raises(RuleError) as caught:
            hand.act("A", RaiseTo(50))
        assert caught.value.code == "raise_cap"
    events += run_script(hand, "A call" if structure is FIXED_LIMIT else "B call")
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        events += run_script(hand, f"{player} check")
    _conserved(hand, {"A": 100, "B": 100, "C": 14}, events)


@pytest.mark.parametrize(("structure", "all_in", "reopened", "min_to"), [
    # the example: 7 over a raise to 20 reopens; the re-raise is a full bet over the all-in
    pytest.param(FIXED_LIMIT, 27, True, 37, id="fixed-limit-27"),
    pytest.param(FIXED_LIMIT, 25, True, 35, id="fixed-limit-25-half"),
    pytest.param(FIXED_LIMIT, 24, False, 0, id="fixed-limit-24-below-half"),  # D, the first raiser, may only call
    pytest.param(NO_LIMIT, 27, False, 0, id="no-limit-27"),  # no limit keeps the full-raise rule
])
def test_an_all_in_raise_of_half_a_bet_lets_the_first_raiser_reraise(structure, all_in, reopened, min_to):
    stacks = {"A": all_in, "B": 100, "C": 100, "D": 100}
    hand, events = start(structure, stacks, "A", _holes(stacks), BOARD)
    events += run_script(hand, "D raise 20; A allin; B fold")
    assert hand.current_bet == all_in
    legal = hand.legal_actions()  # C, the big blind, has not acted: he may always raise
    full_over = all_in + 10 if reopened or structure is NO_LIMIT else 30  # below half: he completes the raise to 30
    assert (legal.player, legal.can_raise, legal.min_to) == ("C", True, full_over)
    events += run_script(hand, "C call")
    legal = hand.legal_actions()
    assert (legal.player, legal.call_amount, legal.can_raise, legal.min_to) == ("D", all_in - 20, reopened, min_to)
    if not reopened:
        with pytest.raises(RuleError) as caught:
            hand.act("D", RaiseTo(all_in + 10))
        assert caught.value.code == "not_reopened"


@pytest.mark.parametrize(("all_in", "script", "capped"), [
    # bets: the big blind, D's raise, A's all-in of half a bet (a full raise), C's re-raise: four, capped
    (25, "C raise 35", "D"),
    # A's all-in below half counts for nothing; C completes to 30 (the third bet), D re-raises to 40: capped
    (24, "C raise 30; D raise 40", "C"),
])
def test_fixed_limit_cap_counts_half_bets_and_completions_not_short_all_ins(all_in, script, capped):
    stacks = {"A": all_in, "B": 100, "C": 100, "D": 100}
    hand, events = start(FIXED_LIMIT, stacks, "A", _holes(stacks), BOARD)
    events += run_script(hand, f"D raise 20; A allin; B fold; {script}")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_raise) == (capped, False)
    with pytest.raises(RuleError) as caught:
        hand.act(capped, RaiseTo(hand.current_bet + 10))
    assert caught.value.code == "raise_cap"


def test_no_limit_min_raise_over_a_short_all_in_bet_is_unchanged():
    hand, _ = _flop_with_short_bettor(NO_LIMIT, 4)
    legal = hand.legal_actions()
    assert (legal.call_amount, legal.min_to, legal.max_to) == (4, 14, 90)


def test_the_practice_bot_and_time_outs_stay_legal_facing_a_short_all_in():
    hand, _ = _flop_with_short_bettor(FIXED_LIMIT, 4)
    view = View(hole=hand.hole_cards("A"), board=hand.board, legal=hand.legal_actions(), pot=hand.pot_total,
                big_blind=hand.level)
    assert hand.can_act("A", decide(view))
    assert hand.can_act("A", hand.timeout_action())
    strong = dataclasses.replace(view, hole=tuple(parse_cards("Kh 9h")))  # two pair with the board: it raises
    assert decide(strong) == RaiseTo(10)


def test_a_saved_hand_keeps_the_completion_pending():
    hand, _ = _flop_with_short_bettor(FIXED_LIMIT, 4)
    restored = Hand.from_dict(hand.to_dict())
    assert restored.legal_actions() == hand.legal_actions()
    old = hand.to_dict()
    del old["raise_base"]  # a hand saved before the field existed reads as before (raises from the current bet)
    assert Hand.from_dict(old).legal_actions().min_to == 14


def test_what_a_player_owes_to_call_is_nothing_once_he_covers_every_other_bet() -> None:
    """RULES.md §1: the full big blind is owed while someone has bet more than the player; a small blind of 5 facing
    a big blind all-in for 5 (the bet still counted as 10) owes nothing, and a player who has bet nothing owes 10."""
    assert owed_to_call(10, 5, [5, 0]) == 0  # the small blind covers the short big blind and the one who has not acted
    assert owed_to_call(10, 0, [5, 5]) == 10  # the player first to act owes the full big blind
    assert owed_to_call(40, 20, [40, 0]) == 20
    assert owed_to_call(20, 20, [20]) == 0
    hand, _ = start(HOME_LIMIT, {"a": 500, "b": 500, "c": 5}, "a", {"a": "2c 7d", "b": "3c 8d", "c": "4c 9d"},
                    "Ah Kh Qh Jh 2s")
    assert hand.to_act == "a" and hand.bets == {"a": 0, "b": 5, "c": 5} and hand.legal_actions().call_amount == 10
    hand.act("a", parse_action(["fold"]))
    assert hand.to_act is None, "the small blind covers the short big blind: nothing left to call, nobody to act"
