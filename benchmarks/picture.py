"""How long one table picture takes to render, against saving an empty canvas of the same size as PNG.

The budget is 50 ms per picture (a command's reply waits for it). Measured in the same run: the baseline (a blank
felt-coloured canvas saved as PNG: the cost no picture can avoid), a full ten-seat Hold'em table at the river, a
house round's table at the settlement with the longest names and notes the layout is made for (24 and 20 letters,
Cyrillic, six cards a box, so each text is measured and shrunk to fit), and a player's own cards.
Run: `python benchmarks/picture.py [--rounds 200]`.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable

from PIL import Image

from bot.render.picture import FELT, HandView, SeatView, TableView, font, layout, render_hand, render_table

HOLDEM = TableView(
    title="Hold'em — hand #128 · blinds 50/100 · no-limit",
    board=("Ah", "Kd", "7c", "Ts", "2h"),
    pot=4_250,
    pot_label="Pot",
    seats=tuple(
        SeatView(f"Player number {i}", stack=1_000 * i, bet=100 * (i % 3), note="all-in" if i == 4 else "",
                 is_button=i == 2, is_to_act=i == 5, is_folded=i in (7, 8))
        for i in range(1, 11)
    ),
    footer="▶ Player number 5 to act",
)
HOUSE = TableView(
    title="Russian Poker — round 12",
    board_slots=0,
    dealer=("9s", "Jd", "Qc", "Kh", "2s"),
    dealer_label="Dealer",
    seats=tuple(SeatView(f"Александра Константинова · бокс {b}", bet=20_000, note=f"рассчитан +{i}0000",
                         cards=("As", "Ad", "Kc", "Kh", "3s", "2d"))
                for i in range(1, 4) for b in (1, 2)),
)
OWN = HandView("Your cards", (("Hand", ("Ah", "Kh")), ("Board", ("Qh", "Jh", "Th", "2c", "3d"))))


def blank(size: tuple[int, int]) -> Callable[[], bytes]:
    def save() -> bytes:
        out = io.BytesIO()
        Image.new("RGB", size, FELT).save(out, format="PNG", compress_level=3)
        return out.getvalue()

    return save


def timed(work: Callable[[], bytes], rounds: int) -> tuple[float, float]:
    """Median and 99th percentile in milliseconds."""
    work()  # warm: fonts loaded, code paths touched
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    font(22)  # the first font load (a file read) is paid once per process, not per picture
    base, _ = timed(blank(layout(HOLDEM).size), rounds)
    print(f"baseline: empty {layout(HOLDEM).size} canvas saved as PNG: {base:.2f} ms")
    for name, work in (("Hold'em, 10 seats, river", lambda: render_table(HOLDEM)),
                       ("house round, 6 boxes settled, longest names", lambda: render_table(HOUSE)),
                       ("own cards (private)", lambda: render_hand(OWN))):
        median, p99 = timed(work, rounds)
        verdict = "within" if p99 < 50 else "OVER"
        print(f"{name}: median {median:.2f} ms, p99 {p99:.2f} ms = {median / base:.1f}x the baseline "
              f"({verdict} the 50 ms budget), {len(work()) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
