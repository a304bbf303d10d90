"""Actions per second through parser → service → engine → SQLite commit, with 1,000 Hold'em tables active.

In the same run it measures the physical limit: single-row committed updates per second through Python's sqlite3
module directly, at the same settings (WAL, synchronous=NORMAL). Prints the ratio, p50/p99 latency of one action,
and memory per idle table; CPU time per action beside that of the smallest design (`benchmarks/ceiling.py`: the
engine alone, and with one action-log row per action), which no design on this engine can beat, and that design
with everything a Hold'em action does (the rewrite's cost).
A mixed load then sends 5% reads (`/stats`, `/top` in a club whose history holds
`--history-hands` hands) among the actions and reports the actions' p99 latency (each one a commit) against the same
load without reads (with `--writer-reads`, also against the same reads run the old way, in the writer's thread).
Run: `python benchmarks/service.py [--tables 1000] [--seconds 5] [--concurrency 64] [--history-hands 10000]`.
With `--db postgresql://… [--processes 2]` it runs `benchmarks/processes.py` instead: 1 and 2 processes on PostgreSQL
beside SQLite's one process.

`--scale-tables 1000,10000` runs instead the measurement at each of these many tables, each with a hand dealt and its
turn timer armed, the real scheduler running: the store floor of this design's rows, saturated actions/s with the
default and the tuned collector (`bot.collector`) and the CPU per action beside the smallest design's
(`benchmarks/ceiling.py`), two prototypes (no text, no history) against the real phases either side, a third that
writes nothing (the action path's Python alone), p99 with actions arriving at random at 25% and 50% of saturation, the
longest collector pause (timed with `gc.callbacks`) and a full collection after those phases, start-up with every table
stored, the catch-up of every turn timer after an hour of downtime (after a clean shutdown, which snapshots every table
with logged actions, and after a crash, which leaves their logs to replay), and resident memory per idle table. A failed
ledger check fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

import ceiling  # beside this file: the smallest design, bare and complete
import processes  # beside this file: several processes on PostgreSQL (`--db`, `--processes`)
from arguments import at_least_one, more_than_zero, whole_numbers  # beside this file
from processes import PLAYERS, buy_in_again, press_next  # one random player for both benchmarks

from bot import history
from bot.clock import SystemClock
from bot.collector import THRESHOLDS, FullCollections, full_collection, starting_up, tune_collector
from bot.games.context import Action
from bot.output import Place, Reply
from bot.render import Narration
from bot.render import holdem as render_holdem
from bot.scheduler import Scheduler
from bot.service import Service
from bot.store import Store, Tx, configure
from bot.store.tx import HISTORY_ONLY, Known, dumps

PROTOTYPES_MEASURED = Path(sys.modules[Service.__module__].__file__ or "").suffix == ".py"
"""Whether the bot runs interpreted: compiled (mypyc), its callers reach the functions and methods a prototype
replaces directly, not through the replacement, and the prototype would measure the bot as it is."""
CLUB = Place("club", "club/poker")
"""The chat the reads of the mixed load ask about: its history holds many hands."""
READ_SHARE = 0.05
CALL_ENTRY = dumps({"e": {"k": "c", "c": {"t": "Call"}}, "n": 1.8e9, "a": ["ann", "Ann", None, False], "l": "en",
                    "o": False, "s": {"organizers": ["ann"], "locale": "en"}, "r": [1000, "Ann", "Bob", "Ann"],
                    "d": []})
"""A call's action-log row (0.3 KB), as the service writes it."""
CALL_EVENT = {"kind": "PlayerCalled", "visible_to": None, "player": "ann", "amount": 20,
              "moves": [{"source": "stack:ann", "target": "pot", "amount": 20, "reason": "call"}]}
"""A call's event, as its log row holds it."""
DEFAULT_THRESHOLDS = gc.get_threshold()
"""Python's own collector thresholds, which each run at scale starts from (the one before it tuned them)."""


def raw_commits_per_second(path: Path, seconds: float) -> float:
    """Single-row UPDATE + COMMIT in a loop through sqlite3, WAL and synchronous=NORMAL."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)")
    connection.execute("INSERT INTO t VALUES (1, 0)")
    count, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        connection.execute("BEGIN")
        connection.execute("UPDATE t SET value = value + 1 WHERE id = 1")
        connection.execute("COMMIT")
        count += 1
    connection.close()
    return count / seconds


def store_floor_per_second(path: Path, seconds: float, tables: int, batch: int = 64, hand_actions: int = 8) -> float:
    """The rows one betting action writes in this design, through the store's `Tx` with no parsing, engine or text:
    a chip move (two balance updates), one action-log row (0.3 KB, as a call's) holding its two events and the move,
    and the turn timer, each action in its savepoint, `batch` actions per commit; every `hand_actions`-th
    action ends its hand and writes the table's snapshot (1.5 KB) and a log row with its events alone. What any
    action costs at least."""
    connection = sqlite3.connect(path, isolation_level=None)
    configure(connection)
    known = Known()
    state = dumps({"hand": {"deck": ["As"] * 44, "padding": "x" * 1200}})
    connection.execute("BEGIN")
    for index in range(tables):
        tx = Tx(connection, 0.0, known)
        tx.ensure_chat(f"c{index}")
        tx.save_table_json(f"t{index}", f"c{index}", "{}", state)
        tx.move(f"c{index}", f"mint:c{index}", f"stack:t{index}:ann", 10**9, "grant")
        known.adopt(tx.learned)
    connection.execute("COMMIT")
    count, began = 0, time.perf_counter()
    while time.perf_counter() < began + seconds:
        connection.execute("BEGIN IMMEDIATE")
        for index in range(count, count + batch):
            table, chat = f"t{index % tables}", f"c{index % tables}"
            seq = index // tables + 1
            connection.execute("SAVEPOINT job")
            tx = Tx(connection, float(index), known)
            betting_rows(tx, table, chat, index)
            if seq % hand_actions:
                tx.log_action(table, seq, CALL_ENTRY)
            else:
                tx.save_snapshot(table, chat, "{}", state, seq)
                tx.log_action(table, seq, HISTORY_ONLY)  # its events, the history
            connection.execute("RELEASE job")
            known.adopt(tx.learned)  # as the store does: each pot account is created once
        connection.execute("COMMIT")
        count += batch
    elapsed = time.perf_counter() - began
    connection.close()
    return count / elapsed


def betting_rows(tx: Tx, table: str, chat: str, number: int) -> None:
    """The rows of betting action `number` at `table` but its log row or snapshot: a chip move (two balances, the
    move itself for the log row), two events for the log row and the turn timer re-armed (the stack and pot accounts
    must exist or be created in `tx`)."""
    tx.move(chat, f"stack:{table}:ann", f"pot:{table}", 20, "call", table_id=table, hand_id="h1", logged=True)
    tx.record(table, "h1", [CALL_EVENT, CALL_EVENT])
    tx.set_timer(f"holdem:{table}", table, float(number), {"kind": "turn", "step": number})


def club_hand(number: int) -> list[dict[str, Any]]:
    """The 24 history rows of a three-player Hold'em hand played to a showdown (~3.5 KB, as the bot writes them);
    the winner changes with `number`."""
    players = ["ann", "bob", "cat"]
    winner = players[number % 3]
    stake = {"source": "stack:ann", "target": "pot", "amount": 20, "reason": "call"}
    acted = {"kind": "PlayerCalled", "visible_to": None, "moves": [stake], "player": "ann", "amount": 20,
             "is_all_in": False}
    return [
        {"kind": "HandStarted", "visible_to": None, "moves": [], "hand_number": number, "players": players,
         "button": "ann", "stacks": dict.fromkeys(players, 400), "level": 20, "structure": "home-limit"},
        *({"kind": "HoleCardsDealt", "visible_to": player, "moves": [], "player": player, "cards": ["Ad", "7h"]}
          for player in players),
        *({"kind": "BoardDealt", "visible_to": None, "moves": [], "street": "flop", "cards": ["4s", "Ts", "3d"],
           "board": ["4s", "Ts", "3d"]} for _ in range(3)),
        *(acted for _ in range(15)),
        {"kind": "PotAwarded", "visible_to": None, "moves": [], "pot_index": 0, "amount": 360,
         "eligible": players, "winners": {winner: 360}, "category": "straight"},
        {"kind": "HandEnded", "visible_to": None, "moves": [],
         "net": {player: 240 if player == winner else -120 for player in players},
         "stacks": {player: 640 if player == winner else 280 for player in players}},
    ]


async def fill_club(service: Service, hands: int) -> None:
    """Open the club's table and write `hands` finished hands into its history (a few thousand per transaction)."""
    await service.handle(CLUB, PLAYERS[0], "/balance")
    for first in range(1, hands + 1, 2000):
        def write(tx: Tx, first: int = first) -> None:
            for number in range(first, min(first + 2000, hands + 1)):
                tx.add_history(CLUB.table_id, f"h{number}", club_hand(number))
                tx.summarise_hand(CLUB.chat_id, CLUB.table_id, f"h{number}")  # as the hand's end does

        await service.store.transact(write, now=time.time())


async def run(tables: int, seconds: float, concurrency: int, pictures: bool = False, history_hands: int = 10000,
              writer_reads: bool = False) -> None:
    """Set up the tables, then press buttons on them from `concurrency` tasks for `seconds`.

    Table pictures are off unless asked for: drawing one takes milliseconds of CPU after the commit, which is not the
    path this measures (parse → engine → ledger → commit); `--pictures` shows what they cost on top.
    """
    folder = Path(tempfile.mkdtemp())
    raw = raw_commits_per_second(folder / "raw.db", min(seconds, 3.0))
    floor = store_floor_per_second(folder / "floor.db", min(seconds, 3.0), tables)
    bounds = await ceiling.measure(min(seconds, 3.0))

    store = await Store.open(folder / "bot.db")
    service = Service(store, SystemClock())  # the bot's own random source: deals cost what they cost in play
    # Each table in its own chat (a friend group each): wallets are per chat, so players at one table never run
    # short because they bought in at another.
    places = [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)]
    load = Load(service, places)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for place in places:
        if pictures:
            for actor in PLAYERS:
                await service.handle(place, actor, "/join 1000")
        else:
            await load.seat(place)
    idle = tracemalloc.take_snapshot()
    tracemalloc.stop()
    idle_bytes = sum(stat.size_diff for stat in idle.compare_to(before, "filename"))
    for place in places:
        await load.deal(place)
    tune_collector()  # as the bot does once it has started: what set-up built is never traversed again

    began, cpu_began = time.perf_counter(), time.process_time()
    rate, latencies = await load.saturate(seconds, concurrency)
    elapsed = time.perf_counter() - began
    actions, refused = load.actions, load.refused
    cpu_per_action = (time.process_time() - cpu_began) / max(actions, 1) * 1e6

    # Open loop: actions arrive at random (Poisson) at half the saturated rate, each at a random table, as players in
    # many chats would press buttons; latency here is what a player feels on a busy but not overloaded bot.
    offered = rate / 2
    rng = random.Random(7)
    open_latencies = await load.open_loop(offered, seconds, rng)

    # Mixed load: the same arrivals, 5% of them reads of the club's statistics; the latency of the other actions is
    # the commit latency players feel. With `writer_reads`, once more with the reads run in the writer's thread, as
    # they were before the read-only connection (`Store.read` runs there): every commit then queues behind them.
    await fill_club(service, history_hands)

    async def read_once(in_writer: bool) -> float:
        began = time.perf_counter()
        if in_writer:
            await service.store.read(lambda tx: history.chat_stats(tx, CLUB.chat_id))
        else:
            await service.handle(CLUB, PLAYERS[0], rng.choice(("/stats", "/top")))
        return time.perf_counter() - began

    async def mixed(in_writer: bool) -> tuple[list[float], list[float]]:
        commits: list[asyncio.Task[float]] = []
        reads: list[asyncio.Task[float]] = []
        due = began = time.perf_counter()
        while due < began + seconds:
            due += rng.expovariate(offered)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if rng.random() < READ_SHARE:
                reads.append(asyncio.create_task(read_once(in_writer)))
            else:
                commits.append(asyncio.create_task(load.act_once(rng.choice(places), rng)))
        return sorted(await asyncio.gather(*commits)), sorted(await asyncio.gather(*reads))

    with_reads, read_latencies = await mixed(in_writer=False)
    with_writer_reads = (await mixed(in_writer=True))[0] if writer_reads else []
    problems = await store.read(lambda tx: tx.check_ledger())
    await store.close()

    print(f"tables: {tables}, concurrency: {concurrency}, pictures: {'on' if pictures else 'off'}, "
          f"run: {elapsed:.1f} s")
    print(f"raw sqlite3 single-row commits/s (WAL, synchronous=NORMAL): {raw:,.0f}")
    print(f"service actions/s (parse, engine, ledger, snapshot, history, commit): {rate:,.0f}")
    print(f"ratio to raw: {rate / raw:.2f} ({refused} of {actions} actions refused)")
    print(f"store floor (an action's rows through Tx, no game logic, 64 per commit): {floor:,.0f}/s, "
          f"{floor / raw:.2f} of raw; the service reaches {rate / floor:.2f} of it")
    print(f"CPU per action (both threads): service {cpu_per_action:,.0f} µs; {_beside_bounds(cpu_per_action, bounds)}")
    print(f"latency at saturation ({concurrency} players pressing at once): p50 {_ms(latencies, 0.5)}, "
          f"p99 {_ms(latencies, 0.99)}")
    print(f"latency at half that load ({offered:,.0f} actions/s arriving at random): p50 {_ms(open_latencies, 0.5)}, "
          f"p99 {_ms(open_latencies, 0.99)}")
    base = _quantile(open_latencies, 0.99)
    print(f"mixed load, {READ_SHARE:.0%} reads (/stats, /top over {history_hands:,} hands): commit p99 "
          f"{_ms(with_reads, 0.99)}, {_quantile(with_reads, 0.99) / base:.2f} of the p99 without reads "
          f"({_ms(open_latencies, 0.99)}); reads p50 {_ms(read_latencies, 0.5)}, p99 {_ms(read_latencies, 0.99)}")
    if writer_reads:
        print(f"the same reads in the writer's thread (as before the read-only connection): commit p99 "
              f"{_ms(with_writer_reads, 0.99)}, {_quantile(with_writer_reads, 0.99) / base:.2f} of the p99 without "
              "reads")
    print(f"memory per idle table (two seated players, Python objects): {idle_bytes / tables / 1024:.1f} KB")
    print(f"ledger check: {'ok' if not problems else problems[:3]}")
    if problems:
        raise SystemExit("the ledger check failed")


def _beside_bounds(cpu_per_action: float, bounds: dict[str, tuple[float, float]]) -> str:
    """The smallest design's bounds (`ceiling.measure`: CPU per action and actions/s) and the service's multiple of
    the two run as the bot must: the bare one, and the one with everything a Hold'em action does."""
    return ("; ".join(f"{name} {cpu:,.0f} µs ({per_second:,.0f}/s)" for name, (per_second, cpu) in bounds.items())
            + f" — the service takes {cpu_per_action / bounds[ceiling.THROUGH_STORE][1]:.1f}x the bare one and "
            f"{cpu_per_action / bounds[ceiling.COMPLETE][1]:.1f}x the complete one")


def _quantile(sorted_seconds: list[float], quantile: float) -> float:
    if not sorted_seconds:
        return float("nan")
    return sorted_seconds[min(len(sorted_seconds) - 1, int(len(sorted_seconds) * quantile))]


def _ms(sorted_seconds: list[float], quantile: float) -> str:
    return f"{_quantile(sorted_seconds, quantile) * 1000:.1f} ms"


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=at_least_one("tables"), default=1000)
    parser.add_argument("--seconds", type=more_than_zero, default=5.0)
    parser.add_argument("--concurrency", type=at_least_one("players"), default=64)
    parser.add_argument("--pictures", action="store_true", help="draw the table pictures too")
    parser.add_argument("--history-hands", type=int, default=10000, help="hands in the history the reads go over")
    parser.add_argument("--writer-reads", action="store_true",
                        help="also run the reads in the writer's thread, as before, for comparison")
    parser.add_argument("--scale-tables", type=whole_numbers(1), default=[],
                        help="instead, the runs at these many tables (comma-separated: 1000,10000) with the scheduler "
                             "running (issue 17's figures)")
    parser.add_argument("--gc-thresholds", type=whole_numbers(0, exactly=3), default=list(THRESHOLDS),
                        help="the tuned collector's thresholds in the run at scale (default: bot.collector's)")
    processes.add_arguments(parser)  # --db postgresql://… --processes N: benchmarks/processes.py's measurement
    args = parser.parse_args()
    print(interpreter())
    if args.db:
        processes.run(args.db, args.processes, args.tables, args.seconds, args.concurrency)
        return
    if args.scale_tables:
        first, second, third = args.gc_thresholds
        for tables in args.scale_tables:
            asyncio.run(run_at_scale(tables, args.seconds, args.concurrency, (first, second, third)))
        return
    asyncio.run(run(args.tables, args.seconds, args.concurrency, args.pictures, args.history_hands,
                    args.writer_reads))


def interpreter() -> str:
    """Which Python runs the benchmark, and whether its interpreter runs from a shared library: its build moves every
    figure here (on the build machine pyenv's 3.11, built without profile-guided optimisation and run from
    `libpython3.11.so`, ran the service at 0.9x the rate of Debian's 3.11 and the engine at 0.7-0.85x:
    benchmarks/NOTES.md), so a run names it."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:  # not Linux
        linked = "its library unknown"
    else:
        linked = "from libpython (a shared library)" if "libpython" in maps else "libpython linked in"
    return f"Python {platform.python_version()}, {Path(sys.executable).resolve()}, {linked}"


# --- at scale: many tables with the real scheduler running -------------------------------------------------------


class Pauses:
    """The garbage collector's pauses, timed through `gc.callbacks`: in wall time, and in the collecting thread's CPU
    time (on a shared machine the wall time also counts waiting for a core)."""

    def __init__(self) -> None:
        self.longest = self.total = self.longest_cpu = 0.0
        self.count = 0
        self.generation = 0
        """The generation of the longest pause."""
        self._began = self._began_cpu = 0.0
        gc.callbacks.append(self._on_collect)

    def _on_collect(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - self._began
        if took > self.longest:
            self.longest, self.generation = took, info["generation"]
        self.longest_cpu = max(self.longest_cpu, time.thread_time() - self._began_cpu)
        self.total += took
        self.count += 1

    def take(self) -> tuple[float, float, int, int, float]:
        """(longest, total, count, generation of the longest, longest in CPU time) since the last take, and start
        afresh."""
        taken = (self.longest, self.total, self.count, self.generation, self.longest_cpu)
        self.longest = self.total = self.longest_cpu = 0.0
        self.count = 0
        return taken


class ShiftedClock:
    """The real clock, `seconds` later: a restart after that much downtime (a `bot.clock.Clock` of its own, as no
    class here may subclass the bot's compiled `SystemClock`)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def now(self) -> float:
        """The wall clock, shifted."""
        return time.time() + self.seconds

    def monotonic(self) -> float:
        """The monotonic clock, shifted alike."""
        return time.monotonic() + self.seconds


async def python_bytes_per_idle_table(folder: Path, count: int = 500, warm_up: int = 50) -> float:
    """Python objects each idle table adds (two seated players), measured with `tracemalloc` over `count` tables
    seated after `warm_up` others (what the first tables build once is not counted), on a store of its own: the
    stable figure beside the resident one, which the allocator's arenas and SQLite's page cache make vary."""
    store = await Store.open(folder / "memory.db")
    service = Service(store, SystemClock(), rng=random.Random(4))
    places = [Place(f"memory{index}", f"memory{index}/poker") for index in range(warm_up + count)]
    load = Load(service, places)
    await ceiling.in_parallel(places[:warm_up], load.seat)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    await ceiling.in_parallel(places[warm_up:], load.seat)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    await store.close()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename")) / count


def resident_bytes() -> int:
    """The process's resident memory (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Load:
    """Players pressing the buttons of many tables (every call into the service counts as an action), each press on
    the table message as they last saw it: the reply to their last press, or what a timer showed since (the next hand
    dealt, a turn timed out), as an adapter would have shown it in the chat."""

    def __init__(self, service: Service, places: list[Place]) -> None:
        self.service = service
        self.places = places
        self.last: dict[Place, Reply] = {}
        self.actions = self.refused = 0
        service.subscribe("", self._shown)

    async def _shown(self, place: Place, reply: Reply) -> None:
        """A timer's reply, as the table's adapter shows it: its table message is the one the players press next.
        Without it, at 10,000 tables (a press at each every few seconds) the next hand's timer dealt one hand in five
        before its presser came back, who then pressed "deal" on a hand in play, was refused, and bought in again."""
        self._see(place, reply)

    def _see(self, place: Place, reply: Reply) -> None:
        """The players see `reply`'s table message, if it has one (a refusal leaves the one they saw)."""
        if reply.table is not None:
            self.last[place] = reply

    async def seat(self, place: Place) -> None:
        """Pictures off and both players seated at `place`."""
        await self.service.handle(place, PLAYERS[0], "/set pictures off")
        for actor in PLAYERS:
            await self.service.handle(place, actor, "/join 1000")

    async def set_up(self, width: int = 64) -> None:
        """Every table seated and dealt a hand, `width` tables at a time, then the collector tuned as the bot tunes it
        once it has started: what the set-up built is frozen, traversed again only by a full collection."""
        await ceiling.in_parallel(self.places, self.seat, width=width)
        await ceiling.in_parallel(self.places, self.deal, width=width)
        tune_collector()

    async def deal(self, place: Place) -> None:
        """Deal a hand at `place` (its turn timer armed). Refused when the next hand's timer, armed once two players
        sat down, dealt it first (a set-up of 10,000 tables outlasts its 8 s): the players then see that hand."""
        self._see(place, await self.service.handle(place, PLAYERS[0], "/deal"))

    async def act_once(self, place: Place, rng: random.Random) -> float:
        """Press a button of the player to act at `place` (or deal); the time until the reply."""
        began = time.perf_counter()
        dealt, reply = await press_next(self.service, place, self.last.get(place, Reply()), rng)
        took = time.perf_counter() - began
        self.actions += 1
        self.refused += reply.error is not None
        self._see(place, reply)
        if dealt and reply.error is not None:
            bought = await buy_in_again(self.service, place, reply)  # not `+= await`: drops counts made meanwhile
            self.actions += bought
        return took

    async def press(self, count: int, concurrency: int) -> None:
        """`count` presses more, `concurrency` players pressing at once (see `_players`)."""
        target = self.actions + count
        await self._players(concurrency, lambda: self.actions < target, [])

    async def saturate(self, seconds: float, concurrency: int) -> tuple[float, list[float]]:
        """`concurrency` players pressing at once for `seconds` (see `_players`): actions/s and the sorted
        latencies."""
        latencies: list[float] = []
        first, stop = self.actions, time.perf_counter() + seconds
        began = time.perf_counter()
        await self._players(concurrency, lambda: time.perf_counter() < stop, latencies)
        return (self.actions - first) / (time.perf_counter() - began), sorted(latencies)

    async def _players(self, concurrency: int, going_on: Callable[[], bool], latencies: list[float]) -> None:
        """Players pressing while `going_on()`, each at every `concurrency`th table (no more players than tables) and
        choosing from a random source seeded by its number (the same presses for the same tables and counts); each
        press's time until its reply goes into `latencies`."""

        async def player(index: int) -> None:
            rng = random.Random(index)
            mine = self.places[index::concurrency]
            while going_on():
                latencies.append(await self.act_once(rng.choice(mine), rng))

        await asyncio.gather(*(player(index) for index in range(min(concurrency, len(self.places)))))

    async def open_loop(self, rate: float, seconds: float, rng: random.Random) -> list[float]:
        """Actions arriving at random (Poisson) at `rate` per second, each at a random table: sorted latencies."""
        arrivals: list[asyncio.Task[float]] = []
        due = began = time.perf_counter()
        while due < began + seconds:
            due += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            arrivals.append(asyncio.create_task(self.act_once(rng.choice(self.places), rng)))
        return sorted(await asyncio.gather(*arrivals))


@contextlib.contextmanager
def text_not_rendered() -> Iterator[None]:
    """A measured prototype: Hold'em actions without their table text and story lines (each action still parses,
    applies, writes its rows and commits), as if text were rendered only when a platform shows it."""
    with (mock.patch.object(render_holdem, "table_text", lambda *args, **kwargs: ""),
          mock.patch.object(render_holdem, "narrate", lambda *args, **kwargs: Narration())):
        yield


@contextlib.contextmanager
def history_not_written() -> Iterator[None]:
    """A measured prototype: every action as it is but for its events, neither made plain nor written into its log
    row (and so no hand figures from them, and no log row at a snapshot): what the history costs, its Python and SQL
    and the pages it adds to each commit."""
    with mock.patch.object(Action, "record", lambda self, hand_id, events: None):
        yield


@contextlib.contextmanager
def nothing_written() -> Iterator[None]:
    """A measured prototype: every action as it is, but the store's writes of an action do nothing (its ledger moves,
    history, timer, action-log and snapshot rows and hand figures), so the
    Python of the action path around them is all that is left. No design of the store can beat it: what the action
    path reaches with writes that cost nothing. The live tables then differ from the store, so it runs last."""
    with contextlib.ExitStack() as patches:
        for name in ("move", "record", "set_timer", "clear_timer", "log_timers", "log_action", "save_snapshot",
                     "settle_hand", "summarise_hand"):
            patches.enter_context(mock.patch.object(Tx, name, lambda *args, **kwargs: None))
        yield


def _print_prototypes(lazy_rate: float, unrecorded_rate: float, unwritten_rate: float,
                      real: tuple[float, float, float, float]) -> None:
    """The prototypes' rates, each beside the real phases it is compared with (`run_at_scale`)."""
    rate, real_after, real_last, real_again = real
    print(f"prototype, the table text and the story lines not rendered (text only when shown): {lazy_rate:,.0f} "
          f"actions/s ({2 * lazy_rate / (rate + real_after):.2f} of the real phases before and after it: {rate:,.0f}, "
          f"{real_after:,.0f})")
    print(f"prototype, no history rows (the rows' whole cost): {unrecorded_rate:,.0f} actions/s "
          f"({2 * unrecorded_rate / (real_after + real_last):.2f} of the real phases before and after it: "
          f"{real_after:,.0f}, {real_last:,.0f})")
    print(f"prototype, nothing written (the action path's Python alone, with writes that cost nothing): "
          f"{unwritten_rate:,.0f} actions/s ({unwritten_rate / real_again:.2f} of the real phase just before it, "
          f"{real_again:,.0f}; {unwritten_rate / 8000:.2f} of issue 17's 8,000)")


async def run_at_scale(tables: int, seconds: float, concurrency: int,
                       thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """Many tables, each with a hand dealt and its turn timer armed, the real scheduler running: saturated rate with
    the default and the tuned collector, p99 at a quarter and half of it (the median of the real saturated phases),
    collector pauses, start-up with every table stored, catch-up of every turn timer after an hour of downtime, and
    resident memory per idle table."""
    gc.set_threshold(*DEFAULT_THRESHOLDS)  # the default collector's phase must not inherit an earlier run's tuning
    folder = Path(tempfile.mkdtemp())
    raw = raw_commits_per_second(folder / "raw.db", min(seconds, 3.0))
    floor = store_floor_per_second(folder / "floor.db", min(seconds, 3.0), tables)
    bounds = await ceiling.measure(min(seconds, 3.0))
    python_bytes = await python_bytes_per_idle_table(folder)
    pauses = Pauses()
    store = await Store.open(folder / "bot.db")
    service = Service(store, SystemClock())  # the bot's own random source: deals cost what they cost in play
    timers = asyncio.create_task(service.scheduler.run())
    places = [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)]
    load = Load(service, places)

    gc.collect()
    before = resident_bytes()
    began = time.perf_counter()
    await ceiling.in_parallel(places, load.seat)
    gc.collect()
    idle_bytes = (resident_bytes() - before) / tables
    setup = time.perf_counter() - began
    await ceiling.in_parallel(places, load.deal)
    armed = len(service.scheduler.armed)
    pauses.take()
    default_rate, default_latencies = await load.saturate(seconds, concurrency)
    default_pauses = pauses.take()
    tune_collector(thresholds)
    pauses.take()  # not the full collection that comes before the freeze
    full_collections = FullCollections()  # as the bot runs it: the tuned collector makes no full collection itself
    watching = asyncio.create_task(full_collections.run())
    first, cpu_began = load.actions, time.process_time()
    rate, latencies = await load.saturate(seconds, concurrency)
    cpu_per_action = (time.process_time() - cpu_began) / max(load.actions - first, 1) * 1e6
    tuned_pauses = pauses.take()
    with text_not_rendered():  # the prototype of "text rendered only when shown", for the same load
        lazy_rate, _ = await load.saturate(seconds, concurrency)
    # the rate drifts from one phase to the next (more hands dealt by their timers as time goes on): each prototype is
    # compared with the mean of the real phases on either side of it
    real_after, _ = await load.saturate(seconds, concurrency)
    with history_not_written():
        unrecorded_rate, _ = await load.saturate(seconds, concurrency)
    real_last, _ = await load.saturate(seconds, concurrency)
    pauses.take()
    # saturation for the open-loop phases: the median of the three real phases, not the first alone, which has
    # run 1.75x the last (a quarter and half of that outran the later phases, and the arrivals queued for seconds)
    saturated = statistics.median((rate, real_after, real_last))
    rng = random.Random(7)
    quarter = await load.open_loop(saturated / 4, seconds, rng)
    quarter_pauses = pauses.take()
    half = await load.open_loop(saturated / 2, seconds, rng)
    half_pauses = pauses.take()
    real_again, _ = await load.saturate(seconds, concurrency)  # the phase the last prototype is measured against
    with nothing_written():  # last: the live tables no longer match the store after it
        unwritten_rate, _ = await load.saturate(seconds, concurrency)
        timers.cancel()
        watching.cancel()
    for task in (timers, watching):
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # what a full collection would find (garbage in reference cycles) and traverse, once memory had grown enough: as
    # `FullCollections` makes one, the frozen objects unfrozen first
    began = time.perf_counter()
    unreachable = full_collection()
    full_collection_took = time.perf_counter() - began
    problems = await store.read(lambda tx: tx.check_ledger())
    await store.close()  # as a crash leaves it: tables with actions logged after their snapshot
    del service, load, timers  # a restart is a new process: nothing of the first service stays in memory
    gc.unfreeze()
    gc.collect()
    shutil.copy(folder / "bot.db", folder / "crashed.db")
    store = await Store.open(folder / "bot.db")
    await Service(store, SystemClock()).stop()  # what a clean shutdown writes: a snapshot of each logged table
    await store.close()
    gc.collect()

    began, began_cpu = time.perf_counter(), time.process_time()
    store = await Store.open(folder / "bot.db")
    restarted = Service(store, SystemClock(), rng=random.Random(2))
    with starting_up(thresholds):  # as the bot starts: what start-up built is frozen
        await restarted.start()
    startup, startup_cpu = time.perf_counter() - began, time.process_time() - began_cpu
    rearmed = len(restarted.scheduler.armed)
    await store.close()
    del restarted
    gc.unfreeze()
    gc.collect()

    clean = await catch_up_after_an_hour(folder / "bot.db", thresholds)
    crashed = await catch_up_after_an_hour(folder / "crashed.db", thresholds)
    problems += clean.problems + crashed.problems

    print(f"tables: {tables} (set up in {setup:.1f} s), concurrency: {concurrency}, {armed:,} timers armed, "
          "scheduler running")
    print(f"raw sqlite3 single-row commits/s (WAL, synchronous=NORMAL): {raw:,.0f}")
    print(f"store floor (this design's rows of one betting action, 64 per commit): {floor:,.0f}/s "
          f"({floor / raw:.2f} of raw)")
    print(f"saturated actions/s, default collector: {default_rate:,.0f} ({default_rate / raw:.3f} of raw), "
          f"p99 {_ms(default_latencies, 0.99)}; longest collector pause {_pause(default_pauses)}")
    print(f"saturated actions/s, tuned collector (frozen, thresholds {gc.get_threshold()}): {rate:,.0f} "
          f"({rate / raw:.3f} of raw, {rate / default_rate:.2f} of the default's), p99 {_ms(latencies, 0.99)}; "
          f"longest collector pause {_pause(tuned_pauses)}")
    print(f"CPU per action in that phase (every thread): {cpu_per_action:,.0f} µs; the smallest design's "
          f"{_beside_bounds(cpu_per_action, bounds)}")
    if not PROTOTYPES_MEASURED:
        print("prototypes (text not rendered, no history rows, nothing written): not measured, the bot is compiled")
    else:
        _print_prototypes(lazy_rate, unrecorded_rate, unwritten_rate, (rate, real_after, real_last, real_again))
    print(f"a full collection after those phases (the tuned collector makes none by itself; the bot makes one once the "
          f"memory Python has allocated has grown by a quarter, {full_collections.made} in the phases): "
          f"{full_collection_took * 1000:,.0f} ms, {unreachable:,} unreachable objects found")
    print(f"p99 at 25% of saturation (the median of the three real saturated phases, {saturated:,.0f}/s: "
          f"{saturated / 4:,.0f} actions/s arriving at random): {_ms(quarter, 0.99)} "
          f"(p50 {_ms(quarter, 0.5)}); longest collector pause {_pause(quarter_pauses)}")
    print(f"p99 at 50% of saturation ({saturated / 2:,.0f} actions/s arriving at random): {_ms(half, 0.99)} "
          f"(p50 {_ms(half, 0.5)}); longest collector pause {_pause(half_pauses)}")
    print(f"start-up with {tables:,} stored tables: {startup:.2f} s, {startup_cpu:.2f} s of CPU ({rearmed:,} timers "
          "re-armed)")
    print(f"catch-up of {clean.due:,} due timers after an hour down: {clean.seconds:.2f} s, {clean.cpu_seconds:.2f} s "
          f"of CPU ({clean.due / clean.seconds:,.0f} timers/s; {clean.fired:,} fired in all, those that came due "
          "meanwhile included)")
    print(f"the same after a crash (no snapshot at shutdown: {crashed.due:,} timers, the logs replayed): "
          f"{crashed.seconds:.2f} s, {crashed.cpu_seconds:.2f} s of CPU")
    print(f"memory per idle table (two seated players, resident): {idle_bytes / 1024:.1f} KB; Python objects "
          f"{python_bytes / 1024:.1f} KB (tracemalloc)")
    print(f"ledger check: {'ok' if not problems else problems[:3]}")
    if problems:
        raise SystemExit("the ledger check failed")


class CatchUp(NamedTuple):
    """How a restart caught up with the timers that came due while the bot was down."""

    seconds: float
    """Wall time until every timer due at the restart had fired."""
    cpu_seconds: float
    due: int
    fired: int
    """Timers fired in all (those that came due meanwhile included)."""
    problems: list[Any]
    """The ledger check's findings afterwards."""


async def catch_up_after_an_hour(path: Path, thresholds: tuple[int, int, int]) -> CatchUp:
    """Start the bot on the database at `path` an hour after it stopped and fire every timer that came due."""
    store = await Store.open(path)
    later = Service(store, ShiftedClock(3600.0), rng=random.Random(3))  # every turn timer is an hour overdue
    with starting_up(thresholds):  # as the bot starts
        await later.start()
    scheduler = later.scheduler
    # the catch-up is over once every timer due at the restart has fired: what those actions arm (a time bank, the
    # next hand) comes due later, and fires too, but only if the catch-up takes longer than that
    overdue = [(timer.key, timer.due_at) for timer in scheduler.armed if timer.due_at <= later.clock.now()]
    caught_up = len(overdue)
    began, began_cpu = time.perf_counter(), time.process_time()
    firing = asyncio.create_task(scheduler.fire_due())
    while overdue:
        await asyncio.sleep(0.05)
        overdue = still_to_fire(scheduler, overdue)
    catch_up, catch_up_cpu = time.perf_counter() - began, time.process_time() - began_cpu
    fired = await firing
    problems = await store.read(lambda tx: tx.check_ledger())
    await store.close()
    gc.unfreeze()
    gc.collect()
    return CatchUp(catch_up, catch_up_cpu, caught_up, fired, problems)


def still_to_fire(scheduler: Scheduler, overdue: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The timers of `overdue` (key and instant, in due order) from the first that has not fired yet on.

    The scheduler fires them in due order, so the ones that have fired are at the front: looking no further than the
    first one still armed (or firing) for its instant costs the catch-up it measures next to nothing, where checking
    every one of 10,000 on each look took a tenth of its time."""
    for index, (key, due_at) in enumerate(overdue):
        if due_at in (scheduler.due_at(key), scheduler.firing_due_at(key)):
            return overdue[index:]
    return []


def _pause(taken: tuple[float, float, int, int, float]) -> str:
    longest, total, count, generation, longest_cpu = taken
    return (f"{longest * 1000:.1f} ms (generation {generation}; the longest in CPU time {longest_cpu * 1000:.1f} ms; "
            f"{count} collections, {total * 1000:.0f} ms in all)")


if __name__ == "__main__":
    main()
