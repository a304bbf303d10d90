"""Sitting down at a Hold'em table and leaving it: `/join` (a buy-in, a top-up, a return) and `/leave`, and the seats
they (and a tournament, and the practice players) take and give up."""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.games import holdem_away as absence
from bot.games import holdem_topup as topup
from bot.games import practice as bots
from bot.games import tournament as tour
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from engine.reasons import Reason


def join(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/join [chips]`: sit down with a buy-in from the wallet, or top up, come back, stay after a `/leave`; in a
    tournament, register."""
    assert isinstance(command, cmd.Join)
    seat = ctl.seat(act, act.user)
    if act.state.get("tournament") and not (seat is not None and seat["out"]):
        if seat is not None:  # no top-up: the tournament's own rebuys and add-ons buy chips
            raise act.refuse("holdem.top_up_in_tournament")
        tour.register(ctl, act, "" if command.chips is None else str(command.chips))
        return
    if seat is not None:
        if seat["leaving"]:  # a /leave said in this hand (or an away stand-up) is taken back: he stays
            seat["leaving"] = False
            act.tell(act.user, "holdem.staying")
            if not seat["out"]:
                return
        if seat["out"]:
            absence.back(ctl, act, command)
            return
        topup.top_up(ctl, act, seat, command.chips)
        return
    if len(act.state["seats"]) >= ctl.config(act, "max_seats"):
        raise act.refuse("holdem.table_full")
    chips = command.chips or ctl.config(act, "buy_in")
    if chips < (least := topup.minimum(ctl, act)):
        raise act.refuse("holdem.buy_in_too_small", chips=chips, minimum=least)
    if chips > (maximum := topup.maximum(ctl, act)):
        raise act.refuse("holdem.buy_in_too_large", chips=chips, maximum=maximum)
    wallet = act.balance(act.wallet(act.user))
    if chips > wallet:
        raise act.refuse("holdem.buy_in_over_wallet", chips=chips, wallet=wallet)
    act.move(act.wallet(act.user), ctl.stack_account(act, act.user), chips, Reason.BUY_IN)
    sit(ctl, act, act.user, chips)
    act.say("holdem.joined", player=act.name(act.user), chips=chips)
    ctl._maybe_schedule_next(act)
    act.show_table(ctl.table_message(act))


def leave(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/leave`: stand up at once between hands, else after the hand he is dealt in; in a tournament, leave it."""
    seat = absence.actor_seat(ctl, act)
    if act.state.get("tournament"):
        tour.leave(ctl, act, seat)
        return
    hand = ctl._hand(act)
    if hand is not None and act.user in hand.players:  # folded or not, his stack settles when the hand ends
        seat["leaving"] = True
        act.tell(act.user, "holdem.leaving_after_hand")
        return
    stand_up(ctl, act, seat)
    bots.stand_up_alone(ctl, act)
    act.show_table(ctl.table_message(act))


def sit(ctl: HoldemTable, act: Action, user_id: str, chips: int) -> None:
    """Give the player the next seat with `chips` (his chips must already be on the table's stack account)."""
    act.state["seats"].append({"id": user_id, "stack": chips, "out": False, "timeouts": 0, "leaving": False})


def stand_up(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> None:
    """A cash table's player stands up (`cash_out`), said with the chips he leaves with, or that he has none left."""
    player = act.name(seat["id"])
    chips = cash_out(ctl, act, seat)
    if chips:
        act.say("holdem.left", player=player, chips=chips)
    else:  # busted: "leaves the table with 0 chips" read oddly
        act.say("holdem.out_of_chips", player=player)


def cash_out(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> int:
    """A cash table's player leaves: his stack goes home (his wallet, or the house for a computer player) and his
    seat is taken away. The chips he left with."""
    chips: int = seat["stack"]
    if chips:
        act.move(ctl.stack_account(act, seat["id"]), bots.home_account(act, seat["id"]), chips, Reason.CASH_OUT)
    remove_seat(ctl, act, seat)
    return chips


def remove_seat(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> None:
    """Take a seat away; the button keeps its place (a seat before it leaving shifts its index back)."""
    seats = act.state["seats"]
    index = seats.index(seat)
    seats.remove(seat)
    if index <= act.state.get("button", -1):
        act.state["button"] -= 1
