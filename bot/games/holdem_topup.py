"""Buying chips at a cash table: the table's minimum buy-in (`/set min_buy_in`), which bounds the first `/join`, its
maximum buy-in (`/set max_buy_in`), which bounds the first `/join` and every top-up alike, and topping up (a seated
player adds chips from his wallet to his stack)."""

from __future__ import annotations

from typing import Any

from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from engine.reasons import Reason

SETTING = "max_buy_in"
"""The `/set` name of the table's maximum buy-in."""
BUY_INS_TO_MAXIMUM = 5
"""A table that never set its maximum buy-in takes stacks up to this many buy-ins (the default buy-in 400 at level 20:
2,000, the hundred big blinds a card room's usual maximum is)."""

MIN_SETTING = "min_buy_in"
"""The `/set` name of the table's minimum buy-in."""
LEVELS_TO_MINIMUM = 10
"""A table that never set its minimum buy-in takes stacks of at least this many levels (the level is the big bet:
home-limit's 20 asks at least 200)."""

PENDING = "top_up"
"""The seat's key for a top-up asked for during a hand he is dealt in: the chips, or None for "up to the buy-in"."""


def maximum(table: HoldemTable, act: Action) -> int:
    """The most chips a stack may hold after a buy-in or a top-up: the table's `/set max_buy_in`, else
    `BUY_INS_TO_MAXIMUM` buy-ins (so it follows the buy-in, and a table saved before the setting existed keeps one
    at least its buy-in)."""
    return int(act.config.get(SETTING) or BUY_INS_TO_MAXIMUM * int(table.config(act, "buy_in")))


def minimum(table: HoldemTable, act: Action, level: int | None = None) -> int:
    """The fewest chips a first `/join` may bring: the table's `/set min_buy_in`, else `LEVELS_TO_MINIMUM` levels
    (of `level`, the table's own unless given: a `/set level` asks at what its new level would make it)."""
    if act.config.get(MIN_SETTING):
        return int(act.config[MIN_SETTING])
    return LEVELS_TO_MINIMUM * int(table.config(act, "level") if level is None else level)


def check_minimum(table: HoldemTable, act: Action, chips: int) -> int | None:
    """`/set min_buy_in chips`: refused above the table's maximum buy-in, which no stack may pass. The table's
    buy-in, which a plain `/join` brings, is never below it: one below rises to it (the new buy-in, which the caller
    announces; None when it stays)."""
    most = maximum(table, act)
    if chips > most:
        raise act.refuse("holdem.min_buy_in_above_maximum", chips=chips, maximum=most)
    return chips if int(table.config(act, "buy_in")) < chips else None


def check_maximum(table: HoldemTable, act: Action, chips: int) -> None:
    """`/set max_buy_in chips`: refused below the table's minimum buy-in, and below its buy-in, which a plain `/join`
    brings."""
    least = minimum(table, act)
    if chips < least:
        raise act.refuse("holdem.max_buy_in_below_minimum", chips=chips, minimum=least)
    buy_in = int(table.config(act, "buy_in"))
    if chips < buy_in:
        raise act.refuse("holdem.max_buy_in_below_buy_in", chips=chips, buy_in=buy_in)


def maximum_follows(table: HoldemTable, act: Action) -> None:
    """After the buy-in changed (`/set buy_in`, or a level that raised it): a maximum the organizer set below the new
    buy-in rises to it, and the table is told (one he never set follows the buy-in by itself)."""
    buy_in = int(table.config(act, "buy_in"))
    if int(act.config.get(SETTING) or buy_in) < buy_in:
        act.config[SETTING] = buy_in
        act.say("settings.max_buy_in_follows", chips=buy_in)


def top_up(table: HoldemTable, act: Action, seat: dict[str, Any], chips: int | None) -> None:
    """`/join [chips]` from a player seated at a cash table: `chips` (None: as many as bring his stack up to the
    table's buy-in) from his wallet onto his stack, through the ledger.

    RULES.md names no top-up; this is a card room's: a stack is topped up to no more than the table's maximum buy-in
    (the bound of a first `/join` too), a plain `/join` bringing it to the buy-in (`/set buy_in`, what a plain first
    `/join` brings), and never in a hand it plays. Between hands, or in a hand he is not dealt in, the chips are added
    at once; in a hand he is dealt in (folded or not) the request is kept in his seat (a later one replaces it) and
    the chips are added when the hand ends, before the next deal (`add_pending`). Refused, with the reason, when his
    stack is at the maximum already (or at the buy-in, for a plain `/join`), when the chips would take it over the
    maximum, or when they are more than his wallet (checked on his stack as it was dealt, and again when they are
    added)."""
    buy_in = int(table.config(act, "buy_in"))
    wanted = buy_in - seat["stack"] if chips is None else chips
    refusal = _refusal(table, act, seat, wanted, plain=chips is None)
    if refusal is not None:
        raise act.refuse(refusal[0], **refusal[1])
    hand = table._hand(act)
    if hand is not None and seat["id"] in hand.players:
        seat[PENDING] = chips
        if chips is None:
            act.tell(seat["id"], "holdem.top_up_next_deal_to_buy_in", buy_in=buy_in)
        else:
            act.tell(seat["id"], "holdem.top_up_next_deal", chips=chips)
        return
    _add(table, act, seat, wanted)
    act.show_table(table.table_message(act))


def add_pending(table: HoldemTable, act: Action) -> None:
    """At a cash table's hand end (played out or voided), before anyone stands up: add the top-ups asked for during
    it. One asked for by a player who leaves now is dropped (nothing was taken for it). The chips are as many as
    asked, but no more than bring the stack (as the hand left it) to the maximum buy-in (to the buy-in, for a plain
    `/join`); a top-up with no room left, or more than the wallet holds now, is not added, and the player is told
    why."""
    buy_in, most = int(table.config(act, "buy_in")), maximum(table, act)
    for seat in act.state["seats"]:
        if PENDING not in seat:
            continue
        chips = seat.pop(PENDING)
        if seat["leaving"]:
            continue
        wanted = buy_in - seat["stack"] if chips is None else min(chips, most - seat["stack"])
        refusal = _refusal(table, act, seat, wanted, plain=chips is None)
        if refusal is None:
            _add(table, act, seat, wanted)
            continue
        with act.privately(seat["id"]):  # the reason in his own language, as his refusals are
            reason = act.t(refusal[0], **refusal[1])
        act.tell(seat["id"], "holdem.top_up_not_added", reason=reason)


def _refusal(table: HoldemTable, act: Action, seat: dict[str, Any], chips: int,
             plain: bool) -> tuple[str, dict[str, int]] | None:
    """Why `chips` cannot be added to the seat's stack now (a text's key and its values), or None; `plain`: asked
    for by a `/join` with no amount, which tops up to the buy-in."""
    stack: int = seat["stack"]
    most = maximum(table, act)
    if stack >= most:
        return "holdem.top_up_at_maximum", {"stack": stack, "maximum": most}
    buy_in = int(table.config(act, "buy_in"))
    if plain and stack >= buy_in:
        return "holdem.top_up_at_buy_in", {"stack": stack, "buy_in": buy_in, "room": most - stack, "maximum": most}
    if stack + chips > most:
        return "holdem.top_up_over_maximum", {"chips": chips, "stack": stack, "maximum": most, "room": most - stack}
    wallet = act.balance(act.wallet(seat["id"]))
    if chips > wallet:
        return "holdem.top_up_over_wallet", {"chips": chips, "wallet": wallet}
    return None


def _add(table: HoldemTable, act: Action, seat: dict[str, Any], chips: int) -> None:
    """Move the chips from the player's wallet to his stack, said in the channel with his new stack and told him with
    what his wallet holds now."""
    player = seat["id"]
    act.move(act.wallet(player), table.stack_account(act, player), chips, Reason.TOP_UP)
    seat["stack"] += chips
    act.say("holdem.topped_up", player=act.name(player), chips=chips, stack=seat["stack"])
    act.tell(player, "balance", chips=act.balance(act.wallet(player)))
