"""Pre-actions (RULES.md §1a): what a player not yet to act chooses in advance, and what it plays when his turn comes.

- "check/fold" checks when checking is free, else folds; it is never cancelled;
- "check" checks; a bet or raise before his turn cancels it (it is refused while he already owes chips, and once he
  has acted on the street: his turn comes back only after a bet, which cancels it, so it could never play);
- "call N" calls the bet of N chips (the street's bet to match, the same for everyone, so one shared button offers
  it); a bet or raise before his turn changes what he owes and cancels it; it is refused when the bet is no longer N
  (a stale button) and when he owes nothing;
- "call any" calls whatever is owed (all-in when short), or checks when nothing is.

Pre-actions last one betting round: a new street clears them.
"""

from __future__ import annotations

from enum import StrEnum

from engine.common import RuleError
from engine.holdem_types import Action, Bet, Call, Check, Fold, LegalActions, RaiseTo


class PreAction(StrEnum):
    """A choice made before one's turn."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL = "call"
    CALL_ANY = "call_any"


def may_pre_check(owed: int, *, acted: bool) -> bool:
    """Whether a player who owes `owed` chips (`acted`: he has acted on this street already) may choose "check" in
    advance: only with nothing to call, and only before he has acted (his turn comes back only after a bet, which
    cancels it). The rule `pre_action_refusal` refuses by, and the shared buttons offer "Check" by."""
    return owed <= 0 and not acted


def pre_action_refusal(pre: PreAction, *, owed: int, bet: int, chips: int = 0, acted: bool = False) -> RuleError | None:
    """Why a player who owes `owed` chips, facing a bet of `bet` on this street (`acted`: he has acted on it
    already), may not choose `pre` now (`chips`: the bet "call N" was chosen for), None when he may."""
    if pre is PreAction.CHECK and not may_pre_check(owed, acted=acted):
        if owed > 0:
            return RuleError("pre_check_owes", "there is a bet to call: check is not possible", owed=owed)
        return RuleError("pre_check_acted", "you have acted on this street: a check could never play")
    if pre is PreAction.CALL and chips != bet:
        return RuleError("pre_call_changed", f"the bet is now {bet}, not {chips}", bet=bet, chips=chips)
    if pre is PreAction.CALL and owed <= 0:
        return RuleError("pre_call_nothing", "nothing to call: choose check")
    return None


def cancelled_by(pre: PreAction, action: Action) -> bool:
    """Whether another player's action cancels this pre-action: a bet or raise cancels "check" and "call N" (what he
    owes has changed)."""
    return pre in (PreAction.CHECK, PreAction.CALL) and isinstance(action, (Bet, RaiseTo))


def pre_action_play(pre: PreAction, legal: LegalActions, *, bet: int = 0, chips: int = 0) -> Action | None:
    """The action a pre-action plays given what the player may do now (`bet`: the street's bet to match; `chips`:
    the bet "call N" was chosen for), or None when it no longer applies."""
    if pre is PreAction.CHECK_FOLD:
        return Check() if legal.can_check else Fold()
    if pre is PreAction.CHECK:
        return Check() if legal.can_check else None
    if pre is PreAction.CALL:
        return Call() if legal.call_amount and bet == chips else None
    return Call() if legal.call_amount else Check()
