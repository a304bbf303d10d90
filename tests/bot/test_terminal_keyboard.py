"""The terminal table at a real terminal: pokerbot run in a pseudo-terminal, typed at as a user types."""

import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Screen:
    """pokerbot with a pseudo-terminal as its controlling terminal: keys typed at it, what it writes read back."""

    def __init__(self, tmp_path: Path) -> None:
        self.master, self.slave = pty.openpty()
        self.settings = termios.tcgetattr(self.slave)
        env = {"PATH": "", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "TERM": "xterm", "PYTHONFAULTHANDLER": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--db", str(tmp_path / "t.db")], cwd=tmp_path, env=env,
            stdin=self.slave, stdout=self.slave, stderr=self.slave, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.shown = b""

    def type(self, keys: str) -> None:
        """Type `keys` (Enter is "\\r", as a terminal sends it)."""
        os.write(self.master, keys.encode())

    def until(self, end: str, seconds: float = 20) -> str:
        """What pokerbot writes from now until it has written `end`, as the terminal receives it (lines end in
        "\\r\\n"); then nothing more for a moment."""
        start, deadline = len(self.shown), time.monotonic() + seconds
        while not self.shown[start:].decode(errors="replace").endswith(end):
            if not self._read(deadline - time.monotonic()):
                pytest.fail(f"pokerbot did not write {end!r}; it wrote {self.shown[start:].decode()!r}")
        self._read(0.3)  # anything written after it counts too
        return self.shown[start:].decode()

    def _read(self, seconds: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], max(seconds, 0))
        if ready:
            self.shown += os.read(self.master, 65536)
        return bool(ready)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Screen]:
    screen = Screen(tmp_path)
    try:
        yield screen
    finally:
        screen.close()


def test_an_announcement_draws_the_prompt_again_with_what_was_typed(screen: Screen) -> None:
    """A line half typed when a time-out printed the table over the waiting prompt was no longer seen: the prompt
    came again alone, yet Enter sent the whole line, `bob: /balance` where only `ance` showed. The prompt now comes
    again with the part typed after it, and Enter still sends the whole line. The terminal's settings, which
    readline changes while it reads, are as they were once pokerbot has stopped."""
    screen.until("?> ")
    for line in ("ann: /set turn_seconds 3", "ann: /set time_bank 0", "ann: /set next_hand_seconds 600",
                 "ann: /join", "bob: /join"):
        screen.type(line + "\r")
        screen.until("> ")
    screen.type("bob: /deal\r")
    screen.until("(7) ⏩ Call any\r\nann> ")
    screen.type("bob: /bal")  # Ann's three seconds run out while Bob types
    assert screen.until("(1) Show my cards\r\nbob> bob: /bal").endswith(
        "        Ann ran out of time.\r\n"
        "        Ann folds.\r\n"
        "        10 uncalled chips returned to Bob.\r\n"
        "        Bob wins the main pot (20).\r\n"
        "        The hand is over.\r\n"
        "        (1) Show my cards\r\n"
        "bob> bob: /bal")
    screen.type("ance\r")
    assert screen.until("\r\nbob> ") == "ance\r\n[private to bob] Your wallet: 600 chips.\r\nbob> "
    screen.type("/quit\r")
    assert screen.process.wait(20) == 0
    assert termios.tcgetattr(screen.slave) == screen.settings
