"""Kill the bot with SIGKILL at random moments during play, restart it, and check that no chip was lost or made.

The driver's timers run and its wall clock steps an hour back or forward during hands and the tournament, and between
runs: no timer may fail, and timers must fire (their replies are heard) across the runs. Some kills land while a
no-limit hand waits on the run-it-twice question (its answers and its 15-second timer in the database).
"""

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.clock import SystemClock
from bot.service import Service
from bot.store import Store, Tx
from engine.holdem import Hand
from engine.house import GAMES

KILLS = 50
ROOT = Path(__file__).resolve().parents[2]


def start_driver(db: Path | str, seed: int) -> tuple[subprocess.Popen[str], int, int]:
    """The running driver, how many timer replies it delivered while starting, and how many of them started a time
    bank."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "tests.crash.driver", str(db), str(seed)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line, heard, banks = process.stdout.readline(), 0, 0
    while line.startswith("heard"):  # a timer (or a voided hand) spoke while the driver was starting
        banks += line.strip() == "heard bank"
        line, heard = process.stdout.readline(), heard + 1
    if line.strip() != "ready":
        process.kill()
        raise AssertionError(f"driver did not start: {line!r} {process.stderr.read() if process.stderr else ''}")
    return process, heard, banks


def snapshot_problems(service: Service, tx: Tx) -> list[str]:
    """Each table's saved state (its snapshot and its action log replayed) agrees with the ledger: stacks, pots and
    boxes hold what the resumed state says."""
    problems = []
    for table_id in tx.table_ids():
        loaded = service.stored_table(tx, table_id)
        assert loaded is not None
        config, state = loaded
        state = state or {}
        if config.get("game") == "holdem":
            hand = Hand.from_dict(state["hand"]) if state.get("hand") else None
            stacks = hand.stacks if hand else {seat["id"]: seat["stack"] for seat in state.get("seats", [])}
            for player, chips in stacks.items():
                held = tx.balance(f"stack:{table_id}:{player}")
                if held != chips:
                    problems.append(f"{table_id}: {player} has {chips} in the snapshot, {held} in the ledger")
            pot = tx.balance(f"pot:{table_id}")
            if pot != (hand.pot_total if hand else 0):
                problems.append(f"{table_id}: pot {pot} in the ledger")
        else:
            round_ = GAMES[config["game"]].from_dict(state["round"]) if state.get("round") else None
            on_boxes = sum(tx.balances(f"box:{table_id}:").values())
            expected = sum(sum(box.stakes.values()) for box in round_.boxes) if round_ else 0
            if on_boxes != expected:
                problems.append(f"{table_id}: {on_boxes} chips on boxes, the round says {expected}")
    return problems


async def audit(db: Path | str) -> tuple[list[str], int]:
    store = await Store.open(db)
    try:
        service = Service(store, SystemClock())
        problems = await store.read(lambda tx: tx.check_ledger() + snapshot_problems(service, tx))
        rows = await store.read(lambda tx: len(tx.every_move()))
    finally:
        await store.close()
    return problems, rows


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_killed_at_random_points_loses_nothing(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    db = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "crash.db"
    rng = random.Random(2024)
    progress, heard, banks, asked = [], 0, 0, 0
    for kill in range(KILLS):
        process, heard_starting, banks_starting = start_driver(db, seed=kill)
        time.sleep(rng.uniform(0.0, 0.25))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate()
        assert process.returncode == -signal.SIGKILL, err
        assert "Traceback" not in err, err
        progress.append(out.count("ok "))
        heard += heard_starting + out.count("heard")
        banks += banks_starting + out.count("heard bank")
        asked += out.count("asked")
        problems, _ = asyncio.run(audit(db))
        assert problems == [], f"after kill {kill + 1}: {problems}"
    _, rows = asyncio.run(audit(db))
    assert sum(progress) > KILLS, "the driver barely played: the kills did not interrupt real work"
    assert heard > 0, "no timer ever fired"
    assert banks > 0, "no time bank ever ran: the kills never caught one running"
    assert asked > 0, "no kill came while a hand waited on the run-it-twice question"
    assert rows > 100
