"""How long the writer waits for the checkpointer's gated pass, with and without syncing the copied pages first.

A writer commits small transactions (15 rows updated at random places of a 200,000-row table, ~15-30 pages each)
without pause, as the bot's writer does under load, while `bot.store.checkpoint.Checkpointer` runs beside it; every
wait of the writer for the gate is timed. The baseline, in the same run, is the same checkpointer without `_flush`
(the gated pass then syncs everything the unfinished passes copied, holding the writer meanwhile). Both run the
checkpointer read from its source, also when the bot is compiled (mypyc), where no class here may subclass it.
Run: `python benchmarks/checkpoint.py [--seconds 8]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sqlite3
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType

from bot.store import checkpoint

ROWS = 200_000


def _from_source() -> ModuleType:
    """`bot.store.checkpoint` as its source reads, interpreted even beside a compiled build (whose classes an
    interpreted one may not subclass): the baseline and the checkpointer are compared on the same footing."""
    source = Path(checkpoint.__file__).with_name("checkpoint.py")
    spec = importlib.util.spec_from_file_location("checkpoint_source", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Checkpointer = _from_source().Checkpointer


class Unflushed(Checkpointer):
    """The checkpointer as it was: the gated pass syncs all the earlier passes copied."""

    def _flush(self) -> None:
        return None


def writer_waits(kind: type[checkpoint.Checkpointer], seconds: float) -> tuple[list[float], int, int]:
    """The writer's waits for the gate (sorted), its commits and the gated passes, over `seconds` of commits."""
    path = Path(tempfile.mkdtemp()) / "bench.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA synchronous = NORMAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v TEXT)")
    writer.execute("CREATE INDEX t_k ON t(k)")
    rng = random.Random(1)
    writer.execute("BEGIN")
    writer.executemany("INSERT INTO t(k, v) VALUES (?, ?)", ((str(rng.random()), "x" * 200) for _ in range(ROWS)))
    writer.execute("COMMIT")
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    gate = threading.Lock()
    checkpointer = kind(path, gate)
    waits: list[float] = []
    commits, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        began = time.perf_counter()
        with gate:
            waits.append(time.perf_counter() - began)
            writer.execute("BEGIN")
            for _ in range(15):
                writer.execute("UPDATE t SET v = ? WHERE id = ?", ("y" * 200, rng.randrange(1, ROWS + 1)))
            writer.execute("COMMIT")
        checkpointer.committed()
        commits += 1
        time.sleep(0.0008)  # the event loop's turn between two batches
    checkpointer.stop()
    writer.close()
    return sorted(waits), commits, checkpointer.gated_count


def _summary(waits: list[float], commits: int, gated: int) -> str:
    return (f"{commits:,} commits, {gated} gated passes, waited {sum(waits) * 1000:.0f} ms in all, "
            f"p99.9 {waits[int(len(waits) * 0.999)] * 1000:.1f} ms, longest {waits[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    seconds = parser.parse_args().seconds
    old = writer_waits(Unflushed, seconds)
    new = writer_waits(Checkpointer, seconds)
    print(f"baseline (gated pass syncs what the passes copied): {_summary(*old)}")
    print(f"copied pages synced before the gate:                 {_summary(*new)}")
    print(f"writer's total wait: {sum(new[0]) / max(sum(old[0]), 1e-9):.2f} of the baseline's; "
          f"longest wait {new[0][-1] / max(old[0][-1], 1e-9):.2f} of the baseline's")


if __name__ == "__main__":
    main()
