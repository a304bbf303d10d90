"""A tournament's vocabulary: its phases, its config (money, chips and options), entrants, pawned items and summary.

The bank (`BANK`) is the counterparty of every chip a tournament issues or takes back; a player's chips are
`stack:<player>`. Money is exact (`Fraction`), chips are `int`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.schedule import Schedule
from engine.settlement import CENT, fraction_from_text, fraction_to_text

__all__ = ["BANK", "Entrant", "EntrantStatus", "ItemStatus", "PawnedItem", "Phase", "TournamentConfig",
           "TournamentSummary", "first_break", "is_in"]

BANK = "bank"
"""The tournament bank's account name in chip moves; a player's chips are `stack:<player>`."""


class Phase(StrEnum):
    """Where the tournament is."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class EntrantStatus(StrEnum):
    """Where one entrant is."""

    REGISTERED = "registered"
    PLAYING = "playing"
    CASHED_OUT = "cashed_out"
    ELIMINATED = "eliminated"


class ItemStatus(StrEnum):
    """What became of a pawned item."""

    HELD = "held"
    REDEEMED = "redeemed"
    BOUGHT_BACK = "bought_back"


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """The tournament's money and chips: buy-in (money units) for `chips`, rebuys, add-ons, re-entry, the bounty out of
    each buy-in, pawning; defaults from RULES.md (no rebuys, add-ons, re-entry or bounty)."""

    buy_in: Fraction = Fraction(50)
    chips: int = 300
    rebuys: int = 0
    late_registration: bool = True
    max_pawns: int = 3
    pawn_chips: int = 100
    min_players: int = 2
    addons: int = 0
    reentry: bool = False
    bounty: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "buy_in", Fraction(self.buy_in))
        object.__setattr__(self, "bounty", Fraction(self.bounty))
        if self.buy_in <= 0 or self.chips <= 0 or self.pawn_chips <= 0 or self.max_pawns < 0 or self.min_players < 2:
            raise ValueError("buy-in, chips and pawn value must be positive, pawns not negative, at least 2 players")
        if self.rebuys < 0 or self.addons < 0:
            raise ValueError("rebuys and add-ons are counts, not negative")
        if not 0 <= self.bounty < self.buy_in or (self.bounty / CENT).denominator != 1:
            raise ValueError("the bounty is whole cents, less than the buy-in")

    @property
    def stack_price(self) -> Fraction:
        """What the starting stack costs at the rate: the buy-in less its bounty. A rebuy, an add-on and a re-entry pay
        this and put no bounty on anyone's head (RULES.md §1c: the bounty is out of each buy-in, "re-entry and rebuy
        excluded"; an add-on is no buy-in), so that every payment buys chips at the one rate."""
        return self.buy_in - self.bounty

    @property
    def rate(self) -> Fraction:
        """Chips per money unit (300 chips for 50 units: 6; with a bounty of 10 out of 50, 300 for 40: 7.5)."""
        return Fraction(self.chips) / self.stack_price

    def to_money(self, chips: int) -> Fraction:
        """Chips in money units at the rate, exactly."""
        return Fraction(chips) / self.rate

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"buy_in": fraction_to_text(self.buy_in), "chips": self.chips, "rebuys": self.rebuys,
                "late_registration": self.late_registration, "max_pawns": self.max_pawns,
                "pawn_chips": self.pawn_chips, "min_players": self.min_players, "addons": self.addons,
                "reentry": self.reentry, "bounty": fraction_to_text(self.bounty)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        """The config `to_dict` wrote (one saved before the options existed has none of them)."""
        data = {key: value for key, value in data.items() if key != "rebuys_allowed"}  # an older flag, never on
        return cls(**{**data, "buy_in": fraction_from_text(data["buy_in"]),
                      "bounty": fraction_from_text(data.get("bounty", 0))})


@dataclass(slots=True)
class Entrant:
    """One player in the tournament: status, how many starting stacks he bought (the buy-in, then each rebuy, add-on
    and re-entry), chips cashed out, finishing place, the counts of each option used, the bounty on his head and the
    bounties he collected (money units), and what he was told his chips cashed out were worth (whole cents; None
    before he cashes out, and in a tournament saved before it was kept)."""

    player: str
    status: EntrantStatus
    buy_ins: int = 1
    cashed_out_chips: int = 0
    place: int | None = None
    rebuys: int = 0
    addons: int = 0
    reentries: int = 0
    bounty: Fraction = Fraction(0)
    bounties_won: Fraction = Fraction(0)
    cashed_out_money: Fraction | None = None

    def paid_in(self, config: TournamentConfig) -> Fraction:
        """Money paid to the bank: the buy-in, then the starting stack's price for each rebuy, add-on and re-entry."""
        return config.buy_in + (self.buy_ins - 1) * config.stack_price


@dataclass(slots=True)
class PawnedItem:
    """An item pawned to the bank: owner, holder (the bank), value in chips, and the hand it was pawned in."""

    item_id: int
    owner: str
    description: str
    chips: int
    hand_number: int
    status: ItemStatus = ItemStatus.HELD
    holder: str = BANK


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A plain view of the tournament's counts for a display: players still in, entries (first buy-ins and
    re-entries), rebuys, add-ons and re-entries so far, the bounties still on the heads of players still in (money
    units), all the money paid into the bank, and the chips in play."""

    players_left: int
    entries: int
    rebuys: int
    addons: int
    reentries: int
    bounty_pool: Fraction
    money_in: Fraction
    chips_in_play: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (money as "num/den" text, see `fraction_to_text`)."""
        return {"players_left": self.players_left, "entries": self.entries, "rebuys": self.rebuys,
                "addons": self.addons, "reentries": self.reentries, "bounty_pool": fraction_to_text(self.bounty_pool),
                "money_in": fraction_to_text(self.money_in), "chips_in_play": self.chips_in_play}


def first_break(schedule: Schedule) -> int | None:
    """The index of the schedule's first break (where the rebuy period ends and add-ons are sold), None without one."""
    return next((index for index, level in enumerate(schedule.levels) if level.is_break), None)


def is_in(entrant: Entrant) -> bool:
    """Whether the entrant is still in: registered before the start, or playing."""
    return entrant.status in (EntrantStatus.REGISTERED, EntrantStatus.PLAYING)
