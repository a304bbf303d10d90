"""The house edge `engine.house.odds` states for Texas Poker is a measurement anyone can repeat: it names its rounds,
its seed and its standard error, and a shorter run of the same seeded simulation agrees with it."""

import ast
import math
import random
import re
from pathlib import Path

import pytest

from engine.house import odds

CLAIM = re.compile(r"House edge ([\d.]+)% of the ANTE ± ([\d.]+) \(one standard error; "
                   r"95% interval\s+([\d.]+)-([\d.]+)%\)\s+over ([\d,]+) rounds "
                   r"\(`pokerbot odds texas --rounds (\d+) --seed (\d+)`\)")
CHECK_ROUNDS = 200_000


@pytest.mark.slow
def test_the_texas_house_edge_claimed_is_what_the_simulation_measures() -> None:
    source = Path(__file__).resolve().parents[3] / "engine" / "house" / "odds.py"  # a compiled module has no __doc__
    texas = (ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or "").split("- Texas Poker:", 1)[1]
    found = CLAIM.search(texas)
    assert found, "the Texas Poker figure must name its standard error, interval, rounds and seed"
    edge, error, low, high = (float(found.group(index)) for index in range(1, 5))
    rounds, command_rounds, seed = int(found.group(5).replace(",", "")), int(found.group(6)), int(found.group(7))
    assert rounds == command_rounds
    assert (low, high) == (round(edge - 1.96 * error, 1), round(edge + 1.96 * error, 1))
    # the first rounds of the stated run (one `sample` per round): the claim must lie within their error, and the
    # stated error must be what this spread gives over the stated number of rounds
    check = odds.texas(CHECK_ROUNDS, random.Random(seed))
    assert abs(check.house_edge - edge) < 3.3 * math.hypot(check.std_error, error)
    assert error == pytest.approx(check.std_error * math.sqrt(CHECK_ROUNDS / rounds), rel=0.15)
