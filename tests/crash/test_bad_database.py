"""A database the bot cannot use (garbage, truncated, unwritable) stops the real `pokerbot` with one line, at once."""

import ctypes
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.crash.test_kill import ROOT, start_driver

TIMEOUT = 60.0
"""Seconds the program gets to give up (it used to wait forever on aiosqlite's thread)."""

PR_CAPBSET_DROP = 24
DAC_CAPABILITIES = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
"""What lets root write where the permissions say no; the child drops them so a read-only directory is one for it."""


def drop_root_overrides() -> None:
    """In the child before exec: give up the capabilities that let root ignore file permissions."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in DAC_CAPABILITIES:
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


AS_A_USER: Callable[[], None] | None = drop_root_overrides if os.geteuid() == 0 else None
"""How to start a child for which file permissions hold (nothing to do when the tests do not run as root)."""


def pokerbot_environment() -> dict[str, str]:
    """The environment of the real program with no token (the terminal table), its output unbuffered."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("POKERBOT_", "TELEGRAM_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_pokerbot(database: Path | str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real program with no token (the terminal table) on `database`; fails the test if it hangs."""
    return subprocess.run([sys.executable, "-m", "bot", "--db", str(database)], cwd=cwd, env=pokerbot_environment(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT,
                          preexec_fn=AS_A_USER)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real database: the crash driver played on it and was killed, then its log was checkpointed into it."""
    path = tmp_path_factory.mktemp("played") / "played.db"
    process, _, _ = start_driver(path, seed=5)
    time.sleep(0.3)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert connection.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] > 0
    connection.close()
    return path


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory nobody may write to (for the child `run_pokerbot` starts, root included)."""
    directory = tmp_path / "read-only"
    directory.mkdir()
    yield directory
    directory.chmod(0o755)  # so that pytest can clean up


def seal(directory: Path) -> None:
    """Make `directory` read-only, and skip the test if the child could still write there."""
    directory.chmod(0o555)
    probe = subprocess.run([sys.executable, "-c", f"open({str(directory / 'probe')!r}, 'w')"],
                           capture_output=True, preexec_fn=AS_A_USER)
    if probe.returncode == 0:
        pytest.skip("this system lets the test's child write into a read-only directory")


def assert_stopped_with_one_line(result: subprocess.CompletedProcess[str], reason: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pokerbot stopped: the database "), lines[0]
    assert reason in lines[0], lines[0]


def test_a_garbage_file_stops_pokerbot(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    content = random.Random(13).randbytes(20_000)
    garbage.write_bytes(content)
    result = run_pokerbot(garbage, tmp_path)
    assert_stopped_with_one_line(result, "file is not a database")
    assert garbage.read_bytes() == content  # the file is left as it was, for whoever wants to rescue it


@pytest.mark.parametrize("fraction", [0.5, 0.1])
def test_a_truncated_database_stops_pokerbot(tmp_path: Path, played: Path, fraction: float) -> None:
    truncated = tmp_path / "truncated.db"
    content = played.read_bytes()
    truncated.write_bytes(content[: int(len(content) * fraction)])
    result = run_pokerbot(truncated, tmp_path)
    assert_stopped_with_one_line(result, "database disk image is malformed")


def test_a_database_in_a_read_only_directory_stops_pokerbot(tmp_path: Path, played: Path,
                                                            read_only_dir: Path) -> None:
    database = read_only_dir / "pokerbot.db"
    shutil.copyfile(played, database)
    seal(read_only_dir)
    result = run_pokerbot(database, tmp_path)
    assert_stopped_with_one_line(result, "readonly database")


def test_a_new_database_in_a_read_only_directory_stops_pokerbot(tmp_path: Path, read_only_dir: Path) -> None:
    seal(read_only_dir)
    result = run_pokerbot(read_only_dir / "pokerbot.db", tmp_path)
    assert_stopped_with_one_line(result, "unable to open database file")


def test_a_database_under_a_regular_file_stops_pokerbot(tmp_path: Path) -> None:
    (tmp_path / "not-a-directory").write_text("")
    result = run_pokerbot(tmp_path / "not-a-directory" / "pokerbot.db", tmp_path)
    assert_stopped_with_one_line(result, "unable to open database file")


def test_a_database_another_pokerbot_plays_on_stops_the_second_one(tmp_path: Path) -> None:
    """Two bots on one SQLite file would each act on a copy of a table of their own (a seat one of them adds vanishes
    when the other saves the table, its chips left on a stack nobody sits at, and both fire its timers): a second
    `pokerbot` on the file stops at once, the first plays on, and once it has stopped the file opens again."""
    database = tmp_path / "pokerbot.db"
    first = subprocess.Popen([sys.executable, "-m", "bot", "--db", str(database)], cwd=tmp_path,
                             env=pokerbot_environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline(), first.stderr.read() if first.stderr else ""  # its intro: it is playing
        assert_stopped_with_one_line(run_pokerbot(database, tmp_path), "another pokerbot process is using it")
        out, err = first.communicate("ann: /join\n", timeout=TIMEOUT)
        assert first.returncode == 0, err
        assert "Ann" in out
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    again = run_pokerbot(database, tmp_path)
    assert again.returncode == 0, again.stderr


def test_a_postgresql_server_that_cannot_be_reached_stops_pokerbot_without_showing_the_password(
        tmp_path: Path) -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[postgres]')")
    result = run_pokerbot("postgresql://poker:s3cret@127.0.0.1:1/poker", tmp_path)  # nothing listens on port 1
    assert_stopped_with_one_line(result, "Connection refused")
    assert "postgresql://poker:***@127.0.0.1:1/poker" in result.stderr and "s3cret" not in result.stderr
