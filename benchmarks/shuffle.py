"""Shuffles of a 52-card deck per second from the bot's random source (`bot.randomness.SecureRandom`), beside the
standard library's `random.SystemRandom` (a system call a draw) and a seeded `random.Random` (the tests' source, not
secure), measured in the same run; prints each rate and its ratio to `SystemRandom`'s.
Run: `python benchmarks/shuffle.py [seconds]`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.randomness import SecureRandom
from engine.cards import ALL_CARDS, Deck


def deals_per_second(rng: random.Random, seconds: float) -> float:
    """Decks shuffled (`engine.cards.Deck`, as a hand is dealt) per second from `rng`."""
    deals, stop = 0, time.perf_counter() + seconds
    began = time.perf_counter()
    while time.perf_counter() < stop:
        for _ in range(100):
            Deck(rng)
        deals += 100
    return deals / (time.perf_counter() - began)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    sources = {"SystemRandom": random.SystemRandom(), "SecureRandom": SecureRandom(), "seeded Random": random.Random(1)}
    rates = {name: deals_per_second(rng, seconds) for name, rng in sources.items()}
    for name, rate in rates.items():
        print(f"{name:>14}: {rate:,.0f} shuffles of {len(ALL_CARDS)} cards/s ({rate / rates['SystemRandom']:.1f}x "
              "SystemRandom's)")


if __name__ == "__main__":
    main()
