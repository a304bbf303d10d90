"""Simulated rounds per second of the house games' odds, and `engine.fast_eval` against `engine.hands.strength`.

The odds simulations score hands with `engine.fast_eval.strength_of_indices` (5 to 7 cards in one lookup); the
baseline is `engine.hands.strength` on the same hands, measured in the same run.
"""

import random
import time
from itertools import combinations

from engine.cards import ALL_CARDS
from engine.fast_eval import strength_of_indices
from engine.hands import strength
from engine.house import odds


def timed(label: str, function, count: int) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    function()
    per_second = count / (time.perf_counter() - started)
    print(f"{label:<40} {per_second:12,.0f} /s")
    return per_second


def main() -> None:
    rng = random.Random(1)
    strength_of_indices(range(5))  # load the tables outside the timing
    fives = [rng.sample(range(52), 5) for _ in range(50_000)]
    sevens = [rng.sample(range(52), 7) for _ in range(20_000)]
    fast = timed("fast_eval, five cards", lambda: [strength_of_indices(hand) for hand in fives], len(fives))
    base = timed("hands.strength, five cards", lambda: [strength([ALL_CARDS[i] for i in hand]) for hand in fives],
                 len(fives))
    print(f"fast_eval / hands.strength (5 cards): {fast / base:.1f}x")
    fast7 = timed("fast_eval, seven cards", lambda: [strength_of_indices(hand) for hand in sevens], len(sevens))
    best7 = timed("best of 21 fives by fast_eval, seven", lambda: [max(strength_of_indices(five)
                  for five in combinations(hand, 5)) for hand in sevens], len(sevens))
    print(f"one 7-card lookup / best of 21 five-card lookups: {fast7 / best7:.1f}x")
    for game in ("caribbean", "russian", "texas"):
        timed(f"{game} simulated rounds", lambda game=game: odds.odds(game, 200_000, random.Random(2)), 200_000)


if __name__ == "__main__":
    main()
