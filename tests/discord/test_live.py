"""Busy real-life situations at Discord's pace, end to end against the fake Discord: a channel the bot lost and got
back, and what its members see then."""

from __future__ import annotations

import asyncio

from tests.discord.test_adapter import seat_three, table_messages


async def test_a_channel_the_bot_gets_back_is_shown_the_hand_its_refusal_lost(fake, turns, make_bot) -> None:
    """The bot lost the channel (403 Missing Access) as it posted a new hand's table message, which was dropped with
    what else waited, and the table paused. When the channel is heard from again (here a press on the old hand's
    message, answered "this hand is over"), the hand in play is shown with its buttons."""
    bot = await make_bot()
    ann, bob, _cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    old = dict(table_messages(fake, channel)[0])  # as Ann's client still shows it
    for member in fake.members.values():
        await fake.slash(member, channel, "check")
    await bot.settled()
    fake.lost.add(channel)
    await fake.slash(bob, channel, "deal")  # hand 2: its table message is refused, and the table pauses
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{channel}")
    assert len(table_messages(fake, channel)) == 1

    fake.lost.discard(channel)  # the bot sees the channel again
    stale = await fake.press(ann, old, fake.button(old, "Check"))
    await bot.settled()
    assert stale.ephemeral_text() == "This hand is over."
    assert not bot.service.is_paused(f"dc:{channel}")
    shown = table_messages(fake, channel)
    assert len(shown) == 2 and shown[-1]["content"].startswith("Hand 2\n"), shown
