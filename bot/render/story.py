"""The story of the hand or round in play: its latest lines, kept in the table's state, shown in the table message.

The table message of a hand tells what happened ("Bob raises to 40.", "Cat folds.") under the state it shows, so
the chat is not sent a new message per action. The lines live in the table's snapshot (`state["story"]`), so a
restart in the middle of a hand shows the same story.
"""

from __future__ import annotations

from typing import Any

SHOWN_LINES = 6
"""How many of the latest lines the table message shows (more when one action said more, so none is missed)."""


def add(state: dict[str, Any], lines: list[str], *, restart: bool = False) -> None:
    """Add the lines of one action; `restart` begins a new hand or round with them.

    The story runs on across streets (the flop's line marks where one begins), so a table message that an
    adapter's queue replaced by a newer one before sending it loses no line the newer one does not show, unless
    more than `SHOWN_LINES` came in between. Every line of the latest action stays shown, even past
    `SHOWN_LINES` (a whole run-out), so each action appears in the table message at least once.
    """
    if not lines and not restart:
        return
    old = [] if restart else list(state.get("story") or [])
    every = old + lines
    state["story"] = every[min(len(old), max(0, len(every) - SHOWN_LINES)):]


def shown(state: dict[str, Any]) -> list[str]:
    """The lines the table message shows now."""
    return list(state.get("story") or [])


def clear(state: dict[str, Any]) -> None:
    """Forget the story (the hand or round is over and its last table message already shows it)."""
    state.pop("story", None)

