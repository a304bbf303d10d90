"""The events of the house games: what to show, public or private to a box's owner, with the chip moves."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """The dealer's open cards (public); `hand` and `qualifies` are set once the dealer reveals all. `needs` names
    the lowest hand that qualifies, said with a hand that does not ("no game: it takes a pair or better"): `pair`
    (Texas Poker), `ace_king` (Caribbean Poker, where "ace high" may or may not qualify), `high_card` with the rank
    in `needs_ranks` (Three Card Poker: the table's qualifying rank, the queen by default)."""

    cards: tuple[Card, ...]
    hand: str = ""
    ranks: tuple[int, ...] = ()
    qualifies: bool | None = None
    needs: str = ""
    needs_ranks: tuple[int, ...] = ()


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
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Payout:
    """What paid a stake line: the hand (a paytable key, or Caribbean's `ace_king` for its winning high card, with
    the ranks that name it) at `multiple`:1.

    Russian Poker's second combination is a second payout on the same line. A half payout (Texas Poker) is half of
    `half_of`, the whole the hand would have paid (ANTE 1:1 and BET at `multiple`:1); 0 for any other.
    """

    line: str
    hand: str
    ranks: tuple[int, ...]
    multiple: int
    half_of: int = 0

    def to_dict(self) -> dict[str, object]:
        """A JSON-able form (kept in a box's state)."""
        return {"line": self.line, "hand": self.hand, "ranks": list(self.ranks), "multiple": self.multiple,
                "half_of": self.half_of}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Payout:
        """Rebuild from `to_dict`."""
        ranks = data["ranks"]
        assert isinstance(ranks, list)
        return cls(str(data["line"]), str(data["hand"]), tuple(int(rank) for rank in ranks), int(str(data["multiple"])),
                   int(str(data.get("half_of", 0))))


@dataclass(frozen=True, kw_only=True)
class StakesSettled(Event):
    """Some stakes of a box settled (public): net per stake line, the hand that counted (with the ranks that name
    it) and what paid each winning line; `final` empties the box and comes when the round ends. A settlement before
    it (a side bet on the deal, a fold) is its owner's to read; the final one repeats those lines, in `earlier` and
    `earlier_payouts`, and names the box's `fees`, so the round's public result shows every line of the box."""

    player: str
    box: int
    results: dict[str, int]
    outcome: str
    hand: str = ""
    ranks: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    final: bool = True
    payouts: tuple[Payout, ...] = ()
    earlier: dict[str, int] = field(default_factory=dict)
    earlier_payouts: tuple[Payout, ...] = ()
    max_payout: int | None = None
    """The table's maximum payout when it cut these lines' winnings (a final settlement: or the earlier ones')."""
    fees: dict[str, int] = field(default_factory=dict)
    """A final settlement: the fees the box paid during the round (never returned) by what they bought (`buy`,
    `exchange`, `re_exchange`, `dealer_game`), so that its lines and its fees add up to the box's net."""


@dataclass(frozen=True, kw_only=True)
class RoundEnded(Event):
    """Every box is settled: each player's net result for the round, fees included (public)."""

    nets: dict[str, int]
