"""The WAL checkpoint, in a thread and on a connection of its own, so that no commit pays for one.

SQLite's default copies the write-ahead log back into the database file inside the COMMIT that brings the log past
1,000 pages: that commit (and every action queued behind it) waits for the copy. The store turns that off on its
writer (`PRAGMA wal_autocheckpoint = 0`) and this thread runs PASSIVE checkpoints instead, every so many commits or
seconds: a PASSIVE checkpoint takes no lock a writer needs, so commits go on while it copies. The log is reused from
its start only when a writer begins a transaction while the log is wholly copied; under a steady stream of commits
a passive pass almost never ends in the instant between two batches, and the log would grow without end. So a round
runs passive passes until one copies all it saw, and then, if the log holds more than `LOG_LIMIT_PAGES`, one more pass
holding the writer's gate (the writer takes it around each batch): the next batch waits for a pass over only the
frames the last passes missed and then starts the log afresh. What the passes copied is synced to the disk before the
gate is taken (`_flush`), so the gated pass syncs only its own few pages: the writer waits a few milliseconds, not the
whole sync. At a clean shutdown the store truncates the log.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

EVERY_COMMITS = 200
"""Commits after which a checkpoint runs at once (a busy bot); fewer wait for `EVERY_SECONDS`."""
EVERY_SECONDS = 0.1
"""The longest a commit waits to be checkpointed: at ~25 MB/s of commits (a saturated bot) the log stays near 3 MB."""
CATCH_UP_PASSES = 4
"""The most passes in a row while commits keep landing behind them."""
LOG_LIMIT_PAGES = 4096
"""Past this many pages (16 MB) in the log, a round ends with a pass that holds the writer back."""


class Checkpointer:
    """Runs `PRAGMA wal_checkpoint(PASSIVE)` in its own thread after `every_commits` commits or `every_seconds`."""

    def __init__(self, path: str | Path, gate: threading.Lock, *, every_commits: int = EVERY_COMMITS,
                 every_seconds: float = EVERY_SECONDS, log_limit_pages: int = LOG_LIMIT_PAGES) -> None:
        self._path = str(path)
        self._gate = gate
        """Held by the writer around each batch; held here for a pass that must find the log still."""
        self._log_limit_pages = log_limit_pages
        self._connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._connection.execute("PRAGMA busy_timeout = 5000")
        self._every_commits = every_commits
        self._every_seconds = every_seconds
        self._commits = 0
        self._wake = threading.Event()
        self._stopping = False
        self._runner = threading.Thread(target=self._loop, name="pokerbot-checkpoint", daemon=True)
        self.checkpoint_count = 0
        """Checkpoints run so far."""
        self.gated_count = 0
        """Passes that held the writer back (the log had passed `log_limit_pages`)."""
        self.last: tuple[int, int, int] = (0, 0, 0)
        """SQLite's answer to the last one: (busy, pages in the log, pages copied into the database)."""
        self._runner.start()

    def committed(self) -> None:
        """Count one commit (called by the writer); enough of them wake the thread early."""
        self._commits += 1  # a lost increment under a race only delays a checkpoint by a commit
        if self._commits >= self._every_commits:
            self._wake.set()

    def stop(self) -> None:
        """Finish a running checkpoint, stop the thread and close its connection (blocks: call it off the loop)."""
        self._stopping = True
        self._wake.set()
        self._runner.join()
        self._connection.close()

    def _loop(self) -> None:
        while True:
            self._wake.wait(self._every_seconds)
            self._wake.clear()
            if self._stopping:
                return
            if self._commits == 0:
                continue
            self._commits = 0
            try:
                self._checkpoint()
            except sqlite3.Error:  # the next round tries again; the log only grows meanwhile
                log.warning("WAL checkpoint failed", exc_info=True)

    def _checkpoint(self) -> None:
        for _ in range(CATCH_UP_PASSES):
            if self._pass():
                break
        if self.last[1] > self._log_limit_pages:
            # what the passes copied goes to the disk outside the gate, twice (the pass between copies what came
            # meanwhile): the gated pass then copies and syncs only the last few frames
            self._flush()
            self._pass()
            self._flush()
            with self._gate:
                self._pass()
                self.gated_count += 1

    def _flush(self) -> None:
        """Write to the disk (`fsync`) the pages the passes have copied into the database file so far. A pass that
        does not copy the whole log does not sync; the gated pass synced all they had copied, holding the writer back
        for it (40 ms on average, `benchmarks/checkpoint.py`)."""
        descriptor = os.open(self._path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def _pass(self) -> bool:
        """One PASSIVE checkpoint; whether it copied every frame of the log as it found it (commits may have come
        since)."""
        busy, pages, copied = self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.last = (busy, pages, copied)
        self.checkpoint_count += 1
        return not busy and copied == pages
