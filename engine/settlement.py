"""Settling a tournament in money: each figure a player reads in whole cents, adding up, and the fewest transfers.

Money is a `fractions.Fraction` of money units until it is said (100 chips at 6 chips per unit is exactly 50/3 units).
A figure said is in cents (1/100), and the settlement repeats the figures said: the buy-ins and bounties are whole cents
already, an item is bought back at its price to the nearest cent (`to_cents`: 16.67), and a cash-out is worth what the
player was told (see `engine.tournament_end`: the cash-outs that empty the table share what is left by `apportion`, the
largest-remainder method). So each row's net is exactly cashed out + bounties - paid in - items bought back, and the
nets sum to zero: nothing is lost and the transfers sum exactly to the nets.

Fewest transfers. Finding the fewest payments that settle a set of balances is NP-hard in general (it is the most parts
a set of numbers can be split into with each part summing to zero, which contains subset sum). With n players who are
owed or owe something, n - 1 transfers always suffice; the optimum is n minus the most zero-sum groups. For up to
`EXACT_LIMIT` such players (every home game) the groups are found exactly by dynamic programming over subsets; beyond
that the whole table is one group. Within a group, the largest debtor pays the largest creditor until all are square,
which takes at most (group size - 1) transfers and so is optimal for a group that splits no further.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

CENT = Fraction(1, 100)
EXACT_LIMIT = 12
"""Up to this many players with a non-zero balance, the fewest transfers are found exactly."""


def fraction_to_text(value: Fraction) -> str:
    """A fraction as "num/den" for JSON (`Fraction("50/3")` reads it back)."""
    return f"{value.numerator}/{value.denominator}"


def fraction_from_text(text: str | int) -> Fraction:
    """The fraction `fraction_to_text` wrote (a whole number is accepted too)."""
    return Fraction(text)


@dataclass(frozen=True, slots=True)
class Transfer:
    """`payer` pays `amount` money units (a whole number of cents) to `payee`."""

    payer: str
    payee: str
    amount: Fraction

    @property
    def cents(self) -> int:
        """The amount in cents."""
        return int(self.amount / CENT)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"payer": self.payer, "payee": self.payee, "amount": fraction_to_text(self.amount)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Transfer:
        """The transfer `to_dict` wrote."""
        return cls(data["payer"], data["payee"], fraction_from_text(data["amount"]))


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One player's money, each in whole cents as said: paid in (the buy-in, rebuys, add-ons, re-entries), cashed out
    (his chips, as he was told their worth), items bought back, bounties received (those he collected, and his own
    when nobody collected it), and the net result; `rebuys`, `addons` and `reentries` count what he bought.

    `net_cents` is `net` in cents (what the transfers settle).
    """

    player: str
    paid_in: Fraction
    cashed_out: Fraction
    items_bought_back: Fraction
    item_count: int = 0
    net_cents: int = 0
    bounties: Fraction = Fraction(0)
    rebuys: int = 0
    addons: int = 0
    reentries: int = 0

    @property
    def net(self) -> Fraction:
        """What the player won (positive) or lost (negative): what he got less what he paid."""
        return self.cashed_out + self.bounties - self.paid_in - self.items_bought_back

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "player": self.player, "paid_in": fraction_to_text(self.paid_in),
            "cashed_out": fraction_to_text(self.cashed_out),
            "items_bought_back": fraction_to_text(self.items_bought_back), "item_count": self.item_count,
            "net": fraction_to_text(self.net), "net_cents": self.net_cents,
            "bounties": fraction_to_text(self.bounties), "rebuys": self.rebuys, "addons": self.addons,
            "reentries": self.reentries,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SettlementRow:
        """The row `to_dict` wrote (one written before bounties and rebuys existed has none)."""
        return cls(
            data["player"], fraction_from_text(data["paid_in"]), fraction_from_text(data["cashed_out"]),
            fraction_from_text(data["items_bought_back"]), data["item_count"], data["net_cents"],
            fraction_from_text(data.get("bounties", 0)), data.get("rebuys", 0), data.get("addons", 0),
            data.get("reentries", 0),
        )


@dataclass(frozen=True, slots=True)
class Settlement:
    """The final ledger: a row per player and the transfers between players that settle every net."""

    rows: tuple[SettlementRow, ...]
    transfers: tuple[Transfer, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"rows": [row.to_dict() for row in self.rows], "transfers": [item.to_dict() for item in self.transfers]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settlement:
        """The settlement `to_dict` wrote."""
        return cls(tuple(SettlementRow.from_dict(row) for row in data["rows"]),
                   tuple(Transfer.from_dict(item) for item in data["transfers"]))


def build_settlement(rows: Iterable[SettlementRow]) -> Settlement:
    """Fill in each row's net in cents and find the transfers; every figure must be whole cents and the nets must sum
    to zero (the bank is empty)."""
    rows = list(rows)
    for row in rows:
        if any((amount / CENT).denominator != 1
               for amount in (row.paid_in, row.cashed_out, row.items_bought_back, row.bounties)):
            raise ValueError(f"{row.player}'s figures are not whole cents")
    if sum((row.net for row in rows), Fraction(0)) != 0:
        raise ValueError("the nets do not sum to zero: the bank does not balance")
    cents = {row.player: int(row.net / CENT) for row in rows}
    filled = tuple(dataclasses.replace(row, net_cents=cents[row.player]) for row in rows)
    return Settlement(filled, tuple(fewest_transfers(cents)))


def to_cents(amount: Fraction) -> int:
    """An amount in whole cents, to the nearest (an exact half to the even cent): the one rounding of a figure said."""
    return round(amount / CENT)


def apportion(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """`total` cents shared in proportion to `weights` (chips) by the largest-remainder method: each share rounded
    down, then the cents left over one each to the largest remainders, ties to the player id that sorts first. The
    shares sum to `total` exactly and each is within a cent of its proportion. Weights that are all 0 share equally
    (nothing to go by); nobody to share among is an error unless there is nothing to share."""
    if not weights:
        if total:
            raise ValueError(f"{total} cents and nobody to share them")
        return {}
    if not any(weights.values()):
        weights = dict.fromkeys(weights, 1)
    whole = sum(weights.values())
    quotas = {player: Fraction(total * weight, whole) for player, weight in weights.items()}
    result = {player: floor(quota) for player, quota in quotas.items()}
    leftover = total - sum(result.values())
    by_remainder = sorted(quotas, key=lambda player: (-(quotas[player] - result[player]), player))
    for player in by_remainder[:leftover]:
        result[player] += 1
    return result


def fewest_transfers(balances: Mapping[str, int]) -> list[Transfer]:
    """Transfers (amounts in money units, whole cents) that settle `balances` in cents: positive is owed, negative owes.

    At most (players with a balance - 1) transfers; the fewest possible for up to `EXACT_LIMIT` such players.
    """
    owed = sorted((player, amount) for player, amount in balances.items() if amount)
    if sum(amount for _, amount in owed) != 0:
        raise ValueError("the balances do not sum to zero")
    groups = _zero_sum_groups(owed) if len(owed) <= EXACT_LIMIT else [owed]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group))
    return transfers


def _zero_sum_groups(owed: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split the balances into the most groups that each sum to zero (dynamic programming over subsets)."""
    count = len(owed)
    if count == 0:
        return []
    size = 1 << count
    sums = [0] * size
    best = [0] * size
    choice = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + owed[low.bit_length() - 1][1]
        rest, top, pick = mask, -1, 0
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], bit
            rest ^= bit
        best[mask] = top + (sums[mask] == 0)
        choice[mask] = pick
    groups: list[list[tuple[str, int]]] = []
    group: list[tuple[str, int]] = []
    mask = size - 1
    while mask:
        bit = choice[mask]
        group.append(owed[bit.bit_length() - 1])
        mask ^= bit
        if sums[mask] == 0:
            groups.append(sorted(group))
            group = []
    return groups


def _greedy(group: list[tuple[str, int]]) -> list[Transfer]:
    """The largest debtor pays the largest creditor until the group (summing to zero) is square."""
    balance = dict(group)
    transfers: list[Transfer] = []
    while True:
        creditor = max(sorted(balance), key=lambda player: balance[player])
        debtor = min(sorted(balance), key=lambda player: balance[player])
        amount = min(balance[creditor], -balance[debtor])
        if amount <= 0:
            return transfers
        transfers.append(Transfer(debtor, creditor, amount * CENT))
        balance[creditor] -= amount
        balance[debtor] += amount
