"""The house games' edges for the tables' paytables, computed once beforehand so `/odds` answers at once.

Three Card Poker's are exact (`engine.house.odds.three_card_*`); the others were simulated with
`pokerbot odds GAME --rounds 2000000 --seed 2024 --json` (standard errors 0.16-0.25 points, under the 0.3 the chat
promises). Each entry keeps the rules it was computed for, limits aside (an ANTE limit or a maximum payout does not
enter the figures, nor what `NOT_IN_FIGURES` names), and is used only for a table whose rules are the same:
`tests/bot/test_odds_practice.py` checks that each game's default rules have their entry and that a fresh computation
agrees. After changing a paytable, run the command again and update the entry.
"""

from __future__ import annotations

from typing import Any

from engine.house.odds import STRATEGIES, OddsReport

SIMULATED_ROUNDS = 2_000_000

_THREE_CARD_PAYS = {"pairplus": {"straight_flush": 40, "three_of_a_kind": 20, "straight": 5, "flush": 4, "pair": 1},
                    "ante_bonus": {"straight_flush": 4, "three_of_a_kind": 3, "straight": 1}, "qualifying_rank": 12}

PRECOMPUTED: dict[str, tuple[tuple[dict[str, Any], tuple[tuple[str, str, float, float, int], ...]], ...]] = {
    # game: ((rules without limits, ((bet, method, house edge %, standard error, rounds or deals), ...)), ...): the
    # default rules first, then the table options that change the figures (`/set ante_bonus always`)
    "three-card": (
        ({**_THREE_CARD_PAYS, "ante_bonus_always": False},
         (("pairplus", "exact", 7.927601809954751, 0.0, 22_100),
          ("ante", "exact", 3.8952959252440746, 0.0, 407_170_400))),
        ({**_THREE_CARD_PAYS, "ante_bonus_always": True},
         (("pairplus", "exact", 7.927601809954751, 0.0, 22_100),
          ("ante", "exact", 3.8254696313877434, 0.0, 407_170_400))),
    ),
    "caribbean": ((
        {"paytable": {"high_card": 1, "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
                      "full_house": 7, "four_of_a_kind": 20, "straight_flush": 50, "royal_flush": 100},
         "suit_tiebreak": True, "blind_box": None},
        (("ante", "simulation", 5.3204, 0.1593698424166881, SIMULATED_ROUNDS),),
    ),),
    "russian": ((
        {"paytable": {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
                      "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ace_king": 1},
         "blind_box": 3, "second_combination": True, "dealer_game": True},
        (("ante", "simulation", 15.10725, 0.17197913535867876, SIMULATED_ROUNDS),),
    ),),
    "texas": ((
        {"paytable": {"pair": 1, "two_pair": 1, "three_of_a_kind": 2, "straight": 3, "flush": 4, "full_house": 6,
                      "four_of_a_kind": 15, "straight_flush": 50, "royal_flush": 100},
         "half_payout": True},
        (("ante", "simulation", 21.566, 0.2548630834820924, SIMULATED_ROUNDS),),
    ),),
}

NOT_IN_FIGURES: dict[str, tuple[str, ...]] = {
    "caribbean": ("bonus", "exchange_fee", "re_exchange_limit", "re_exchange_fee"),
}
"""Rules a game's figures do not depend on, besides the limits: Caribbean Poker's strategy never exchanges (so the
fees and the re-exchange do not enter), and its figure is the ANTE's (the bonus bet has none)."""


def rules_key(game: str, rules: Any) -> dict[str, Any]:
    """The part of a house table's rules that its edges depend on: everything but the limits and `NOT_IN_FIGURES`."""
    ignored = ("limits", *NOT_IN_FIGURES.get(game, ()))
    return {name: value for name, value in rules.to_dict().items() if name not in ignored}


def precomputed(game: str, rules: Any) -> list[OddsReport] | None:
    """The game's figures for these rules, or None when they were not computed beforehand."""
    key = rules_key(game, rules)
    figures = next((figures for rules_then, figures in PRECOMPUTED.get(game, ()) if rules_then == key), None)
    if figures is None:
        return None
    return [OddsReport(game, bet, STRATEGIES[game] if bet != "pairplus" else "none needed", method, edge, error,
                       rounds)
            for bet, method, edge, error, rounds in figures]
