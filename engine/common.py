"""What every game shares: the rule-error family, chip moves, and events with who may see them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.reasons import LedgerReason, Reason
from engine.settlement import fraction_to_text


class RuleError(ValueError):
    """An action a player may not take now. `code` names the rule (for translations), `params` fill the message.

    The message is readable English; the application may translate it from `code` and `params`.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class NotYourTurn(RuleError):
    """An action by someone other than the player (or box) to act."""


class IllegalAmount(RuleError):
    """A bet or raise amount the rules do not allow now (too small, too big, not the fixed size, over the stack)."""


@dataclass(frozen=True, slots=True)
class Move:
    """Chips moving between two accounts named by the game (`stack:<player>`, `pot`, `box:<player>:<n>`, `house`…).

    The application maps these local names to ledger accounts and writes one ledger row per move.
    """

    source: str
    target: str
    amount: int
    reason: LedgerReason

    # written out, not generated: see bot/compiled.py
    def __init__(self, source: str, target: str, amount: int, reason: LedgerReason) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "reason", reason)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (an event's moves in the hand history): the fields read natively when compiled, where
        `_plain_fields` reads each by its name."""
        return {"source": self.source, "target": self.target, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """Something that happened. `visible_to` is None when public, else the one player id who may see it."""

    visible_to: str | None = None
    moves: tuple[Move, ...] = ()

    @property
    def kind(self) -> str:
        """The event's class name, like `PlayerRaised`."""
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form for the hand history: its kind, these two fields, then its own (`_plain_fields`)."""
        data = {"kind": type(self).__name__, "visible_to": self.visible_to,
                "moves": [move.to_dict() for move in self.moves]}
        return _plain_fields(self, data, _field_names(type(self))[_EVENT_FIELDS:])


_EVENT_FIELDS = len(dataclasses.fields(Event))
"""`Event`'s own fields (`visible_to`, `moves`), which come first in every event's and which `Event.to_dict` writes
itself."""

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class (events are serialised after every action)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in dataclasses.fields(cls))
    return names


_SCALARS = frozenset((str, int, float, bool, type(None), Reason))
"""Types kept as they are: JSON's, and a move's reason (a `StrEnum`, a `str` to every JSON writer), which every move
of an action has."""


def _plain_fields(value: Any, data: dict[str, Any], names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Each field of the dataclass `value` (or those `names`) into `data`, made plain by `_plain` (scalars, most of
    them, as they are)."""
    for name in _field_names(type(value)) if names is None else names:
        item = getattr(value, name)
        data[name] = item if type(item) in _SCALARS else _plain(item)
    return data


def _plain(value: Any) -> Any:
    """Cards to text, enums to values, instants to ISO text, durations to seconds, fractions to "num/den", containers
    recursively: so events serialise to JSON."""
    kind = type(value)
    if kind in _SCALARS:  # the common case first (exact types: enums that are str or int go on below)
        return value
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _converter(kind)
    return convert(value)


def _converter(kind: type) -> Callable[[Any], Any]:
    """How `_plain` turns a value of this type into JSON-able data (decided once per type)."""
    if issubclass(kind, Card):
        return str
    if issubclass(kind, datetime | time):
        return lambda value: value.isoformat()
    if issubclass(kind, timedelta):
        return lambda value: value.total_seconds()
    if issubclass(kind, Fraction):
        return fraction_to_text
    if issubclass(kind, StrEnum):  # its text is its value, read by C code rather than the `value` property
        return str
    if issubclass(kind, Enum):
        return lambda value: value.value
    if kind is Move:
        return Move.to_dict
    if dataclasses.is_dataclass(kind):
        return lambda value: _plain_fields(value, {})
    if issubclass(kind, dict):
        return lambda value: {str(key): _plain(item) for key, item in value.items()}
    if issubclass(kind, list | tuple | set | frozenset):
        return lambda value: [_plain(item) for item in value]
    return lambda value: value


_CONVERTERS: dict[type, Callable[[Any], Any]] = {}


def allowed(check: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
    """Whether `check(*args, **kwargs)` passes: the "can" of a verify / can / do triad (False on a RuleError)."""
    try:
        check(*args, **kwargs)
    except RuleError:
        return False
    return True


def all_moves(events: Iterable[Event]) -> list[Move]:
    """Every chip move carried by the events, in order."""
    return [move for event in events for move in event.moves]
