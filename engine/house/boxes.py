"""The data every house game shares: chip accounts, phases, limits, boxes, the payout cap and config serialisation.

Chip accounts, named locally (the application maps them to ledger accounts):

- `player:<player_id>`: the player's wallet;
- `box:<player_id>:<n>`: the chips on the player's box n (1-based);
- `house`: the dealer's bank.

Placing a stake moves player -> box; a fee (buying a card, an exchange, buying the dealer a game) moves player -> house;
a lost stake moves box -> house; a win moves house -> box, and everything still on the box goes box -> player when the
box (or one of its side bets) is settled. Every box ends empty. The application writes one ledger row per `Move`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.cards import Card, parse_cards
from engine.common import RuleError
from engine.hands import HandValue
from engine.house.events import Payout

HOUSE = "house"


def player_account(player: str) -> str:
    """The local account name of a player's wallet."""
    return f"player:{player}"


def box_account(player: str, index: int) -> str:
    """The local account name of the chips on a player's box."""
    return f"box:{player}:{index}"


class Phase(StrEnum):
    """Where a house round stands; each transition is one method of the round."""

    BETTING = "betting"
    DECIDING = "deciding"
    SECOND_DECISION = "second_decision"
    DEALER_GAME = "dealer_game"
    OVER = "over"


class BoxStatus(StrEnum):
    """A box's life: bets placed, cards dealt and deciding, played (BET placed), folded, settled."""

    PLACED = "placed"
    DEALT = "dealt"
    PLAYED = "played"
    FOLDED = "folded"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class Limits:
    """A table's limits: ANTE range per box, side bet range, boxes per player, maximum payout per box (None: none)."""

    min_ante: int = 1
    max_ante: int = 100
    max_boxes: int = 3
    max_payout: int | None = 10_000
    min_side: int = 0
    max_side: int = 0

    def __post_init__(self) -> None:
        if self.min_ante > self.max_ante:
            raise RuleError("bad_limits", f"the smallest ANTE ({self.min_ante}) is above the largest "
                            f"({self.max_ante})", min=self.min_ante, max=self.max_ante)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {item.name: getattr(self, item.name) for item in dataclasses.fields(self)}  # compiled: no __slots__

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Limits:
        """Rebuild from `to_dict`."""
        return cls(**data)


def cap(results: Mapping[str, int], max_payout: int | None, *, cut_last: Collection[str] = ()) -> dict[str, int]:
    """Stake lines, in their order, whose winnings together stay within the table's maximum payout: the later lines
    are cut first, and those named in `cut_last` only after all the others (the later of them first)."""
    out = dict(results)
    if max_payout is None:
        return out
    excess = sum(net for net in out.values() if net > 0) - max_payout
    for name in sorted(reversed(list(out)), key=lambda line: line in cut_last):  # a stable sort: cut_last at the end
        if excess <= 0:
            break
        if out[name] > 0:
            cut = min(out[name], excess)
            out[name] -= cut
            excess -= cut
    return out


@dataclass(slots=True)
class Box:
    """One betting spot: its owner, its number, the stakes on it, its cards and what happened to it."""

    owner: str
    index: int
    stakes: dict[str, int]
    cards: list[Card] = field(default_factory=list)
    status: BoxStatus = BoxStatus.PLACED
    history: list[str] = field(default_factory=list)
    staked: int = 0
    bets: dict[str, int] = field(default_factory=dict)
    """What was bet on each stake line this round, kept when a line is settled (a PAIRPLUS on the deal), so that the
    table shows what the box bet to its end."""
    paid_for: dict[str, int] = field(default_factory=dict)
    """The fees by what they bought (`buy`, `exchange`, `dealer_game`…; `fee` for a round saved before they were
    kept so), adding up to `fees`."""
    paid_out: int = 0
    early: dict[str, int] = field(default_factory=dict)
    """Lines settled before the box's end (a side bet on the deal), for the round's public result."""
    early_payouts: list[Payout] = field(default_factory=list)
    settled_lines: dict[str, int] = field(default_factory=dict)
    """Lines settled at the box's end (its ANTE, BET and a side bet settled with them: Caribbean Poker's bonus on a
    box that played), for the round's public result; `early` holds those settled before."""
    capped: bool = False
    """Whether the table's maximum payout cut a settlement of the box (its final result says so)."""

    @property
    def ante(self) -> int:
        """The ANTE on the box (0 when it only carries a side bet)."""
        return self.stakes.get("ante", 0)

    @property
    def account(self) -> str:
        """The box's local chip account."""
        return box_account(self.owner, self.index)

    @property
    def net(self) -> int:
        """What the box has won (positive) or cost (negative) its owner so far, fees included."""
        return self.paid_out - self.staked - self.fees

    @property
    def fees(self) -> int:
        """What the box's owner paid the house in fees (never returned)."""
        return sum(self.paid_for.values())

    @property
    def is_settled(self) -> bool:
        """Whether the box is finished and empty."""
        return self.status is BoxStatus.SETTLED

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"owner": self.owner, "index": self.index, "stakes": dict(self.stakes),
                "cards": [str(card) for card in self.cards], "status": self.status.value,
                "history": list(self.history), "staked": self.staked, "bets": dict(self.bets),
                "fees": self.fees,  # (their sum: what a version before `paid_for` reads)
                "paid_for": dict(self.paid_for), "paid_out": self.paid_out,
                "early": dict(self.early), "early_payouts": [payout.to_dict() for payout in self.early_payouts],
                "settled_lines": dict(self.settled_lines), "capped": self.capped}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Box:
        """Rebuild from `to_dict`."""
        return cls(owner=data["owner"], index=data["index"], stakes=dict(data["stakes"]),
                   cards=parse_cards(data["cards"]), status=BoxStatus(data["status"]),
                   history=list(data["history"]), staked=data["staked"],
                   bets=dict(data.get("bets", data["stakes"])),  # saved before bets were kept: the stakes left
                   paid_for=dict(data["paid_for"]) if "paid_for" in data else _fees_of_an_older_round(data),
                   paid_out=data["paid_out"],
                   early=dict(data.get("early", {})),
                   early_payouts=[Payout.from_dict(item) for item in data.get("early_payouts", [])],
                   settled_lines=dict(data.get("settled_lines", {})),  # saved before they were kept: none shown
                   capped=data.get("capped", False))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The round's outcome: net per box `(player, index)` and per player, fees included."""

    boxes: dict[tuple[str, int], int]
    players: dict[str, int]


class ConfigBase:
    """Serialisation shared by the games' frozen config dataclasses (limits, paytables as str-keyed dicts, scalars)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        out: dict[str, Any] = {}
        for item in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if isinstance(value, Limits):
                value = value.to_dict()
            elif isinstance(value, Mapping):
                value = dict(value)
            out[item.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild from `to_dict`."""
        values = dict(data)
        if "limits" in values:
            values["limits"] = Limits.from_dict(values["limits"])
        return cls(**values)


def hand_name(value: HandValue) -> str:
    """A five-card hand's paytable key: `royal_flush`, `straight_flush`, `four_of_a_kind`, … `high_card`."""
    return "royal_flush" if value.is_royal_flush else value.category.name.lower()


def _fees_of_an_older_round(data: Mapping[str, Any]) -> dict[str, int]:
    """The fees of a box saved before they were kept by what they bought: their sum alone, as one `fee`."""
    return {"fee": data["fees"]} if data.get("fees") else {}
