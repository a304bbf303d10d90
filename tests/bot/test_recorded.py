"""Events read back from their logged form (`bot.render.recorded`) are the events the engine made, on the compiled
build too (whose event classes keep only the outer type of each field: `tuple`, not `tuple[Card, ...]`)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from bot.render.recorded import item_types, read_events
from engine.cards import Card, parse_cards
from engine.common import Event, Move
from engine.holdem_types import BoardDealt, HandsShown, HandStarted, PotAwarded, Street
from engine.house.events import CardsDrawn, DealerDrew, Payout, StakesSettled
from engine.reasons import Reason, stake_line

ROOT = Path(__file__).resolve().parents[2]
EVENT_MODULES = ("engine.holdem_types", "engine.house.events")
"""The modules whose events a story is retold from (`bot.render.holdem.STORY_EVENTS`, `bot.render.house`'s)."""


def cards(text: str) -> tuple[Card, ...]:
    """The cards of `text` ("As Kd") as an event holds them."""
    return tuple(parse_cards(text))


EVENTS: tuple[Event, ...] = (
    HandStarted(hand_number=3, players=("ann", "bob"), button="ann", stacks={"ann": 290, "bob": 310}, level=10,
                structure="home-limit", variant="holdem", level_number=None),
    BoardDealt(street=Street.FLOP, cards=cards("As Kd 7h"), board=cards("As Kd 7h")),
    HandsShown(cards={"ann": cards("Ah Ac"), "bob": cards("2c 3d")}, categories={"ann": "three_of_a_kind"},
               ranks={"ann": (14, 13, 7)}, run=2),
    PotAwarded(pot_index=0, amount=40, eligible=("ann", "bob"), winners={"ann": 40}, category="pair",
               moves=(Move("pot", "stack:ann", 40, Reason.POT_WON),)),
    CardsDrawn(player="ann", box=1, discarded=cards("2c"), drawn=cards("Qs"), cards=cards("Qs 3d 4h 5s 6c"),
               visible_to="ann", moves=(Move("stack:ann", "house", 10, Reason.FEE_EXCHANGE),)),
    DealerDrew(discarded=Card.parse("Ah"), drawn=Card.parse("2s"), cards=cards("2s 3d 4h 5s 9c"), hand="no_game",
               qualifies=False),
    StakesSettled(player="ann", box=1, results={"ante": 10, "bet": 40}, outcome="won", hand="two_pair",
                  ranks=(12, 5), cards=cards("Qs Qd 5h 5s 6c"), payouts=(Payout("bet", "two_pair", (12, 5), 2),),
                  earlier={"bonus": -5}, earlier_payouts=(Payout("ante", "pair", (12,), 1, half_of=4),),
                  moves=(Move("box:ann:1", "stack:ann", 50, stake_line("bet", "won")),)),
)


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: event.kind)
def test_an_event_read_back_from_its_logged_form_is_the_event_the_engine_made(event: Event) -> None:
    assert read_events([type(event)], [event.to_dict()]) == [event]


def test_a_composed_reason_is_read_back_as_its_text_and_a_listed_one_as_its_reason() -> None:
    [read] = read_events([StakesSettled], [EVENTS[-1].to_dict()])
    assert [move.reason for move in read.moves] == ["bet_won"]
    assert type(read.moves[0].reason) is str
    [pot] = read_events([PotAwarded], [EVENTS[3].to_dict()])
    assert pot.moves[0].reason is Reason.POT_WON


def test_events_of_other_kinds_are_passed_over() -> None:
    assert read_events([BoardDealt], [event.to_dict() for event in EVENTS]) == [EVENTS[1]]


def leaves(hint: Any) -> set[type]:
    """The types inside `hint` (a field's annotation) that JSON does not hold as they are."""
    if typing.get_args(hint):
        return set().union(*(leaves(arg) for arg in typing.get_args(hint) if arg is not Ellipsis))
    plain = isinstance(hint, type) and issubclass(hint, str | int | float | bool | type(None)) and not issubclass(
        hint, Enum)
    return set() if plain or not isinstance(hint, type) else {hint}


def source_hints(cls: type) -> dict[str, Any]:
    """The annotations of `cls` and of its dataclass bases as its source writes them, evaluated in their modules (a
    compiled class keeps only their outer type)."""
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(base):
            continue
        module = importlib.import_module(base.__module__)
        tree = ast.parse((ROOT / (base.__module__.replace(".", "/") + ".py")).read_text())
        [node] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == base.__name__]
        for line in node.body:
            if isinstance(line, ast.AnnAssign) and isinstance(line.target, ast.Name):
                hints[line.target.id] = eval(ast.unparse(line.annotation), vars(module))
    return hints


def logged_classes() -> set[type]:
    """Every event class of `EVENT_MODULES`, and every dataclass an event's field holds (a move, a payout)."""
    found: set[type] = set()
    waiting = [value for name in EVENT_MODULES for value in vars(importlib.import_module(name)).values()
               if isinstance(value, type) and issubclass(value, Event)]
    while waiting:
        cls = waiting.pop()
        if cls not in found:
            found.add(cls)
            waiting += [leaf for hint in source_hints(cls).values() for leaf in leaves(hint)
                        if dataclasses.is_dataclass(leaf)]
    return found


def test_every_logged_field_is_read_back_as_its_annotation_in_the_source_says() -> None:
    """`ITEMS` names, by field, the types a compiled class no longer knows: each field of each event (and of the
    dataclasses in them) is read as the one type its source's annotation holds besides JSON's own."""
    classes = logged_classes()
    assert {Move, Payout, BoardDealt, StakesSettled} <= classes
    for cls in classes:
        fields = {field.name for field in dataclasses.fields(cls) if field.init}
        for name, hint in source_hints(cls).items():
            if name not in fields:
                continue
            expected = leaves(hint)
            assert len(expected) <= 1 and item_types(cls)[name] == next(iter(expected), None), (cls, name, hint)
