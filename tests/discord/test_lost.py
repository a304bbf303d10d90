"""A channel the bot lost, at its edges: an interaction from it while the bot still may not post there, a text
refused for want of Send Messages, and the interaction's work when getting the channel back fails."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from typing import Any

import discord
import pytest

from bot.clock import FakeClock
from bot.output import Picture, Place, Reply
from bot.store.pauses import paused_tables
from tests.bot.test_shared_database import stop_watching
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, until
from tests.discord.test_adapter import seat_three, table_messages
from tests.discord.test_order import heads_up_dealt


async def lose_a_dealt_table(fake: FakeDiscord, bot) -> tuple:
    """Three seated, the bot loses the first channel (View Channel taken away) once /deal is sent: hand 1's
    announcement is refused and the table pauses."""
    ann, bob, cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    fake.losing.add(channel)
    await fake.slash(bob, channel, "deal")
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(f"dc:{channel}")
    return ann, bob, cat


async def acknowledgement_refused(fake: FakeDiscord) -> None:
    """Discord's clock jumps past the three seconds an interaction has to be acknowledged: wait until it refused the
    bot's acknowledgement (404 Unknown interaction)."""
    loop = asyncio.get_running_loop()
    fake.clock = lambda: loop.time() + 10.0
    async with asyncio.timeout(5):
        while not any(status == 404 and path.endswith("/callback") for _, _, path, status in fake.timeline):
            await asyncio.sleep(0.01)


async def clock_line_refused(fake: FakeDiscord, bot: Any, channel: int, table: str) -> None:
    """Send Messages taken away from the bot in `channel`: the clock's next announcement ("Clock: level 2 begins
    (hand 1).") is refused 403, and the table pauses."""
    fake.denied_sends.add(channel)
    bot.clock.advance(61)
    await bot.service.scheduler.fire_due()
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert bot.service.is_paused(table)


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
        async def work():  # the test's own coroutine: `inspect` reads its state (not a compiled service's)
            return await handle(*args)

        works.append(work())
        return works[-1]

    bot.service.handle = kept
    caplog.set_level(logging.ERROR, logger="bot.discord")
    checked = await fake.slash(ann, channel, "check")
    await bot.settled()
    assert checked.ephemeral_text() == "Something went wrong. Check the table before trying again."
    assert [inspect.getcoroutinestate(work) for work in works] == [inspect.CORO_CLOSED]
    failed = [record for record in caplog.records if record.exc_info]
    assert [str(record.exc_info[1]) for record in failed] == ["the store refuses"]


@pytest.mark.parametrize(("locale", "told"), [
    ("en-US", "I cannot post in this channel, so nothing is played here until an admin gives me the View Channel and "
              "Send Messages permissions in it."),
    ("ru", "Я не могу писать в этот канал, поэтому игра здесь стоит, пока администратор не даст мне в нём права "
           "«Просматривать каналы» и «Отправлять сообщения»."),
])
async def test_an_interaction_from_a_channel_the_bot_still_may_not_post_in_leaves_its_table_paused(
        fake, turns, make_bot, caplog: pytest.LogCaptureFixture, locale: str, told: str) -> None:
    """An interaction from the lost channel whose app_permissions show the bot still may not view it: the table
    was resumed, shown, refused and paused again, once per interaction. It stays paused, nothing is sent to the
    channel, and the member alone is told, in his language, what an admin must grant. Once granted, the next
    interaction brings the table back with the text it missed."""
    bot = await make_bot()
    ann, _bob, _cat = await lose_a_dealt_table(fake, bot)
    channel, table = fake.channels[0], f"dc:{fake.channels[0]}"
    ann.locale = locale
    resumed: list[list[str]] = []
    resume = bot.service.resume

    async def noted(table_ids: list[str]) -> dict[str, list[str]]:
        lifted = await resume(table_ids)
        if lifted:
            resumed.append(list(lifted))
        return lifted

    bot.service.resume = noted
    caplog.set_level(logging.WARNING, logger="bot.discord")
    caplog.clear()  # the loss itself was noted
    before = len(fake.requests)
    for _ in range(2):
        asked = await fake.slash(ann, channel, "check")
        await bot.settled()
        await asyncio.gather(*bot.adapter._pausing)
        assert asked.texts() == [told] and asked.texts(ephemeral=True) == [told]
    assert resumed == [] and bot.service.is_paused(table)
    assert [path for _, path in fake.requests[before:] if path.startswith("/channels/")] == []
    assert not [record for record in caplog.records if "can no longer reach" in record.getMessage()]

    fake.lost.discard(channel)
    await fake.slash(ann, channel, "balance")
    await bot.settled()
    assert resumed == [[table]] and not bot.service.is_paused(table)
    posted = [message["content"].split("\n")[0] for message in fake.channel_messages(channel)]
    assert posted[-2:] == ["Hand 1 begins.", "Hand 1"], posted


async def test_a_channel_back_after_a_restart_reads_the_text_it_missed_once(fake, turns, make_bot) -> None:
    """The bot loses the channel as it deals hand 1 (its announcement refused), then restarts. Its first
    interaction from the channel since lets the table play on: the channel reads the announcement, then the hand's
    table message (the announcement was kept in memory only, and lost by the restart). Lost and back once more, the
    channel reads nothing new (its table message is the hand's): the announcement was posted once."""
    bot = await make_bot()
    ann, _bob, _cat = await lose_a_dealt_table(fake, bot)
    channel = fake.channels[0]
    await bot.stop()
    await bot.start()
    before = len(fake.channel_messages(channel))
    for losing in (False, True, False):
        if losing:
            await fake.dispatch("CHANNEL_DELETE", fake._channel(channel))
            await until(lambda: bot.service.is_paused(f"dc:{channel}"), "the table paused")
        else:
            fake.lost.discard(channel)
            await fake.slash(ann, channel, "balance")
            await bot.settled()
    posted = [message["content"].split("\n")[0] for message in fake.channel_messages(channel)[before:]]
    assert posted == ["Hand 1 begins.", "Hand 1"], posted


async def test_a_text_refused_for_want_of_send_messages_pauses_the_table_and_is_posted_when_granted(
        fake, turns, make_bot) -> None:
    """Send Messages is taken away from the bot during a hand: the clock's announcement is refused 403 Missing
    Permissions (50013). It was only logged, lost, and the table played on unseen. Now the table pauses, the text
    is kept, an interaction while the bot still may not send is told so, and once Send Messages is given back the
    announcement is posted and the hand plays on."""
    bot = await make_bot()
    ann, bob, _cat = await seat_three(fake, bot)
    channel, table = fake.channels[0], f"dc:{fake.channels[0]}"
    await fake.slash(bob, channel, "deal")
    await bot.settled()
    await clock_line_refused(fake, bot, channel, table)
    asked = await fake.slash(ann, channel, "check")
    await bot.settled()
    assert asked.texts() == ["I cannot post in this channel, so nothing is played here until an admin gives me the "
                             "View Channel and Send Messages permissions in it."]
    before = len(fake.channel_messages(channel))

    fake.denied_sends.discard(channel)
    await fake.slash(ann, channel, "balance")
    await bot.settled()
    assert not bot.service.is_paused(table)
    posted = [message["content"].split("\n")[0] for message in fake.channel_messages(channel)[before:]]
    assert posted == ["Clock: level 2 begins (hand 1)."], posted  # the table's message, still current, stays
    await fake.slash(ann, channel, "check")
    await bot.settled()
    assert "→ Bob" in table_messages(fake, channel)[-1]["content"]


async def test_a_thread_the_bot_may_not_post_in_is_told_so_and_nothing_is_played_there(fake, turns, make_bot) -> None:
    """A table in a thread where the bot has Send Messages (the channel's) but not Send Messages in Threads: a /join
    is not played, the member alone is told what an admin must grant in the thread; once granted, it is played."""
    thread = fake.add_thread(fake.channels[0])
    fake.denied_sends.add(thread)
    bot = await make_bot()
    ann = fake.add_member("Ann")
    asked = await fake.slash(ann, thread, "join")
    await bot.settled()
    assert asked.texts() == ["I cannot post in this thread, so nothing is played here until an admin gives me the "
                             "View Channel and Send Messages in Threads permissions in it."]
    assert asked.ephemeral_text() and fake.channel_messages(thread) == []

    fake.denied_sends.discard(thread)
    joined = await fake.slash(ann, thread, "join")
    await bot.settled()
    assert joined.texts(ephemeral=False) == ["Ann sits down."]  # her first /join changed nothing


async def test_the_missing_attach_files_is_named_when_back_if_naming_it_was_refused(fake, turns, make_bot) -> None:
    """The bot may neither attach files nor send messages: a picture is refused (50013), then the notice naming
    Attach Files, which loses the channel. Given Send Messages back but still not Attach Files, the next picture
    is left out and the notice is posted: it was counted as posted when refused, and never posted at all."""
    bot = await make_bot()
    ann = fake.add_member("Ann")
    channel = fake.channels[0]
    place = Place(f"dc:{GUILD_ID}", f"dc:{channel}")
    picture = Reply(pictures=[Picture(b"\x89PNG picture", "The board")])
    fake.denied_uploads.add(channel)
    fake.denied_sends.add(channel)
    await bot.adapter.on_timer(place, picture)
    await bot.settled()
    await asyncio.gather(*bot.adapter._pausing)
    assert fake.channel_messages(channel) == []

    fake.denied_sends.discard(channel)
    await fake.slash(ann, channel, "balance")
    await bot.adapter.on_timer(place, picture)
    await bot.settled()
    assert [message["content"] for message in fake.channel_messages(channel)] == [
        "I need the Attach Files permission in this channel to show pictures."]


async def test_a_command_whose_acknowledgement_fails_still_runs_and_shows_the_channel_its_part(
        fake, turns, make_bot, caplog: pytest.LogCaptureFixture) -> None:
    """The service is slow, and the defer that acknowledges /deal meanwhile is refused (404 Unknown interaction:
    here the fake's clock jumps past the three seconds). The running work was left unobserved and its reply
    dropped: the hand was dealt but never shown. Now the work runs on, the channel is posted the hand's announcement
    and table, nothing more is sent to the dead interaction, and the refusal is the one error logged."""
    bot = await make_bot(defer_after=0.05)
    _ann, bob, _cat = await seat_three(fake, bot)
    channel = fake.channels[0]
    release = asyncio.Event()
    handle = bot.service.handle

    async def slow(*args):
        await release.wait()
        return await handle(*args)

    bot.service.handle = slow
    caplog.set_level(logging.ERROR, logger="bot.discord")
    sent = len(fake.interactions)
    dealing = asyncio.create_task(fake.slash(bob, channel, "deal"))
    while len(fake.interactions) == sent:
        await asyncio.sleep(0.01)
    await acknowledgement_refused(fake)
    release.set()
    await bot.settled()
    dealing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await dealing
    posted = [message["content"].split("\n")[0] for message in fake.channel_messages(channel)]
    assert posted[-2:] == ["Hand 1 begins.", "Hand 1"], posted
    assert [type(record.exc_info[1]) for record in caplog.records if record.exc_info] == [discord.NotFound]
    token = list(fake.interactions)[-1]
    assert [(method, status) for _, method, path, status in fake.timeline if token in path] == [("POST", 404)]


async def test_a_text_dropped_with_its_channel_no_longer_holds_back_the_table_once_it_is_back(
        fake, turns, make_bot) -> None:
    """The hand is over when Send Messages is taken away: the clock's line (no table state) is refused, the table
    pauses. Once Send Messages is given back, the line is posted when the channel is heard from again, and Dan's
    /join is answered as in any channel: its public answer is his line. The dropped line stayed unread (until a newer
    table state was shown), so the /join waited behind it: answered privately with where the table is."""
    bot = await make_bot()
    ann, bob, cat = await seat_three(fake, bot)
    channel, table = fake.channels[0], f"dc:{fake.channels[0]}"
    await fake.slash(bob, channel, "deal")
    for member in (ann, bob, cat):
        await fake.slash(member, channel, "check")
    await bot.settled()
    await clock_line_refused(fake, bot, channel, table)

    fake.denied_sends.discard(channel)
    await fake.slash(ann, channel, "balance")
    await bot.settled()
    dan = fake.add_member("Dan")
    joined = await fake.slash(dan, channel, "join")
    await bot.settled()
    assert joined.callback_type == 4 and joined.texts() == ["Dan sits down."]
    posted = [message["content"] for message in fake.channel_messages(channel)][-2:]
    assert posted == ["Clock: level 2 begins (hand 1).", "Dan sits down."]


async def test_a_press_line_whose_acknowledgement_failed_is_posted_by_the_channel_once(fake, turns, make_bot) -> None:
    """Bob's check ends the hand; the chat's language is slow to read, and the defer that acknowledges the press
    meanwhile is refused (404 Unknown interaction). The channel's queue posts his line, once, then the table shows
    the hand over. The line, kept for the press's follow-up, was dropped: the channel never read the hand's end."""
    bot = await make_bot(defer_after=0.5)
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    asked, release, language = asyncio.Event(), asyncio.Event(), bot.service.language

    async def slow(*args: Any, **kwargs: Any) -> str:
        asked.set()
        await release.wait()
        return await language(*args, **kwargs)

    bot.service.language = slow
    pressing = asyncio.create_task(fake.press(bob, table, fake.button(table, "Check")))
    await asked.wait()
    await acknowledgement_refused(fake)
    release.set()
    await bot.settled()
    pressing.cancel()
    await asyncio.gather(pressing, return_exceptions=True)
    said = [message["content"] for message in fake.channel_messages(fake.channels[0])
            if int(message["id"]) > int(table["id"])]
    assert len(said) == 1 and said[0].startswith("Hand 1 is over: ")
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."


async def two_processes(fake: FakeDiscord, make_bot, postgres_url: str) -> tuple:
    """Two bots (processes) on one PostgreSQL database and one clock, both connected to the fake Discord; a test
    says which gets the interactions (`FakeDiscord.serving`)."""
    clock = FakeClock()
    return (await make_bot(database=postgres_url, clock=clock, shown_again_per_second=1000.0),
            await make_bot(database=postgres_url, clock=clock, shown_again_per_second=1000.0))


async def stored_pauses(bot) -> list[str]:
    """The paused tables the database holds."""
    return sorted(await bot.store.read(paused_tables))


async def test_a_channel_heard_from_by_a_process_yet_to_learn_its_pause_plays_on(fake, turns, make_bot,
                                                                                  postgres_url) -> None:
    """`one` loses the channel as it deals hand 1 and pauses the table, keeping the hand's announcement; the channel
    is back, and Ann's /check is the first interaction `two` gets from it since its start, before its watch tells it
    of the pause: the table the database holds paused plays on at once, the channel reads the announcement `one`
    kept, then the table, and Ann checks (`two` used to resume only the tables it knew paused: none, and Ann was told
    the table is paused; and the announcement stayed in `one`'s memory). Bob's /balance through `one` next posts
    the announcement no more."""
    one, two = await two_processes(fake, make_bot, postgres_url)
    fake.serving = 0
    ann, bob, _cat = await lose_a_dealt_table(fake, one)
    channel, table = fake.channels[0], f"dc:{fake.channels[0]}"
    assert (await stored_pauses(two), two.service.is_paused(table)) == ([table], False)
    before = len(fake.channel_messages(channel))
    fake.lost.discard(channel)
    fake.serving = 1
    checked = await fake.slash(ann, channel, "check")
    await two.settled()
    shown = fake.channel_messages(channel)[-1]
    assert (shown["content"], await stored_pauses(two)) == (f"Hand 1\n  Ann\n→ Bob\n  Cat\n<@{bob.id}>", [])
    assert checked.texts() == [f"The table: https://discord.com/channels/{GUILD_ID}/{channel}/{shown['id']}"]
    fake.serving = 0
    await fake.slash(bob, channel, "balance")
    await one.settled()
    posted = [message["content"].split("\n")[0] for message in fake.channel_messages(channel)[before:]]
    assert posted == ["Hand 1 begins.", "Hand 1"], posted


@pytest.mark.parametrize("heard_again", [True, False], ids=["heard from after the pause", "not since"])
async def test_a_channel_heard_from_before_its_pause_was_learned_plays_on_once_it_is(
        fake, turns, make_bot, postgres_url, heard_again: bool) -> None:
    """Hand 1 is dealt through `two`; a second later `one` pauses the table (its channel refused `one`); a second
    later still (`heard_again`), Ann asks `two` for the table, before `two`'s watch tells it of the pause: that says
    nothing to `two` then, but once its watch learns the pause, the channel was heard from since the pause began,
    so `two` lets the table play on (it used to stay paused until the channel was heard from again, maybe long
    after). Heard from only before the pause, the table stays paused."""
    one, two = await two_processes(fake, make_bot, postgres_url)
    fake.serving = 1
    ann, _bob, _cat = await seat_three(fake, two)
    await fake.slash(ann, fake.channels[0], "deal")
    await two.settled()
    table = f"dc:{fake.channels[0]}"
    two.clock.advance(1)
    await one.service.pause([table])
    two.clock.advance(1)
    if heard_again:
        await fake.slash(ann, fake.channels[0], "table")
        await two.settled()
    watching = asyncio.create_task(two.service.watch_timers(every=0.01))
    try:
        async with asyncio.timeout(5):
            while not two.service.is_paused(table) and await stored_pauses(two):
                await asyncio.sleep(0.01)
    finally:
        await stop_watching(watching)
    await two.settled()  # a resume the watch started, and the table shown again
    assert await stored_pauses(two) == ([] if heard_again else [table])
