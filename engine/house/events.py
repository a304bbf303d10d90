"""The events of the house games: what to show, public or private to a box's owner, with the chip moves."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.common import Event


@dataclass(frozen=True, kw_only=True)
class BetsPlaced(Event):
    """A player put stakes on a box (public)."""

    player: str
    box: int
    stakes: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class BoxCardsDealt(Event):
    """A box's cards, shown to its owner only (on the deal, or when the box's turn comes)."""

    player: str
    box: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class DealerCardsShown(Event):
    """The dealer's open cards (public); `hand` and `qualifies` are set once the dealer reveals all."""

    cards: tuple[Card, ...]
    hand: str = ""
    qualifies: bool | None = None


@dataclass(frozen=True, kw_only=True)
class CommunityCardsShown(Event):
    """Community cards turned face up (Texas Poker, public)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class BoxActed(Event):
    """A decision on a box (public): the action, what it cost, how many cards were discarded."""

    player: str
    box: int
    action: str
    cost: int = 0
    discarded_count: int = 0


@dataclass(frozen=True, kw_only=True)
class CardsDrawn(Event):
    """The cards a box drew and discarded, and its new cards (private to the owner)."""

    player: str
    box: int
    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class DealerDrew(Event):
    """The dealer, bought a game, discarded his highest card and drew one (public)."""

    discarded: Card
    drawn: Card
    cards: tuple[Card, ...]
    hand: str
    qualifies: bool


@dataclass(frozen=True, kw_only=True)
class StakesSettled(Event):
    """Some stakes of a box settled (public): net per stake line, the hand that counted; `final` empties the box."""

    player: str
    box: int
    results: dict[str, int]
    outcome: str
    hand: str = ""
    cards: tuple[Card, ...] = ()
    final: bool = True


@dataclass(frozen=True, kw_only=True)
class RoundEnded(Event):
    """Every box is settled: each player's net result for the round, fees included (public)."""

    nets: dict[str, int]
