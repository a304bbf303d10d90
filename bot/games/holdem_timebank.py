"""The time bank at a Hold'em table (RULES.md §1a): each player's seconds, refilled at a deal, run when his turn's
time runs out, charged when the turn is over, and the table message's line while one runs.

State it keeps, beside the controller's: per seat `bank` (his `TimeBank`); per table `bank_run` (the time bank
running: whose, since when) and `bank_level` (a tournament's level the banks were last refilled at).
"""

from __future__ import annotations

from typing import Any

from bot.games import holdem_away as absence
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from engine.timebank import TimeBank


def _bank(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> TimeBank:
    """The player's bank, never more than the table's setting now: `/set time_bank` lowered cuts what is left (turned
    off, with 0, it leaves the banks as they are for when it is on again)."""
    full = int(ctl.config(act, "time_bank"))
    if not seat.get("bank"):
        return TimeBank(full, full)
    bank = TimeBank.from_dict(seat["bank"])
    return bank if full <= 0 or bank.left <= full else TimeBank(full, full, bank.hands)


def refill_banks(ctl: HoldemTable, act: Action, dealt: list[str], level: int, index: int | None = None) -> None:
    """A new hand: each player's bank counts the hand at a cash table (full every 20), or refills at a tournament's
    new level (`index`, the clock's level in the schedule: a level after a break with the limits of the one before it
    is new all the same); a bank left running (a hand voided) stops. Turned off (0), the banks are left as they are.

    `bank_level` holds [index, limit]; a table saved when it held the limit alone is at the same level while the
    limit is the same."""
    act.state.pop("bank_run", None)
    full = int(ctl.config(act, "time_bank"))
    if full <= 0:
        return
    tournament = bool(act.state.get("tournament"))
    stored = act.state.get("bank_level")
    new_level = tournament and stored not in ([index, level], level)
    if tournament:
        act.state["bank_level"] = [index, level]
    for seat in act.state["seats"]:
        if new_level:
            seat["bank"] = TimeBank.refilled(full).to_dict()
        elif not tournament and seat["id"] in dealt:
            seat["bank"] = _bank(ctl, act, seat).dealt(full).to_dict()


def start_bank(ctl: HoldemTable, act: Action, payload: dict[str, Any]) -> bool:
    """A turn ran out: start the player's time bank if he has one (True: the turn's timer is re-armed for it, the
    table message shows it); False when it is empty, off, or has just run out (the time-out then plays)."""
    hand = ctl._hand(act)
    if payload.get("bank") or hand is None or hand.to_act is None or bots.is_bot(hand.to_act):
        return False
    seat = ctl.seat(act, hand.to_act)
    if seat is None or absence.is_blinded_out(act, seat) or int(ctl.config(act, "time_bank")) <= 0:
        return False
    left = _bank(ctl, act, seat).left
    if left <= 0:
        return False
    act.state["bank_run"] = {"player": hand.to_act, "since": act.now, "seconds": left}
    act.arm(ctl._timer(act), left, kind="turn", step=act.state.get("step", 0), bank=True)
    act.show_table(ctl.table_message(act, hand))
    return True


def bank_turned_off(ctl: HoldemTable, act: Action) -> bool:
    """`/set time_bank 0` (set already): RULES.md §1a has 0 turn the bank off, so a bank running now stops at once,
    said to the table; True when one ran, and the caller times the turn out, as it did without a bank when its own
    time ran out (the bank is charged with the time it ran, as when a turn ends)."""
    run = act.state.get("bank_run")
    hand = ctl._hand(act)
    if not run or hand is None or hand.to_act != run["player"]:
        return False
    act.say("holdem.time_bank_stopped", player=act.name(run["player"]))
    return True


def settle_bank(ctl: HoldemTable, act: Action) -> None:
    """The turn is over (an action or a time-out): a running bank is charged with the time it ran."""
    run = act.state.pop("bank_run", None)
    seat = ctl.seat(act, run["player"]) if run else None
    if run and seat is not None:
        seat["bank"] = _bank(ctl, act, seat).used(act.now - run["since"]).to_dict()


def bank_line(act: Action) -> str:
    """The table message's line while a time bank runs, "" otherwise."""
    run = act.state.get("bank_run")
    if not run:
        return ""
    return act.t("holdem.time_bank", player=act.name(run["player"]), seconds=run["seconds"])
