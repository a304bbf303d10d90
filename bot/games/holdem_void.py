"""A Hold'em hand whose snapshot cannot be read back (after a restart): voided, every chip in it returned."""

from __future__ import annotations

from bot.games import holdem_topup as topup
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.render import story
from engine.reasons import Reason


def void(ctl: HoldemTable, act: Action) -> None:
    """Give every chip of an unreadable hand back to whoever put it in (recorded in the ledger); at a cash table
    whoever was to leave after it stands up, as after a hand played out."""
    key = f"h{act.state.get('number', 0)}"
    pot = ctl._account(act, "pot")
    put_in: dict[str, int] = {}  # what each stack put in the pot, less what already came back to it
    for row in act.tx.ledger_rows(act.place.table_id, key):
        if row.target == pot:
            put_in[row.source] = put_in.get(row.source, 0) + row.amount
        elif row.source == pot:
            put_in[row.target] = put_in.get(row.target, 0) - row.amount
    for account, chips in put_in.items():
        if chips > 0:
            act.move(pot, account, chips, Reason.HAND_VOIDED, key)
    act.state["hand"] = None
    story.clear(act.state)
    for seat in act.state["seats"]:
        seat["stack"] = act.balance(ctl.stack_account(act, seat["id"]))
    act.disarm(ctl._timer(act))
    act.say("holdem.voided", number=act.state.get("number", 0))
    if not act.state.get("tournament"):  # those who said they leave after this hand (players, practice seats) go
        topup.add_pending(ctl, act)
        for seat in [seat for seat in act.state["seats"] if seat["leaving"]]:
            ctl._stand_up(act, seat)
        bots.stand_up_alone(ctl, act)
