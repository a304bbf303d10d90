"""`/odds`: a Hold'em player's equity in his hand, or the house edge of a house game's paytable, told privately.

Hold'em: the asker's equity against every other player still in the hand, whose cards he does not know (random
hands from the cards he has not seen: never the real ones). Exact when the deals are few (the river; a heads-up
turn), else simulated (`TRIALS` deals, seeded by the table, hand, street and player, so asking twice gives the same
figure and the dealing shuffle is not touched). House games: `engine.house.odds` under the documented strategy, exact
for Three Card Poker, else `HOUSE_ROUNDS` simulated rounds with a fixed seed; each figure is cached in memory per
game and paytable, so only the first question waits.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import TYPE_CHECKING

from bot import commands as cmd
from bot.games.context import Action
from engine.cards import format_cards
from engine.equity import equity
from engine.house.odds import OddsReport, odds

if TYPE_CHECKING:
    from bot.games import Controller
    from bot.games.holdem import HoldemController
    from bot.games.house import HouseController
    from bot.service import Service

TRIALS = 5_000
"""Simulated deals for a Hold'em equity when enumerating every deal would take too long."""

HOUSE_ROUNDS = 20_000
"""Simulated rounds for a house game's edge (its standard error is shown: about 1.5-2.5 points)."""

HOUSE_SEED = 2024
"""The fixed seed of the house games' simulations: the same table always shows the same figure."""

_house_cache: dict[tuple[str, str], list[OddsReport]] = {}


def odds_command(service: Service, act: Action, controller: Controller, command: cmd.Command) -> None:
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
    result = equity(hole, board, opponents=len(opponents), rng=random.Random(seed), trials=TRIALS)
    if result.method == "exact":
        how = act.t("odds.exact", deals=result.deals)
    else:
        how = act.t("odds.simulated", deals=result.deals, error=_percent(result.std_error))
    act.tell(act.user, "odds.equity", cards=format_cards(hole),
             board=act.t("odds.on_board", board=format_cards(board)) if board else "",
             equity=_percent(result.equity), win=_percent(result.win), tie=_percent(result.tie),
             opponents=len(opponents), how=how)


def house_reports(game: str, rules: object) -> list[OddsReport]:
    """A house game's figures for these rules, computed once per process and then read from memory."""
    to_dict = getattr(rules, "to_dict", None)
    key = (game, json.dumps(to_dict() if to_dict else None, sort_keys=True, default=str))
    if key not in _house_cache:
        _house_cache[key] = odds(game, HOUSE_ROUNDS, random.Random(HOUSE_SEED), rules)
    return _house_cache[key]


def _house(controller: HouseController, act: Action) -> None:
    reports = house_reports(controller.game, controller._rules(act))
    lines = []
    for report in reports:
        if report.method == "exact":
            how = act.t("odds.house_exact")
        else:
            how = act.t("odds.house_simulated", error=Decimal(f"{report.std_error:.1f}"), rounds=report.rounds)
        lines.append(act.t("odds.house_line", bet=act.t(f"odds.bet.{report.bet}"),
                           edge=Decimal(f"{report.house_edge:.2f}"), how=how))
    act.tell(act.user, "odds.house", game=act.t(f"game.{controller.game}"), lines="\n".join(lines),
             strategy=act.t(f"odds.strategy.{controller.game}"))
