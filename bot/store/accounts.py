"""The ledger's accounts: their names and kinds, the moves of a Hold'em hand settled when it ends, and the refusal of a
debit below zero."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NEGATIVE_KINDS = frozenset({"house", "mint", "bank"})
"""Account kinds that may go below zero: the counterparties that create or absorb chips (the house, grants, a
tournament's bank). Every other account (wallets, stacks, pots, boxes) never goes negative."""
TABLE_CHIPS = frozenset({"stack", "pot"})
"""Account kinds of a table's own chips: its players' stacks and its pot. A Hold'em hand's moves between them are
recorded as they are made but settled into the accounts' balances once, when the hand ends (`Tx.settle_hand`): until
then the rows hold what the accounts held at its start, and `Tx.balance` adds the hand's moves (`Tx.in_play`)."""
_TABLE_CHIP_PREFIXES = tuple(f"{kind}:" for kind in sorted(TABLE_CHIPS))


class InsufficientFunds(ValueError):
    """A debit that would take an account below zero: the transaction is rolled back."""

    def __init__(self, account: str, amount: int, balance: int) -> None:
        super().__init__(f"{account} holds {balance}, cannot pay {amount}")
        self.account = account
        self.amount = amount
        self.balance = balance


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One recorded chip movement."""

    source: str
    target: str
    amount: int
    reason: str
    table_id: str | None
    hand_id: str | None


def paid_into(rows: Iterable[LedgerRow], account: str) -> dict[str, int]:
    """What each other account put into `account` in `rows` (one hand's or round's moves), less what came back to it
    from `account`: a voided hand's pot or round's house takings, by whom they came from."""
    net: dict[str, int] = {}
    for row in rows:
        if row.target == account:
            net[row.source] = net.get(row.source, 0) + row.amount
        elif row.source == account:
            net[row.target] = net.get(row.target, 0) - row.amount
    return net


def settled_at_hand_end(source: str, target: str, hand_id: str | None) -> bool:
    """Whether a recorded move is a Hold'em hand's between a table's own chips (`TABLE_CHIPS`), whose balances are
    written when the hand ends rather than at once."""
    return (hand_id is not None and hand_id[:1] == "h" and source.startswith(_TABLE_CHIP_PREFIXES)
            and target.startswith(_TABLE_CHIP_PREFIXES))


def net_of_moves(moves: Iterable[list[Any]]) -> dict[str, int]:
    """What the moves (`[source, target, amount, reason, hand id]`) settled at a hand's end (`settled_at_hand_end`)
    among them add to each account (the others left out)."""
    owed: dict[str, int] = {}
    for source, target, amount, _, hand_id in moves:
        if settled_at_hand_end(source, target, hand_id):
            owed[source] = owed.get(source, 0) - amount
            owed[target] = owed.get(target, 0) + amount
    return owed


def account_kind(name: str) -> str:
    """An account's kind is its name's first part: `wallet:<chat>:<user>` is a wallet."""
    return name.split(":", 1)[0]


def wallet_account(chat_id: str, user_id: str) -> str:
    """The ledger account of a player's wallet in a chat."""
    return f"wallet:{chat_id}:{user_id}"


def held_account(table_id: str, user_id: str) -> str:
    """The ledger account keeping, for the house round at a table, the chips a player's boxes may still bet (their
    BETs and PLAYs to follow), so that no other table spends them."""
    return f"held:{table_id}:{user_id}"
