"""Why chips move: the reasons the ledger stores with each move, one list for the games that write them and the
records that read them back (`/export`). The texts are stored data: a value is never changed, only added."""

from __future__ import annotations

from enum import StrEnum
from typing import NewType


class Reason(StrEnum):
    """A move's reason as the ledger stores it (each with its phrase in `bot.games.exports.LEDGER_REASONS`); a
    house box's stake lines and a grant are composed (`stake_line`, `grant_by`)."""

    WELCOME_GRANT = "welcome grant"
    PRACTICE_SEAT = "practice seat"
    BUY_IN = "buy-in"
    CASH_OUT = "cash-out"
    TOP_UP = "top-up"
    HAND_VOIDED = "hand voided"
    ROUND_VOIDED = "round voided"
    KEPT = "kept for the bets to follow"
    GIVEN_BACK = "given back"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    STRADDLE = "straddle"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    UNCALLED_BET = "uncalled bet"
    POT_WON = "pot won"
    PAWN = "pawn"
    REDEEM = "redeem"
    UNREGISTER = "unregister"
    RE_ENTRY = "re-entry"
    REBUY = "rebuy"
    ADD_ON = "add-on"
    PAID_OUT = "paid_out"
    FEE_BUY = "buy"
    FEE_EXCHANGE = "exchange"
    FEE_RE_EXCHANGE = "re_exchange"
    FEE_DEALER_GAME = "dealer_game"


Composed = NewType("Composed", str)
"""A reason made with a part of its own: a house box's stake line (`stake_line`) or a grant (`grant_by`)."""
LedgerReason = Reason | Composed
"""What a move may give as its reason: never a bare text, so that every reason the ledger stores is listed here."""

HOUSE_STAKES = ("ante", "bet", "play", "pairplus", "bonus", "ante_bonus", "half_payout")
"""The stake lines of a house box: a stake placed is stored as its name (`ante`, on a move to the box), a settled
line as `<name>_won` or `<name>_lost`."""
STAKE_RESULTS = ("won", "lost")
GRANT_BY = "grant by "
"""The start of an organizer's grant (`/grant`), his user id after it."""


def stake_line(stake: str, result: str = "") -> Composed:
    """The reason of a house box's stake placed (`ante`) or settled (`ante_won`, `ante_lost`); a line or result not
    listed (`HOUSE_STAKES`, `STAKE_RESULTS`) is a bug."""
    if stake not in HOUSE_STAKES or (result and result not in STAKE_RESULTS):
        raise ValueError(f"no such stake line: {stake!r} {result!r}")
    return Composed(f"{stake}_{result}" if result else stake)


def grant_by(user_id: str) -> Composed:
    """The reason of chips an organizer granted (`grant by <his id>`)."""
    return Composed(f"{GRANT_BY}{user_id}")
