"""A Hold'em hand whose snapshot cannot be read back (after a restart): voided, every chip in it returned."""

from __future__ import annotations

from bot.games import holdem_topup as topup
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.render import story
from bot.store.accounts import paid_into
from engine.reasons import Reason


def void(ctl: HoldemTable, act: Action) -> None:
    """Give every chip of an unreadable hand back to whoever put it in (recorded in the ledger); at a cash table
    whoever was to leave after it stands up, as after a hand played out."""
    key = f"h{act.state.get('number', 0)}"
    pot = ctl._account(act, "pot")
    # what each stack put in the pot, less what already came back to it
    for account, chips in paid_into(act.tx.ledger_rows(act.place.table_id, key), pot).items():
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
