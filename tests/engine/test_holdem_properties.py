"""Invariants of random Hold'em hands: chips conserved, no negative stack, one player to act, save/restore."""

from __future__ import annotations

import json
import random
from dataclasses import fields

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event, all_moves
from engine.holdem import Action, Hand, ItemPawned, Pawn, SeatPlayer
from engine.holdem_state import _Seat
from engine.showdown import ShowdownRules
from tests.engine.holdem_helpers import random_action

hands = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "structure": st.sampled_from(sorted(STRUCTURES)),
    "stacks": st.lists(st.integers(0, 400), min_size=2, max_size=10),
    "level": st.sampled_from([2, 10, 20, 50]),
})


def _start(case: dict) -> tuple[Hand, list[Event], random.Random] | None:
    rng = random.Random(case["seed"])
    players = [SeatPlayer(f"p{index}", stack, sitting_out=rng.random() < 0.1)
               for index, stack in enumerate(case["stacks"])]
    if sum(1 for player in players if player.stack > 0 and not player.sitting_out) < 2:
        return None
    hand, events = Hand.start(players, rng.randrange(len(players)), case["level"], STRUCTURES[case["structure"]],
                              Deck(rng), hand_number=rng.randint(1, 99))
    return hand, events, rng


def _choose(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    if legal.can_pawn and rng.random() < 0.3:
        return Pawn("a woollen coat")
    return random_action(legal, rng)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_chips_conserved_and_one_player_to_act(case):
    started = _start(case)
    assume(started is not None)
    hand, events, rng = started
    initial = sum(hand.stacks.values()) + hand.pot_total
    steps = 0
    while not hand.is_over:
        assert hand.to_act is not None
        legal = hand.legal_actions()
        assert legal.player == hand.to_act
        assert legal.can_check or legal.call_amount > 0
        assert legal.can_fold != legal.can_check
        events += hand.act(legal.player, _choose(hand, rng))
        pawned = sum(event.value for event in events if isinstance(event, ItemPawned))
        assert sum(hand.stacks.values()) + hand.pot_total == initial + pawned
        assert min(hand.stacks.values()) >= 0
        steps += 1
        assert steps < 500
    assert hand.to_act is None and hand.pot_total == 0
    pawned = sum(event.value for event in events if isinstance(event, ItemPawned))
    assert sum(hand.stacks.values()) == initial + pawned
    balance: dict[str, int] = {}
    for move in all_moves(events):
        assert move.amount > 0
        balance[move.source] = balance.get(move.source, 0) - move.amount
        balance[move.target] = balance.get(move.target, 0) + move.amount
    assert balance.get("pot", 0) == 0
    assert hand.result is not None
    for player in hand.players:
        before = case["stacks"][int(player[1:])]
        assert before + balance.get(f"stack:{player}", 0) == hand.stacks[player]
        got = sum(event.value for event in events if isinstance(event, ItemPawned) and event.player == player)
        assert hand.result.net[player] == hand.stacks[player] - before - got
    assert sum(hand.result.net.values()) == 0


@settings(max_examples=200, deadline=None)
@given(hands, st.floats(0, 1))
def test_restored_hand_continues_exactly(case, cut):
    started = _start(case)
    assume(started is not None)
    hand, _, _ = started
    probe = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
    length = 0
    while not probe.is_over:  # a dry run on a copy, to learn the hand's length (step k plays Random(k)'s choice)
        probe.act(probe.to_act, _choose(probe, random.Random(length)))
        length += 1
    cut_at = int(cut * length)
    for step in range(cut_at):
        hand.act(hand.to_act, _choose(hand, random.Random(step)))
    saved = json.loads(json.dumps(hand.to_dict()))
    restored = Hand.from_dict(saved)
    assert restored.to_dict() == saved
    original_events: list[Event] = []
    restored_events: list[Event] = []
    step = cut_at
    while not hand.is_over:
        action = _choose(hand, random.Random(step))
        original_events += hand.act(hand.to_act, action)
        restored_events += restored.act(restored.to_act, action)
        step += 1
    assert restored.is_over
    assert restored.to_dict() == hand.to_dict()
    assert restored.result == hand.result
    assert [event.to_dict() for event in restored_events] == [event.to_dict() for event in original_events]


@settings(max_examples=200, deadline=None)
@given(hands)
def test_legal_actions_are_remembered_until_the_hand_changes(case):
    """Asked twice in a turn, the hand answers with the same object; after each action (a pawn, a run-it-twice
    answer, an absent player's turn) it answers what a hand restored from its dict works out afresh."""
    rng = random.Random(case["seed"])
    players = [SeatPlayer(f"p{index}", stack) for index, stack in enumerate(case["stacks"])]
    assume(sum(1 for player in players if player.stack > 0) >= 2)
    hand, _ = Hand.start(players, 0, case["level"], STRUCTURES[case["structure"]], Deck(rng), hand_number=1,
                         rules=ShowdownRules(run_it_twice=True))
    steps = 0
    while not hand.is_over and steps < 500:
        steps += 1
        if hand.runs_asked:
            hand.choose_runs(hand.runs_asked[0], rng.random() < 0.7)
            continue
        if hand.to_act is None:
            hand.show_or_muck(hand.showing or "", True)
            continue
        legal = hand.legal_actions()
        assert hand.legal_actions() is legal
        assert legal == Hand.from_dict(hand.to_dict()).legal_actions()
        if rng.random() < 0.05:
            hand.set_absent(legal.player, True)
        else:
            hand.act(legal.player, _choose(hand, rng))
    assert hand.is_over


def test_a_saved_seat_holds_every_field_in_order():
    """A seat's snapshot is written out field by field (every snapshot holds each seat): a field added to the seat
    is saved too, in the dataclass's order, the hole cards last."""
    saved = _Seat("ann", 100, 100, []).to_dict()
    assert list(saved) == [field.name for field in fields(_Seat) if field.name != "hole"] + ["hole"]
