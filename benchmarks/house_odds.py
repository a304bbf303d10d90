"""Simulated rounds per second of the house games' odds, and the fast table against `engine.hands.strength`."""

import random
import time

from engine.cards import ALL_CARDS
from engine.hands import strength
from engine.house import odds


def timed(label: str, function, count: int) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    function()
    per_second = count / (time.perf_counter() - started)
    print(f"{label:<40} {per_second:12,.0f} /s")
    return per_second


def main() -> None:
    table = odds.five_card_table()
    rng = random.Random(1)
    hands = [rng.sample(range(52), 5) for _ in range(50_000)]
    fast = timed("five-card table lookups", lambda: [table.strength(*hand) for hand in hands], len(hands))
    base = timed("engine.hands.strength", lambda: [strength([ALL_CARDS[i] for i in hand]) for hand in hands],
                 len(hands))
    print(f"table / hands.strength: {fast / base:.1f}x")
    for game in ("caribbean", "russian", "texas"):
        timed(f"{game} simulated rounds", lambda game=game: odds.odds(game, 200_000, random.Random(2)), 200_000)


if __name__ == "__main__":
    main()
