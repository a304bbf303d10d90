"""Actions per second and latency of several bot processes on one PostgreSQL database, beside SQLite's one process.

Each configuration runs in fresh child processes on a fresh database: SQLite with one process, then PostgreSQL with 1
to `--processes` processes. Every process serves its own share of the `--tables` Hold'em tables (each in a chat of
its own: as Discord shards or a webhook balancer by chat would route them) and presses buttons on them from
`--concurrency` tasks for `--seconds`; all of a configuration's processes start together. Printed per configuration:
actions/s over all processes, p50/p99 of one action (its commit included), and the ratio to SQLite's one process.
Run: `python benchmarks/processes.py --db postgresql://… [--processes 2] [--tables 200] [--seconds 5]`, or the same
options on `benchmarks/service.py`. The ledger is checked after each configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from bot.clock import SystemClock  # noqa: E402
from bot.i18n import DEFAULT_LANGUAGE, text  # noqa: E402
from bot.output import Actor, Place, Reply  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store import Store  # noqa: E402

PLAYERS = (Actor("ann", "Ann"), Actor("bob", "Bob"))


def next_payload(reply: Reply, rng: random.Random) -> tuple[Actor, str] | None:
    """A random action button of the player to act (not all-in, not a pre-action: those are other players'), or None
    between hands."""
    table = reply.table
    if table is None or table.to_act is None:
        return None
    buttons = [button for button in table.buttons
               if not button.private and not button.payload.endswith("|allin") and "|pre " not in button.payload]
    actor = next(actor for actor in PLAYERS if actor.user_id == table.to_act)
    return actor, rng.choice(buttons).payload


async def press_next(service: Pressable, place: Place, last: Reply, rng: random.Random) -> tuple[bool, Reply]:
    """Press a random button of the player to act at `place`, as `last` showed it (or deal between hands); whether it
    was a deal, and the reply."""
    move = next_payload(last, rng)
    if move is None:
        return True, await service.handle(place, PLAYERS[0], "/deal")
    return False, await service.press(place, move[0], move[1])


async def buy_in_again(service: Pressable, place: Place, refused: Reply) -> int:
    """Both players buy in again at `place` after the deal `refused` (someone went broke and stood up): the actions
    this took (a grant and a join each). Nothing (0) when the deal was refused because a hand is in play already (the
    next hand's timer dealt it since the presser last saw the table): nobody is broke."""
    if refused.error == text(DEFAULT_LANGUAGE, "holdem.hand_in_play"):
        return 0
    for actor in PLAYERS:
        await service.handle(place, PLAYERS[0], f"/grant {actor.user_id} 500")
        await service.handle(place, actor, "/join 500")
    return 2 * len(PLAYERS)


class Pressable(Protocol):
    """What the players press: the service, or (`interpreters.py`) its stand-in in another interpreter."""

    def handle(self, place: Place, actor: Actor, message: str) -> Awaitable[Reply]: ...

    def press(self, place: Place, actor: Actor, payload: str) -> Awaitable[Reply]: ...


async def seat_and_deal(service: Pressable, places: list[Place]) -> dict[Place, Reply]:
    """Pictures off, both players seated and a hand dealt at each of `places`, one after the other: each table's
    reply to its deal."""
    dealt: dict[Place, Reply] = {}
    for place in places:
        await service.handle(place, PLAYERS[0], "/set pictures off")
        for actor in PLAYERS:
            await service.handle(place, actor, "/join 1000")
        dealt[place] = await service.handle(place, PLAYERS[0], "/deal")
    return dealt


async def press_for(service: Pressable, last_reply: dict[Place, Reply], seconds: float, concurrency: int,
                    seed: int) -> tuple[int, float, list[float]]:
    """`concurrency` players pressing the buttons of the tables in `last_reply` (each as its last reply showed it,
    kept up to date there) for `seconds`: the actions, the seconds they took and each press's latency."""
    places = list(last_reply)
    latencies: list[float] = []
    actions = 0

    async def act_once(place: Place, rng: random.Random) -> None:
        nonlocal actions
        began = time.perf_counter()
        dealt, reply = await press_next(service, place, last_reply[place], rng)
        latencies.append(time.perf_counter() - began)
        actions += 1
        if reply.table is not None:
            last_reply[place] = reply
        if dealt and reply.error is not None:
            bought = await buy_in_again(service, place, reply)  # not `+= await`: it would drop counts made meanwhile
            actions += bought

    stop = time.perf_counter() + seconds

    async def worker(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        mine = places[index::concurrency] or places
        while time.perf_counter() < stop:
            await act_once(rng.choice(mine), rng)

    began = time.perf_counter()
    await asyncio.gather(*(worker(index) for index in range(concurrency)))
    return actions, time.perf_counter() - began, latencies


async def child(database: str, first: int, last: int, seconds: float, concurrency: int, start_at: float) -> None:
    """One bot process: set up tables `first`..`last - 1`, wait for `start_at`, press buttons; print the figures."""
    store = await Store.open(database)
    service = Service(store, SystemClock(), rng=random.Random(first))
    last_reply = await seat_and_deal(service, [Place(f"chat{index}", f"chat{index}/poker")
                                               for index in range(first, last)])
    await asyncio.sleep(max(0.0, start_at - time.time()))
    actions, elapsed, latencies = await press_for(service, last_reply, seconds, concurrency, first)
    await store.close()
    print(json.dumps({"actions": actions, "elapsed": elapsed, "latencies": latencies}))


def fresh_schema(url: str) -> str:
    """A URL whose connections work in a new, empty schema of the database at `url`."""
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-csearch_path={schema}')}"


def measure(database: str, processes: int, tables: int, seconds: float, concurrency: int) -> tuple[float, list[float]]:
    """Run `processes` children on `database` together; total actions/s and every action's latency."""
    asyncio.run(_migrate(database))  # once, before the children race to
    start_at = time.time() + 2.0 + tables * 0.01
    share = -(-tables // processes)
    children = [
        subprocess.Popen([sys.executable, __file__, "--child", database, str(index * share),
                          str(min(tables, (index + 1) * share)), str(seconds), str(concurrency), str(start_at)],
                         stdout=subprocess.PIPE, text=True, cwd=ROOT)
        for index in range(processes)
    ]
    results = []
    for process in children:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a benchmark process failed ({process.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    rate = sum(result["actions"] / result["elapsed"] for result in results)
    latencies = sorted(latency for result in results for latency in result["latencies"])
    problems = asyncio.run(_check(database))
    if problems:
        raise SystemExit(f"the ledger does not hold: {problems[:3]}")
    return rate, latencies


async def _migrate(database: str) -> None:
    await (await Store.open(database)).close()


async def _check(database: str) -> list[str]:
    store = await Store.open(database)
    try:
        return await store.read(lambda tx: tx.check_ledger())
    finally:
        await store.close()


def _ms(latencies: list[float], quantile: float) -> str:
    return f"{latencies[min(len(latencies) - 1, int(len(latencies) * quantile))] * 1000:.1f} ms"


def run(url: str, processes: int, tables: int, seconds: float, concurrency: int) -> None:
    """SQLite with one process, then PostgreSQL with 1..`processes`; a line each."""
    folder = Path(tempfile.mkdtemp())
    print(f"{tables} tables, {concurrency} pressing tasks per process, {seconds:g} s each")
    base, latencies = measure(str(folder / "bot.db"), 1, tables, seconds, concurrency)
    print(f"SQLite, 1 process: {base:,.0f} actions/s, p50 {_ms(latencies, 0.5)}, p99 {_ms(latencies, 0.99)}")
    for count in range(1, processes + 1):
        rate, latencies = measure(fresh_schema(url), count, tables, seconds, concurrency)
        print(f"PostgreSQL, {count} process{'es' if count > 1 else ''}: {rate:,.0f} actions/s, "
              f"p50 {_ms(latencies, 0.5)}, p99 {_ms(latencies, 0.99)}, ratio to SQLite {rate / base:.2f}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options this benchmark adds (`benchmarks/service.py` takes them too)."""
    parser.add_argument("--db", help="a PostgreSQL URL: measure several processes on it beside SQLite's one")
    parser.add_argument("--processes", type=int, default=2, help="measure PostgreSQL with 1 to this many processes")


def main() -> None:
    """Parse the arguments and run (or, with `--child`, be one of the measured processes)."""
    if sys.argv[1:2] == ["--child"]:
        database, first, last, seconds, concurrency, start_at = sys.argv[2:8]
        asyncio.run(child(database, int(first), int(last), float(seconds), int(concurrency), float(start_at)))
        return
    parser = argparse.ArgumentParser(description=__doc__)
    add_arguments(parser)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    if not args.db:
        parser.error("--db postgresql://… is required")
    run(args.db, args.processes, args.tables, args.seconds, args.concurrency)


if __name__ == "__main__":
    main()
