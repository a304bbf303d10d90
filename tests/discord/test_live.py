"""Busy real-life situations at Discord's pace, end to end against the fake Discord: a channel the bot lost and got
back, and what its members see then."""

from __future__ import annotations

import asyncio

from bot.discord import DiscordOptions
from bot.output import Place, Reply
from tests.discord.fake_discord import ACK_SECONDS, GUILD_ID
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
    fake.losing.add(channel)  # lost once /deal is sent
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


async def test_a_channel_the_bot_gets_back_shows_its_own_table_not_one_whose_id_starts_with_its_digits(
        fake, turns, make_bot) -> None:
    """Getting a channel back showed again every table whose id began with its own (`dc:…01` also began
    `dc:…012`): only the channel heard from is shown its table; the other channel's, which lost nothing, is left."""
    back = 120_000_000_000_000_001
    fake.channels = (back, back * 10 + 2)
    bot = await make_bot()
    ann, bob, cat = await seat_three(fake, bot)
    for member in (ann, bob, cat):
        await fake.slash(member, fake.channels[1], "join")
    for channel in fake.channels:
        await fake.slash(ann, channel, "deal")
    await bot.settled()
    for member in fake.members.values():
        await fake.slash(member, back, "check")
    await bot.settled()
    fake.losing.add(back)  # lost once /deal is sent
    await fake.slash(bob, back, "deal")  # hand 2 there: its table message is refused, and the table pauses
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{back}")
    shown: list[str] = []

    async def noted(place: Place, reply: Reply) -> None:  # beside the adapter: every table the service shows
        shown.append(place.table_id)

    bot.service.subscribe("dc:", noted)
    fake.lost.discard(back)
    await fake.slash(bob, back, "balance")
    await bot.settled()
    assert not bot.service.is_paused(f"dc:{back}")
    assert shown == [f"dc:{back}"]


async def test_a_press_in_a_channel_the_bot_gets_back_is_acknowledged_while_its_table_is_shown_again(
        fake, turns, make_bot) -> None:
    """The first interaction from a channel the bot had lost lets its paused table play on and shows it again
    before the press is applied: paced as a start paces it (here a table every 3.2 s), that takes longer than the
    three seconds Discord gives an interaction to be acknowledged. The press was refused "Unknown interaction"; it
    is acknowledged in time (deferred), then applied to the pressed message."""
    bot = await make_bot(shown_again_per_second=1 / 3.2, defer_after=DiscordOptions.defer_after)  # as deployed
    ann, _bob, _cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    [table] = table_messages(fake, channel)
    fake.lost.add(channel)
    bot.clock.advance(61)
    await bot.service.scheduler.fire_due()  # the clock's announcement is refused: the table pauses
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{channel}")

    fake.lost.discard(channel)
    pressed = await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    assert pressed.callback_type == 6 and pressed.acked_after is not None and pressed.acked_after <= ACK_SECONDS
    assert not bot.service.is_paused(f"dc:{channel}")
    assert "→ Bob" in fake.messages[int(table["id"])]["content"]


async def test_a_channel_the_bot_gets_back_is_sent_the_texts_it_missed_before_its_table(fake, turns, make_bot) -> None:
    """The bot lost the channel as it posted a new hand's announcement ("Hand 1 begins."): it was dropped with the
    hand's table message. When the channel is heard from again (here a `/balance`), the announcement is posted
    first, then the table as it stands; it was lost for good, only the table shown."""
    bot = await make_bot()
    ann, bob, _cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    fake.losing.add(channel)  # lost once /deal is sent
    await fake.slash(bob, channel, "deal")
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{channel}")
    before = len(fake.channel_messages(channel))

    fake.lost.discard(channel)
    await fake.slash(ann, channel, "balance")
    await bot.settled()
    posted = [message["content"] for message in fake.channel_messages(channel)[before:]]
    assert [content.split("\n")[0] for content in posted] == ["Hand 1 begins.", "Hand 1"], posted


async def test_a_lost_channel_keeps_its_newest_five_texts_and_only_those_of_its_last_loss(
        fake, turns, make_bot) -> None:
    """Seven announcements (each too long to share a message) are refused as the channel is lost: the newest five
    are posted when it is back. Lost again, with one more announcement, it gets that one alone when back: the five
    posted already are not posted again."""
    bot = await make_bot()
    ann = fake.add_member("Ann")
    channel = fake.channels[0]
    place = Place(f"dc:{GUILD_ID}", f"dc:{channel}")
    said = [f"Announcement {number}: " + "x" * 1500 for number in range(1, 9)]

    async def lose_and_get_back(texts: list[str]) -> list[str]:
        fake.lost.add(channel)
        await bot.adapter.on_timer(place, Reply(public=texts))
        await bot.settled()
        await asyncio.gather(*bot.adapter._pausing)
        before = len(fake.channel_messages(channel))
        fake.lost.discard(channel)
        await fake.slash(ann, channel, "balance")
        await bot.settled()
        return [message["content"] for message in fake.channel_messages(channel)[before:]]

    assert await lose_and_get_back(said[:7]) == said[2:7]
    assert await lose_and_get_back(said[7:]) == said[7:]
