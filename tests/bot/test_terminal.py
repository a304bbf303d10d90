"""The terminal table: named players at one keyboard, public and private output marked, buttons by number."""

import io
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import Service
from bot.terminal import TerminalAdapter

ROOT = Path(__file__).resolve().parents[2]


async def test_players_take_turns_at_one_keyboard(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    text = out.getvalue()
    assert "[table] Ann sits down with 400 chips." in text
    assert "[private to ann] Your cards:" in text
    assert "[private to bob] Your cards:" in text
    assert terminal.speaker in ("ann", "bob"), "the prompt follows the player to act"
    labels = [button.label for button in terminal.buttons]
    assert "Fold" in labels or "Check" in labels
    fold_or_check = next(i for i, b in enumerate(terminal.buttons, 1) if b.label in ("Fold", "Check"))
    before = terminal.table.text
    assert await terminal.say(str(fold_or_check))
    assert terminal.table.text != before
    assert not await terminal.say("/quit")


async def test_unknown_speaker_and_bad_commands_get_a_short_answer(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await terminal.say("/join")
    assert "Who is speaking?" in out.getvalue()
    await terminal.say("cat: /flop")
    assert "[only you] I don't know the command “/flop”." in out.getvalue()
    await terminal.say("cat: hello there")  # quoted as typed: the line never said /hello
    assert "[only you] I don't know the command “hello”." in out.getvalue()


def test_pokerbot_runs_a_terminal_table_from_the_command_line(tmp_path: Path) -> None:
    script = "ann: /join\nbob: /join\nann: /deal\n/quit\n"
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
    assert "pokerbot at the terminal" in out
    assert "[table] Hold'em — hand #1 · blinds 10/20" in out  # the table message, as the README shows it
    assert "        Hand #1: button Ann, blinds 10/20." in out  # its story: what happened so far
    assert "        ▶ Ann to act: 10 to call." in out
    assert (tmp_path / "t.db").exists()


async def test_a_file_is_written_next_to_the_database(service: Service, tmp_path: Path) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out, files_dir=tmp_path)
    for line in ("ann: /tournament create", "ann: /join", "bob: /join", "ann: /tournament start"):
        assert await terminal.say(line)
    for _ in range(40):  # check or call until the first hand is over
        labels = {button.label.split()[0]: index for index, button in enumerate(terminal.buttons, 1)}
        if "Check" not in labels and "Call" not in labels:
            break
        assert await terminal.say(str(labels.get("Check") or labels["Call"]))
    assert await terminal.say("bob: /history tournament")
    assert f"[private to bob] file saved: {tmp_path / 'tournament-1.txt'}" in out.getvalue()
    assert (tmp_path / "tournament-1.txt").read_text().startswith("PokerStars Hand #1: ")
