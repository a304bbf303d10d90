"""Run it twice (RULES.md §1a): the question to the players, and each pot split between two boards.

Each pot is split into two halves, the odd chip to the first run, and each half is awarded on its own board by the
usual rules (the best hand among the pot's players still contending; a tie splits the half, odd chips from the
button's left, as `split_pot` does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.pots import Pot, split_pot

__all__ = ["ANSWER_SECONDS", "RunAward", "RunQuestion", "award_runs", "halves"]

ANSWER_SECONDS = 15
"""How long the players have to agree to run it twice; the board is run once when an answer is missing then."""


@dataclass(slots=True)
class RunQuestion:
    """"Once or twice?" put to `asked` (the players still in, table order); `answers` holds who said twice."""

    asked: tuple[str, ...]
    answers: dict[str, bool] = field(default_factory=dict)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The players who have not answered yet."""
        return tuple(player for player in self.asked if player not in self.answers)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"asked": list(self.asked), "answers": dict(self.answers)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunQuestion:
        """Rebuild from `to_dict`."""
        return cls(tuple(data["asked"]), dict(data["answers"]))


@dataclass(frozen=True, slots=True)
class RunAward:
    """One pot's share on one board: `run` (1 or 2; 0 when the hand ran once), the pot, its chips on this board,
    and who won how much."""

    run: int
    pot_index: int
    amount: int
    eligible: tuple[str, ...]
    winners: dict[str, int]

    # written out, not generated: see bot/compiled.py
    def __init__(self, run: int, pot_index: int, amount: int, eligible: tuple[str, ...],
                 winners: dict[str, int]) -> None:
        object.__setattr__(self, "run", run)
        object.__setattr__(self, "pot_index", pot_index)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "winners", winners)


def halves(amount: int, runs: int) -> tuple[int, ...]:
    """A pot's chips per run: the whole pot for one run; two halves, the odd chip to the first, for two."""
    if runs == 1:
        return (amount,)
    return (amount - amount // 2, amount // 2)


def award_runs(pots: Sequence[Pot], strengths: Sequence[Mapping[str, int]],
               contenders: Sequence[str]) -> list[RunAward]:
    """Award each pot on each board: `strengths` holds each contender's hand strength per board (one mapping per
    run), `contenders` the players who may win (still in, not mucked), from the button's left. Runs come in order:
    every pot of the first board, then every pot of the second."""
    runs = len(strengths)
    awards: list[RunAward] = []
    for run, board in enumerate(strengths):
        for index, pot in enumerate(pots):
            amount = halves(pot.amount, runs)[run]
            eligible = [player for player in contenders if player in pot.eligible]
            best = max(board[player] for player in eligible)
            winners = [player for player in eligible if board[player] == best]
            awards.append(RunAward(run + 1 if runs > 1 else 0, index, amount, pot.eligible,
                                   split_pot(amount, winners)))
    return awards
