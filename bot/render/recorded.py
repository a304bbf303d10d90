"""Engine events read back from a hand's or round's history (each logged as its `Event.to_dict`), so what they told
may be told again: the story of a hand in play, retold in the chat's new language (`story.retell`)."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from functools import cache
from typing import Any

from engine.cards import Card
from engine.common import Event, Move
from engine.house.events import Payout
from engine.reasons import Reason

ITEMS: Mapping[str, type] = {"moves": Move, "payouts": Payout, "earlier_payouts": Payout, "reason": Reason,
                             "cards": Card, "board": Card, "discarded": Card, "drawn": Card}
"""What the values of these fields hold, wherever they are nested (a tuple of cards, a player's cards in a dict): the
one thing a compiled build cannot read from an event class, whose annotations mypyc keeps only as their outer type
(`tuple`, not `tuple[Card, ...]`). A test checks it against the annotations in the engine's sources."""


def read_events(kinds: Iterable[type[Event]], recorded: Iterable[Mapping[str, Any]]) -> list[Event]:
    """The recorded events of these `kinds`, in order, as the engine made them; those of any other kind (which tell
    no line) are passed over."""
    by_name = {kind.__name__: kind for kind in kinds}
    return [_instance(by_name[data["kind"]], data) for data in recorded if data.get("kind") in by_name]


def _instance(cls: type, data: Mapping[str, Any]) -> Any:
    """The dataclass `cls` from its fields' plain JSON (as `engine.common` writes it); keys not its fields are
    passed over (an event's `kind`)."""
    items = item_types(cls)
    return cls(**{name: _read(items[name], value) for name, value in data.items() if name in items})


def _read(item: type | None, data: Any) -> Any:
    """`data` back as the engine made it: a list as a tuple (no event holds a list), a dict item by item, and each
    value that is not JSON's own as an `item`: cards from their text, enums from their value, dataclasses from
    their fields, a move's reason as a `Reason` when it is one listed (else its composed text)."""
    if isinstance(data, list):
        return tuple(_read(item, value) for value in data)
    if isinstance(data, dict):
        if dataclasses.is_dataclass(item) and item is not Card:  # a card is text, a dict holds cards by player
            return _instance(item, data)
        return {name: _read(item, value) for name, value in data.items()}
    if item is None or data is None:
        return data
    if item is Card:
        return Card.parse(data)
    if item is Reason:
        try:
            return Reason(data)
        except ValueError:  # composed: a stake line, a grant
            return data
    return item(data)  # an enum from its value


@cache
def item_types(cls: type) -> dict[str, type | None]:
    """For each init field of the dataclass `cls`, the type its values are read back as (`ITEMS`, else the field's
    enum or dataclass), or None when they are JSON's own (text, numbers, flags and containers of them)."""
    hints = typing.get_type_hints(cls)
    return {field.name: ITEMS.get(field.name, _own(hints[field.name])) for field in dataclasses.fields(cls)
            if field.init}


def _own(hint: Any) -> type | None:
    """The field's type when it is an enum or a dataclass (a compiled class keeps these), else None."""
    if isinstance(hint, type) and (issubclass(hint, Enum) or dataclasses.is_dataclass(hint)):
        return hint
    return None
