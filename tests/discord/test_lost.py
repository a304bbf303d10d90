"""A channel the bot lost, at its edges: an interaction from it while the bot still may not post there, a text
refused for want of Send Messages, and the interaction's work when getting the channel back fails."""

from __future__ import annotations

import asyncio
import inspect
import logging

import pytest

from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_adapter import seat_three


async def lose_a_dealt_table(fake: FakeDiscord, bot) -> tuple:
    """Three seated, the bot loses the first channel (View Channel taken away) as hand 1 is dealt: the table pauses."""
    ann, bob, cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    fake.lost.add(channel)
    await fake.slash(bob, channel, "deal")
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{channel}")
    return ann, bob, cat


async def test_a_failure_to_play_a_lost_channels_table_on_closes_the_work_it_held(
        fake, turns, make_bot, caplog: pytest.LogCaptureFixture) -> None:
    """The channel is back, but letting its table play on fails (here the store refuses to resume it): the member
    is told something went wrong, the failure is logged once, and the command's work, never started, is closed
    (it was left unawaited: "coroutine ... was never awaited")."""
    bot = await make_bot()
    ann, _bob, _cat = await lose_a_dealt_table(fake, bot)
    channel = fake.channels[0]
    fake.lost.discard(channel)

    async def refused(table_ids: list[str]) -> None:
        raise RuntimeError("the store refuses")

    bot.service.resume = refused
    works = []
    handle = bot.service.handle

    def kept(*args):
        works.append(handle(*args))
        return works[-1]

    bot.service.handle = kept
    caplog.set_level(logging.ERROR, logger="bot.discord")
    checked = await fake.slash(ann, channel, "check")
    await bot.settled()
    assert checked.ephemeral_text() == "Something went wrong. Check the table before trying again."
    assert [inspect.getcoroutinestate(work) for work in works] == [inspect.CORO_CLOSED]
    failed = [record for record in caplog.records if record.exc_info]
    assert [str(record.exc_info[1]) for record in failed] == ["the store refuses"]
