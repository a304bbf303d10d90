"""The shared engine pieces: events serialise to JSON, moves are collected in order, rule errors carry codes."""

import dataclasses
import json

import pytest

from engine.betting import Street
from engine.cards import parse_cards
from engine.common import Event, Move, RuleError, all_moves
from engine.holdem_types import BoardDealt, HoleCardsDealt, PotAwarded
from engine.reasons import Reason, grant_by, stake_line


def test_event_serialises_cards_and_visibility() -> None:
    event = HoleCardsDealt(player="ann", cards=tuple(parse_cards("As Kd")), visible_to="ann")
    data = json.loads(json.dumps(event.to_dict()))
    assert data == {"kind": "HoleCardsDealt", "visible_to": "ann", "moves": [], "player": "ann",
                    "cards": ["As", "Kd"]}


def test_event_serialises_scalars_as_they_are_and_the_rest_plainly() -> None:
    """Scalars go through untouched, and so does a move's reason (a `Reason`: a str, written as its text by any JSON
    writer, kept as it is so that the moves of every action cost no conversion); another str enum is written as its
    value; moves, tuples and dicts field by field. (The engine's own events: its classes are compiled in the compiled
    build, where a class defined here may not subclass them.)"""
    move = Move("pot", "stack:ann", 10, Reason.POT_WON)
    data = PotAwarded(pot_index=0, amount=10, eligible=("ann", "bob"), winners={"ann": 10}, category=None,
                      moves=(move,)).to_dict()
    assert data["moves"][0]["reason"] is Reason.POT_WON
    assert json.dumps(data) == json.dumps({"kind": "PotAwarded", "visible_to": None, "moves": [
        {"source": "pot", "target": "stack:ann", "amount": 10, "reason": "pot won"}], "pot_index": 0, "amount": 10,
        "eligible": ["ann", "bob"], "winners": {"ann": 10}, "category": None, "run": 0})
    flop = tuple(parse_cards("Kc 9s 4h"))
    data = BoardDealt(street=Street.FLOP, cards=flop, board=flop).to_dict()
    assert type(data["street"]) is str and data == {"kind": "BoardDealt", "visible_to": None, "moves": [],
                                                    "street": "flop", "cards": ["Kc", "9s", "4h"],
                                                    "board": ["Kc", "9s", "4h"], "run": 0}


def test_a_move_writes_every_field_of_its_own() -> None:
    """`Move.to_dict` names its fields itself (read natively when compiled): one added to the class is written too."""
    move = Move("pot", "stack:ann", 10, Reason.POT_WON)
    assert list(move.to_dict()) == [field.name for field in dataclasses.fields(Move)]
    assert move.to_dict() == dataclasses.asdict(move)


def test_all_moves_keeps_the_order() -> None:
    first = Move("stack:ann", "pot", 10, "bet")
    second = Move("pot", "stack:bob", 10, "win")
    events = [Event(moves=(first,)), Event(), Event(moves=(second,))]
    assert all_moves(events) == [first, second]


def test_a_composed_reason_is_made_from_the_lists_alone() -> None:
    assert [stake_line("ante"), stake_line("pairplus", "won"), stake_line("half_payout", "lost")] == [
        "ante", "pairplus_won", "half_payout_lost"]
    assert grant_by("ann") == "grant by ann"
    for stake, result in (("side", ""), ("ante", "pushed"), ("ante_", "won")):
        with pytest.raises(ValueError, match="no such stake line"):
            stake_line(stake, result)


def test_rule_error_is_a_value_error_with_code() -> None:
    error = RuleError("not_your_turn", "it is not your turn", player="bob")
    assert isinstance(error, ValueError)
    assert (error.code, error.params, str(error)) == ("not_your_turn", {"player": "bob"}, "it is not your turn")
