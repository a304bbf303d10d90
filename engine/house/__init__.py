"""House games against the dealer (RULES.md §2–§5), picked by name through `GAMES`."""

from __future__ import annotations

from engine.house.three_card import ThreeCardRound, ThreeCardRules

GAMES: dict[str, type] = {
    "three-card": ThreeCardRound,
}
"""The house games by name: each is a round class with `new(config)`, `place_bets`, `deal`, `act`, `to_dict`…"""

__all__ = ["GAMES", "ThreeCardRound", "ThreeCardRules"]
