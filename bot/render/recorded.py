"""Engine events read back from a hand's or round's history (each logged as its `Event.to_dict`), so what they told
may be told again: the story of a hand in play, retold in the chat's new language (`story.retell`)."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from functools import cache
from typing import Any

from engine.cards import Card
from engine.common import Event


def read_events(kinds: Iterable[type[Event]], recorded: Iterable[Mapping[str, Any]]) -> list[Event]:
    """The recorded events of these `kinds`, in order, as the engine made them; those of any other kind (which tell
    no line) are passed over."""
    by_name = {kind.__name__: kind for kind in kinds}
    return [_value(by_name[data["kind"]], data) for data in recorded if data.get("kind") in by_name]


def _value(hint: Any, data: Any) -> Any:
    """`data` (plain JSON, as `engine.common` writes it) back as a value of the type `hint`: cards from their text,
    enums from their value, dataclasses from their fields, containers item by item."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        if data is None:
            return None
        choices = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        for arg in choices[:-1]:  # the first that reads it (a move's reason: a listed `Reason`, else composed)
            try:
                return _value(arg, data)
            except ValueError:
                continue
        return _value(choices[-1], data)
    if origin is tuple:
        args = typing.get_args(hint)
        return tuple(_value(args[0], item) for item in data) if args[-1] is Ellipsis else tuple(
            _value(arg, item) for arg, item in zip(args, data, strict=True))
    if origin is dict:
        key, item = typing.get_args(hint)
        return {_value(key, name): _value(item, value) for name, value in data.items()}
    if isinstance(hint, type):
        if issubclass(hint, Card):
            return Card.parse(data)
        if issubclass(hint, Enum):
            return hint(data)
        if dataclasses.is_dataclass(hint):
            fields = _fields(hint)
            return hint(**{name: _value(fields[name], value) for name, value in data.items() if name in fields})
    return data


@cache
def _fields(cls: type) -> dict[str, Any]:
    """The type of each init field of the dataclass `cls` (its annotations resolved once)."""
    hints = typing.get_type_hints(cls)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls) if field.init}
