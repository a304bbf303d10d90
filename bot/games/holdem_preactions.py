"""Pre-actions at a Hold'em table (RULES.md §1a): a player not yet to act chooses (or cancels) "check/fold",
"check", "call N" or "call any", and the buttons that offer them on each table message.

State it keeps, beside the controller's: per table `pre_pressed` (when each player last chose a pre-action, so a
double click does not cancel what the first click chose).
"""

from __future__ import annotations

from functools import lru_cache

from bot import commands as cmd
from bot.command_parser import button_payload
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.i18n import text
from bot.output import Button
from bot.render.holdem import HandView
from engine.betting import owed_to_call
from engine.common import RuleError
from engine.holdem import Hand
from engine.preactions import PreAction, may_pre_check

DOUBLE_PRESS_SECONDS = 1.5
"""A second press of the same pre-action this soon after the first is the same click twice: it changes nothing."""


def pre_action(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """A pre-action pressed (or `/pre`): chosen, or cancelled when it was chosen already; answered to the player
    alone, and the table message is left as it is (nothing public changed). "Call N" is chosen for the bet N (see
    `engine.preactions`) and answered with what the player would put in, as his own Call button names it."""
    assert isinstance(command, cmd.Pre)
    hand = ctl._hand(act)
    if hand is None:
        raise ctl.no_hand(act)
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
