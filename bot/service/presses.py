"""Checking a button press: it acts only on the hand and the decision it was drawn for."""

from __future__ import annotations

from bot import commands as cmd
from bot.command_parser import is_round_key
from bot.games import Controller, KnowsTakenDecisions, SpentPerPlayer
from bot.games.context import Action, Refusal


class StalePress(Refusal):
    """A press refused before the game saw it (its decision was taken already): the live table is untouched, so it
    stays in memory (a storm of repeated presses costs no reload)."""


def check_press(act: Action, controller: Controller, command: cmd.Command, pressed: cmd.Pressed) -> None:
    """A button acts only on the hand and the decision it was drawn for: a press after that decision was taken (a
    double click, a Deal already dealt, a Rebuy the presser bought between hands) is answered "already done", but a
    betting button of a Hold'em turn already played "that turn is over" (whoever played it, and however); one from
    an earlier hand, a betting button of a hand that has ended, or a Deal of the game the table played before, "this
    hand is over" ("this round is over" for a house round's). A house round's old decision button says whose box and
    which decision it was for, unless its presser took just that decision (`KnowsTakenDecisions`). A button another
    player's purchase made older still acts (`SpentPerPlayer`)."""
    stale = "stale_round" if is_round_key(pressed.key) else "stale_button"
    if not pressed.decision:  # "my cards": any message of the hand in play
        if pressed.key != controller.current_key(act):
            raise StalePress(act.refuse(stale).message)
        return
    drawn_for = controller.decision(act)
    if drawn_for == (pressed.key, pressed.decision) or (
            isinstance(controller, SpentPerPlayer) and controller.still_acts(act, pressed.key, pressed.decision)):
        return
    over = controller.current_key(act) is None and isinstance(command, cmd.BETTING)  # its hand ended: no turn is left
    same_game = drawn_for is not None and pressed.key[:1] == drawn_for[0][:1]  # a hand's `h4` or a round's `r2`
    taken = drawn_for is not None and pressed.key == drawn_for[0] and not over
    if taken and isinstance(command, cmd.BETTING) and not is_round_key(pressed.key):
        # an older turn's betting button: "already done" would tell a player who called that his Fold was done
        raise StalePress(act.refuse("stale_turn").message)
    if taken and isinstance(controller, KnowsTakenDecisions) and (
            refusal := controller.stale_decision(act, pressed.decision, command)) is not None:
        raise StalePress(refusal.message)
    if (isinstance(command, cmd.Deal) and same_game) or taken:
        raise StalePress(act.refuse("already_done").message)
    raise StalePress(act.refuse(stale).message)
