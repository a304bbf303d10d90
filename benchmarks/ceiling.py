"""What the smallest design could reach on this machine: the real Hold'em engine alone, and the engine with one
action-log row per action (the command and its events, chip moves included) group-committed 64 at a time through
plain sqlite3 — no parsing, no text, no ledger, history or timer rows, no asyncio.

`benchmarks/service.py` prints these beside the service's own figures, so that a target can be judged against what
any design built on this engine could do: the service can never be faster than the engine plus one log row.
Run alone: `python benchmarks/ceiling.py [--seconds 3]`.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path

import orjson
from holdem import random_action  # beside this file: the engine benchmark's player

from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event
from engine.holdem import Hand
from engine.holdem_types import SeatPlayer

TABLES = 1000
BATCH = 64


def per_second(seconds: float, *, log: Path | None) -> tuple[float, float]:
    """Actions per second, and CPU microseconds per action, over `seconds` of home-limit heads-up hands at
    `TABLES` tables picked at random; with `log`, each action also appends its row to an action log there."""
    rng = random.Random(1)
    structure = STRUCTURES["home-limit"]
    connection = None
    if log is not None:
        connection = sqlite3.connect(log, isolation_level=None)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("CREATE TABLE actions (table_id TEXT, seq INTEGER, body TEXT, PRIMARY KEY (table_id, seq))")
    hands: dict[int, Hand] = {}
    sequence = [0] * TABLES
    pending: list[tuple[str, int, str]] = []
    count = number = 0
    began, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() < began + seconds:
        table = rng.randrange(TABLES)
        hand = hands.get(table)
        events: list[Event]
        if hand is None or hand.is_over:
            number += 1
            hand, events = Hand.start([SeatPlayer("ann", 1000), SeatPlayer("bob", 1000)], number % 2, 20, structure,
                                      Deck(rng), number)
            hands[table], command = hand, "/deal"
        else:
            action = random_action(hand, rng)
            events = hand.act(hand.legal_actions().player, action)
            command = repr(action)
        count += 1
        if connection is not None:
            sequence[table] += 1
            pending.append((f"t{table}", sequence[table],
                            orjson.dumps({"c": command, "e": [event.to_dict() for event in events]}).decode()))
            if len(pending) == BATCH:
                connection.execute("BEGIN")
                connection.executemany("INSERT INTO actions VALUES (?, ?, ?)", pending)
                connection.execute("COMMIT")
                pending.clear()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    if connection is not None:
        connection.close()
    return count / elapsed, cpu / max(count, 1) * 1e6


def measure(seconds: float) -> dict[str, tuple[float, float]]:
    """Both figures, as `{name: (actions/s, CPU µs per action)}`."""
    folder = Path(tempfile.mkdtemp())
    return {"engine alone": per_second(seconds, log=None),
            "engine + one log row": per_second(seconds, log=folder / "log.db")}


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    for name, (rate, cpu) in measure(parser.parse_args().seconds).items():
        print(f"{name}: {rate:,.0f} actions/s, {cpu:.0f} µs of CPU per action")


if __name__ == "__main__":
    main()
