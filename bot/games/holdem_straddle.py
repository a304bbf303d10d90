"""The straddle at a Hold'em cash table (RULES.md §1a): `/straddle` and its button, why one is refused, and the
straddle announced for the next hand kept, resized or dropped until the deal.

State it keeps, beside the controller's: per table `straddle` (who straddles the next hand).
"""

from __future__ import annotations

from typing import Any

from bot import commands as cmd
from bot.command_parser import button_payload
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.output import Button
from engine.betting import STRUCTURES, Limit, straddle_size
from engine.seating import dealing_order


def straddle(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/straddle` (or its button) between hands: the player left of the next big blind straddles the next hand;
    `/straddle off` takes it back."""
    assert isinstance(command, cmd.Straddle)
    if command.off:
        if act.state.get("straddle") != act.user:
            raise act.refuse("holdem.straddle_none")
        act.state.pop("straddle")
        act.say("holdem.straddle_cancelled", player=act.name(act.user))
        act.show_table(ctl.table_message(act))
        return
    refusal = straddle_refusal(ctl, act, act.user)
    if refusal is not None:
        key, params = refusal
        raise act.refuse(key, **params)
    if act.state.get("straddle") == act.user:
        raise act.refuse("already_done")
    act.state["straddle"] = act.user
    act.say("holdem.straddle_set", player=act.name(act.user), chips=straddle_size(ctl.config(act, "level")))
    act.show_table(ctl.table_message(act))


def straddle_refusal(ctl: HoldemTable, act: Action, user_id: str) -> tuple[str, dict[str, Any]] | None:
    """Why `user_id` may not straddle the next hand (a message key and its parameters), None when he may. What no
    setting changes comes before the setting ("/set straddle on" would not help in a tournament), and a player not
    seated is told so before anything about the hand in play."""
    if act.state.get("tournament"):
        return "holdem.straddle_tournament", {}
    if STRUCTURES[ctl.config(act, "structure")].limit is Limit.FIXED:
        return "holdem.straddle_limit", {}
    if ctl.config(act, "straddle") != "on":
        return "holdem.straddle_off", {}
    seat = ctl.seat(act, user_id)
    if seat is None:
        return "not_seated", {}
    if act.state.get("hand"):
        return "holdem.straddle_between_hands", {}
    straddler = next_straddler(ctl, act)
    if straddler is None:
        return "holdem.straddle_three", {}
    if straddler["id"] != user_id:
        return "holdem.straddle_not_yours", {"player": act.name(straddler["id"])}
    chips = straddle_size(ctl.config(act, "level"))
    if seat["stack"] <= chips:
        return "holdem.straddle_short", {"chips": chips}
    return None


def next_straddler(ctl: HoldemTable, act: Action) -> dict[str, Any] | None:
    """The seat left of the next hand's big blind (three players dealt in or more), None when there is none."""
    seats: list[dict[str, Any]] = act.state["seats"]
    dealt = [ctl._dealt_in(act, seat) for seat in seats]
    if sum(dealt) < 3:
        return None
    order = dealing_order(dealt, ctl._next_button(act))
    return seats[order[3 % len(order)]]  # button, small blind, big blind, then him (the button, three-handed)


def straddles_now(ctl: HoldemTable, act: Action) -> bool:
    """Whether the hand about to be dealt has a straddle (asked for, and still allowed); the request is used up. One
    no longer allowed (the settings changed, a player sat down and moved the blinds…) is dropped with its reason,
    said to the table that heard it announced, unless its player has left."""
    wanted = act.state.pop("straddle", None)
    if wanted is None:
        return False
    refusal = straddle_refusal(ctl, act, wanted)
    if refusal is not None and ctl.seat(act, wanted) is not None:
        key, params = refusal
        act.say("holdem.straddle_dropped", player=act.name(wanted), reason=act.t(key, **params))
    return refusal is None


def straddle_after_level(ctl: HoldemTable, act: Action) -> None:
    """`/set level` (already set) with a straddle announced: the straddle is twice the big blind, so the table hears
    its new size; one the new level no longer allows (the straddler's stack is too short) is dropped now, with its
    reason, rather than at the deal."""
    wanted = act.state.get("straddle")
    if wanted is None:
        return
    refusal = straddle_refusal(ctl, act, wanted)
    if refusal is None:
        act.say("holdem.straddle_resized", player=act.name(wanted), chips=straddle_size(ctl.config(act, "level")))
        return
    key, params = refusal
    drop_next(act, wanted, act.t(key, **params))


def drop_next(act: Action, player: str, reason: str) -> None:
    """Drop the straddle `player` announced for the next hand, telling the table that heard it announced why
    (`reason`, in the table's language): the level changed, or he went away."""
    act.state.pop("straddle")
    act.say("holdem.straddle_dropped_next", player=act.name(player), reason=reason)


def straddle_buttons(ctl: HoldemTable, act: Action, key: str, decision: str) -> tuple[Button, ...]:
    """Between hands, a Straddle button while the next straddler may straddle and has not said so (none for a
    practice player: he never straddles, and nobody else may press it)."""
    straddler = next_straddler(ctl, act) if act.state.get("seats") else None
    if (straddler is None or bots.is_bot(straddler["id"]) or act.state.get("straddle")
            or straddle_refusal(ctl, act, straddler["id"]) is not None):
        return ()
    chips = straddle_size(ctl.config(act, "level"))
    return (Button(act.t("button.straddle", player=act.name(straddler["id"]), chips=chips),
                   button_payload(key, "straddle", decision)),)
