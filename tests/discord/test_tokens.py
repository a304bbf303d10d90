"""No log line carries the bot token: the Discord adapter at DEBUG with the program's logging."""

from __future__ import annotations

import logging

from tests.conftest import leaked
from tests.discord.fake_discord import TOKEN, FakeDiscord


async def test_no_log_record_carries_the_token_at_debug(fake: FakeDiscord, make_bot, program_logs) -> None:
    bot = await make_bot()
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    for member in (ann, bob):
        await fake.slash(member, fake.channels[0], "join")
    await fake.slash(ann, fake.channels[0], "deal")
    await bot.settled()
    table = [m for m in fake.channel_messages(fake.channels[0]) if fake.buttons(m)][-1]
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    await bot.stop()

    assert fake.identified[-1]["token"] == TOKEN  # the token did travel (in the gateway's IDENTIFY)
    assert any(record.name.startswith("discord") and record.levelno == logging.DEBUG for record in program_logs)
    assert leaked(program_logs, (TOKEN,)) == []
