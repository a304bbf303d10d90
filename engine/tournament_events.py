"""What a tournament's actions report: entries, rebuys, add-ons, pawns, cash-outs, eliminations, bounties and the end.

Its clock's events are in `engine.clock_events`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from engine.clock_events import TournamentEvent

__all__ = ["AddonsReopened", "BountyCollected", "ItemBoughtBack", "PawnRecorded", "PawnRedeemed", "PlayerAddedOn",
           "PlayerCashedOut", "PlayerEliminated", "PlayerRebought", "PlayerReentered", "PlayerRegistered",
           "PlayerUnregistered", "RebuysReopened", "TournamentFinished", "TournamentStarted"]


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(TournamentEvent):
    """A player paid the buy-in (`money` units) and got `chips`."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class PlayerUnregistered(TournamentEvent):
    """Before the start, a player withdrew: his `chips` went back to the bank and his buy-in (`money` units) to him."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class PlayerRebought(TournamentEvent):
    """A player at or below the starting stack (or busted) bought it again for `money` units; `rebuys` so far."""

    player: str
    money: Fraction
    chips: int
    rebuys: int = 1


@dataclass(frozen=True, kw_only=True)
class PlayerAddedOn(TournamentEvent):
    """At the first break, a player still in bought the starting stack once more for `money` units."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class AddonsReopened(TournamentEvent):
    """The first break passed while nobody could buy an add-on (the application was down across it): add-ons are
    sold again from `at` until `until`."""

    at: datetime
    until: datetime


@dataclass(frozen=True, kw_only=True)
class RebuysReopened(TournamentEvent):
    """The rebuy period ended while nobody could rebuy (the application was down): it runs again from `at` until
    `until`, for as long as it was cut short."""

    at: datetime
    until: datetime


@dataclass(frozen=True, kw_only=True)
class PlayerReentered(TournamentEvent):
    """A busted player registered again during late registration, for `money` units (no bounty)."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class BountyCollected(TournamentEvent):
    """`player` busted: his bounty of `money` units went to the winners of the pot that eliminated him."""

    player: str
    money: Fraction
    winners: dict[str, Fraction] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class TournamentStarted(TournamentEvent):
    """Play began with these players."""

    at: datetime
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ItemBoughtBack(TournamentEvent):
    """The owner bought his pawned item back from the bank for `money` units."""

    item_id: int
    owner: str
    description: str
    money: Fraction


@dataclass(frozen=True, kw_only=True)
class PlayerCashedOut(TournamentEvent):
    """A player exchanged `chips` for `money` units and left the tournament: before its end (no place), or, when
    `is_final`, at its end, with the stack he finished with (placed by it)."""

    player: str
    chips: int
    money: Fraction
    is_final: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerEliminated(TournamentEvent):
    """A player lost his last chip and finished in `place`."""

    player: str
    place: int


@dataclass(frozen=True, kw_only=True)
class PawnRecorded(TournamentEvent):
    """The bank took an item in pawn for `chips`; the owner owes `price` units for it unless he redeems it."""

    item_id: int
    owner: str
    description: str
    chips: int
    hand_number: int
    price: Fraction


@dataclass(frozen=True, kw_only=True)
class PawnRedeemed(TournamentEvent):
    """The owner paid the item's chips back to the bank and has it again."""

    item_id: int
    owner: str
    description: str
    chips: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(TournamentEvent):
    """The tournament closed; `places` maps each placed player to his place, best first; `cashed_out` names those who
    cashed out before the end (they played it but take no place)."""

    at: datetime
    places: dict[str, int] = field(default_factory=dict)
    cashed_out: tuple[str, ...] = ()
