"""/help at the terminal table: the terminal's own /quit in its list, and its lines wrapped at the terminal's
width."""

import io

import pytest

from bot.service import Service
from bot.terminal import TerminalAdapter
from tests.bot.terminal_helpers import said


async def test_help_names_quit_the_terminals_own_command(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """The introduction says /quit leaves, but /help listed every command but it, and `/help quit` answered “I don't
    know the command”; in the player's own language, as the rest of his help (wrapped at 80 columns)."""
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("ann: /help")
    help_lines = out.getvalue().splitlines()
    assert help_lines[0] == "[private to ann] Commands:"
    assert help_lines[-4:] == [
        "                 /addbot [name] | remove name — seat a computer player for",
        "                                                practice",
        "                 /quit — leave the terminal: the bot stops and keeps its tables",
        "                         for its next start"]
    assert await said(terminal, out, "ann: /help quit") == (
        "[private to ann] /quit\n"
        "                 leave the terminal: the bot stops and keeps its tables for its\n"
        "                 next start\n")
    assert await terminal.say("bob: /lang ru me")
    assert await said(terminal, out, "bob: /help /exit") == (
        "[private to bob] /quit\n"
        "                 выйти из терминала: бот остановится, а столы сохранит до\n"
        "                 следующего запуска\n")
    assert (await said(terminal, out, "bob: /help")).splitlines()[-2:] == [
        "                 /quit — выйти из терминала: бот остановится, а столы сохранит",
        "                         до следующего запуска"]


async def test_help_is_wrapped_at_the_terminals_width(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """/help's lines reached some 300 characters (/tournament's) and broke wherever the terminal's edge fell: an
    entry now goes on under its description, as a command line's help does, and a usage too long for that is
    wrapped on its own (never inside its brackets), its description below it."""
    monkeypatch.setenv("COLUMNS", "70")
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("ann: /help")
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) == 70
    assert lines[1:5] == [
        "                 /help [command] — the commands, or how to use one",
        "                 /join [chips] — sit down at the table; seated at a",
        "                                 cash table, top up your stack (up to",
        "                                 the table's buy-in)"]
    tournament = lines.index("                 /tournament create [preset or schedule] [rebuys N]")
    assert lines[tournament + 1:tournament + 7] == [
        "                   [addon [N]] [reentry] [bounty M] [pawns N] |",
        "                   register | start | pause | resume | skip | minutes",
        "                   +N|-N | status | clock | cashout | redeem",
        "                   [item number] | rebuy | addon | close",
        "                     — tournament commands (the organizer's: create,",
        "                       start, pause, resume, skip, minutes, close)"]
