"""The terminal table around its waiting prompt: what a restart shows again, a timer's message or a log line printed
while the prompt waits, and a stop."""

import asyncio
import io
import logging
import sys
import threading
from collections.abc import Callable

import pytest

from bot.clock import FakeClock
from bot.i18n import text
from bot.service import Service
from bot.store import Store
from bot.terminal import TerminalAdapter, run_terminal
from tests.bot.conftest import dump
from tests.bot.helpers import started_service
from tests.bot.terminal_helpers import ANN_CALLED, HAND_DEALT, ann_folded


def typed(*lines: str, prompts: list[str] | None = None) -> Callable[[str], str]:
    """A keyboard for `run_terminal` that types `lines`, then ends (Ctrl-D); each prompt it is shown is appended to
    `prompts`."""
    left = iter(lines)

    def read_line(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        try:
            return next(left)
        except StopIteration:
            raise EOFError from None

    return read_line


async def run_after_restart(service: Service, store: Store, clock: FakeClock, read_line: Callable[[str], str],
                            *lines: str) -> tuple[list[str], list[str]]:
    """Say `lines` at the terminal table, restart the bot (a new service on the same database) and run the terminal
    table on it, typed at by `read_line`; the database as text (`dump`) just before the terminal table ran, and
    just after."""
    terminal = TerminalAdapter(service, out=io.StringIO())
    for line in lines:
        assert await terminal.say(line)
    await service.stop()
    await store.close()
    reopened = await Store.open(store.location)
    try:
        restarted = await started_service(reopened, clock, seed=42)
        before = dump(store.location)
        await run_terminal(restarted, read_line)
        return before, dump(store.location)
    finally:
        await reopened.close()


async def test_a_restart_shows_the_hand_in_play_and_whose_turn_it_is(service: Service, store: Store,
                                                                     clock: FakeClock,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     program_logs: list[logging.LogRecord]) -> None:
    """The README promises the bot may be killed and restarted at any moment: the table resumed, but the terminal
    started on `?> ` with no table and no buttons, so that `2` answered “no buttons are shown now” and a line
    without a name asked who was speaking, in the middle of Bob's turn. Showing it again logs nothing on the
    terminal's screen (the platforms' adapters log how many tables they showed again)."""
    prompts: list[str] = []
    await run_after_restart(service, store, clock, typed("2", prompts=prompts),  # Bob checks
                            "ann: /join", "bob: /join", "ann: /deal", "call")
    shown = capsys.readouterr().out
    assert shown.split("\n\n", 1)[1] == ANN_CALLED + (
        "[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "        Board: J♥ 6♣ J♠ · Pot: 40\n"
        "          Ann · 380 Ⓓ\n"
        "        ▶ Bob · 380\n"
        "\n"
        "        Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
        "        Ann posts the small blind 10.\n"
        "        Bob posts the big blind 20.\n"
        "        Ann calls 10.\n"
        "        Bob checks.\n"
        "        Flop: J♥ 6♣ J♠\n"
        "        ▶ Bob to act (⏱ 60\xa0s).\n"
        "        (1) 🂠 My cards  (2) Check  (3) Bet 20  (4) ⏩ Check/fold  (5) ⏩ Check  (6) ⏩ Call any\n"
        "\n")
    assert prompts == ["bob> ", "bob> "]
    assert [record.getMessage() for record in program_logs if record.levelno >= logging.INFO] == []


SEATED = (
    "[table] Texas Hold'em — seats:\n"
    "          Ann — 400\n"
    "          Bob — 400\n"
    "        Between hands: the next deal comes in a moment, or press Deal.\n"
    "        (1) Deal\n")
"""The table message of Ann and Bob seated between hands, as `/table` draws it."""


async def test_a_restart_between_hands_shows_the_seated_table_and_its_deal_button(
        service: Service, store: Store, clock: FakeClock, capsys: pytest.CaptureFixture[str]) -> None:
    """Restarted between hands, the terminal showed only its introduction and `?> `, with the players seated and a
    Deal button that `1` could not press, until someone typed `/table`. It now shows the table as `/table` draws it,
    logging nothing and changing nothing, and its button deals."""
    before, after = await run_after_restart(service, store, clock, typed(), "ann: /join", "bob: /join")
    assert after == before
    assert capsys.readouterr().out == f"{text('en', 'term.intro')}\n{SEATED}\n"  # the last line: Ctrl-D's


async def test_the_deal_button_shown_at_a_restart_deals(service: Service, store: Store, clock: FakeClock,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    prompts: list[str] = []
    await run_after_restart(service, store, clock, typed("ann: 1", prompts=prompts), "ann: /join", "bob: /join")
    assert capsys.readouterr().out.split("\n\n", 1)[1] == (
        SEATED + "[private to bob] Your cards: 4♦ 8♦\n[private to ann] Your cards: 7♠ 2♠\n" + HAND_DEALT + "\n")
    assert prompts == ["?> ", "ann> "]


async def test_a_new_table_starts_with_the_introduction_alone(service: Service, store: Store, clock: FakeClock,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    before, after = await run_after_restart(service, store, clock, typed(), "ann: /balance")  # stored, nobody seated
    assert after == before
    assert capsys.readouterr().out == f"{text('en', 'term.intro')}\n\n"


async def test_a_time_out_while_the_prompt_waits_goes_below_it_and_the_prompt_comes_again(
        service: Service, clock: FakeClock) -> None:
    """A timer's message printed while the prompt waits starts on a line of its own and ends with the prompt again,
    naming who speaks now (printed when no prompt is shown, at a restart, it adds neither: the test above)."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    service.subscribe("term:", terminal.announce)
    for line in ("ann: /set time_bank 0", "ann: /join", "bob: /join", "bob: /deal"):
        assert await terminal.say(line)
    terminal.waiting = True  # `ann> ` is shown
    start = len(out.getvalue())
    clock.advance(61)
    await service.scheduler.fire_due()
    assert out.getvalue()[start:] == "\n" + ann_folded("Ann ran out of time.") + "bob> "


async def test_a_log_line_while_the_prompt_waits_goes_below_it(service: Service,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The bot logs at INFO by default, to the same screen (a full collection, say, every few minutes): such a line
    was written after the waiting prompt, `ann> 2026-12-07 10:02:31,048 INFO pokerbot: full collection: …`, and
    the prompt was not shown again, so whatever was typed next stood on a line of its own under the log."""
    handler = logging.StreamHandler(sys.stdout)  # the terminal's screen, as `logging.basicConfig`'s stderr shares it
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.setLevel(logging.INFO)  # the program's default level (`POKERBOT_LOG_LEVEL`)
    root = logging.getLogger()
    root.addHandler(handler)
    pokerbot_log = logging.getLogger("pokerbot")
    level = pokerbot_log.level
    pokerbot_log.setLevel(logging.INFO)

    def read_line(prompt: str) -> str:
        sys.stdout.write(prompt)
        if prompt == "ann> ":
            pokerbot_log.info("full collection: 0 unreachable objects")  # a thread of the bot, while Ann types
            raise EOFError
        return "ann: /balance"

    try:
        await run_terminal(service, read_line)
        assert root.handlers.count(handler) == 1, "the handler is the program's again"
    finally:
        root.removeHandler(handler)
        pokerbot_log.setLevel(level)
    assert capsys.readouterr().out.split("\n\n", 1)[1] == (
        "?> [private to ann] Your wallet: 1,000 chips.\n"
        "ann> \n"
        "INFO pokerbot: full collection: 0 unreachable objects\n"
        "ann> \n")


async def test_a_stop_while_the_prompt_waits_ends_its_line(service: Service,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C at the prompt (the terminal echoes `^C`) stopped the bot cleanly but left the shell's prompt on the
    same line, `bob> ^C$ `, as Ctrl-D did."""
    shown, release = threading.Event(), threading.Event()

    def read_line(prompt: str) -> str:
        sys.stdout.write(prompt)
        shown.set()
        release.wait(10)  # a keyboard nobody types at
        raise EOFError

    terminal = asyncio.create_task(run_terminal(service, read_line))
    try:
        assert await asyncio.to_thread(shown.wait, 10)
        terminal.cancel()  # what Ctrl-C and SIGTERM do to the bot (`bot.__main__.serve_until_stopped`)
        with pytest.raises(asyncio.CancelledError):
            await terminal
    finally:
        release.set()
    assert capsys.readouterr().out.split("\n\n", 1)[1] == "?> \n"
