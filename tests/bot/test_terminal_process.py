"""pokerbot run as a program with its terminal table: typed at through a pipe, stopped by a signal."""

import asyncio
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.terminal_helpers import ANN_CALLED, HAND_DEALT, ROOT

_CARD = re.compile(r"(?:10|[2-9TJQKA])[♠♥♦♣]")


def pokerbot_prints(tmp_path: Path, script: str) -> str:
    """What `python -m bot` prints, its output piped, when `script` is typed at it (ending with /quit); the terminal
    table's database is `tmp_path / "t.db"`."""
    env = {"PATH": "", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen([sys.executable, "-m", "bot", "--db", str(tmp_path / "t.db")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        out, err = process.communicate(script, timeout=60)
    except subprocess.TimeoutExpired:  # show where it hangs: faulthandler prints every thread on SIGABRT
        process.send_signal(signal.SIGABRT)
        out, err = process.communicate()
        pytest.fail(f"pokerbot did not stop after /quit\n{out[-2000:]}\n{err[-4000:]}")
    assert process.returncode == 0, err
    return out


def test_pokerbot_runs_a_terminal_table_from_the_command_line(tmp_path: Path) -> None:
    out = pokerbot_prints(tmp_path, "ann: /join\nbob: /join\nann: /deal\nann: /call\n/quit\n")
    intro, _, _, dealt, called, end = re.split(r"(?:\?|ann|bob)> ", out)  # what followed each prompt
    assert intro == (
        "pokerbot at the terminal. Several players share this keyboard: write `name: command`, e.g.\n"
        "  ann: /join      bob: /join      ann: /deal\n"
        "After that, the prompt names whose turn it is; a line without a name is said by that player\n"
        "(by whoever spoke last when nobody is to act).\n"
        "Buttons are numbered: type the number to press one. /help lists the commands, /quit leaves.\n"
        "Lines marked [table] are public; [private to ann] would only reach Ann on Discord or Telegram.\n"
        "\n")
    two_cards = f"{_CARD.pattern} {_CARD.pattern}"  # the shuffle is the system's: any two cards
    private, table = dealt.split("[table] ", 1)
    assert re.fullmatch(rf"\[private to bob\] Your cards: {two_cards}\n\[private to ann\] Your cards: {two_cards}\n",
                        private), private
    assert "[table] " + table == HAND_DEALT  # the table message, as the README shows it
    assert called == ANN_CALLED  # Bob to act after Ann's call (kept as a row of the log)
    assert end == ""
    with sqlite3.connect(tmp_path / "t.db") as db:  # a clean stop snapshots the table: no log is left to replay
        assert db.execute("SELECT COUNT(*) FROM actions JOIN tables USING (table_id) "
                          "WHERE seq > snapshot_seq").fetchone()[0] == 0
        assert db.execute("SELECT snapshot_seq FROM tables WHERE table_id != ''").fetchall() != [(0,)]
        # the one table's snapshot stands at its last action, the call (the fourth logged)
        assert db.execute("SELECT snapshot_seq, (SELECT MAX(seq) FROM actions) FROM tables WHERE table_id != ''"
                          ).fetchall() == [(4, 4)]


def test_help_is_wrapped_at_80_columns_when_the_width_is_unknown(tmp_path: Path) -> None:
    """Output piped, and no $COLUMNS (`pokerbot_prints`' environment): the terminal's width cannot be known."""
    out = pokerbot_prints(tmp_path, "ann: /help tournament\n/quit\n")
    assert re.split(r"(?:\?|ann)> ", out)[1] == (
        "[private to ann] /tournament create [preset or schedule] [rebuys N] [addon [N]]\n"
        "                   [reentry] [bounty M] [pawns N] | register | start | pause |\n"
        "                   resume | skip | minutes +N|-N | status | clock | cashout |\n"
        "                   redeem [item number] | rebuy | addon | close\n"
        "                 tournament commands (the organizer's: create, start, pause,\n"
        "                 resume, skip, minutes, close)\n")


def _unsnapshotted_actions(database: Path) -> int:
    """How many logged actions of `database` lie after their table's snapshot (a start would replay them)."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT COUNT(*) FROM actions JOIN tables USING (table_id) WHERE seq > snapshot_seq"
                          ).fetchone()[0]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
async def test_a_signal_stops_the_terminal_table_at_once_and_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C (SIGINT) or SIGTERM (systemd's, Docker's, kill's) while the terminal waits for a line (the keyboard left
    open, nothing typed) stops pokerbot at once, as a clean stop: exit status 0, every table snapshotted. The read
    blocked on the keyboard once held Ctrl-C's stop until Enter was pressed, and SIGTERM killed the process outright
    (on Discord and Telegram too: nothing queued was sent, no table snapshotted)."""
    env = {"PATH": "", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "PYTHONFAULTHANDLER": "1"}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--db", str(tmp_path / "t.db"), cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as at a shell, whatever runs the tests
    assert bot.stdin is not None and bot.stdout is not None and bot.stderr is not None
    try:
        bot.stdin.write(b"ann: /join\nbob: /join\nann: /deal\nann: /call\n")
        await bot.stdin.drain()
        await asyncio.wait_for(bot.stdout.readuntil(b"Ann calls 10."), 60)
        await asyncio.wait_for(bot.stdout.readuntil(b"bob> "), 10)  # waiting for the next line
        assert _unsnapshotted_actions(tmp_path / "t.db") == 1, "the call is logged after the hand's snapshot"
        bot.send_signal(stop)
        try:
            await asyncio.wait_for(bot.wait(), 20)
        except TimeoutError:
            bot.send_signal(signal.SIGABRT)  # faulthandler shows where it waits
            pytest.fail(f"pokerbot did not stop on {stop.name}: " + (await bot.stderr.read()).decode()[-4000:])
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    assert bot.returncode == 0, (await bot.stderr.read()).decode()
    assert _unsnapshotted_actions(tmp_path / "t.db") == 0, "a clean stop snapshots the table"
