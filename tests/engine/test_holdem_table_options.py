"""Table options in the engine (RULES.md §1a): straddles, returning players' posted blinds, absent players, pre-actions
and the time bank, as scenario hands."""

from __future__ import annotations

import random
from collections.abc import Collection

import pytest

from engine.betting import HOME_LIMIT, NO_LIMIT, BettingStructure
from engine.cards import Deck
from engine.common import Event, RuleError
from engine.holdem import BlindPosted, Fold, Hand, PlayerCalled, PlayerChecked, PlayerFolded, RaiseTo, SeatPlayer
from engine.preactions import PreAction
from engine.timebank import CASH_REFILL_HANDS, TimeBank
from tests.engine.holdem_helpers import run_script

FOUR = {"A": 100, "B": 100, "C": 100, "D": 100}


def deal(stacks: dict[str, int] = FOUR, structure: BettingStructure = NO_LIMIT, *, straddle: bool = False,
         posting: Collection[str] = (), absent: Collection[str] = ()) -> tuple[Hand, list[Event]]:
    """A hand with A on the button (B small blind, C big blind, D left of it) at level 10."""
    players = [SeatPlayer(player, stack) for player, stack in stacks.items()]
    return Hand.start(players, 0, 10, structure, Deck(random.Random(3)), 1, straddle=straddle, posting=posting,
                      absent=absent)


# --- straddle ----------------------------------------------------------------------------------------------------


def test_straddle_is_a_live_blind_raises_measure_from_it_and_the_straddler_acts_last() -> None:
    hand, events = deal(straddle=True)
    posted = [(event.player, event.blind, event.amount) for event in events if isinstance(event, BlindPosted)]
    assert posted == [("B", "small", 5), ("C", "big", 10), ("D", "straddle", 20)]
    assert hand.to_act == "A"  # the first player left of the straddler
    legal = hand.legal_actions()
    assert legal.call_amount == 20 and legal.min_to == 40  # a raise is measured from the straddle
    run_script(hand, "A call; B call; C call")
    assert hand.to_act == "D"  # the straddler's option, last
    assert hand.legal_actions().can_check and hand.legal_actions().can_raise
    run_script(hand, "D check")
    assert hand.street == "flop" and hand.pot_total == 80


def test_straddle_refused_in_fixed_limit_heads_up_and_when_short() -> None:
    with pytest.raises(RuleError) as fixed:
        deal(structure=HOME_LIMIT, straddle=True)
    assert fixed.value.code == "straddle_limit"
    with pytest.raises(RuleError) as heads_up:
        deal({"A": 100, "B": 100}, straddle=True)
    assert heads_up.value.code == "straddle_heads_up"
    with pytest.raises(RuleError) as short:
        deal({**FOUR, "D": 20}, straddle=True)
    assert short.value.code == "straddle_short"


def test_straddler_is_left_of_the_big_blind() -> None:
    hand, _ = deal()
    assert hand.straddler == "D"
    assert deal({"A": 100, "B": 100})[0].straddler is None


# --- a returning player's posted big blind ------------------------------------------------------------------------


def test_a_returning_player_posts_a_live_big_blind_and_has_the_option() -> None:
    hand, events = deal({**FOUR, "E": 100}, posting={"E"})
    posted = [(event.player, event.blind, event.amount) for event in events if isinstance(event, BlindPosted)]
    assert posted == [("B", "small", 5), ("C", "big", 10), ("E", "big", 10)]
    run_script(hand, "D call; E check; A call; B call")
    assert hand.to_act == "C"
    run_script(hand, "C check")
    assert hand.street == "flop" and hand.pot_total == 50


def test_posting_from_a_blind_seat_posts_nothing_more() -> None:
    _, events = deal(posting={"C"})
    assert [event.amount for event in events if isinstance(event, BlindPosted)] == [5, 10]


def test_posting_from_the_small_blinds_seat_posts_a_live_big_blind() -> None:
    """RULES.md §1a, Away: returning, "he posts a big blind at once": one who sits in the small blind posts the big
    blind's size there (not only the small blind), live, with the option; the chips in the pot are what was posted."""
    hand, events = deal(posting={"B"})
    posted = [(event.player, event.blind, event.amount) for event in events if isinstance(event, BlindPosted)]
    assert posted == [("B", "big", 10), ("C", "big", 10)]
    assert hand.pot_total == 20 and hand.stacks["B"] == 90
    assert hand.to_act == "D" and hand.legal_actions().call_amount == 10
    run_script(hand, "D call; A call")
    assert hand.to_act == "B" and hand.legal_actions().can_check and hand.legal_actions().can_raise
    run_script(hand, "B check; C check")
    assert hand.street == "flop" and hand.pot_total == 40


# --- absent players (a tournament's, blinded out) ---------------------------------------------------------------------


def test_an_absent_players_hand_is_folded_the_moment_his_turn_comes() -> None:
    hand, events = deal(absent={"D"})
    assert isinstance(events[-1], PlayerFolded) and events[-1].player == "D"
    assert hand.to_act == "A"


def test_an_absent_big_blind_has_his_hand_folded_even_where_he_could_check() -> None:
    """RULES.md §1a, Away: a tournament's away player is blinded out, "his hand is folded at his turn, at once": an
    absent big blind in a limped pot does not check it down and win it."""
    hand, _ = deal(absent={"C"})
    events = run_script(hand, "D call; A call; B call")
    assert [event.player for event in events if isinstance(event, PlayerFolded)] == ["C"]
    assert not any(isinstance(event, PlayerChecked) for event in events)
    assert hand.street == "flop" and hand.to_act == "B"
    assert not hand.can_act("B", Fold()), "only an absent player folds where checking is free"


def test_an_absent_player_back_in_time_plays_his_own_turn() -> None:
    hand, _ = deal(absent={"A"})
    assert hand.to_act == "D"
    assert hand.set_absent("A", False) == []
    run_script(hand, "D call")
    assert hand.to_act == "A"


# --- pre-actions ----------------------------------------------------------------------------------------------------


def test_check_fold_folds_facing_a_bet_and_checks_when_free() -> None:
    hand, _ = deal()
    hand.set_pre_action("A", PreAction.CHECK_FOLD)
    events = run_script(hand, "D call")
    assert isinstance(events[-1], PlayerFolded) and events[-1].player == "A"
    assert hand.to_act == "B"
    hand2, _ = deal()
    hand2.set_pre_action("C", PreAction.CHECK_FOLD)
    events = run_script(hand2, "D call; A call; B call")
    assert [event.player for event in events if isinstance(event, PlayerChecked)] == ["C"]
    assert hand2.street == "flop"


def test_check_is_refused_facing_a_bet_and_cancelled_by_one() -> None:
    hand, _ = deal()
    with pytest.raises(RuleError) as owes:
        hand.set_pre_action("A", PreAction.CHECK)
    assert owes.value.code == "pre_check_owes"
    run_script(hand, "D call; A call; B call; C check")  # to the flop: B first, then C
    hand.set_pre_action("D", PreAction.CHECK)
    hand.set_pre_action("A", PreAction.CHECK)
    run_script(hand, "B check")
    run_script(hand, "C bet 20")
    assert hand.pre_action("D") is None and hand.pre_action("A") is None  # the bet cancelled them
    assert hand.to_act == "D"  # he decides himself


def test_check_plays_when_nobody_bets() -> None:
    hand, _ = deal()
    run_script(hand, "D call; A call; B call; C check")
    hand.set_pre_action("C", PreAction.CHECK)
    hand.set_pre_action("D", PreAction.CHECK)
    events = run_script(hand, "B check")
    assert [event.player for event in events if isinstance(event, PlayerChecked)] == ["B", "C", "D"]
    assert hand.to_act == "A"


def test_check_is_refused_once_he_has_acted_on_the_street_where_it_could_never_play() -> None:
    hand, _ = deal()
    run_script(hand, "D call; A call; B call; C check")  # to the flop: B, C, D, A
    run_script(hand, "B check; C check")
    with pytest.raises(RuleError) as acted:  # his turn comes back only after a bet, and a bet cancels a check
        hand.set_pre_action("B", PreAction.CHECK)
    assert acted.value.code == "pre_check_acted" and hand.pre_action("B") is None
    hand.set_pre_action("B", PreAction.CHECK_FOLD)  # a fold to a bet still plays
    hand.set_pre_action("A", PreAction.CHECK)  # he has not acted yet: his check plays
    events = run_script(hand, "D check")
    assert [event.player for event in events if isinstance(event, PlayerChecked)] == ["D", "A"]
    assert hand.street == "turn" and hand.to_act == "B"  # the flop's pre-actions are gone: he decides himself


def test_call_any_calls_a_raise_and_all_in_when_short() -> None:
    hand, _ = deal({**FOUR, "B": 50})
    hand.set_pre_action("B", PreAction.CALL_ANY)
    events = run_script(hand, "D raise 80")
    assert hand.to_act == "A"
    events = run_script(hand, "A fold")
    called = [event for event in events if isinstance(event, PlayerCalled)]
    assert called and called[0].player == "B" and called[0].amount == 45 and called[0].is_all_in


def test_call_n_calls_when_the_bet_is_still_n_and_other_calls_do_not_cancel_it() -> None:
    hand, _ = deal()
    run_script(hand, "D raise 40")
    hand.set_pre_action("B", PreAction.CALL, 40)  # the small blind: 35 more to match the bet of 40
    hand.set_pre_action("C", PreAction.CALL, 40)
    events = run_script(hand, "A call")
    called = [(event.player, event.amount) for event in events if isinstance(event, PlayerCalled)]
    assert called == [("A", 40), ("B", 35), ("C", 30)]
    assert hand.street == "flop" and hand.pot_total == 160


def test_call_n_is_cancelled_by_a_raise_and_a_stale_amount_is_refused() -> None:
    hand, _ = deal()
    run_script(hand, "D raise 40")
    hand.set_pre_action("B", PreAction.CALL, 40)
    events = run_script(hand, "A raise 80")
    assert hand.pre_action("B") is None  # the amount to call changed: he decides himself
    assert hand.to_act == "B" and not any(isinstance(event, PlayerCalled) for event in events)
    with pytest.raises(RuleError) as stale:  # a "Call 40" button pressed after the raise to 80
        hand.set_pre_action("C", PreAction.CALL, 40)
    assert stale.value.code == "pre_call_changed" and stale.value.params == {"bet": 80, "chips": 40}
    assert hand.pre_action("C") is None
    hand.set_pre_action("C", PreAction.CALL, 80)
    events = run_script(hand, "B fold")
    assert [(event.player, event.amount) for event in events if isinstance(event, PlayerCalled)] == [("C", 70)]


def test_call_n_is_refused_with_nothing_to_call_and_goes_all_in_when_short() -> None:
    hand, _ = deal({**FOUR, "B": 30})
    run_script(hand, "D call; A call")
    with pytest.raises(RuleError) as nothing:  # the big blind owes nothing after the limps
        hand.set_pre_action("C", PreAction.CALL, 10)
    assert nothing.value.code == "pre_call_nothing"
    hand2, _ = deal({**FOUR, "B": 30})
    hand2.set_pre_action("B", PreAction.CALL, 10)
    run_script(hand2, "D raise 40")  # the raise cancels it: he owes more than he chose to call
    assert hand2.pre_action("B") is None
    hand2.set_pre_action("B", PreAction.CALL, 40)
    events = run_script(hand2, "A fold")
    called = [event for event in events if isinstance(event, PlayerCalled)]
    assert called and called[0].player == "B" and called[0].amount == 25 and called[0].is_all_in


def test_pre_actions_last_one_street_and_are_refused_to_the_player_to_act_and_the_folded() -> None:
    hand, _ = deal()
    with pytest.raises(RuleError) as own_turn:
        hand.set_pre_action("D", PreAction.CALL_ANY)
    assert own_turn.value.code == "pre_your_turn"
    hand.act("D", Fold())
    with pytest.raises(RuleError) as folded:
        hand.set_pre_action("D", PreAction.CHECK_FOLD)
    assert folded.value.code == "pre_not_in_hand"
    hand.set_pre_action("C", PreAction.CALL_ANY)
    run_script(hand, "A call; B call")  # C's call any checks his option: the street ends
    assert hand.street == "flop"
    hand.set_pre_action("A", PreAction.CALL_ANY)
    hand.set_pre_action("A", None)
    assert hand.pre_action("A") is None


def test_pre_actions_survive_saving() -> None:
    hand, _ = deal()
    hand.set_pre_action("B", PreAction.CHECK_FOLD)
    copy = Hand.from_dict(hand.to_dict())
    assert copy.pre_action("B") is PreAction.CHECK_FOLD
    events = copy.act("D", RaiseTo(40))
    events += copy.act("A", Fold())
    assert any(isinstance(event, PlayerFolded) and event.player == "B" for event in events)
    hand2, _ = deal()
    run_script(hand2, "D raise 40")
    hand2.set_pre_action("B", PreAction.CALL, 40)
    copy2 = Hand.from_dict(hand2.to_dict())
    assert copy2.pre_action("B") is PreAction.CALL
    events = copy2.act("A", Fold())
    assert [(event.player, event.amount) for event in events if isinstance(event, PlayerCalled)] == [("B", 35)]


# --- the time bank ----------------------------------------------------------------------------------------------------


def test_time_bank_is_drawn_down_and_refills_every_twenty_cash_hands() -> None:
    bank = TimeBank(60, 60)
    bank = bank.used(12.2)
    assert bank.left == 47  # a started second counts
    assert bank.used(100).left == 0
    for _ in range(CASH_REFILL_HANDS - 1):
        bank = bank.dealt(60)
    assert bank.left == 47
    assert bank.dealt(60) == TimeBank(60, 60, 0)
    assert TimeBank.from_dict(bank.to_dict()) == bank
    assert TimeBank.refilled(30) == TimeBank(30, 30)
