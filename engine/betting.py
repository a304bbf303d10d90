"""Hold'em betting structures as data: fixed limit (home and standard), no limit and pot limit, with their presets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["FIXED_LIMIT", "HOME_LIMIT", "NO_LIMIT", "POT_LIMIT", "STRUCTURES", "BettingStructure", "Limit", "Street",
           "blinds", "is_valid_level", "owed_to_call"]


class Street(StrEnum):
    """The phases of a Hold'em hand, in order."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


BETTING_STREETS: tuple[Street, ...] = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)
"""The four streets with a betting round."""


class Limit(StrEnum):
    """How bet sizes are bounded: a fixed size per street, anything from the minimum up to the stack (no limit), or
    up to the pot after the player's call (pot limit)."""

    FIXED = "fixed"
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"


def blinds(level: int) -> tuple[int, int]:
    """The small and big blind at a level: half the level and the level, in every structure."""
    return level // 2, level


def straddle_size(level: int) -> int:
    """A straddle at a level (RULES.md §1a): twice the big blind."""
    return 2 * level


def is_valid_level(level: int) -> bool:
    """A level (small bet and big blind) is even and at least 2, so that the small blind, half of it, is whole chips."""
    return level >= 2 and level % 2 == 0


def owed_to_call(current_bet: int, bet: int, other_bets: Iterable[int]) -> int:
    """The chips a player who has `bet` in this street must put in to stay in (his stack aside): up to the
    `current_bet` (the full big blind, when the blind is short) while another player still in the hand has bet more
    than he has (`other_bets`: theirs); nothing once he covers every other bet."""
    owed = current_bet - bet
    return owed if owed > 0 and any(other > bet for other in other_bets) else 0


@dataclass(frozen=True, slots=True)
class BettingStructure:
    """The sizes and caps of a betting structure; every amount is derived from the table's level `L`.

    - blinds are `L // 2` and `L`;
    - fixed limit: each bet or raise on a street is exactly `bet_units[street] * L` (L, L, 2L, 2L by default);
      no limit and pot limit: the minimum bet is `L`, the minimum raise the size of the last full bet or raise; pot
      limit caps a bet or raise at the pot after the player's call (the pot, every bet in front, and his call);
    - `raises_per_player`: how many times one player may raise in one betting round (None: no limit);
    - `bets_per_round`: the cap on bets plus raises in one betting round, the big blind counting as the first bet
      preflop (None: no cap); `uncapped_heads_up` lifts it when a round starts with only two players in the hand;
      in fixed limit an all-in short of half a bet does not count, and the bet or raise completing it does.
    """

    name: str
    limit: Limit
    bet_units: tuple[int, int, int, int] = (1, 1, 2, 2)
    raises_per_player: int | None = None
    bets_per_round: int | None = None
    uncapped_heads_up: bool = False

    def blinds(self, level: int) -> tuple[int, int]:
        """The small and big blind at this level."""
        return blinds(level)

    def bet_size(self, street: Street, level: int) -> int:
        """The fixed bet/raise size on a street (fixed limit), or the minimum bet (no limit, pot limit)."""
        if self.limit is not Limit.FIXED:
            return level
        return self.bet_units[BETTING_STREETS.index(street)] * level

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"name": self.name, "limit": str(self.limit), "bet_units": list(self.bet_units),
                "raises_per_player": self.raises_per_player, "bets_per_round": self.bets_per_round,
                "uncapped_heads_up": self.uncapped_heads_up}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BettingStructure:
        """Rebuild from `to_dict`."""
        units = tuple(data["bet_units"])
        return cls(
            name=data["name"],
            limit=Limit(data["limit"]),
            bet_units=(units[0], units[1], units[2], units[3]),
            raises_per_player=data["raises_per_player"],
            bets_per_round=data["bets_per_round"],
            uncapped_heads_up=data["uncapped_heads_up"],
        )


HOME_LIMIT = BettingStructure(name="home-limit", limit=Limit.FIXED, raises_per_player=1)
"""The seed's structure (tournament default): fixed limit, each player raises at most once per round."""

FIXED_LIMIT = BettingStructure(name="fixed-limit", limit=Limit.FIXED, bets_per_round=4)
"""Standard fixed limit: one bet and three raises per round, heads-up too (RULES.md §1 names no exception; a card
room's uncapped heads-up raising is `uncapped_heads_up`, which no preset sets)."""

NO_LIMIT = BettingStructure(name="no-limit", limit=Limit.NO_LIMIT)
"""No limit (cash games): min raise = the last full bet or raise, all-in any time."""

POT_LIMIT = BettingStructure(name="pot-limit", limit=Limit.POT_LIMIT)
"""Pot limit (Omaha, RULES.md §1b): raises as in no limit, at most to the pot after the player's call."""

STRUCTURES: dict[str, BettingStructure] = {s.name: s for s in (HOME_LIMIT, FIXED_LIMIT, NO_LIMIT, POT_LIMIT)}
"""The presets by name."""
