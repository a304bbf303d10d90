"""The queries of one transaction: synchronous, run inside the database thread, all SQL of the bot lives in `Tx`'s
parts, which this module puts together. The parts are one chain of classes, each the base of the next: `TxState`
(`bot.store.txbase`), then `bot.store.chats`, `log`, `tournaments`, `timers`, `hands`, `tables` and `ledger`, each
using only the parts before it, since compiled code (`bot.compiled`) takes single inheritance only."""

from __future__ import annotations

from bot.store.accounts import (
    NEGATIVE_KINDS,
    TABLE_CHIPS,
    InsufficientFunds,
    LedgerRow,
    account_kind,
    held_account,
    net_of_moves,
    settled_at_hand_end,
    wallet_account,
)
from bot.store.known import AccountsOnly, Begun, HandSoFar, Known
from bot.store.ledger import Ledger
from bot.store.log import ENDING_KINDS, HISTORY_ONLY, IN_TABLE_ROW
from bot.store.tournaments import tournament_hand_ids
from bot.store.txbase import dumps, loads

__all__ = ["ENDING_KINDS", "HISTORY_ONLY", "IN_TABLE_ROW", "NEGATIVE_KINDS", "TABLE_CHIPS", "AccountsOnly", "Begun",
           "HandSoFar", "InsufficientFunds", "Known", "LedgerRow", "Tx", "account_kind", "dumps", "held_account",
           "loads", "net_of_moves", "settled_at_hand_end", "tournament_hand_ids", "wallet_account"]


class Tx(Ledger):
    """One open transaction: ledger moves, snapshots, the action log and the history in it, timers and settings.
    Used only inside `Store`.

    Its parts, one module each, share the transaction's state (`bot.store.txbase.TxState`): `Chats` (chats, players,
    settings), `ActionLog` (each action's log row, the spans of hands in it), `Timers`, `Tables` (the tables' rows
    and snapshots), `Hands` (hand records read back from the log), `Ledger` (moves, balances, `check_ledger`) and
    `Tournaments`. A part inherits the parts it calls (`Ledger` those of `Hands` and `Tables`, `Hands` and `Timers`
    `ActionLog`'s, `Tables` those of `Chats` and `Timers`), so `Tx` names only `Ledger`, which brings every part
    but one, and `Tournaments`; the classes are plain inheritance: a method is looked up as directly as it was on
    one class."""
