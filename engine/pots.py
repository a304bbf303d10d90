"""Main and side pots built from what each player put in, and how a pot splits between winners."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "split_pot"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the players (in table order) who may win it."""

    amount: int
    eligible: tuple[str, ...]

    # written out, not generated: see bot/compiled.py
    def __init__(self, amount: int, eligible: tuple[str, ...]) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)


def build_pots(contributions: Mapping[str, int], live: Sequence[str]) -> list[Pot]:
    """Main pot first, then side pots, from each player's total contribution to the hand.

    `live` lists the players still in the hand (not folded) in the order their eligibility should be reported.
    Each distinct contribution level of a live player closes a pot; folded players' chips fill the pots they
    reached. Chips above the highest live level (not possible once uncalled bets are returned) join the last pot.
    """
    levels = sorted({contributions[player] for player in live if contributions[player] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(paid, level) - min(paid, previous) for paid in contributions.values())
        eligible = tuple(player for player in live if contributions[player] >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(paid - min(paid, previous) for paid in contributions.values())
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(live)))
    return pots


def split_pot(amount: int, winners: Sequence[str]) -> dict[str, int]:
    """Share `amount` equally; odd chips go one each to the winners in the given order (first left of the button)."""
    share, odd = divmod(amount, len(winners))
    return {player: share + (1 if index < odd else 0) for index, player in enumerate(winners)}
