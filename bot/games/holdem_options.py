"""Hold'em table options at the table (RULES.md §1a): away and back, the straddle, pre-actions and the time bank.

State they keep, beside the controller's: per seat `away_since` and `away_number` (when he went away, and the
table's hand number then), `back` ("ask": returning at a cash table and not yet chosen, "wait": waiting for the big
blind, "post": posting one in the next hand) and `bank` (his `TimeBank`); per table `straddle` (who straddles the next
hand), `bank_run` (the time bank running: whose, since when), `bank_level` (a tournament's level the banks were last
refilled at) and `pre_pressed` (when each player last chose a pre-action, so a double click does not cancel what the
first click chose).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot import commands as cmd
from bot.command_parser import button_payload
from bot.games import practice as bots
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.i18n import text
from bot.output import Button
from bot.render.holdem import HandView
from engine.betting import STRUCTURES, Limit, owed_to_call, straddle_size
from engine.common import Event, RuleError
from engine.holdem import Hand
from engine.preactions import PreAction, may_pre_check
from engine.seating import dealing_order
from engine.timebank import TimeBank

DOUBLE_PRESS_SECONDS = 1.5
"""A second press of the same pre-action this soon after the first is the same click twice: it changes nothing."""


# --- away and back ---------------------------------------------------------------------------------------------


def away(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/away`: sit out from the next hand, keeping seat and stack (a tournament deals him in and folds his hands)."""
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise act.refuse("not_seated")
    if seat["out"]:
        raise act.refuse("holdem.already_away")
    act.say("holdem.away_tournament" if act.state.get("tournament") else "holdem.away", player=act.name(act.user))
    events = mark_away(ctl, act, seat)
    hand = ctl._hand(act)
    if events and hand is not None:  # his turn, played at once
        ctl._commit(act, hand, events)
    else:
        act.show_table(ctl.table_message(act))


def mark_away(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> list[Event]:
    """Sit a player out (by `/away` or after time-outs) and start counting how long he is away. In a tournament's
    hand he is in, he is blinded out from now on (RULES.md §1a): his hand is folded at his turn, at once — the events
    of this one if it is his, for the caller to commit (a cash table's player plays the hand he is in out). A
    straddle he announced for the next hand is dropped, and the table told."""
    seat["out"], seat["back"], seat["away_since"] = True, "", act.now
    seat["away_number"] = act.state.get("number", 0)  # the hand in play or the last one: he has missed none yet
    if act.state.get("straddle") == seat["id"]:  # the table heard it announced: it hears it dropped
        act.state.pop("straddle")
        act.say("holdem.straddle_dropped_next", player=act.name(seat["id"]), reason=act.t("holdem.straddle_away"))
    arm_stand_up(ctl, act)
    hand = ctl._hand(act)
    if not act.state.get("tournament") or hand is None or seat["id"] not in hand.players:
        return []
    events = hand.set_absent(seat["id"], True)
    act.state["hand"] = hand  # the live table keeps the engine object
    return events


def back(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/back` (or `/join` while away): return. At a cash table where a game goes on, the player chooses to post a big
    blind in the next hand or to wait for the big blind to reach him (`/back post`, `/back wait`, or the buttons)."""
    assert isinstance(command, (cmd.Back, cmd.Join))
    seat = ctl.seat(act, act.user)
    if seat is None:
        raise act.refuse("not_seated")
    choice = command.choice if isinstance(command, cmd.Back) else None
    if not seat["out"] and seat.get("back") not in ("ask", "wait", "post"):
        raise act.refuse("holdem.not_away")
    if not seat["out"] and choice is not None and seat.get("back") == choice:
        raise act.refuse("already_done")
    if not seat["out"] and choice is None:
        raise act.refuse("holdem.back_choose")
    if not _choice_needed(ctl, act, seat):
        seat["out"], seat["timeouts"], seat["back"], seat["away_since"] = False, 0, "", None
        act.say("holdem.back_in", player=act.name(act.user))
        hand = ctl._hand(act)
        if hand is not None and act.user in hand.players:  # a tournament's: his turns in this hand are his again
            hand.set_absent(act.user, False)
            act.state["hand"] = hand  # the live table keeps the engine object
    else:
        seat["out"], seat["timeouts"], seat["away_since"] = False, 0, None
        seat["back"] = choice or "ask"
        if choice is None:
            act.tell(act.user, "holdem.back_choose")
        else:
            act.say(f"holdem.back_{choice}", player=act.name(act.user))
    arm_stand_up(ctl, act)
    ctl._maybe_schedule_next(act)
    act.show_table(ctl.table_message(act))


def _choice_needed(ctl: HoldemTable, act: Action, seat: dict[str, Any]) -> bool:
    """Whether a returning player chooses how to come back: at a cash table that has dealt a hand without him since he
    went away, with two others dealt in (else he simply plays the next hand)."""
    if act.state.get("tournament") or act.state.get("button", -1) < 0:
        return False
    if seat["out"] and seat.get("away_number") == act.state.get("number", 0):
        return False
    return sum(1 for other in ctl.eligible(act) if other is not seat) >= 2


def is_waiting(seat: dict[str, Any]) -> bool:
    """Whether a returning player is not dealt in yet: still choosing, or waiting for the big blind."""
    return seat.get("back") in ("ask", "wait")


def waiting_to_deal(ctl: HoldemTable, act: Action) -> list[dict[str, Any]]:
    """The returning players waiting for the big blind (or still choosing) who are dealt in at once because without
    them fewer than two players would be: a card room does not make a player wait when waiting would stop the game
    (he posts no extra blind, only the blind of his place). None at a tournament or where two others play."""
    if act.state.get("tournament") or len(ctl.eligible(act)) >= 2:
        return []
    return [seat for seat in act.state["seats"] if is_waiting(seat) and seat["stack"] > 0]


def deal_in_rather_than_stop(ctl: HoldemTable, act: Action) -> None:
    """Before a deal: the players of `waiting_to_deal` stop waiting and are dealt in."""
    for seat in waiting_to_deal(ctl, act):
        seat["back"] = ""


def deal_in_waiting(ctl: HoldemTable, act: Action, button: int) -> None:
    """Before a deal with `button`: a player waiting for the big blind on whom it now falls is dealt in."""
    seats = act.state["seats"]
    present = [ctl._dealt_in(act, seat) or (seat.get("back") == "wait" and seat["stack"] > 0) for seat in seats]
    if sum(present) < 2:
        return
    order = dealing_order(present, button)
    big = order[1] if len(order) == 2 else order[2]
    if seats[big].get("back") == "wait":
        seats[big]["back"] = ""


def posting(act: Action) -> list[str]:
    """The returning players who post a big blind in the hand about to be dealt (their choice is then done)."""
    posting = [seat["id"] for seat in act.state["seats"] if seat.get("back") == "post"]
    for seat in act.state["seats"]:
        if seat.get("back") == "post":
            seat["back"] = ""
    return posting


def stand_up_away(ctl: HoldemTable, act: Action) -> None:
    """The stand-up timer: at a cash table, players away longer than `away_minutes` stand up (after the hand they
    are in), their stacks going back to their wallets."""
    limit = 60 * ctl.config(act, "away_minutes")
    hand = ctl._hand(act)
    stood = False
    for seat in list(act.state.get("seats", [])):
        since = seat.get("away_since")
        if act.state.get("tournament") or not seat["out"] or since is None or act.now - since < limit:
            continue
        act.say("holdem.away_too_long", player=act.name(seat["id"]), minutes=limit // 60)
        seat["away_since"] = None
        if hand is not None and seat["id"] in hand.players:
            seat["leaving"] = True
        else:
            ctl._stand_up(act, seat)
            stood = True
    if stood:
        bots.stand_up_alone(ctl, act)
    arm_stand_up(ctl, act)
    if stood:
        act.show_table(ctl.table_message(act))


def arm_stand_up(ctl: HoldemTable, act: Action) -> None:
    """Arm (or disarm) the stand-up timer for the first cash player away (again when `away_minutes` changes)."""
    key = f"holdem:{act.place.table_id}:away"
    times = [seat["away_since"] for seat in act.state.get("seats", []) if seat["out"] and seat.get("away_since")]
    if act.state.get("tournament") or not times:
        act.disarm(key)
        return
    act.arm(key, max(0.0, min(times) + 60 * ctl.config(act, "away_minutes") - act.now), kind="away")


def away_buttons(act: Action, key: str, decision: str = "") -> tuple[Button, ...]:
    """"Post a big blind" and "Wait for the big blind", while a returning player has not chosen: on any message of
    the hand in play, or between hands on the table's current state (`decision`, as the Deal button)."""
    if not any(seat.get("back") == "ask" for seat in act.state.get("seats", [])):
        return ()
    return (Button(act.t("button.back_post"), button_payload(key, "back post", decision)),
            Button(act.t("button.back_wait"), button_payload(key, "back wait", decision)))


# --- the straddle ------------------------------------------------------------------------------------------------


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
    """Why `user_id` may not straddle the next hand (a message key and its parameters), None when he may."""
    if ctl.config(act, "straddle") != "on":
        return "holdem.straddle_off", {}
    if act.state.get("tournament"):
        return "holdem.straddle_tournament", {}
    if STRUCTURES[ctl.config(act, "structure")].limit is Limit.FIXED:
        return "holdem.straddle_limit", {}
    if act.state.get("hand"):
        return "holdem.straddle_between_hands", {}
    seat = ctl.seat(act, user_id)
    if seat is None:
        return "not_seated", {}
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
    act.state.pop("straddle")
    key, params = refusal
    act.say("holdem.straddle_dropped_next", player=act.name(wanted), reason=act.t(key, **params))


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


# --- pre-actions ---------------------------------------------------------------------------------------------------


def pre_action(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """A pre-action pressed (or `/pre`): chosen, or cancelled when it was chosen already; answered to the player
    alone, and the table message is left as it is (nothing public changed). "Call N" is chosen for the bet N (see
    `engine.preactions`) and answered with what the player would put in, as his own Call button names it."""
    assert isinstance(command, cmd.Pre)
    hand = ctl._hand(act)
    if hand is None:
        raise act.refuse("holdem.no_hand")
    if act.user not in hand.players:
        raise ctl.not_playing(act)
    pre = PreAction(command.choice)
    bet = 0  # the bet "call N" calls: the button's, else the bet as it is now
    if pre is PreAction.CALL:
        bet = hand.current_bet if command.chips is None else command.chips
    chips = _call_amount(hand, act.user)
    pressed = act.state.setdefault("pre_pressed", {})
    # a raise cancels "call N", so one still chosen calls the bet as it is: a stale button's amount chooses anew
    if hand.pre_action(act.user) is pre and (pre is not PreAction.CALL or bet == hand.current_bet):
        if act.now - pressed.get(act.user, float("-inf")) < DOUBLE_PRESS_SECONDS:  # the same click twice
            raise act.refuse(f"holdem.pre.{pre.value}", chips=chips)
        hand.set_pre_action(act.user, None)
        act.tell(act.user, "holdem.pre.cancelled")
    else:
        try:
            hand.set_pre_action(act.user, pre, bet)
        except RuleError as error:
            raise act.rule_refusal(error) from None
        act.tell(act.user, f"holdem.pre.{pre.value}", chips=chips)
    pressed[act.user] = act.now
    act.state["hand"] = hand


def _call_amount(hand: HandView | Hand, player: str) -> int:
    """What `player` would put in to call the bet as the hand stands: what his Call button names (the engine's
    `owed_to_call`, all he has when short)."""
    others = (chips for other, chips in hand.bets.items() if other != player and other not in hand.folded)
    return min(owed_to_call(hand.current_bet, hand.bets[player], others), hand.stacks[player])


def pre_buttons(language: str, hand: HandView, key: str) -> tuple[Button, ...]:
    """"Check/fold", "Check", "Call N" and "Call any" for the players not yet to act, while someone besides the
    player to act still has a decision to make in the hand; "Check" while one of them could still check (owes
    nothing and has not acted on this street: else it is refused); "Call N" while one of them faces a bet. The button
    carries the bet to match (the same for all, so that a stale one is refused) and names what its presser would
    put in, as his own Call button will: one message's buttons are everyone's, so when those facing the bet would
    put in different amounts it names the bet they call to ("Call to 40"). `hand`: the hand's public view when the
    buttons were drawn (they may be made later, see `TableMessage`)."""
    if hand.to_act is None:
        return ()
    stacks, folded = hand.stacks, hand.folded
    deciding = [player for player in hand.players if player != hand.to_act and player not in folded and stacks[player]]
    if not deciding:
        return ()
    owed, check, acted = set(), False, hand.acted
    for player in deciding:  # one loop: these buttons are drawn at each action
        chips = _call_amount(hand, player)
        if chips:
            owed.add(chips)
        check = check or may_pre_check(chips, acted=player in acted)
    return tuple(Button(label, button_payload(key, command))
                 for label, command in _pre_choices(language, hand.current_bet,
                                                    owed.pop() if len(owed) == 1 else -1 if owed else 0, check))


@lru_cache(maxsize=1024)
def _pre_choices(language: str, bet: int, owed: int, check: bool) -> tuple[tuple[str, str], ...]:
    """The pre-action buttons' labels and commands for the bet to match, with "Call N" while someone faces it
    (`owed`: what each of them would put in, -1 when that differs between them, 0 when nobody faces the bet) and
    "Check" while someone could check (`check`): the same at every table in that spot, so written once rather than
    at each action."""
    choices = []
    for pre in PreAction:
        if pre is PreAction.CHECK and not check:
            continue
        if pre is not PreAction.CALL:
            choices.append((text(language, f"button.pre.{pre.value}"), f"pre {pre.value}"))
        elif owed:
            label = text(language, "button.pre.call", chips=owed) if owed > 0 else text(
                language, "button.pre.call_to", chips=bet)
            choices.append((label, f"pre {pre.value} {bet}"))
    return tuple(choices)


# --- the time bank -------------------------------------------------------------------------------------------------


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
    if seat is None or (seat["out"] and act.state.get("tournament")) or int(ctl.config(act, "time_bank")) <= 0:
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
