"""The showdown's order and the choice to show or muck (RULES.md §1a, TDA 16), as data and pure functions.

Where the rules are silent this follows a card room: the first player to show must show (no hand is up yet to say
his cannot win); a later player may muck only a hand that cannot win any pot against the hands already shown (a hand
that could still win, or tie, is turned up: mucking it would give away chips the rules award him), so mucking never
changes who wins what; a player asked and out of time mucks (his hand cannot win, or he would not be asked).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.pots import Pot

__all__ = ["Showdown", "ShowdownRules", "cannot_win", "showdown_order"]


@dataclass(frozen=True, slots=True)
class ShowdownRules:
    """A hand's showdown options: `muck` lets players muck in turn (off: every hand still in is shown at once);
    `automuck` the players whose hands are mucked for them when beaten by one already shown; `run_it_twice` offers
    two boards when everyone still in is all-in, or all but one (no-limit and pot-limit only)."""

    muck: bool = False
    automuck: frozenset[str] = frozenset()
    run_it_twice: bool = False

    # written out, not generated: see bot/compiled.py
    def __init__(self, muck: bool = False, automuck: frozenset[str] = frozenset(), run_it_twice: bool = False) -> None:
        object.__setattr__(self, "muck", muck)
        object.__setattr__(self, "automuck", automuck)
        object.__setattr__(self, "run_it_twice", run_it_twice)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"muck": self.muck, "automuck": sorted(self.automuck), "run_it_twice": self.run_it_twice}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ShowdownRules:
        """Rebuild from `to_dict` (None: the defaults, for hands saved before these options existed)."""
        if not data:
            return cls()
        return cls(muck=bool(data["muck"]), automuck=frozenset(data["automuck"]),
                   run_it_twice=bool(data["run_it_twice"]))


@dataclass(slots=True)
class Showdown:
    """A showdown in progress: the players still to show or muck, in order (the first is the one asked), and those
    who showed or mucked so far."""

    queue: list[str]
    shown: list[str] = field(default_factory=list)
    mucked: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"queue": list(self.queue), "shown": list(self.shown), "mucked": list(self.mucked)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Showdown:
        """Rebuild from `to_dict`."""
        return cls(list(data["queue"]), list(data["shown"]), list(data["mucked"]))


def showdown_order(from_button: Sequence[str], last_aggressor: str | None) -> list[str]:
    """The order hands are shown in: from the last player who bet or raised on the river, else from the first player
    left of the button (`from_button`: the players still in, clockwise from the button's left), then clockwise."""
    players = list(from_button)
    if last_aggressor not in players:
        return players
    at = players.index(last_aggressor)
    return players[at:] + players[:at]


def cannot_win(player: str, strengths: Mapping[str, int], shown: Iterable[str], pots: Sequence[Pot]) -> bool:
    """Whether a hand cannot win (nor share) any pot it is in: in each, a hand already shown beats it."""
    up = list(shown)
    return all(any(other in pot.eligible and strengths[other] > strengths[player] for other in up)
               for pot in pots if player in pot.eligible)
