"""How much the exact fewest-transfers search costs against the plain greedy, and what a clock query costs.

Run: `python benchmarks/settlement.py`. Prints ratios measured side by side in this run (no absolute thresholds).
"""

from __future__ import annotations

import random
import timeit
from datetime import UTC, datetime, timedelta

from engine import settlement
from engine.clock import Clock
from engine.schedule import doubling


def balances(count: int, rng: random.Random) -> dict[str, int]:
    values = [rng.randint(-10_000, 10_000) for _ in range(count - 1)]
    return {f"p{i:02}": value for i, value in enumerate([*values, -sum(values)])}


def main() -> None:
    rng = random.Random(1)
    for count in (6, 9, settlement.EXACT_LIMIT):
        cases = [balances(count, rng) for _ in range(20)]
        exact = timeit.timeit(lambda cases=cases: [settlement.fewest_transfers(case) for case in cases], number=3)
        greedy = timeit.timeit(
            lambda cases=cases: [settlement._greedy(sorted((p, v) for p, v in case.items() if v)) for case in cases],
            number=3,
        )
        per_call = exact / 60 * 1e3
        print(f"{count:2} players: exact / greedy = {exact / greedy:7.1f}x  ({per_call:.2f} ms per settlement)")
    clock = Clock(doubling("Europe/Moscow"))
    start = datetime(2024, 5, 4, 17, tzinfo=UTC)
    clock.start(start)
    for minutes in range(10, 100, 20):
        clock.pause(start + timedelta(minutes=minutes))
        clock.resume(start + timedelta(minutes=minutes + 5))
    now = start + timedelta(hours=3)
    query = timeit.timeit(lambda: clock.level_at(now), number=2000)
    scheduler = timeit.timeit(lambda: clock.next_announcement_at(now), number=2000)
    baseline = timeit.timeit(lambda: now.astimezone(clock.schedule.zone).isoformat(), number=2000)
    print(f"clock level_at / (astimezone+isoformat) = {query / baseline:.0f}x ({query / 2:.3f} ms per call)")
    print(f"clock next_announcement_at / (astimezone+isoformat) = {scheduler / baseline:.0f}x "
          f"({scheduler / 2:.3f} ms per call)")


if __name__ == "__main__":
    main()
