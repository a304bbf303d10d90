"""The text and buttons of a Hold'em table message, written only when an adapter reads them (from the hand's public
view, its players' names and its story as they are at the action)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot.games import holdem_options as options
from bot.games import practice as bots
from bot.games.context import Action
from bot.output import Button
from bot.render import Voice, story
from bot.render import holdem as render
from engine import holdem as engine


def names_of(act: Action, hand: engine.Hand) -> dict[str, str]:
    """The display names of the hand's players, as they are now (read once per action)."""
    return {player: act.name(player) for player in hand.players}


def later_text(act: Action, view: render.HandView, names: dict[str, str], *extra: str | None,
                seconds: int | None = None) -> Callable[[], str]:
    """The table's text for the hand's public `view` (`seconds`: how long the turn of the player to act lasts),
    written only when an adapter reads it: the players' `names` (see `names_of`) and the story's lines (written then,
    if not yet) are copied now, the live hand and the transaction are not reached later."""
    # a partial of a module function rather than a closure: the newest table message lives until the table's next
    # action (or until an adapter shows it), and a closure's cells are so many more objects each collection traverses
    return functools.partial(_write_text, act.language, view, names, story.kept(act.state), seconds, extra)


def _write_text(language: str, view: render.HandView, names: dict[str, str], lines: tuple[story.Line, ...],
                seconds: int | None, extra: tuple[str | None, ...]) -> str:
    return "\n".join(filter(None, (render.table_text(Voice(language, names.__getitem__), view, story.written(lines),
                                                     seconds), *extra)))


def later_buttons(act: Action, hand: engine.Hand, view: render.HandView, key: str,
                   decision: str) -> Callable[[], tuple[Button, ...]]:
    """The buttons of the hand's table message (for the player to act, the pre-actions of the others, away and
    back), made only when an adapter reads them, from the hand's public `view` and legal actions as they are now.
    A practice player's turn has no action buttons: he acts on his timer, and nobody else may press them."""
    # once, for the buttons of each kind
    legal = hand.legal_actions() if hand.to_act and not bots.is_bot(hand.to_act) else None
    return functools.partial(_make_buttons, act.language, view, key, decision, legal, options.away_buttons(act, key))


def _make_buttons(language: str, view: render.HandView, key: str, decision: str, legal: engine.LegalActions | None,
                  away: tuple[Button, ...]) -> tuple[Button, ...]:
    return (*render.action_buttons(Voice(language), view, key, decision, legal),  # the buttons name nobody
            *options.pre_buttons(language, view, key), *away)
