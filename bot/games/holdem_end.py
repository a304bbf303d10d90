"""A Hold'em hand's end: its result settled in the ledger, its stacks back in the seats, its last table message, and
who stands up before the next hand is scheduled."""

from __future__ import annotations

from bot.games import holdem_showdown as showdown
from bot.games import holdem_topup as topup
from bot.games import practice as bots
from bot.games import tournament_play as tour_play
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.games.holdem_text import decision_tag, later_text
from bot.output import TableMessage
from bot.render import holdem as render
from bot.render import story
from engine import holdem as engine


def finish(ctl: HoldemTable, act: Action, hand: engine.Hand, key: str, names: dict[str, str]) -> None:
    """The hand is over (its last events committed): settle and summarise it, keep it for the rabbit hunt, show its
    result, then at a cash table add the top-ups asked for in it and stand up whoever leaves or is busted (a
    tournament's table: `tour_play.after_hand`), and schedule the next hand."""
    assert hand.result is not None, "a hand over has its result"
    # its stacks' balances (the pot's comes back to what it was), before any other move of them
    act.tx.settle_hand(act.place.table_id, key, {ctl.stack_account(act, player): chips
                                                 for player, chips in hand.result.net.items() if chips})
    act.tx.summarise_hand(act.place.chat_id, act.place.table_id, key,
                          tournament=bool(act.state.get("tournament")))
    act.state["hand"] = None
    act.state["last_hand"] = hand.to_dict()
    stacks = hand.stacks
    for seat in act.state["seats"]:
        if seat["id"] in stacks:
            seat["stack"] = stacks[seat["id"]]
    showdown.remember_uncontested(act, hand)
    act.show_table(TableMessage(key, later_text(act, render.hand_view(hand), names),
                                render.after_hand_buttons(act.voice, hand, key, decision_tag(act.state["step"]))))
    story.clear(act.state)
    act.disarm(ctl._timer(act))
    act.reply.hand_lines = len(act.reply.public)  # its pictures follow them, then what its end brings about
    if act.state.get("tournament"):
        tour_play.after_hand(ctl, act, hand)
    else:
        topup.add_pending(ctl, act)  # before a busted player who bought more chips would stand up
        for seat in list(act.state["seats"]):
            if seat["leaving"] or seat["stack"] == 0:
                ctl._stand_up(act, seat)
        bots.stand_up_alone(ctl, act)
    ctl._maybe_schedule_next(act)
