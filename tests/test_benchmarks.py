"""Smoke runs of the benchmark scripts with tiny sizes, so they keep working (their numbers are not asserted)."""

import asyncio
import contextlib
import gc
import importlib
import importlib.util
import os
import platform
import random
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.scheduler import Scheduler

ROOT = Path(__file__).resolve().parents[1]


def benchmark(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """The module `benchmarks/<name>.py`, imported as the scripts import each other (their folder on the path, for
    this test alone)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    return importlib.import_module(name)


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("service.py", ["--tables", "20", "--seconds", "0.3", "--concurrency", "4", "--history-hands", "200"],
         "of the p99 without reads"),
        ("service.py", ["--scale-tables", "30", "--seconds", "0.3", "--concurrency", "4"], "due timers after"),
        ("holdem.py", ["50"], "Omaha"),  # the Omaha row, printed after the Hold'em one
        ("ceiling.py", ["--seconds", "0.2"], "the lean design, complete"),
        ("picture.py", ["--rounds", "3"], "ms"),
        ("settlement.py", [], "exact / greedy"),
        ("shuffle.py", ["0.05"], "SystemRandom's"),
        ("delivery.py", ["--quick"], "ratio to budget"),
        ("checkpoint.py", ["--seconds", "0.3"], "of the baseline's"),
        ("second_thread.py", ["--seconds", "0.2", "--python-us", "20"], "x one thread"),
        ("instructions.py", ["--workload", "40", "--tables", "8", "--concurrency", "4"], "ledger ok"),
        ("aged.py", ["--tables", "20", "--ages", "0,300", "--presses", "100"], "aged by 300 presses"),
        ("aged.py", ["--tables", "20", "--against-fresh", "--age-seconds", "0.3", "--pairs", "2", "--seconds", "0.2"],
         "aged against fresh"),
        ("instructions.py", ["--workload", "30", "--lean", "--concurrency", "4"], "30 actions of the lean design"),
        ("kinds.py", ["--tables", "20", "--presses", "300", "--rounds", "1"], "a hand's end"),
        ("instructions.py", ["--workload", "30", "--lean", "--bot-rows", "--concurrency", "4"],
         "30 actions of the lean design, ledger ok"),
        ("instructions.py", ["--workload", "30", "--lean", "--features", "--bot-rows", "--concurrency", "4"],
         "30 actions of the lean design, ledger ok"),
    ],
)
def test_benchmark_runs(script: str, args: list[str], expected: str) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], capture_output=True, text=True,
                            timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert expected in result.stdout


def test_a_service_run_names_the_interpreter_it_runs_on() -> None:
    """`service.py`'s first line: the Python version, the interpreter's real path and whether it runs from a shared
    `libpython`, which its figures depend on (a pyenv build of 3.11 ran the service at 0.9x Debian's)."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "service.py"), "--scale-tables", "4",
                             "--seconds", "0.1", "--concurrency", "2"], capture_output=True, text=True, timeout=300,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"Python {platform.python_version()}, {Path(sys.executable).resolve()}, ")
    if sys.platform == "linux":
        shared = "libpython" in Path(f"/proc/{os.getpid()}/maps").read_text()  # the same interpreter as the child
        assert first.endswith("from libpython (a shared library)" if shared else "libpython linked in")


def test_the_lean_storage_prototype_takes_effect() -> None:
    """`benchmarks/lean_storage.py`, the rest of the storage half of issue 17's design patched in: while the players
    press, the store gets no ledger or timer row, each action one log row holding its events (as the bot writes them
    now), and the balances it keeps in memory add up to nothing (so what `instructions.py --patch lean_storage`
    counts is that design)."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lean_storage.py"), "--actions", "40"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = dict(line.split(": ") for line in result.stdout.splitlines())
    assert int(figures["presses"]) >= 40
    assert figures["ledger rows"] == "0" and figures["timer rows"] == "0"
    assert int(figures["log rows with events"]) == int(figures["presses"]) + 8  # and the eight tables' deals
    assert figures["balances' sum"] == "0"


def test_the_pages_an_action_writes_are_counted() -> None:
    """`instructions.py --pages`: the pages the presses wrote to the write-ahead log, per action, for the bot and
    for the rest of the storage half of issue 17's design (`lean_storage`: balances kept in memory), which must write
    fewer of them: the figure follows what the store writes. Above it, the same pages by the table or index they
    belong to, which add up to it: the bot's balances write pages of `accounts`, the prototype's fewer (a re-buy's
    moves still update them), and neither writes a page of `timers` (the bot's timer changes are in its log rows, its
    timers' rows written every `TIMER_ROWS_EVERY` actions of a table, more than these presses make)."""

    def pages(*patch: str) -> tuple[float, dict[str, float]]:
        result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "--workload", "60",
                                 "--tables", "8", "--concurrency", "4", "--pages", *patch],
                                capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert result.returncode == 0, result.stderr[-2000:]
        lines = result.stdout.splitlines()
        by_owner = {name: float(share) for share, name in
                    (line.strip().split(" ", 1) for line in lines if line.startswith("  "))}
        return float(lines[-1].split(" pages")[0]), by_owner

    (bot, bot_owners), (lean, lean_owners) = pages(), pages("--patch", "lean_storage")
    assert bot > 1 and lean < 0.95 * bot, (bot, lean)  # some pages an action (1.97 at eight tables, 2026-12-04)
    for total, owners in ((bot, bot_owners), (lean, lean_owners)):
        assert abs(sum(owners.values()) - total) < 0.01 * len(owners) + 0.01, (total, owners)
        assert owners.get("actions", 0) > 0 and owners.get("sqlite_autoindex_actions_1", 0) > 0, owners
    assert "timers" not in bot_owners and "timers" not in lean_owners, (bot_owners, lean_owners)
    assert bot_owners.get("accounts", 0) > lean_owners.get("accounts", 0), (bot_owners, lean_owners)


def test_the_counted_runs_leave_the_ledger_check_to_a_run_of_their_own(tmp_path: Path) -> None:
    """`instructions.py --workload N --unchecked` (what callgrind counts) plays the workload without the ledger
    check, whose work grows with the moves and is no part of an action; without `--unchecked` (the native run of the
    same workload that proves the ledger) a failing check fails the run."""
    (tmp_path / "failing_check.py").write_text(
        "from bot.store import tx\ntx.Tx.check_ledger = lambda self: ['the check ran']\n")

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "--workload", "20",
                               "--tables", "4", "--concurrency", "2", "--patch", "failing_check", *extra],
                              capture_output=True, text=True, timeout=300, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(tmp_path)})

    unchecked, checked = run("--unchecked"), run()
    assert unchecked.returncode == 0 and "ledger not checked" in unchecked.stdout, unchecked.stderr[-2000:]
    assert checked.returncode != 0 and "the check ran" in checked.stderr


def _in_git_checkout() -> bool:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _in_git_checkout(), reason="against.py extracts the earlier commit with git")
def test_against_an_earlier_commit_runs_both_checkouts_alternated() -> None:
    """`benchmarks/against.py`, against this very commit (nothing to install): each checkout's benchmark runs once,
    and the ratio of their rates is printed."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "against.py"), "--commit", "HEAD", "--pairs",
                             "1", "--tables", "20", "--seconds", "0.3", "--concurrency", "4"],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["pair 1, earlier", "pair 1, this"]
    assert lines[-1].startswith("20 tables, 1 pairs: this checkout") and lines[-1].endswith("x")


def test_against_a_checkouts_folder_takes_turns_in_which_runs_first() -> None:
    """`benchmarks/against.py --commit FOLDER`: the folder is run as it is (nothing extracted), the first side of
    the pairs takes turns, and the ratio is printed for either order apart before the whole (order alone moved the
    figures some 6%)."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "against.py"), "--commit", str(ROOT),
                             "--pairs", "2", "--tables", "8", "--seconds", "0.2", "--concurrency", "4"],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    runs = [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("pair ") and ", " in line]
    assert runs == ["pair 1, earlier", "pair 1, this", "pair 2, this", "pair 2, earlier"]
    either = result.stdout.splitlines()[-2]
    assert either.startswith("either order: earlier first ") and ", this first " in either, either


def test_against_says_whether_the_pairs_spread_past_the_drift(monkeypatch) -> None:
    """The pairs' ratios are summed up with the interval their resamples span: pairs that all ran faster show a
    change, pairs on either side of 1.00 (this machine's drift: 0.72x to 1.33x for one change in four pairs) do not,
    and a single pair has no spread to judge by."""
    against = benchmark(monkeypatch, "against")
    middle, low, high = against.spread([1.10, 1.12, 1.15, 1.08])
    assert 1.0 < low <= middle <= high and abs(middle - 1.112) < 0.01
    assert against.describe_spread([1.10, 1.12, 1.15, 1.08]).endswith("faster over 4 pairs")
    drifting = [1.33, 0.72, 0.81, 1.05]
    middle, low, high = against.spread(drifting)
    assert low < 1.0 < high and low >= min(drifting) and high <= max(drifting)
    assert "within the drift over 4 pairs" in against.describe_spread(drifting)
    assert against.describe_spread([0.8, 0.85, 0.9]).endswith("slower over 3 pairs")
    assert "one pair" in against.describe_spread([1.2])
    assert against.spread(drifting) == against.spread(drifting)  # seeded: the same pairs read the same


@pytest.mark.parametrize("pairs", ["0", "-2", "two"])
def test_against_refuses_a_count_of_pairs_it_cannot_run(pairs: str) -> None:
    """No pairs (or no number) is answered with a usage line, not a traceback from averaging nothing."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "against.py"), "--commit", str(ROOT),
                             "--pairs", pairs], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2 and "a number of pairs, 1 or more" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(("option", "value", "reason"), [
    ("--pairs", "0", "a number of pairs, 1 or more"),
    ("--tables", "-3", "a number of tables, 1 or more"),
    ("--ages", "0,many", "whole numbers of 0 or more separated by commas"),
    ("--seconds", "0", "a number of seconds above 0"),
])
def test_aged_refuses_a_value_it_cannot_run(option: str, value: str, reason: str) -> None:
    """A count or a time `aged.py` cannot use is answered with a usage line before any table is set up."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "aged.py"), option, value],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2 and reason in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(("arguments", "reason"), [
    (["--concurrency", "0"], "a number of players, 1 or more"),
    (["--tables", "0"], "a number of tables, 1 or more"),
    (["--seconds", "-1"], "a number of seconds above 0"),
    (["--scale-tables", "1000,lots"], "whole numbers of 1 or more separated by commas"),
    (["--scale-tables", "0"], "whole numbers of 1 or more separated by commas"),
    (["--scale-tables", "4", "--gc-thresholds", "10000,2"], "3 whole numbers of 0 or more separated by commas"),
])
def test_service_refuses_a_value_it_cannot_run(arguments: list[str], reason: str) -> None:
    """A count, a time or a list `service.py` cannot use is answered with a usage line, not a traceback from dividing
    by no players or reading a word as a number."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "service.py"), *arguments],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2 and reason in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


HAS_INTERPRETERS = importlib.util.find_spec("_interpreters") is not None
"""Whether this Python has the isolated interpreters `benchmarks/interpreters.py` measures (3.13 and later)."""


def _interpreters_benchmark(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "interpreters.py"), *arguments],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize(("arguments", "reason"), [
    (["--interpreters", "0"], "a number of interpreters, 1 or more"),
    (["--tables", "none"], "a number of tables, 1 or more"),
    (["--seconds", "0"], "a number of seconds above 0"),
    (["--concurrency", "-4"], "a number of players, 1 or more"),
])
def test_interpreters_refuses_a_value_it_cannot_run(arguments: list[str], reason: str) -> None:
    """A count or a time `interpreters.py` cannot use is answered with a usage line before anything is set up."""
    result = _interpreters_benchmark(*arguments)
    assert result.returncode == 2 and reason in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.skipif(HAS_INTERPRETERS, reason="this Python has isolated interpreters")
def test_interpreters_says_which_python_it_needs() -> None:
    """On a Python without isolated interpreters (the bot's 3.11) the benchmark says what it needs and which Python
    this is, rather than failing on the missing module."""
    result = _interpreters_benchmark("--tables", "4")
    assert result.returncode == 2, result.stderr
    assert "needs Python 3.13's isolated interpreters" in result.stderr and platform.python_version() in result.stderr


@pytest.mark.skipif(not HAS_INTERPRETERS, reason="needs Python 3.13's isolated interpreters")
def test_interpreters_benchmark_runs() -> None:
    """Two isolated interpreters serving a few tables each, beside one and the main interpreter, then serving the
    main interpreter's players; every ledger checked."""
    result = _interpreters_benchmark("--tables", "6", "--seconds", "0.2", "--concurrency", "2", "--with-text",
                                     "--lean")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2 isolated interpreters, a file each" in result.stdout
    assert "the players in the main one (each press and reply carried, its text written)" in result.stdout
    assert result.stdout.count("ledgers ok") == 2
    assert "the same in 2 isolated interpreters, their players inside" in result.stdout
    assert "the same, the players in the main one (each press and answer carried)" in result.stdout


async def test_a_shard_answers_what_is_carried_to_it(monkeypatch, tmp_path: Path) -> None:
    """`interpreters.py`'s shard, here in a thread of this interpreter: messages and presses carried to it over a
    socket pair (`Remote`) are applied by its service, and each reply comes back to the one who sent it, a refusal
    as a refusal; its ledger holds once it has stopped at the end of the stream."""
    bench = benchmark(monkeypatch, "interpreters")
    mine, theirs = socket.socketpair()
    database = str(tmp_path / "shard.db")
    server = threading.Thread(target=bench.shard, args=(database, theirs.detach(), 1, True))
    server.start()
    frames = await bench.Frames.over(mine)
    remote = bench.Remote([frames], {"chat0": 0})
    listening = asyncio.ensure_future(remote.listen(frames))
    place = bench.Place("chat0", "chat0/poker")
    try:
        table = (await bench.seat_and_deal(remote, [place]))[place].table
        assert table is not None and table.to_act in {"ann", "bob"} and "Ann" in table.text
        fold = next(button.payload for button in table.buttons if button.payload.endswith("|fold"))
        refused = await asyncio.wait_for(remote.press(place, bench.Actor("zed", "Zed"), fold), 30)
        assert refused.error is not None and refused.table is None
        folded = await asyncio.wait_for(remote.press(place, bench.Actor(table.to_act, table.to_act.title()), fold), 30)
        assert folded.error is None and folded.table is not None and folded.table.to_act is None
    finally:  # the shard stops at the end of its stream, whatever failed above
        frames.writer.write_eof()
        await asyncio.wait_for(listening, 30)
        await asyncio.to_thread(server.join, 60)
    assert not server.is_alive() and await bench._check(database) == []


async def test_a_lean_shard_plays_what_is_carried_to_it(monkeypatch, tmp_path: Path) -> None:
    """`interpreters.py`'s shard of the lean design, here in a thread of this interpreter: a deal and a press carried
    to it (`Carrier`) are applied at the table they name, each answer saying whether a hand is in play and carrying
    the buttons to press next, and a press it cannot apply (a stale one) fails where it was made rather than leaving
    it waiting; every press applied is a row of that table's log once the shard has stopped."""
    bench = benchmark(monkeypatch, "interpreters")
    mine, theirs = socket.socketpair()
    database = tmp_path / "lean.db"
    server = threading.Thread(target=bench.lean_shard, args=(str(database), theirs.detach(), 2))
    server.start()
    frames = await bench.Frames.over(mine)
    carrier = bench.Carrier([frames])
    listening = asyncio.ensure_future(carrier.listen(frames))
    try:
        playing, buttons, told = await asyncio.wait_for(carrier.send(0, 1, None), 30)
        assert playing and set(told) == {"ann", "bob"}, "a hand dealt, each player told his cards"
        fold = next(button[1] for button in buttons if button[1].endswith("|fold"))
        playing, buttons, _ = await asyncio.wait_for(carrier.send(0, 1, fold), 30)
        assert not playing and not any(button[1].endswith("|fold") for button in buttons)
        with pytest.raises(AssertionError, match="a stale press"):  # the shard's failure, raised here
            await asyncio.wait_for(carrier.send(0, 1, fold), 30)
    finally:  # the shard stops at the end of its stream, whatever failed above
        frames.writer.write_eof()
        await asyncio.wait_for(listening, 30)
        await asyncio.to_thread(server.join, 60)
    assert not server.is_alive()
    with contextlib.closing(sqlite3.connect(database)) as written:
        logged = written.execute("SELECT table_id, COUNT(*) FROM actions GROUP BY table_id").fetchall()
    assert logged == [("t1", 2)], "the deal and the fold, at the table they named"


async def test_a_failure_that_cannot_be_carried_still_reaches_its_sender(monkeypatch) -> None:
    """`serve_frames` answers every message: a failure that will not pickle (here an exception of a local class) is
    carried back as a `RuntimeError` naming it, raised where the message was sent, rather than leaving the sender
    waiting; the next message is answered as before."""
    bench = benchmark(monkeypatch, "interpreters")

    class Uncarried(Exception):
        """Pickled by reference to a class that cannot be found by its name: not carried."""

    async def apply(word: str) -> str:
        if word == "fail":
            raise Uncarried("the table is held")
        return word.upper()

    mine, theirs = socket.socketpair()
    serving = asyncio.ensure_future(bench.serve_frames(await bench.Frames.over(theirs), apply))
    frames = await bench.Frames.over(mine)
    carrier = bench.Carrier([frames])
    listening = asyncio.ensure_future(carrier.listen(frames))
    try:
        with pytest.raises(RuntimeError, match=r"Uncarried.*the table is held"):
            await asyncio.wait_for(carrier.send(0, "fail"), 10)
        assert await asyncio.wait_for(carrier.send(0, "deal"), 10) == "DEAL"
    finally:
        frames.writer.write_eof()
        await asyncio.wait_for(serving, 10)
        await asyncio.wait_for(listening, 10)


async def test_a_shard_that_stops_unanswering_fails_what_it_left(monkeypatch) -> None:
    """A shard whose stream ends with a message unanswered (it failed, say) fails that message where it was sent
    (`Carrier.listen`), rather than leaving its sender waiting; another shard's messages are left to theirs."""
    bench = benchmark(monkeypatch, "interpreters")
    pairs = [socket.socketpair() for _ in range(2)]
    shards = [await bench.Frames.over(mine) for mine, _ in pairs]
    theirs = [await bench.Frames.over(other) for _, other in pairs]
    carrier = bench.Carrier(shards)
    listening = [asyncio.ensure_future(carrier.listen(frames)) for frames in shards]
    lost, kept = carrier.send(0, "deal"), carrier.send(1, "deal")
    assert await asyncio.wait_for(theirs[0].receive(), 10) == (1, "deal")
    theirs[0].writer.close()  # the first shard stops without answering
    with pytest.raises(ConnectionError, match="stopped before answering"):
        await asyncio.wait_for(lost, 10)
    await asyncio.wait_for(listening[0], 10)
    with pytest.raises(ConnectionError, match="stopped before answering"):  # sent after it stopped: failed at once
        await asyncio.wait_for(carrier.send(0, "deal again"), 10)
    assert not kept.done(), "the other shard's message still awaits its answer"
    assert await asyncio.wait_for(theirs[1].receive(), 10) == (2, "deal")
    theirs[1].send((2, "dealt"))
    assert await asyncio.wait_for(kept, 10) == "dealt"
    theirs[1].writer.close()
    await asyncio.wait_for(listening[1], 10)


def test_a_failed_player_still_stops_the_shards(monkeypatch, tmp_path: Path) -> None:
    """`carried` (here with the shard's interpreter a thread of this one) ends its shards' streams when the players'
    side fails, so that each shard finishes what it was sent and stops, and the failure is raised once their threads
    have ended, rather than leaving them waiting for more until the streams happen to be collected."""
    bench = benchmark(monkeypatch, "interpreters")
    ended = threading.Event()

    def in_this_interpreter(folder: Path, call: str) -> None:
        eval(call, vars(bench))
        ended.set()

    monkeypatch.setattr(bench, "in_isolated_interpreter", in_this_interpreter)
    database = tmp_path / "lean.db"

    async def play(carrier: Any) -> float:
        playing, _, _ = await carrier.send(0, 0, None)
        assert playing, "a hand dealt"
        raise RuntimeError("a player failed")

    failed: list[tuple[str, bool]] = []  # what was raised, and whether the shard had stopped by then

    def run() -> None:
        try:
            bench.carried(tmp_path, [f"lean_shard({str(database)!r}, {{descriptor}}, 1)"], bench.Carrier, play)
        except BaseException as failure:  # the test looks at it below
            failed.append((str(failure), ended.is_set()))

    caller = threading.Thread(target=run, daemon=True)
    caller.start()
    caller.join(60)
    assert not caller.is_alive(), "the shard was left waiting, and its caller with it"
    assert failed == [("a player failed", True)], "the failure raised once the shard had stopped"
    with contextlib.closing(sqlite3.connect(database)) as written:
        logged = written.execute("SELECT table_id, COUNT(*) FROM actions GROUP BY table_id").fetchall()
    assert logged == [("t0", 1)], "the shard kept the deal it was sent before it stopped"


async def test_fewer_tables_than_players_press_at_every_table(monkeypatch, tmp_path: Path) -> None:
    """`Load` never starts more players than tables: each presses at every `concurrency`th table, so a player beyond
    the tables would have none to choose from (`service.py --scale-tables 2 --concurrency 4` failed so). Both ways of
    pressing, a count and a time, press at each table."""
    bench = benchmark(monkeypatch, "service")
    store = await bench.Store.open(tmp_path / "bot.db")
    places = [bench.Place("a", "a/poker"), bench.Place("b", "b/poker")]
    load = bench.Load(bench.Service(store, FakeClock(1000.0), rng=random.Random(3)), places)
    thresholds = gc.get_threshold()
    try:
        await load.set_up(width=2)  # tunes the collector, as the bot does once started
        before = load.actions
        await load.press(6, concurrency=4)
        assert load.actions >= before + 6
        rate, latencies = await load.saturate(0.05, concurrency=4)
        assert rate > 0 and len(latencies) > 0, "the players pressed"
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        await store.close()


async def test_the_lean_design_plays_at_the_tables_it_is_given(monkeypatch, tmp_path: Path) -> None:
    """`kinds.py --tables N` compares the bot and the lean design at the same N tables: `ceiling.complete` creates and
    deals that many, and its presses (each timed by kind) land only on them."""
    ceiling = benchmark(monkeypatch, "ceiling")
    kinds = importlib.import_module("kinds")
    times = kinds.Times()
    with times.pressing(40):
        await ceiling.complete(float("inf"), tmp_path / "lean.db", 3, actions=40, deck_source=random.Random(2),
                               features=True, timed=times.add, check=False, tables=5)
    with contextlib.closing(sqlite3.connect(tmp_path / "lean.db")) as written:
        tables = {row[0] for row in written.execute("SELECT table_id FROM tables")}
        logged = {row[0] for row in written.execute("SELECT DISTINCT table_id FROM actions")}
    assert tables == {f"t{index}" for index in range(5)} and logged == tables
    assert sum(times.count.values()) == 40, "every press timed"


def test_kinds_splits_the_jobs_by_what_they_did_to_the_hand(monkeypatch) -> None:
    """A job that dealt a hand, played on in one or ended one counts as that kind; a seat taken counts as none of
    them; the means, shares and the bot's multiple of a lean design's come from those sums."""
    kinds = benchmark(monkeypatch, "kinds")
    bot, lean = kinds.Times(), kinds.Times()
    for times, scale in ((bot, 2.0), (lean, 1.0)):
        times.add(False, True, 300e-6 * scale)  # a deal
        times.add(True, True, 100e-6 * scale)  # betting
        times.add(True, True, 100e-6 * scale)
        times.add(True, False, 200e-6 * scale)  # a hand's end
        times.add(False, False, 5e-3)  # a seat taken
    assert bot.mean_us(kinds.DEAL) == pytest.approx(600) and bot.mean_us(kinds.BET) == pytest.approx(200)
    assert bot.mean_us(kinds.ALL) == pytest.approx(350)  # the seat's 5 ms left out
    assert bot.share(kinds.END) == pytest.approx(0.4 / 1.4)
    bot.loop_cpu, bot.presses = bot.in_loop + 0.001, 10  # the jobs ran in this thread, the loop's: 1 ms besides them
    assert bot.mean_us(kinds.OUTSIDE) == pytest.approx(100)
    table = kinds.report({kinds.BOT: [bot], kinds.LEAN: [lean]})
    deal = next(line for line in table if line.startswith(kinds.DEAL))
    assert "600.0 µs" in deal and "300.0 µs (2.00x)" in deal


def test_against_installs_only_what_the_earlier_commit_lacks(tmp_path: Path, monkeypatch) -> None:
    """The earlier commit's dependencies that this environment does not satisfy, and only those, are installed
    beside it: a missing distribution and an installed one of another version, not an installed one that fits."""
    against = benchmark(monkeypatch, "against")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\ndependencies = ["orjson>=3.10", "orjson<1", "no-such-distribution>=1"]\n')
    assert against.missing_requirements(pyproject) == ["orjson<1", "no-such-distribution>=1"]


def test_processes_benchmark_runs(postgres_server: str) -> None:
    """`benchmarks/service.py --db postgresql://… --processes 2`: SQLite's one process, then 1 and 2 on PostgreSQL."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "service.py"), "--db", postgres_server,
                             "--processes", "2", "--tables", "6", "--seconds", "0.3", "--concurrency", "2"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "PostgreSQL, 2 processes" in result.stdout


async def test_the_catch_up_is_measured_over_once_every_overdue_timer_has_fired(monkeypatch) -> None:
    """`still_to_fire` looks no further than the first overdue timer still armed or firing for its instant; one
    re-armed for later (a time bank starting) has fired."""
    still_to_fire = benchmark(monkeypatch, "service").still_to_fire
    clock = FakeClock(0.0)
    release = asyncio.Event()

    async def fire(key: str, table_id: str, payload: dict[str, object]) -> None:
        if key == "b":
            scheduler.arm("b", table_id, 100.0)
        if key == "c":
            await release.wait()

    scheduler = Scheduler(clock, fire)
    for number, key in enumerate("abcd", start=1):
        scheduler.arm(key, f"t{key}", float(number))
    overdue = [(timer.key, timer.due_at) for timer in scheduler.armed]
    assert still_to_fire(scheduler, overdue) == overdue
    clock.advance(10)
    firing = asyncio.create_task(scheduler.fire_due())
    while scheduler.due_at("d") is not None or scheduler.firing_due_at("d") is not None:
        await asyncio.sleep(0)
    assert still_to_fire(scheduler, overdue) == [("c", 3.0), ("d", 4.0)], "c is still firing"
    release.set()
    assert await firing == 4
    assert still_to_fire(scheduler, overdue) == []


async def test_the_players_press_on_the_hand_a_timer_dealt(monkeypatch, tmp_path: Path) -> None:
    """`service.py`'s players press on the table message as the chat shows it: once the next hand's timer has dealt
    it (the first hand too, when the set-up's own deal comes after it), a press acts in that hand. (Pressing on the
    message of their own last press, at 10,000 tables they pressed "deal" on a hand in play one hand in five, were
    refused, and bought in again: four bogus actions counted.) A deal refused because a hand is in play buys nobody
    in."""
    bench = benchmark(monkeypatch, "service")
    store = await bench.Store.open(tmp_path / "bot.db")
    clock = FakeClock(1000.0)
    service = bench.Service(store, clock, rng=random.Random(3))
    place = bench.Place("chat", "chat/poker")
    load = bench.Load(service, [place])
    await load.seat(place)
    clock.advance(60)
    assert await service.scheduler.fire_due() == 1  # the first hand, dealt by the timer two seated players armed
    await load.deal(place)  # refused: a hand is in play
    assert load.last[place].table.to_act is not None, "the players see the hand the timer dealt"
    rng = random.Random(1)
    while load.last[place].table.to_act is not None:  # the hand played out
        await load.act_once(place, rng)
    assert load.refused == 0
    clock.advance(60)
    assert await service.scheduler.fire_due() == 1  # the next hand, dealt by its timer
    assert load.last[place].table.to_act is not None, "the players see the hand the timer dealt"
    refused = await service.handle(place, bench.PLAYERS[0], "/deal")  # while that hand is in play
    assert refused.error is not None and await bench.buy_in_again(service, place, refused) == 0
    actions = load.actions
    await load.act_once(place, rng)
    assert (load.actions, load.refused) == (actions + 1, 0), "a press in that hand, not a refused deal"
    await store.close()


def test_the_compiled_checkout_is_a_worktree_built_by_its_own_commit(monkeypatch, tmp_path) -> None:
    """`benchmarks/compiled.py` checks the commit out and runs that commit's own build in it (`python -m bot.compiled
    build`, its modules first on the path), and refuses a commit that has no build of its own."""
    import subprocess
    import sys

    compiled = benchmark(monkeypatch, "compiled")
    ran: list[tuple[list[str], Any]] = []

    def run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        ran.append((command, options))
        if command[:1] == ["git"]:
            (tmp_path / "checkout" / "bot").mkdir(parents=True)
            (tmp_path / "checkout" / "bot" / "compiled.py").write_text("")
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(compiled.subprocess, "run", run)
    monkeypatch.setattr(sys, "argv", ["compiled.py", "--commit", "abc123", "--folder", str(tmp_path / "checkout")])
    compiled.main()
    (git, _), (build, options) = ran
    assert git == ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tmp_path / "checkout"), "abc123"]
    assert build == [sys.executable, "-m", "bot.compiled", "build", "--opt-level", "3"]
    assert (options["cwd"], options["env"]["PYTHONPATH"]) == (tmp_path / "checkout", str(tmp_path / "checkout"))

    monkeypatch.setattr(compiled.subprocess, "run", lambda command, **options: None)  # an older commit: no build
    monkeypatch.setattr(sys, "argv", ["compiled.py", "--folder", str(tmp_path / "older")])
    with pytest.raises(SystemExit, match="HEAD has no compiled build of its own"):
        compiled.main()
