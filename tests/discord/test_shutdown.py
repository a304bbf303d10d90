"""Interactions caught by a shutdown: an abandoned answer still lets its action run to its end, tells the channel
and leaves no exception unseen; `stop` waits for such work, and tells those who come meanwhile the bot is restarting."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import text
from tests.discord.fake_discord import APP_ID, FakeDiscord
from tests.discord.test_order import hand_ended_with_follow_up_held


def gate_the_first_command(bot: Any, monkeypatch: pytest.MonkeyPatch, *, fails: bool = False) -> asyncio.Event:
    """The service's first command waits for the returned event (then fails, with `fails`) before it runs; the
    commands after it run at once."""
    gate = asyncio.Event()
    handle = bot.service.handle
    calls = 0

    async def gated(place: Any, actor: Any, line: str) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            await gate.wait()
            if fails:
                raise RuntimeError("the store failed")
        return await handle(place, actor, line)

    monkeypatch.setattr(bot.service, "handle", gated)
    return gate


async def the_handler() -> asyncio.Task[Any]:
    """The task discord.py runs a slash command in, once it has started."""
    async with asyncio.timeout(5):
        while not (found := [task for task in asyncio.all_tasks() if task.get_name() == "CommandTree-invoker"]):
            await asyncio.sleep(0.01)
    [handler] = found
    return handler


@contextlib.contextmanager
def unretrieved() -> Iterator[list[dict[str, Any]]]:
    """What the event loop reports of exceptions nobody retrieved (collected at the end, so that a task dropped
    with its exception is reported)."""
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: reported.append(context))
    try:
        yield reported
        gc.collect()
    finally:
        loop.set_exception_handler(None)


def seated(bot: Any, channel: int) -> Any:
    return bot.store.read(lambda tx: (bot.service.stored_table(tx, f"dc:{channel}") or ({}, {}))[1].get("seated", []))


async def join_abandoned_mid_action(fake: FakeDiscord, bot: Any, member: Any, channel: Any,
                                   gate: asyncio.Event) -> None:
    """`member`'s /join reaches the gated service; its interaction's task is cancelled (abandoned, as `stop` does),
    then the gate opens and the bot settles: the work has run to its end, whatever it did."""
    joining = asyncio.create_task(fake.slash(member, channel, "join"))
    (await the_handler()).cancel()
    await asyncio.sleep(0.01)
    gate.set()
    await bot.settled()
    joining.cancel()
    await asyncio.gather(joining, return_exceptions=True)


async def test_an_interaction_cancelled_mid_action_still_runs_it_and_tells_the_channel(
        fake: FakeDiscord, make_bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's /join is being applied when its task is cancelled (the bot shuts down). The action runs to its end
    rather than being cut between its commit and its timers, and the channel is told ("Ann sits down."), though
    Discord gets no answer to the interaction any more. It used to go on unobserved: applied, and nobody told."""
    bot = await make_bot()
    gate = gate_the_first_command(bot, monkeypatch)
    ann, channel = fake.add_member("Ann"), fake.channels[0]
    with unretrieved() as reported:
        await join_abandoned_mid_action(fake, bot, ann, channel, gate)
        assert await seated(bot, channel) == [f"dc:{ann.id}"]
        assert "Ann sits down." in [message["content"] for message in fake.channel_messages(channel)]
    assert reported == []


async def test_an_abandoned_interactions_failure_is_logged_not_left_unretrieved(
        fake: FakeDiscord, make_bot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The work of a cancelled interaction fails after it was abandoned: that is logged with its cause, where it was
    left in a task nobody awaited ("Task exception was never retrieved")."""
    bot = await make_bot()
    gate = gate_the_first_command(bot, monkeypatch, fails=True)
    ann, channel = fake.add_member("Ann"), fake.channels[0]
    with unretrieved() as reported:
        await join_abandoned_mid_action(fake, bot, ann, channel, gate)
    assert reported == []
    [record] = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert "abandoned interaction failed" in record.message and "the store failed" in str(record.exc_info[1])
    assert await seated(bot, channel) == []


async def test_stop_waits_for_an_action_in_flight_and_tells_newcomers_the_bot_is_restarting(
        fake: FakeDiscord, make_bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's /join is still being applied when `stop_after` has passed: `stop` abandons its answer but returns only
    once the action has run (the store is closed after it). Bob's /join, come while the bot stops, is told the bot is
    restarting, and nothing is done. `stop` used to return with Ann's action still running, and to run Bob's."""
    bot = await make_bot(stop_after=0.1)
    gate = gate_the_first_command(bot, monkeypatch)
    ann, bob, channel = fake.add_member("Ann"), fake.add_member("Bob"), fake.channels[0]
    with unretrieved() as reported:
        joining = asyncio.create_task(fake.slash(ann, channel, "join"))
        await the_handler()
        stopping = asyncio.create_task(bot.adapter.stop())
        await asyncio.sleep(0.01)
        late = await fake.slash(bob, channel, "join")
        assert late.ephemeral_text() == text("en", "discord.stopping")
        await asyncio.sleep(0.3)
        assert not stopping.done(), "Ann's action is not cut short"
        gate.set()
        await stopping
        assert await seated(bot, channel) == [f"dc:{ann.id}"]
        joining.cancel()
        await asyncio.gather(joining, return_exceptions=True)
    assert reported == []


async def test_a_press_cancelled_during_its_follow_up_still_says_its_line_once(
        fake: FakeDiscord, make_bot: Any) -> None:
    """Bob's check ends the hand; its line is on its way as the press's follow-up (a slow network) when the press's
    task is cancelled (the bot shuts down). The line still reaches the channel, once, and the table then shows the
    hand over. The cancelled follow-up was taken as not posted: Discord had it, and the channel's queue posted the
    line again (before the queue took lines left unposted, the bot took it as lost)."""
    bot = await make_bot()
    table, pressed = await hand_ended_with_follow_up_held(fake, bot)
    async with asyncio.timeout(5):
        while ("POST", f"/webhooks/{APP_ID}/{pressed.token}") not in fake.requests:
            await asyncio.sleep(0.01)
    [handler] = bot.adapter._handlers
    handler.cancel()
    await asyncio.gather(handler, return_exceptions=True)
    fake.held_followups.set()
    await bot.settled()
    said = [message["content"] for message in fake.channel_messages(fake.channels[0])
            if int(message["id"]) > int(table["id"])]
    assert len(said) == 1 and said[0].startswith("Hand 1 is over: ")
    assert pressed.texts(ephemeral=False) == said
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
