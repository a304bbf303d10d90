"""Golden Hold'em hands: turn order, the big blind's option, caps, short all-ins, side pots, splits, pawning."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.betting import FIXED_LIMIT, HOME_LIMIT, NO_LIMIT, STRUCTURES, Street
from engine.common import IllegalAmount, NotYourTurn, RuleError, all_moves
from engine.holdem import (
    AllIn,
    BlindPosted,
    Call,
    Check,
    Hand,
    HandsShown,
    ItemPawned,
    Pawn,
    PlayerCalled,
    PotAwarded,
    RaiseTo,
    UncalledBetReturned,
)
from engine.pots import Pot, build_pots, split_pot
from tests.engine.holdem_helpers import ENGINE_COMPILED, run_script, start

FOUR = {"A": 100, "B": 100, "C": 100, "D": 100}
THREE = {"A": 100, "B": 100, "C": 100}
CHECKS_3 = "B check; C check; A check; " * 3

GOLDEN = [
    # heads-up: the button posts the small blind, acts first preflop and last on every later street
    ("heads-up order", HOME_LIMIT, {"A": 100, "B": 100}, "A", {"A": "As Ah", "B": "2c 7d"}, "Kc 8d 3s 9h 4c",
     "A call; B check; B check; A check; B check; A check; B check; A check", {"A": 110, "B": 90}),
    # the big blind may raise when everyone only called; postflop the first player left of the button starts
    ("big blind option", HOME_LIMIT, THREE, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"}, "Kc 9s 4h Jd 6c",
     "A call; B call; C raise 20; A call; B call; " + CHECKS_3, {"A": 80, "B": 80, "C": 140}),
    # two-way split: the odd chip goes to the first winner left of the button (C, as B folded)
    ("split pot odd chip", HOME_LIMIT, THREE, "A", {"A": "2c 3d", "B": "6c 7c", "C": "4h 5h"}, "As Ks Qs Js Ts",
     "A call; B fold; C check; " + "C check; A check; " * 3, {"A": 102, "B": 95, "C": 103}),
    # everyone folds to the big blind: his unmatched half of the blind comes back, he wins the small blind
    ("folds to big blind", HOME_LIMIT, FOUR, "A", {"A": "2c 3d", "B": "6c 7c", "C": "4h 5h", "D": "8s 9s"},
     "As Ks Qs Js Ts", "D fold; A fold; B fold", {"A": 100, "B": 95, "C": 105, "D": 100}),
    # a bet nobody calls comes back
    ("uncalled bet returned", NO_LIMIT, {"A": 1000, "B": 1000}, "A", {"A": "As Ah", "B": "2c 7d"}, "Kc 8d 3s 9h 4c",
     "A call; B check; B bet 500; A fold", {"A": 990, "B": 1010}),
    # four all-in for different amounts: a main pot and two side pots, each to the best eligible hand
    ("all-in with two side pots", NO_LIMIT, {"A": 50, "B": 100, "C": 200, "D": 300}, "D",
     {"A": "As Ah", "B": "Ks Kh", "C": "Qs Qh", "D": "4d 5h"}, "2c 7d 9h Js 3c",
     "C allin; D call; A allin; B allin", {"A": 200, "B": 150, "C": 200, "D": 100}),
    # a short all-in raise: the player who already acted may only call; the board runs out
    ("short all-in does not reopen", NO_LIMIT, {"A": 150, "B": 1000, "C": 1000, "D": 1000}, "A",
     {"A": "As Ah", "B": "3d 8h", "C": "4h 6h", "D": "2c 7d"}, "Kc 8d 3s 9h 4c",
     "D raise 100; A allin; B fold; C fold; D call", {"A": 315, "B": 995, "C": 990, "D": 850}),
    # pawning: C, short of the call, pawns a jacket for 100 chips from the bank and plays on
    ("pawning", HOME_LIMIT, {"A": 100, "B": 100, "C": 12}, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"},
     "Kc 9s 4h Jd 6c", "A raise 20; B call; C pawn leather jacket; C call; " + CHECKS_3,
     {"A": 80, "B": 80, "C": 152}),
]


@pytest.mark.parametrize(("structure", "stacks", "button", "holes", "board", "script", "final"),
                         [case[1:] for case in GOLDEN], ids=[case[0] for case in GOLDEN])
def test_golden_hand(structure, stacks, button, holes, board, script, final):
    hand, events = start(structure, stacks, button, holes, board)
    events += run_script(hand, script)
    assert hand.is_over and hand.to_act is None
    assert hand.stacks == final
    pawned = sum(event.value for event in events if isinstance(event, ItemPawned))
    assert sum(final.values()) == sum(stacks.values()) + pawned
    balance: dict[str, int] = {}
    for move in all_moves(events):
        balance[move.source] = balance.get(move.source, 0) - move.amount
        balance[move.target] = balance.get(move.target, 0) + move.amount
    assert balance.get("pot", 0) == 0
    assert balance.get("bank", 0) == -pawned
    for player in stacks:
        assert stacks[player] + balance.get(f"stack:{player}", 0) == final[player]
    assert hand.result is not None
    assert hand.result.net == {p: final[p] - stacks[p] - (pawned if p == "C" and pawned else 0) for p in stacks}
    json.dumps([event.to_dict() for event in events])


def test_heads_up_blinds_and_first_actor():
    hand, events = start(HOME_LIMIT, {"A": 100, "B": 100}, "A", {"A": "As Ah", "B": "2c 7d"}, "Kc 8d 3s 9h 4c")
    blinds = [(event.player, event.blind, event.amount) for event in events if isinstance(event, BlindPosted)]
    assert blinds == [("A", "small", 5), ("B", "big", 10)]
    assert hand.to_act == "A"
    dealt = [event for event in events if event.kind == "HoleCardsDealt"]
    assert [(event.player, event.visible_to) for event in dealt] == [("B", "B"), ("A", "A")]


def test_big_blind_option_offers_check_and_raise():
    hand, _ = start(HOME_LIMIT, THREE, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"}, "Kc 9s 4h Jd 6c")
    run_script(hand, "A call; B call")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_check, legal.can_fold, legal.call_amount) == ("C", True, False, 0)
    assert (legal.can_raise, legal.min_to, legal.max_to) == (True, 20, 20)
    run_script(hand, "C check")
    assert hand.street is Street.FLOP and hand.to_act == "B" and hand.pot_total == 30


def test_home_limit_one_raise_per_player():
    hand, _ = start(HOME_LIMIT, THREE, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"}, "Kc 9s 4h Jd 6c")
    run_script(hand, "A raise 20; B raise 30; C raise 40")
    before = hand.to_dict()
    assert not hand.legal_actions().can_raise
    with pytest.raises(RuleError) as caught:
        hand.act("A", RaiseTo(50))
    assert caught.value.code == "raise_limit"
    assert hand.to_dict() == before
    run_script(hand, "A call; B call")
    assert hand.street is Street.FLOP and hand.pot_total == 120
    assert hand.legal_actions().can_bet  # a new round: everyone may bet and raise once again


HEADS_UP_UNCAPPED = dataclasses.replace(FIXED_LIMIT, uncapped_heads_up=True)
"""Fixed limit as a card room may play it, raising uncapped heads-up: an option no preset sets (RULES.md §1 caps the
standard preset's every round)."""


@pytest.mark.parametrize(("structure", "stacks", "script", "can_raise"), [
    (FIXED_LIMIT, FOUR, "D raise 20; A raise 30; B raise 40", False),  # the big blind, then three raises: capped
    (FIXED_LIMIT, {"A": 100, "B": 100}, "A raise 20; B raise 30; A raise 40", False),  # heads-up too
    (FIXED_LIMIT, {"A": 100, "B": 100}, "A raise 20; B raise 30", True),
    (HEADS_UP_UNCAPPED, {"A": 100, "B": 100}, "A raise 20; B raise 30; A raise 40; B raise 50; A raise 60", True),
    (HEADS_UP_UNCAPPED, FOUR, "D raise 20; A raise 30; B raise 40", False),
])
def test_fixed_limit_cap(structure, stacks, script, can_raise):
    holes = {"A": "2c 7d", "B": "3d 8h", "C": "As Ah", "D": "Kd Kh"}
    hand, _ = start(structure, stacks, "A", {p: holes[p] for p in stacks}, "Kc 9s 4h Jd 6c")
    run_script(hand, script)
    assert hand.legal_actions().can_raise is can_raise
    if not can_raise:
        with pytest.raises(RuleError) as caught:
            hand.act(hand.to_act, RaiseTo(hand.current_bet + 10))
        assert caught.value.code == "raise_cap"


def test_short_all_in_reopens_only_for_players_yet_to_act():
    hand, _ = start(NO_LIMIT, {"A": 150, "B": 1000, "C": 1000, "D": 1000}, "A",
                    {"A": "As Ah", "B": "3d 8h", "C": "4h 6h", "D": "2c 7d"}, "Kc 8d 3s 9h 4c")
    run_script(hand, "D raise 100; A allin")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_raise, legal.min_to, legal.max_to) == ("B", True, 240, 1000)
    run_script(hand, "B fold; C fold")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_raise, legal.call_amount) == ("D", False, 50)
    with pytest.raises(RuleError) as caught:
        hand.act("D", RaiseTo(300))
    assert caught.value.code == "not_reopened"


@pytest.mark.parametrize(("second_all_in", "reopened"), [(190, True), (180, False)])
def test_short_all_ins_adding_up_to_a_full_raise_reopen(second_all_in, reopened):
    stacks = {"A": second_all_in, "B": 1000, "C": 1000, "D": 1000, "E": 150}
    hand, _ = start(NO_LIMIT, stacks, "A", {"A": "As Ah", "B": "3d 8h", "C": "4h 6h", "D": "2c 7d", "E": "9c 9d"},
                    "Kc 8d 3s 9h 4c")
    run_script(hand, "D raise 100; E allin; A allin; B call; C fold")
    legal = hand.legal_actions()
    assert legal.player == "D" and legal.can_raise is reopened
    if reopened:
        assert legal.min_to == second_all_in + 90


def test_side_pots_and_raising_with_nobody_to_call():
    hand, events = start(NO_LIMIT, {"A": 50, "B": 100, "C": 200, "D": 300}, "D",
                         {"A": "As Ah", "B": "Ks Kh", "C": "Qs Qh", "D": "4d 5h"}, "2c 7d 9h Js 3c")
    run_script(hand, "C allin")
    legal = hand.legal_actions()
    assert (legal.player, legal.can_raise, legal.call_amount, legal.all_in) == ("D", False, 200, 0)
    with pytest.raises(RuleError) as caught:
        hand.act("D", RaiseTo(300))
    assert caught.value.code == "nobody_to_raise"
    events += run_script(hand, "D call; A allin; B allin")
    pots = [(event.amount, event.eligible, event.winners) for event in events if isinstance(event, PotAwarded)]
    assert pots == [(200, ("A", "B", "C", "D"), {"A": 200}), (150, ("B", "C", "D"), {"B": 150}),
                    (200, ("C", "D"), {"C": 200})]
    shown = next(event for event in events if isinstance(event, HandsShown))
    assert shown.categories["A"] == "pair" and set(shown.cards) == {"A", "B", "C", "D"}


def test_an_all_in_that_nobody_could_call_more_of_is_the_call():
    """D covers every other player, each of whom is all-in or could be only for less: his all-in puts in what can
    be matched, the call (it was refused as a raise nobody could call), and the rest of his stack stays his."""
    hand, _ = start(NO_LIMIT, {"A": 50, "B": 100, "C": 200, "D": 300}, "D",
                    {"A": "As Ah", "B": "Ks Kh", "C": "Qs Qh", "D": "4d 5h"}, "2c 7d 9h Js 3c")
    run_script(hand, "C allin")
    assert hand.can_act("D", AllIn())
    events = hand.act("D", AllIn())
    assert events[0] == PlayerCalled(player="D", amount=200, is_all_in=False, moves=events[0].moves)
    assert hand.stacks["D"] == 100 and hand.to_act == "A"


def test_fold_to_big_blind_returns_uncalled_half_blind():
    hand, events = start(HOME_LIMIT, FOUR, "A", {"A": "2c 3d", "B": "6c 7c", "C": "4h 5h", "D": "8s 9s"},
                         "As Ks Qs Js Ts")
    events += run_script(hand, "D fold; A fold; B fold")
    returned = [(event.player, event.amount) for event in events if isinstance(event, UncalledBetReturned)]
    assert returned == [("C", 5)]
    assert hand.result is not None and not hand.result.went_to_showdown and hand.result.shown == {}
    assert not any(isinstance(event, HandsShown) for event in events)


def test_pawning_rules():
    hand, _ = start(HOME_LIMIT, {"A": 100, "B": 100, "C": 12}, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"},
                    "Kc 9s 4h Jd 6c")
    assert not hand.legal_actions().can_pawn  # A can call
    with pytest.raises(RuleError) as caught:
        hand.act("A", Pawn("coat"))
    assert caught.value.code == "pawn_not_short"
    run_script(hand, "A raise 20; B call")
    assert hand.legal_actions().can_pawn
    before = hand.to_dict()
    for item, code in [("", "pawn_item_missing"), ("--", "pawn_item_missing"), ("my gold Watch", "pawn_item_forbidden"),
                       ("носки", "pawn_item_forbidden"), ("a leather belt", "pawn_item_forbidden")]:
        with pytest.raises(RuleError) as caught:
            hand.act("C", Pawn(item))
        assert caught.value.code == code
        assert hand.to_dict() == before
    with pytest.raises(NotYourTurn):
        hand.act("A", Pawn("coat"))
    events = hand.act("C", Pawn("leather jacket"))
    assert len(events) == 1 and isinstance(events[0], ItemPawned)
    pawned = events[0]
    assert (pawned.player, pawned.item, pawned.value, pawned.hand_number, pawned.holder) == (
        "C", "leather jacket", 100, 1, "bank")
    assert [(m.source, m.target, m.amount) for m in pawned.moves] == [("bank", "stack:C", 100)]
    assert hand.to_act == "C" and hand.stacks["C"] == 102 and not hand.legal_actions().can_pawn


def test_player_errors_change_nothing():
    hand, _ = start(HOME_LIMIT, THREE, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"}, "Kc 9s 4h Jd 6c")
    before = hand.to_dict()
    cases = [("B", Call(), NotYourTurn, "not_your_turn"), ("A", Check(), RuleError, "check_owes"),
             ("A", RaiseTo(25), IllegalAmount, "amount_range"), ("Z", Call(), RuleError, "not_in_hand")]
    for player, action, error, code in cases:
        with pytest.raises(error) as caught:
            hand.act(player, action)
        assert caught.value.code == code and caught.value.message
        assert not hand.can_act(player, action)
        assert hand.to_dict() == before


@pytest.mark.parametrize(("structure", "stacks", "script", "player", "code", "owed"), [
    (NO_LIMIT, {"A": 1000, "B": 300}, "A raise 1000", "B", "check_owes_all_in", 290),  # all he has left
    (HOME_LIMIT, THREE, "A raise 20; B call; C raise 30", "A", "check_owes_no_raise", 10),  # his one raise is used
    (HOME_LIMIT, THREE, "", "A", "check_owes", 10),
])
def test_a_refused_check_names_only_what_the_player_may_do(structure, stacks, script, player, code, owed):
    """A check facing a bet is refused with what he may do instead: "call, raise or fold" to a player who cannot
    raise (short of the call, or out of raises) would send him to a second refusal."""
    hand, _ = start(structure, stacks, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"}, "Kc 9s 4h Jd 6c")
    if script:
        run_script(hand, script)
    with pytest.raises(RuleError) as caught:
        hand.act(player, Check())
    assert (caught.value.code, caught.value.params["owed"]) == (code, owed)
    assert hand.legal_actions().can_raise is (code == "check_owes")


WRONG_TYPES = [
    pytest.param(lambda: RaiseTo(20.0), "int object expected; got float", id="float"),
    pytest.param(lambda: RaiseTo("20"), "int object expected; got str", id="text"),
    pytest.param(lambda: RaiseTo(None), "int object expected; got None", id="none"),
    pytest.param(lambda: Pawn(None), "str object expected; got None", id="no item"),
    pytest.param(lambda: Pawn(42), "str object expected; got int", id="a number for an item"),
]
"""Actions of the wrong type, which the bot never makes (its parser reads whole numbers and text, and refuses the
rest: `tests/bot/test_commands.py`), each with the `TypeError` the compiled engine raises as it is made."""


def _short_of_the_call() -> Hand:
    """A hand where C, short of the call, may pawn (or raise to 12, all-in)."""
    hand, _ = start(HOME_LIMIT, {"A": 100, "B": 100, "C": 12}, "A", {"A": "2c 7d", "B": "3d 8h", "C": "As Ah"},
                    "Kc 9s 4h Jd 6c")
    run_script(hand, "A raise 20; B call")
    return hand


@pytest.mark.parametrize(("make", "error"), WRONG_TYPES)
def test_actions_of_the_wrong_type_are_refused_not_crashed(make, error):
    """Plain, such an action is made and the rules refuse it, changing nothing; compiled, it cannot be made (the
    `TypeError` of `WRONG_TYPES`). Either way the suite checks the build it runs on (CI runs the plain one)."""
    if ENGINE_COMPILED:
        with pytest.raises(TypeError) as made:
            make()
        assert str(made.value) == error
        return
    hand, action = _short_of_the_call(), make()
    before = hand.to_dict()
    assert not hand.can_act("C", action)
    with pytest.raises(RuleError) as caught:
        hand.act("C", action)
    expected = "pawn_item_missing" if isinstance(action, Pawn) else "amount_not_chips"
    assert caught.value.code == expected
    assert hand.to_dict() == before


def test_a_raise_to_true_is_refused_and_changes_nothing():
    """Plain, `True` is kept as it is and refused as no number of chips; compiled, the annotation (`amount: int`)
    makes it a raise to 1, refused as short of a raise."""
    hand, action = _short_of_the_call(), RaiseTo(True)
    before = hand.to_dict()
    if ENGINE_COMPILED:
        assert (action, type(action.amount)) == (RaiseTo(1), int)
    else:
        assert not hand.can_act("C", action)
    with pytest.raises(RuleError) as caught:
        hand.act("C", action)
    expected = ("raise_short", {}) if ENGINE_COMPILED else ("amount_not_chips", {"amount": "True"})
    assert (caught.value.code, caught.value.params) == expected
    assert hand.to_dict() == before


def test_sitting_out_and_short_blinds():
    from engine.cards import Deck
    from engine.holdem import SeatPlayer

    players = [SeatPlayer("A", 100), SeatPlayer("B", 100, sitting_out=True), SeatPlayer("C", 3), SeatPlayer("D", 7)]
    hand, events = Hand.start(players, 1, 10, HOME_LIMIT, Deck.stacked("As"), hand_number=7)
    assert hand.players == ("A", "C", "D") and hand.button == "A"
    blinds = [(event.player, event.amount, event.is_all_in) for event in events if isinstance(event, BlindPosted)]
    assert blinds == [("C", 3, True), ("D", 7, True)]
    assert hand.legal_actions().call_amount == 10  # the full big blind is owed though D is all-in for 7


def test_too_many_players_refused_before_dealing():
    import random

    from engine.cards import Deck
    from engine.holdem import MAX_PLAYERS, SeatPlayer

    deck = Deck(random.Random(3))
    players = [SeatPlayer(f"P{index}", 100) for index in range(MAX_PLAYERS + 1)]
    with pytest.raises(RuleError) as caught:
        Hand.start(players, 0, 10, HOME_LIMIT, deck, hand_number=1)
    assert caught.value.code == "too_many_players" and caught.value.params == {"max": 22}
    assert deck.remaining == 52

    hand, _ = Hand.start(players[:MAX_PLAYERS], 0, 10, HOME_LIMIT, deck, hand_number=1)
    while not hand.is_over:  # the largest table still gets its whole board from one deck
        player = hand.to_act
        assert player is not None
        hand.act(player, Check() if hand.can_act(player, Check()) else Call())
    assert len(hand.board) == 5 and deck.remaining == 0


def test_pots_and_split_helpers():
    assert build_pots({"A": 50, "B": 100, "C": 100, "D": 30}, ["A", "B", "C"]) == [
        Pot(180, ("A", "B", "C")), Pot(100, ("B", "C"))]
    assert split_pot(10, ["X", "Y", "Z"]) == {"X": 4, "Y": 3, "Z": 3}
    assert split_pot(11, ["X", "Y", "Z"]) == {"X": 4, "Y": 4, "Z": 3}


def test_structure_presets():
    assert set(STRUCTURES) == {"home-limit", "fixed-limit", "no-limit", "pot-limit"}
    assert HOME_LIMIT.blinds(20) == (10, 20)
    assert [HOME_LIMIT.bet_size(street, 10) for street in (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)] \
        == [10, 10, 20, 20]
    for structure in STRUCTURES.values():
        assert type(structure).from_dict(json.loads(json.dumps(structure.to_dict()))) == structure


def test_a_pot_smaller_than_its_winners_moves_no_zero_chips():
    # Not reachable by play (each winner of a pot put a chip in it); a doctored snapshot builds a 1-chip pot, from a
    # folded player, that two live players tie for.
    hand, _ = start(HOME_LIMIT, {"A": 100, "B": 100, "C": 100}, "A", {"A": "2c 3d", "B": "2d 3c", "C": "4h 5h"},
                    "As Ks Qs Js Ts")
    run_script(hand, "A call; B call; C check; B check; C check; A check; B check; C check; A check")
    data = hand.to_dict()
    for seat in data["seats"]:
        seat["contributed"] = 1 if seat["id"] == "C" else 0
        seat["folded"] = seat["id"] == "C"
    data["pot"] = 1
    hand = Hand.from_dict(data)
    events = run_script(hand, "B check; A check")
    moves = all_moves(events)
    assert [(move.target, move.amount) for move in moves] == [("stack:B", 1)]
    assert hand.pot_total == 0
