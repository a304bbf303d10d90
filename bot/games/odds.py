"""`/odds`: a Hold'em player's equity in his hand, or the house edge of a house game's paytable, told privately.

Hold'em: the asker's equity against every other player still in the hand, whose cards he does not know (random
hands from the cards he has not seen: never the real ones). Exact when the deals are few (the river; a heads-up
turn), else simulated (`TRIALS` deals, seeded by the table, hand, street and player, so asking twice gives the same
figure and the dealing shuffle is not touched). House games: the figures of `engine.house.odds` under the documented
strategy, computed beforehand for the tables' paytables (`bot.games.house_edges`: exact for Three Card Poker, else
two million simulated rounds, a standard error under 0.3 points), so the answer costs no computation; the paytable
behind each figure is named with it.
"""

from __future__ import annotations

import functools
import random
from decimal import Decimal
from typing import TYPE_CHECKING

from bot import commands as cmd
from bot.games.context import Action
from bot.games.house_edges import precomputed
from engine.cards import Card, format_cards
from engine.equity import Equity, equity
from engine.house.odds import PAYTABLES, line_name, paytables

if TYPE_CHECKING:
    from bot.games import Controller
    from bot.games.holdem import HoldemController
    from bot.games.house import HouseController

TRIALS = 5_000
"""Simulated deals for a Hold'em equity when enumerating every deal would take too long."""


def odds_command(act: Action, controller: Controller, command: cmd.Command) -> None:
    """Answer `/odds` privately, for the table's game."""
    from bot.games.holdem import HoldemController
    from bot.games.house import HouseController

    if isinstance(controller, HoldemController):
        _holdem(controller, act)
    elif isinstance(controller, HouseController):
        _house(controller, act)
    else:
        raise act.refuse("odds.unsupported")


def _percent(value: float) -> Decimal:
    """A share as percent with one decimal, for the catalogue to write per language (12.5, «12,5»)."""
    return Decimal(f"{100 * value:.1f}")


def _holdem(controller: HoldemController, act: Action) -> None:
    hand = controller._hand(act)
    if hand is None:
        raise act.refuse("odds.no_hand")
    if act.user not in hand.players:
        raise act.refuse("odds.not_in_hand")
    if act.user in hand.folded:
        raise act.refuse("odds.folded")
    opponents = [player for player in hand.players if player != act.user and player not in hand.folded]
    hole, board = hand.hole_cards(act.user), hand.board
    seed = f"{act.place.table_id}:{hand.hand_number}:{len(board)}:{act.user}"
    result = _equity(tuple(hole), tuple(board), len(opponents), seed)
    if result.method == "exact":
        how = act.t("odds.exact", deals=result.deals)
    else:
        how = act.t("odds.simulated", deals=result.deals, error=_percent(result.std_error))
    act.tell(act.user, "odds.equity", cards=format_cards(hole),
             board=act.t("odds.on_board", board=format_cards(board)) if board else "",
             equity=_percent(result.equity), win=_percent(result.win), tie=_percent(result.tie),
             opponents=len(opponents), how=how)


@functools.lru_cache(maxsize=1024)
def _equity(hole: tuple[Card, ...], board: tuple[Card, ...], opponents: int, seed: str) -> Equity:
    """The equity of a situation, computed once: the answer is seeded by the situation, so a player who asks again
    and again (a flood of `/odds`) costs one computation a street, not one each, and the table is not held up."""
    return equity(hole, board, opponents=opponents, rng=random.Random(seed), trials=TRIALS)


def _house(controller: HouseController, act: Action) -> None:
    rules = controller._rules(act)
    reports = precomputed(controller.game, rules)
    if reports is None:  # a paytable changed in code but not recomputed: say where the figure comes from
        raise act.refuse("odds.house_unknown", game=controller.game)
    tables = paytables(controller.game, rules)
    lines = []
    for report in reports:
        if report.method == "exact":
            how = act.t("odds.house_exact")
        else:
            how = act.t("odds.house_simulated", error=Decimal(f"{report.std_error:.2f}"), rounds=report.rounds)
        lines.append(act.t("odds.house_line", bet=act.t(f"odds.bet.{report.bet}"),
                           edge=Decimal(f"{report.house_edge:.2f}"), how=how))
        field = PAYTABLES[controller.game][report.bet]
        pays = ", ".join(f"{act.t(f'hand.{line_name(controller.game, hand)}')} ×{multiple}"
                         for hand, multiple in tables[field].items())
        lines.append(act.t("odds.paytable", what=act.t(f"odds.pays.{field}"), pays=pays))
    act.tell(act.user, "odds.house", game=act.t(f"game.{controller.game}"), lines="\n".join(lines),
             strategy=act.t(f"odds.strategy.{controller.game}"))
