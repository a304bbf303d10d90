"""Between Hold'em hands, the buttons a rebuy or an add-on spent: spent for the player who bought, not for the others.

A purchase moves the table's step on, so the buttons drawn after it carry a new decision and a double click of the
old one buys once. The buttons drawn before it are shared by everyone, though: another player who presses one (at
the same instant, or on a message not yet redrawn while the chat's messages are paced) has bought nothing, so for him
it still acts (a rebuy, an add-on, a deal, a show), where "already done" would tell him of a purchase he never made.
The state keeps, until the next deal, the step the first purchase between these hands was made at and the step each
buyer last bought at (`spent`).
"""

from __future__ import annotations

from typing import Any

from bot.command_parser import whole_number
from bot.games.context import Action

SPENT = "spent"
"""The state's key: `{"since": step, "by": {player: step}}`, dropped when a hand is dealt."""


def spend(act: Action) -> None:
    """The actor bought between hands: the buttons drawn so far are spent for him, and the step moves on."""
    step = int(act.state.get("step", 0))
    spent: dict[str, Any] = act.state.setdefault(SPENT, {"since": step, "by": {}})
    spent["by"][act.user] = step
    act.state["step"] = step + 1


def still_acts(act: Action, key: str, decision: str) -> bool:
    """Whether a button of the last hand's key drawn between hands for an earlier step (`s12`) than the current one
    still acts for the presser: it was drawn since the hand ended and he has bought nothing since it was drawn."""
    spent = act.state.get(SPENT)
    if not spent or act.state.get("hand") or key != f"h{act.state.get('number', 0)}" or decision[:1] != "s":
        return False
    step = whole_number(decision[1:])
    if step is None:
        return False
    return int(spent["since"]) <= step < int(act.state.get("step", 0)) and step > int(spent["by"].get(act.user, -1))


def forget(act: Action) -> None:
    """A hand is dealt: the buttons drawn before it are the last hand's, stale for everyone."""
    act.state.pop(SPENT, None)
