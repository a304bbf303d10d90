"""What the smallest design could reach on this machine: the real Hold'em engine alone, and the engine with one
action-log row per action (the command and its events, chip moves included) group-committed 64 at a time through
plain sqlite3 — no parsing, no text, no ledger, history or timer rows, no asyncio. And the same engine and row as
the bot must run them (`through_store`): a button's payload parsed, the action applied in a job of the real store
(its writer thread and group commit), the turn timer re-armed in the real scheduler and the presser woken, 64
pressers at once — every piece the service cannot do without, and nothing else (no controller, ledger, history,
timer rows or text).

`benchmarks/service.py` prints these beside the service's own figures, so that a target can be judged against what
any design built on this engine could do: the service can never be faster than the engine plus one log row.
Run alone: `python benchmarks/ceiling.py [--seconds 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from pathlib import Path

import orjson
from holdem import random_action  # beside this file: the engine benchmark's player

from bot import commands as cmd
from bot.clock import SystemClock
from bot.scheduler import Scheduler
from bot.store import Store, Tx
from engine import holdem as engine
from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event
from engine.holdem import Hand
from engine.holdem_types import SeatPlayer

TABLES = 1000
BATCH = 64
THROUGH_STORE = "the same through the store, parsed and timed"
"""The name of the figure of `through_store`, the least any design of the bot's shape costs per action."""


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


_COMMANDS: dict[type[engine.Action], str] = {engine.Fold: "/fold", engine.Check: "/check", engine.Call: "/call",
                                             engine.AllIn: "/allin", engine.Bet: "/bet", engine.RaiseTo: "/raise"}


def _payload(hand: Hand, step: int, action: engine.Action) -> str:
    """The button payload the bot would draw for `action` (hand key, decision, command)."""
    amount = getattr(action, "amount", None)
    return f"h{hand.hand_number}|s{step}|{_COMMANDS[type(action)]}" + ("" if amount is None else f" {amount}")


def _engine_action(command: cmd.Command) -> engine.Action:
    """The engine action a parsed command asks for (as the Hold'em controller maps it)."""
    if isinstance(command, (cmd.Bet, cmd.Raise)):
        assert command.amount is not None
        return (engine.Bet if isinstance(command, cmd.Bet) else engine.RaiseTo)(command.amount)
    simple: dict[type[cmd.Command], type[engine.Fold | engine.Check | engine.Call | engine.AllIn]] = {
        cmd.Fold: engine.Fold, cmd.Check: engine.Check, cmd.Call: engine.Call, cmd.AllIn: engine.AllIn}
    return simple[type(command)]()


async def through_store(seconds: float, path: Path, concurrency: int = 64) -> tuple[float, float]:
    """Actions per second and CPU µs per action of the engine and one log row per action run as the bot must run
    them (see the module's docstring), `concurrency` pressers at `TABLES` tables."""
    store = await Store.open(path)
    scheduler = Scheduler(SystemClock(), lambda key, table_id, payload: asyncio.sleep(0))
    structure = STRUCTURES["home-limit"]

    def create(tx: Tx) -> None:
        for table in range(TABLES):
            tx.create_table(f"t{table}", f"c{table}")

    await store.transact(create, now=time.time())
    hands: dict[int, Hand] = {}
    sequence = [0] * TABLES
    count = 0
    stop = time.perf_counter() + seconds

    async def presser(index: int) -> None:
        nonlocal count
        rng = random.Random(index)
        while time.perf_counter() < stop:
            table = rng.randrange(index, TABLES, concurrency)  # each table is pressed by one presser at a time
            hand = hands.get(table)
            payload = None
            if hand is not None and not hand.is_over:
                payload = _payload(hand, sequence[table], random_action(hand, rng))

            def job(tx: Tx, table: int = table, payload: str | None = payload) -> None:
                events: list[Event]
                if payload is None:
                    number = sequence[table] + 1
                    dealt, events = Hand.start([SeatPlayer("ann", 1000), SeatPlayer("bob", 1000)], number % 2, 20,
                                               structure, Deck(rng), number)
                    hands[table], command = dealt, "/deal"
                else:
                    pressed = cmd.parse_payload(payload)
                    dealt = hands[table]
                    events = dealt.act(dealt.legal_actions().player, _engine_action(pressed.command))
                    command = payload
                sequence[table] += 1
                tx.log_action(f"t{table}", sequence[table],
                              orjson.dumps({"c": command, "e": [event.to_dict() for event in events]}).decode())

            await store.transact(job, now=time.time())
            scheduler.arm(f"holdem:t{table}", f"t{table}", time.time() + 30, {"kind": "turn"})
            count += 1

    began, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(presser(index) for index in range(concurrency)))
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    await store.close()
    return count / elapsed, cpu / max(count, 1) * 1e6


async def measure(seconds: float) -> dict[str, tuple[float, float]]:
    """The three figures, as `{name: (actions/s, CPU µs per action)}`."""
    folder = Path(tempfile.mkdtemp())
    return {"engine alone": per_second(seconds, log=None),
            "engine + one log row": per_second(seconds, log=folder / "log.db"),
            THROUGH_STORE: await through_store(seconds, folder / "store.db")}


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    for name, (rate, cpu) in asyncio.run(measure(parser.parse_args().seconds)).items():
        print(f"{name}: {rate:,.0f} actions/s, {cpu:.0f} µs of CPU per action")


if __name__ == "__main__":
    main()
