"""A house round voided whole: every chip its players paid into it given back, through the ledger."""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.context import Action
from bot.store.accounts import LedgerRow, paid_into
from engine.reasons import Reason


def give_back(act: Action, key: str, boxes: str, house: str) -> None:
    """Void round `key` whole, as a card room voids a round its dealer cannot finish ("a malfunction voids all pays
    and plays"; RULES.md is silent): every chip on its boxes (`boxes`: the prefix `box:<table>:`) or kept for them
    goes back to its owner, and so does what the `house` took in it (fees, a folded box's ANTE) less what it paid
    out in it (a PAIRPLUS won on the deal), so that nobody is down from it; a player it paid more is left as he is."""
    holds = act.held("")  # `held:<table>:<player>`
    for prefix in (boxes, holds):
        for account, chips in act.tx.balances(prefix).items():
            if chips > 0:
                owner = account.removeprefix(prefix)
                owner = owner.rsplit(":", 1)[0] if prefix == boxes else owner  # a player's id may hold ":"
                act.move(account, act.wallet(owner), chips, Reason.ROUND_VOIDED, key)
    rows = act.tx.ledger_rows(act.place.table_id, key)
    for owner, chips in _paid_to_house(rows, house, boxes, act.wallet("")).items():
        if chips > 0:
            act.move(house, act.wallet(owner), chips, Reason.ROUND_VOIDED, key)


def _paid_to_house(rows: Iterable[LedgerRow], house: str, boxes: str, wallets: str) -> dict[str, int]:
    """What each player paid the house in a round's moves (`rows`), from his wallet (fees) or his boxes (stakes
    lost), less what it paid him; `boxes` and `wallets` are the prefixes of his accounts' names."""
    paid: dict[str, int] = {}
    for account, chips in paid_into(rows, house).items():
        if account.startswith(boxes):
            owner = account.removeprefix(boxes).rsplit(":", 1)[0]  # `box:<table>:<player>:<n>`
        elif account.startswith(wallets):
            owner = account.removeprefix(wallets)
        else:
            continue
        paid[owner] = paid.get(owner, 0) + chips
    return paid
