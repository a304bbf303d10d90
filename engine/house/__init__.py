"""House games against the dealer (RULES.md §2–§5), picked by name through `GAMES`."""

from __future__ import annotations

from engine.house.caribbean import CaribbeanRound, CaribbeanRules
from engine.house.common import HouseRound
from engine.house.russian import RussianRound, RussianRules
from engine.house.texas import TexasRound, TexasRules
from engine.house.three_card import ThreeCardRound, ThreeCardRules

GAMES: dict[str, type[HouseRound]] = {
    "texas": TexasRound,
    "russian": RussianRound,
    "caribbean": CaribbeanRound,
    "three-card": ThreeCardRound,
}
"""The house games by name: each is a round class with `new(config)`, `place_bets`, `deal`, `act`, `to_dict`…"""

__all__ = ["GAMES", "CaribbeanRound", "CaribbeanRules", "HouseRound", "RussianRound", "RussianRules", "TexasRound",
           "TexasRules", "ThreeCardRound", "ThreeCardRules"]
