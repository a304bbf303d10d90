"""Topping up at a cash table: a seated player adds chips from his wallet to his stack, up to the table's buy-in."""

from __future__ import annotations

from typing import Any

from bot.games.context import Action
from bot.games.holdem_table import HoldemTable

PENDING = "top_up"
"""The seat's key for a top-up asked for during a hand he is dealt in: the chips, or None for "up to the buy-in"."""

LEDGER_REASON = "top-up"


def top_up(table: HoldemTable, act: Action, seat: dict[str, Any], chips: int | None) -> None:
    """`/join [chips]` from a player seated at a cash table: `chips` (None: as many as bring his stack up to the
    table's buy-in) from his wallet onto his stack, through the ledger.

    RULES.md names no top-up; this is a card room's: a stack is topped up to the table's buy-in (`/set buy_in`, what
    a plain `/join` brings), no further, and never in a hand it plays. Between hands, or in a hand he is not dealt
    in, the chips are added at once; in a hand he is dealt in (folded or not) the request is kept in his seat (a
    later one replaces it) and the chips are added when the hand ends, before the next deal (`add_pending`). Refused,
    with the reason, when his stack is at the buy-in already, when the chips would take it over, or when they are
    more than his wallet (checked on his stack as it was dealt, and again when they are added)."""
    maximum = int(table.config(act, "buy_in"))
    wanted = maximum - seat["stack"] if chips is None else chips
    refusal = _refusal(act, seat, wanted, maximum)
    if refusal is not None:
        raise act.refuse(refusal[0], **refusal[1])
    hand = table._hand(act)
    if hand is not None and seat["id"] in hand.players:
        seat[PENDING] = chips
        if chips is None:
            act.tell(seat["id"], "holdem.top_up_next_deal_to_buy_in", maximum=maximum)
        else:
            act.tell(seat["id"], "holdem.top_up_next_deal", chips=chips)
        return
    _add(table, act, seat, wanted)
    act.show_table(table.table_message(act))


def add_pending(table: HoldemTable, act: Action) -> None:
    """At a cash table's hand end (played out or voided), before anyone stands up: add the top-ups asked for during
    it. One asked for by a player who leaves now is dropped (nothing was taken for it). The chips are as many as
    asked, but no more than bring the stack (as the hand left it) to the buy-in; a top-up with no room left, or more
    than the wallet holds now, is not added, and the player is told why."""
    maximum = int(table.config(act, "buy_in"))
    for seat in act.state["seats"]:
        if PENDING not in seat:
            continue
        chips = seat.pop(PENDING)
        if seat["leaving"]:
            continue
        room = maximum - seat["stack"]
        wanted = room if chips is None else min(chips, room)
        refusal = _refusal(act, seat, wanted, maximum)
        if refusal is None:
            _add(table, act, seat, wanted)
            continue
        with act.privately(seat["id"]):  # the reason in his own language, as his refusals are
            reason = act.t(refusal[0], **refusal[1])
        act.tell(seat["id"], "holdem.top_up_not_added", reason=reason)


def _refusal(act: Action, seat: dict[str, Any], chips: int, maximum: int) -> tuple[str, dict[str, int]] | None:
    """Why `chips` cannot be added to the seat's stack now (a text's key and its values), or None."""
    stack: int = seat["stack"]
    if stack >= maximum:
        return "holdem.top_up_at_buy_in", {"stack": stack, "maximum": maximum}
    if stack + chips > maximum:
        return "holdem.top_up_over_buy_in", {"chips": chips, "stack": stack, "maximum": maximum,
                                             "room": maximum - stack}
    wallet = act.balance(act.wallet(seat["id"]))
    if chips > wallet:
        return "holdem.top_up_over_wallet", {"chips": chips, "wallet": wallet}
    return None


def _add(table: HoldemTable, act: Action, seat: dict[str, Any], chips: int) -> None:
    """Move the chips from the player's wallet to his stack, said in the channel with his new stack and told him with
    what his wallet holds now."""
    player = seat["id"]
    act.move(act.wallet(player), table.stack_account(act, player), chips, LEDGER_REASON)
    seat["stack"] += chips
    act.say("holdem.topped_up", player=act.name(player), chips=chips, stack=seat["stack"])
    act.tell(player, "balance", chips=act.balance(act.wallet(player)))
