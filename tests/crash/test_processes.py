"""Three bot processes on one PostgreSQL database, presses for the same table sent to any of them, one of them killed
with SIGKILL and restarted again and again, the last one left dead: no chip lost or made, no answered action lost or
applied twice, every timer fired exactly once (a dead process's by the others), and the tables play on."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.clock import SystemClock
from bot.service import Service
from bot.store import Store
from tests.crash.test_kill import snapshot_problems
from tests.crash.worker import ANN, BOB, place

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[postgres]')")

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
TABLES = 200
KILLS = 20
KILL_EVERY = (0.3, 1.2)
"""The seconds of presses between two kills, drawn at random: the kills land at random moments of the traffic, and the
process restarts while the others go on answering."""
PRESS_EVERY = 0.01
"""The pause between two requests sent (some 60 a second with the sending itself): enough that every table is
pressed many times, little enough that the processes' restarts are not starved of the machine's two cores."""
SPARES = 2
"""Processes started ahead of time, their imports done (the slow part of a start), each waiting to take over from a
killed one: its restart is then the store's opening and the service's start only."""
QUIET_SECONDS = 3.0
"""How long the processes run their timers alone, the presses over, before the last kill: the copies of every table's
timer that each process armed at its start come due and go (each turn and pause lasts a second), so that each table's
timer is then armed by the one process that fired the last (a stale copy due within `CLAIM_SLACK_SECONDS` of the
stored deadline would fire it too)."""
UNREPLACED_SECONDS = 5.0
"""How long the last process killed stays dead, nothing started in its place, before the tables settle: its timers
come due meanwhile, and only the other processes taking them over (`Service.watch_timers`) fire them (a restarted
process would re-arm them at its start)."""
SETTLE_SECONDS = 60.0
"""The longest the processes may take, once the kills are over, to fire the overdue timers and finish a hand at every
table (seconds on an idle machine; the bound is for a loaded one)."""
START_SECONDS = 60.0
"""The longest a process may take to start (import, migrations, resuming every table) on a loaded machine."""


class Worker:
    """One `tests.crash.worker` process, started without waiting for it and serving once told to `go`; threads read
    its answers into `answers` (after its `ready`) and keep its stderr."""

    def __init__(self, url: str, answers: queue.SimpleQueue[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "tests.crash.worker", url], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.went: float | None = None
        self.ready = threading.Event()
        self._stderr: list[str] = []
        self._threads = [threading.Thread(target=self._read, args=(answers,), daemon=True),
                         threading.Thread(target=self._keep_stderr, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _read(self, answers: queue.SimpleQueue[str]) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if not self.ready.is_set() and line.strip() == "ready":
                self.ready.set()
            else:
                answers.put(line.strip())

    def _keep_stderr(self) -> None:  # read as it comes, so that a chatty process never blocks on a full pipe
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr.append(line)

    def go(self) -> Worker:
        """Let it open the store and serve."""
        self.went = time.monotonic()
        self.send("go")
        return self

    def check_alive(self) -> None:
        """Fail the test if the process stopped by itself, or has not started `START_SECONDS` after `go`."""
        code = self.process.poll()
        assert code is None, f"a worker stopped by itself ({code}): {self.stderr()}"
        assert self.ready.is_set() or self.went is None or time.monotonic() - self.went < START_SECONDS, \
            f"a worker did not start: {self.stderr()}"

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # killed meanwhile: the request is unanswered
            self.process.stdin.write(line + "\n")

    def stderr(self) -> str:
        return "".join(self._stderr)

    def kill(self) -> str:
        """SIGKILL; what it wrote on stderr."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for thread in self._threads:
            thread.join()
        return self.stderr()


async def set_up(url: str) -> None:
    """Ann and Bob at each table, one-second turns without a time bank and one second between hands, the first hand
    dealt; the tables side by side (their transactions group-committed)."""
    store = await Store.open(url)
    service = Service(store, SystemClock())

    async def open_table(table: str) -> None:
        for actor in (ANN, BOB):
            assert (await service.handle(place(table), actor, "/join 200")).error is None
        for command in ("/set turn_seconds 1", "/set time_bank 0", "/set next_hand_seconds 1", "/deal"):
            assert (await service.handle(place(table), ANN, command)).error is None, command

    await asyncio.gather(*(open_table(table) for table in tables()))
    await store.close()


def tables() -> list[str]:
    return [f"mp{index}" for index in range(TABLES)]


def press_and_kill(url: str, workers: list[Worker], spares: list[Worker], answers: queue.SimpleQueue[str],
                   rng: random.Random, requests: dict[str, tuple[str, int]]) -> None:
    """Send presses and grants for random tables to random started processes, and every `KILL_EVERY` seconds kill
    one process (started or still starting, as long as another is up to answer) and let a spare take its place,
    `KILLS` times."""
    amounts = iter(range(1001, 10**9))
    kills = 0
    next_kill = time.monotonic() + rng.uniform(*KILL_EVERY)
    while kills < KILLS:
        for worker in workers:
            worker.check_alive()
        ready = [worker for worker in workers if worker.ready.is_set()]
        if ready:
            table = rng.choice(tables())
            request = f"r{len(requests)}"
            if rng.random() < 0.2:
                amount = next(amounts)
                requests[request] = ("grant", amount)
                rng.choice(ready).send(f"{request} grant {table} {amount}")
            else:
                requests[request] = ("step", 0)
                rng.choice(ready).send(f"{request} step {table}")
        victim = rng.randrange(PROCESSES)
        if time.monotonic() >= next_kill and any(worker in ready for worker in workers[:victim] + workers[victim + 1:]):
            err = workers[victim].kill()
            assert "Traceback" not in err, f"kill {kills + 1}: {err}"
            workers[victim] = spares.pop(0).go()
            spares.append(Worker(url, answers))
            kills += 1
            next_kill = time.monotonic() + rng.uniform(*KILL_EVERY)
        time.sleep(PRESS_EVERY)


async def audit(url: str) -> tuple[list[str], tuple[int, int]]:
    store = await Store.open(url)
    try:
        service = Service(store, SystemClock())
        problems = await store.read(lambda tx: tx.check_ledger() + snapshot_problems(service, tx))
        ended = await store.read(lambda tx: tx.db.execute(  # hands ended, and the tables that ended one
            "SELECT COUNT(*), COUNT(DISTINCT table_id) FROM hand_spans "
            "WHERE hand_id LIKE 'h%' AND ended_seq IS NOT NULL"
        ).fetchone())
    finally:
        await store.close()
    return problems, (int(ended[0]), int(ended[1]))


def settle(url: str) -> None:
    """With the processes left up, wait until no timer is overdue (those of a killed process are taken over) and every
    table has finished a hand; fail if that takes more than `SETTLE_SECONDS`."""
    deadline = time.monotonic() + SETTLE_SECONDS
    with psycopg.connect(url, autocommit=True) as connection:
        while True:
            overdue = connection.execute("SELECT COUNT(*) FROM timers WHERE due_at < %s",
                                         (time.time() - 3,)).fetchone()[0]
            unfinished = TABLES - connection.execute(
                "SELECT COUNT(DISTINCT table_id) FROM hand_spans WHERE hand_id LIKE 'h%' AND ended_seq IS NOT NULL"
            ).fetchone()[0]
            if (overdue == 0 and unfinished == 0) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    assert overdue == 0, "timers left unfired although processes are up"
    assert unfinished == 0, f"{unfinished} tables never finished a hand"


@pytest.mark.slow
def test_three_processes_one_killed_again_and_again_lose_nothing(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("CREATE TABLE fired (key TEXT NOT NULL, due_at DOUBLE PRECISION NOT NULL)")
    answers: queue.SimpleQueue[str] = queue.SimpleQueue()
    workers = [Worker(postgres_url, answers) for _ in range(PROCESSES)]  # importing while the tables are set up
    spares = [Worker(postgres_url, answers) for _ in range(SPARES)]
    rng = random.Random(18)
    requests: dict[str, tuple[str, int]] = {}
    try:
        asyncio.run(set_up(postgres_url))
        for worker in workers:
            worker.go()
        press_and_kill(postgres_url, workers, spares, answers, rng, requests)
        while not all(worker.ready.is_set() for worker in workers):
            for worker in workers:
                worker.check_alive()
            time.sleep(0.05)
        time.sleep(QUIET_SECONDS)
        err = workers[0].kill()  # the last victim, not replaced
        assert "Traceback" not in err, err
        time.sleep(UNREPLACED_SECONDS)
        settle(postgres_url)
    finally:
        errors = [worker.kill() for worker in workers + spares]
    assert not [err for err in errors if "Traceback" in err], errors
    answered: collections.Counter[str] = collections.Counter()
    acknowledged: list[int] = []
    odd = []
    while not answers.empty():
        line = answers.get()
        if len(line.split()) != 2:  # cut short by a kill: that request was not answered
            odd.append(line)
            continue
        request, outcome = line.split()
        answered[outcome] += 1
        kind, amount = requests[request]
        if kind == "grant" and outcome == "ok":
            acknowledged.append(amount)
    with psycopg.connect(postgres_url) as connection:
        granted = collections.Counter(row[0] for row in connection.execute(
            "SELECT amount FROM ledger WHERE reason = 'grant by ann'"))
        twice = connection.execute("SELECT key, due_at, COUNT(*) FROM fired GROUP BY key, due_at "
                                   "HAVING COUNT(*) > 1").fetchall()
        fired = connection.execute("SELECT COUNT(*) FROM fired").fetchone()[0]
    assert [amount for amount in acknowledged if granted[amount] != 1] == [], "an answered grant was lost or doubled"
    assert [amount for amount, count in granted.items() if count > 1] == [], "a grant was applied twice"
    assert twice == [], "a timer fired twice"
    problems, (hands_ended, tables_played) = asyncio.run(audit(postgres_url))
    assert problems == []
    assert len(odd) <= KILLS, odd
    assert answered["ok"] > 100 and len(acknowledged) > 20, answered
    assert fired > TABLES and hands_ended > TABLES, (fired, hands_ended)
    assert tables_played == TABLES, "a table never finished a hand"
