"""Hand evaluation speed: ours (scalar and numpy batch) against treys, phevaluator, pokerkit and eval7 in one run.

Run as `python benchmarks/evaluate.py` from the repository root. Every library gets the same random hands, converted to
its own card type before timing; the best of a few repeats counts. Prints evaluations per second and each library's
speed as a ratio to ours, plus the time our tables take to set up in a fresh interpreter.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from engine import fast_eval
from engine.cards import ALL_CARDS
from engine.hands import evaluate, strength

HAND_COUNT = 100_000
BATCH_COUNT = 1_000_000
SLOW_COUNT = 2_000  # for the pure-Python reference evaluators that take tens of microseconds a hand
REPEATS = 3


def rate(run: Callable[[], object], count: int) -> float:
    """Best evaluations per second over REPEATS runs of `run` (which evaluates `count` hands)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def candidates(hands: list[list[int]]) -> dict[str, Callable[[list[list[int]]], Callable[[], object]]]:
    """name -> a function preparing one library's cards and returning the timed loop."""

    def ours_indices(hands: list[list[int]]) -> Callable[[], object]:
        return lambda: [fast_eval.strength_of_indices(hand) for hand in hands]

    def ours_cards(hands: list[list[int]]) -> Callable[[], object]:
        cards = [[ALL_CARDS[index] for index in hand] for hand in hands]
        return lambda: [strength(hand) for hand in cards]

    def ours_evaluate(hands: list[list[int]]) -> Callable[[], object]:
        cards = [[ALL_CARDS[index] for index in hand] for hand in hands]
        return lambda: [evaluate(hand) for hand in cards]

    found: dict[str, Callable[[list[list[int]]], Callable[[], object]]] = {
        "ours strength_of_indices": ours_indices,
        "ours hands.strength (Card)": ours_cards,
        "ours hands.evaluate (Card)": ours_evaluate,
    }
    try:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_cards

        def phevaluator(hands: list[list[int]]) -> Callable[[], object]:
            ids = [PhCard(str(card)).id_ for card in ALL_CARDS]
            converted = [[ids[index] for index in hand] for hand in hands]
            return lambda: [evaluate_cards(*hand) for hand in converted]

        found["phevaluator evaluate_cards"] = phevaluator
    except ImportError:
        pass
    try:
        import treys

        def treys_eval(hands: list[list[int]]) -> Callable[[], object]:
            evaluator = treys.Evaluator()
            ints = [treys.Card.new(str(card)) for card in ALL_CARDS]
            converted = [([ints[i] for i in hand[:2]], [ints[i] for i in hand[2:]]) for hand in hands]
            return lambda: [evaluator.evaluate(hole, board) for hole, board in converted]

        found["treys Evaluator.evaluate"] = treys_eval
    except ImportError:
        pass
    try:
        import eval7

        def eval7_eval(hands: list[list[int]]) -> Callable[[], object]:
            cards = [eval7.Card(str(card)) for card in ALL_CARDS]
            converted = [[cards[index] for index in hand] for hand in hands]
            return lambda: [eval7.evaluate(hand) for hand in converted]

        found["eval7 evaluate"] = eval7_eval
    except ImportError:
        pass
    try:
        import pokerkit

        def pokerkit_eval(hands: list[list[int]]) -> Callable[[], object]:
            cards = [next(iter(pokerkit.Card.parse(str(card)))) for card in ALL_CARDS]
            converted = [([cards[i] for i in hand[:2]], [cards[i] for i in hand[2:]]) for hand in hands]
            return lambda: [pokerkit.StandardHighHand.from_game(hole, board) for hole, board in converted]

        found["pokerkit StandardHighHand"] = pokerkit_eval
    except ImportError:
        pass
    return found


SLOW = {"ours hands.evaluate (Card)", "treys Evaluator.evaluate", "pokerkit StandardHighHand"}


def table(size: int) -> list[tuple[str, float]]:
    """Evaluations per second of random `size`-card hands, ours first."""
    rng = random.Random(size)
    hands = [rng.sample(range(52), size) for _ in range(HAND_COUNT)]
    rows = []
    array = np.array(hands * (BATCH_COUNT // HAND_COUNT), dtype=np.int8)
    fast_eval.strength_batch(array[:10])
    rows.append(("ours strength_batch (numpy int8)", rate(lambda: fast_eval.strength_batch(array), len(array))))
    wide = array.astype(np.int64)
    rows.append(("ours strength_batch (numpy int64)", rate(lambda: fast_eval.strength_batch(wide), len(wide))))
    for name, prepare in candidates(hands).items():
        subset = hands[:SLOW_COUNT] if name in SLOW else hands
        rows.append((name, rate(prepare(subset), len(subset))))
    return rows


def setup_times() -> str:
    """Our table set-up in a fresh interpreter: import, first-use load, numpy tables for the batch path."""
    code = (
        "import time; t0 = time.perf_counter(); import engine.fast_eval as f; t1 = time.perf_counter(); "
        "f.load_tables(); t2 = time.perf_counter(); import numpy; t3 = time.perf_counter(); "
        "f._numpy_tables(); t4 = time.perf_counter(); "
        "print(f'import {1e3*(t1-t0):.1f} ms, load_tables {1e3*(t2-t1):.1f} ms, "
        "numpy import {1e3*(t3-t2):.1f} ms, numpy tables {1e3*(t4-t3):.1f} ms')"
    )
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def show(size: int, rows: Sequence[tuple[str, float]]) -> None:
    reference = dict(rows)["ours strength_of_indices"]
    print(f"\n{size}-card hands")
    print(f"{'evaluator':38} {'hands/s':>14} {'ours scalar is x faster':>24}")
    for name, per_second in rows:
        print(f"{name:38} {per_second:14,.0f} {reference / per_second:24.2f}")


def main() -> None:
    """Print the tables."""
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    print("table set-up:", setup_times())
    for size in (7, 5):
        show(size, table(size))


if __name__ == "__main__":
    main()
