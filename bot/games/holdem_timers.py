"""What a Hold'em table's timers do when they fire: a turn ran out (its player's time bank first), the next hand is
due, a computer player or an away one is due to act or stand up, the run-it-twice question or show or muck waited
long enough, or the tournament clock has something to say."""

from __future__ import annotations

from typing import Any

from bot.games import holdem_away as absence
from bot.games import holdem_showdown as showdown
from bot.games import holdem_timebank as timebank
from bot.games import practice as bots
from bot.games import tournament_play as tour_play
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable


def on_timer(ctl: HoldemTable, act: Action, key: str, payload: dict[str, Any]) -> bool:
    """The timer's `payload` acted on (its `kind`, and the `step` a turn's was armed at); False when the timer is
    stale (its turn was played, a hand is in play already)."""
    kind = payload.get("kind")
    in_turn = bool(act.state.get("hand")) and payload.get("step") == act.state.get("step")
    if kind == "clock":
        tour_play.on_clock(ctl, act, payload)
    elif kind == "next" and not act.state.get("hand"):
        ctl.start_hand(act, quiet=True)
        tour_play.show_stopped(ctl, act)
    elif kind == "turn" and in_turn:
        if not timebank.start_bank(ctl, act, payload):
            ctl._time_out(act)
    elif kind == "away":
        absence.stand_up_away(ctl, act)
    elif kind == "bot" and in_turn:
        bots.play_turn(ctl, act)
    elif kind in ("runs", "show") and in_turn and (hand := ctl._hand(act)):
        showdown.on_timer(ctl, act, hand, kind)
    else:
        return False
    return True
