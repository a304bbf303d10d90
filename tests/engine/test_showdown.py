"""Showdown in turn (RULES.md §1a, TDA 16): who shows first, who may muck, automuck, and mucked cards kept secret."""

from __future__ import annotations

import json

import pytest

from engine.common import NotYourTurn, RuleError
from engine.holdem import NO_LIMIT, Hand, HandMucked, HandsShown, PotAwarded, SeatPlayer, ShowdownRules
from engine.pots import Pot
from engine.showdown import cannot_win, showdown_order
from tests.engine.holdem_helpers import deck_for, run_script

STACKS = {"A": 1000, "B": 1000, "C": 1000}  # A has the button, B the small blind, C the big blind
ORDER = ["B", "C", "A"]
BOARD = "2c 7d 9h Js 3s"
HOLES = {"A": "Qh Qd", "B": "4h 5h", "C": "Ac Ad"}  # C best, A second, B worst
PREFLOP_TO_RIVER = "A call; B call; C check; B check; C check; A check; B check; C check; A check"


def _start(rules: ShowdownRules, holes: dict[str, str] = HOLES, stacks: dict[str, int] = STACKS) -> Hand:
    players = [SeatPlayer(player, stack) for player, stack in stacks.items()]
    hand, _ = Hand.start(players, 0, 10, NO_LIMIT, deck_for(holes, ORDER, BOARD), hand_number=1, rules=rules)
    return hand


def _shown(events: list) -> list[str]:
    return [player for event in events if isinstance(event, HandsShown) for player in event.cards]


def _mucked(events: list) -> list[str]:
    return [event.player for event in events if isinstance(event, HandMucked)]


def test_the_last_river_aggressor_shows_first_and_beaten_hands_are_automucked():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("ABC")))
    run_script(hand, PREFLOP_TO_RIVER)
    events = run_script(hand, "B check; C bet 20; A call; B call")
    assert _shown(events) == ["C"]  # C bet last: he shows first; A and B, beaten by him, are mucked for them
    assert _mucked(events) == ["A", "B"]
    assert hand.is_over and hand.result is not None
    assert hand.result.shown.keys() == {"C"} and hand.result.mucked == ("A", "B")
    assert hand.result.net == {"A": -30, "B": -30, "C": 60}


def test_nobody_bet_on_the_river_the_first_left_of_the_button_shows_first():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("ABC")),
                  holes={"A": "Qh Qd", "B": "Ac Ad", "C": "4h 5h"})
    events = run_script(hand, PREFLOP_TO_RIVER + "; B check; C check; A check")
    assert _shown(events) == ["B"] and _mucked(events) == ["C", "A"]


def test_a_hand_that_can_win_is_shown_and_one_that_cannot_waits_for_its_owner_without_automuck():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("B")), holes={"A": "4h 5h", "B": "Qh Qd", "C": "Ac Ad"})
    events = run_script(hand, PREFLOP_TO_RIVER + "; B bet 20; C call; A call")
    assert _shown(events) == ["B", "C"]  # B first (he bet); C beats him, so his hand is turned up
    assert hand.showing == "A" and not hand.is_over  # A cannot win and has no automuck: he chooses
    with pytest.raises(NotYourTurn):
        hand.show_or_muck("B", show=False)
    saved = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
    assert saved.showing == "A"
    events = saved.show_or_muck("A", show=False)
    assert _mucked(events) == ["A"] and saved.is_over
    assert saved.result is not None and "A" not in saved.result.shown


def test_a_player_asked_may_show_and_a_time_out_mucks_a_hand_that_cannot_win():
    for how, shown in (("show", ["A"]), ("timeout", [])):
        hand = _start(ShowdownRules(muck=True), holes={"A": "4h 5h", "B": "Qh Qd", "C": "Ac Ad"})
        events = run_script(hand, PREFLOP_TO_RIVER + "; B bet 20; C call; A call")
        assert _shown(events) == ["B", "C"]  # the first to show has no choice; C beats B: his hand is turned up
        assert hand.showing == "A" and hand.can_show_or_muck("A", show=False)
        assert not hand.can_show_or_muck("C", show=True)
        events = hand.show_or_muck("A", show=True) if how == "show" else hand.showdown_timeout()
        assert _shown(events) == shown
        assert hand.result is not None and hand.result.net["C"] == 60


def test_a_hand_that_ties_the_shown_one_is_shown_and_splits():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("ABC")), holes={"A": "Ac Ah", "B": "4h 5h", "C": "As Ad"})
    events = run_script(hand, PREFLOP_TO_RIVER + "; B check; C bet 20; A call; B fold")
    assert _shown(events) == ["C", "A"]
    awarded = [event for event in events if isinstance(event, PotAwarded)]
    # the pot: 30 preflop (A's call, B's small blind completed, C's big blind) and C's river bet of 20 called by A
    assert [event.winners for event in awarded] == [{"A": 35, "C": 35}]
    assert hand.result is not None and hand.result.net == {"A": 5, "B": -10, "C": 5}


def test_everyone_all_in_turns_every_hand_up_at_once():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("ABC")), stacks={"A": 1000, "B": 1000, "C": 100})
    events = run_script(hand, "A call; B call; C allin; A call; B call"
                        "; B check; A check; B check; A check; B check; A check")
    shown = [event for event in events if isinstance(event, HandsShown)]
    assert len(shown) == 1 and set(shown[0].cards) == {"A", "B", "C"} and not _mucked(events)


def test_mucked_cards_appear_in_no_event():
    hand = _start(ShowdownRules(muck=True, automuck=frozenset("ABC")))
    events = run_script(hand, PREFLOP_TO_RIVER + "; B check; C bet 20; A call; B call")
    public = json.dumps([event.to_dict() for event in events if event.visible_to is None])
    for card in ("Qh", "Qd", "4h", "5h"):
        assert card not in public
    assert "Ac" in public


def test_without_mucking_every_hand_is_shown_as_before():
    hand = _start(ShowdownRules())
    events = run_script(hand, PREFLOP_TO_RIVER + "; B check; C bet 20; A call; B call")
    assert [set(event.cards) for event in events if isinstance(event, HandsShown)] == [{"A", "B", "C"}]


def test_order_and_cannot_win():
    assert showdown_order(["B", "C", "A"], "A") == ["A", "B", "C"]
    assert showdown_order(["B", "C", "A"], None) == ["B", "C", "A"]
    pots = [Pot(30, ("A", "B", "C")), Pot(20, ("A", "B"))]
    strengths = {"A": 5, "B": 3, "C": 9}
    assert not cannot_win("A", strengths, ["C"], pots)  # C cannot win the side pot: A still can
    assert cannot_win("B", strengths, ["C", "A"], pots)
    assert not cannot_win("B", strengths, [], pots)


def test_the_uncontested_winner_may_show_after_the_hand_and_nobody_else():
    hand = _start(ShowdownRules(muck=True))
    run_script(hand, "A raise 40; B fold; C fold")
    assert hand.is_over
    with pytest.raises(RuleError):
        hand.show_won("B")
    [event] = hand.show_won("A")
    assert event.cards == hand.hole_cards("A")
