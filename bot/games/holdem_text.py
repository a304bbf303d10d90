"""The text and buttons of a Hold'em table message: a hand's, written only when an adapter reads them (from the hand's
public view, its players' names and its story as they are at the action), or the seats' between hands."""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot.games import holdem_away as absence
from bot.games import holdem_preactions as preactions
from bot.games import holdem_straddle as straddling
from bot.games import practice as bots
from bot.games import tournament_play as tour_play
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.output import Button, TableMessage
from bot.render import Voice, story
from bot.render import holdem as render
from engine import holdem as engine


def decision_tag(step: int) -> str:
    """A Hold'em button's decision: the table's step (actions and time-outs so far) it was drawn at."""
    return f"s{step}"


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
    return functools.partial(_make_buttons, act.language, view, key, decision, legal, absence.away_buttons(act, key))


def _make_buttons(language: str, view: render.HandView, key: str, decision: str, legal: engine.LegalActions | None,
                  away: tuple[Button, ...]) -> tuple[Button, ...]:
    return (*render.action_buttons(Voice(language), view, key, decision, legal),  # the buttons name nobody
            *preactions.pre_buttons(language, view, key), *away)


def seats_message(ctl: HoldemTable, act: Action, key: str, decision: str) -> TableMessage:
    """The table message between hands: the seats (with why no hand is dealt while a tournament's clock stops play,
    and how its players out may come back) and the buttons to deal, a tournament's rebuy and add-on, straddle, away
    and back; the seats alone once the last player stood up."""
    if not act.state.get("seats"):  # the last player stood up: the message he sat in says nobody sits now
        return TableMessage(key, render.seats_text(act.voice, act.state, ctl.variant))
    tournament = tour_play.load(act)  # once for the offers, the stop and the comeback alike
    offers = tour_play.offer_buttons(act, tournament, key, decision)
    stopped = tour_play.no_play_refusal(ctl, act, tournament).message if tour_play.stops_play(act, tournament) else ""
    buttons = (*render.idle_buttons(act.voice, act.state, key, decision, offers, stopped=bool(stopped)),
               *straddling.straddle_buttons(ctl, act, key, decision), *absence.away_buttons(act, key, decision))
    record = render.seats_record(act.voice, act.state, ctl.variant)
    comeback = tour_play.comeback_text(act, tournament)
    return TableMessage(key, render.seats_text(act.voice, act.state, ctl.variant, stopped, comeback, record,
                                               alone=act.place.private),
                        buttons, retired=record)
