"""The time bank (RULES.md §1a): seconds a player may draw on when his turn time runs out, and when it refills."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CASH_REFILL_HANDS = 20
"""At a cash table the bank refills every this many hands dealt to the player."""


@dataclass(frozen=True, slots=True)
class TimeBank:
    """A player's bank: `left` seconds of `full`, and the hands dealt to him since it last refilled (cash tables)."""

    full: int
    left: int
    hands: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, full: int, left: int, hands: int = 0) -> None:
        object.__setattr__(self, "full", full)
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "hands", hands)

    def used(self, seconds: float) -> TimeBank:
        """The bank after drawing on it for `seconds` (never below empty; a fraction of a second counts whole)."""
        spent = max(0, -int(-seconds // 1))
        return TimeBank(self.full, max(0, self.left - spent), self.hands)

    def dealt(self, full: int) -> TimeBank:
        """The bank after one more hand dealt to him at a cash table: full again (`full` seconds, the table's
        setting now) every CASH_REFILL_HANDS hands."""
        hands = self.hands + 1
        if hands >= CASH_REFILL_HANDS:
            return TimeBank(full, full)
        return TimeBank(self.full, self.left, hands)  # at each deal: not `replace`, which is slow

    @staticmethod
    def refilled(full: int) -> TimeBank:
        """Full again with `full` seconds (a tournament's new level)."""
        return TimeBank(full, full)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"full": self.full, "left": self.left, "hands": self.hands}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TimeBank:
        """Rebuild from `to_dict`."""
        return cls(int(data["full"]), int(data["left"]), int(data.get("hands", 0)))
