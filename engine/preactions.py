"""Pre-actions (RULES.md §1a): what a player not yet to act chooses in advance, and what it plays when his turn comes.

- "check/fold" checks when checking is free, else folds; it is never cancelled;
- "check" checks; a bet or raise before his turn cancels it (it is refused while he already owes chips);
- "call any" calls whatever is owed (all-in when short), or checks when nothing is.

Pre-actions last one betting round: a new street clears them.
"""

from __future__ import annotations

from enum import StrEnum

from engine.holdem_types import Action, Call, Check, Fold, LegalActions


class PreAction(StrEnum):
    """A choice made before one's turn."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL_ANY = "call_any"


def pre_action_play(pre: PreAction, legal: LegalActions) -> Action | None:
    """The action a pre-action plays given what the player may do now, or None when it no longer applies."""
    if pre is PreAction.CHECK_FOLD:
        return Check() if legal.can_check else Fold()
    if pre is PreAction.CHECK:
        return Check() if legal.can_check else None
    return Call() if legal.call_amount else Check()
