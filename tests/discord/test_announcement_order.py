"""The channel reads every announcement in the order it happened, whatever Discord holds up: a press's line posted as
its follow-up, a timer's line held by a 429 in the channel's queue, a clock line that comes with no table state, and a
line whose follow-up Discord refused (the channel's queue posts it). The table never shows what a line tells before
the line is posted."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from bot.commands import Command, Join
from bot.games.context import Action
from bot.output import TableMessage
from tests.discord.conftest import Turns
from tests.discord.fake_discord import GUILD_ID, FakeDiscord, until
from tests.discord.test_held_announcements import HOLD, dealt, public_before
from tests.discord.test_order import ANNOUNCED, after, hand_ended_with_follow_up_held, heads_up_dealt

OVER = "Hand 1: over."


class LevelledTurns(Turns):
    """The scripted game, whose clock may raise the level on the table (`on_table`): the channel reads 'Clock: level 2
    begins.' and the table (the same hand's message) then shows the level."""

    on_table = False
    silent_end = False
    """The hand's end shows no table state: the press that ends it has a line and nothing else."""
    watching = False
    """A /join only watches: a line ('Dan watches.') and no table state, as a `/set` announcement has."""

    def handle(self, act: Action, command: Command) -> None:
        if self.watching and isinstance(command, Join):
            act.reply.public.append(f"{act.name(act.user)} watches.")
            return
        super().handle(act, command)

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        if not self.on_table:
            return super().on_timer(act, key, payload)
        act.state["level"] = 2
        act.reply.public.append("Clock: level 2 begins.")
        act.show_table(self.table_message(act))
        return True

    def table_message(self, act: Action) -> TableMessage | None:
        message = super().table_message(act)
        if self.silent_end and message is not None and message.text == OVER:
            return None
        level = act.state.get("level")
        if message is None or level is None:
            return message
        return TableMessage(message.key, f"{message.text}\nLevel {level}", message.buttons, message.to_act)


@pytest.fixture
def turns() -> Turns:
    return LevelledTurns()


async def given(condition: Callable[[], bool], seconds: float) -> None:
    """Give the bot `seconds` to make `condition` hold (a wrong order it might take), then go on: the test's
    assertions tell what happened. For what the bot is sure to do, `until` waits."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while not condition():
                await asyncio.sleep(0.01)


def noted(bot: Any, name: str, *, delay: float = 0.0) -> asyncio.Event:
    """Make the service's `name` (`press`, `handle`) take `delay` seconds, then set the returned event once it has
    answered (the adapter numbers and queues its reply as soon as it returns, before the test goes on)."""
    served, work = asyncio.Event(), getattr(bot.service, name)

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(delay)
        reply = await work(*args)
        served.set()
        return reply

    setattr(bot.service, name, slow)
    return served


def told(fake: FakeDiscord, table: dict[str, Any]) -> list[str]:
    """The messages posted in the first channel after the table message, in order."""
    return [m["content"] for m in fake.channel_messages(fake.channels[0]) if int(m["id"]) > int(table["id"])]


async def test_a_press_line_is_read_before_a_clock_that_rang_while_its_follow_up_was_on_its_way(fake, turns,
                                                                                               make_bot) -> None:
    """Discord holds the channel while the table shows Ann's and Bob's checks (typed: no line); Cat's press ends the
    hand, its line on its way as a follow-up (a slow network), when the clock rings. The channel reads Cat's line,
    then the clock's: the queue, once Discord let the table's edit go, left out the press's table state (a newer one
    of the hand, the clock's, waited behind it) and with it the wait for the press, and posted the clock's line
    first."""
    turns.on_table = True
    bot = await make_bot()
    (ann, bob, cat), table = await dealt(fake, bot, ("Ann", "Bob", "Cat"))
    fake.limit_channel(fake.channels[0], HOLD)
    await fake.slash(ann, fake.channels[0], "check")
    await fake.slash(bob, fake.channels[0], "check")
    fake.held_followups = asyncio.Event()
    pressed = await fake.press(cat, table, fake.button(table, "Check"))
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await until(lambda: "PATCH channel" in after(fake, pressed), "the held edit of Ann's check")
    await given(lambda: "Clock: level 2 begins." in told(fake, table), 0.5)
    fake.held_followups.set()
    await bot.settled()
    assert told(fake, table)[0].startswith("Hand 1 is over: ")
    assert told(fake, table)[1:] == ["Clock: level 2 begins."]
    assert after(fake, pressed) == ["callback 6", "PATCH channel", "follow-up", "edit of the pressed message",
                                    "POST channel", "PATCH channel"]
    assert fake.messages[int(table["id"])]["content"] == f"{OVER}\nLevel 2"
    assert not [version for version in public_before(fake, "Hand 1 is over: ") if "Level 2" in version
                or version.startswith(OVER)]


async def test_a_press_line_is_read_after_a_held_clock_line_that_came_without_the_table(fake, make_bot) -> None:
    """The clock rings ('Clock: level 2 begins (hand 1).', no table state) while Discord holds the channel; Bob's
    check then ends the hand. His line waits behind the clock's and the table shows the hand over after both: his
    line was posted at once as his follow-up, above the held one (nothing counted a line without a table state)."""
    bot = await make_bot()
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    fake.limit_channel(fake.channels[0], HOLD)
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    pressed = await fake.press(bob, table, fake.button(table, "Check"))
    await bot.settled()
    assert after(fake, pressed) == ["callback 6", "POST channel", "POST channel", "PATCH channel"]  # answered first
    assert pressed.callback_type == 6 and pressed.texts(ephemeral=False) == []
    said = told(fake, table)
    assert said[0] == "Clock: level 2 begins (hand 1)." and said[1].startswith("Hand 1 is over: ")
    assert fake.messages[int(table["id"])]["content"] == OVER
    assert OVER not in public_before(fake, "Hand 1 is over: ")


async def test_a_clock_line_once_posted_no_longer_holds_a_press_line_back(fake, make_bot) -> None:
    """The clock rings ('Clock: level 2 begins (hand 1).', no table state) and is posted at once; Bob's check then
    ends the hand and is answered as any press with a line: its follow-up, then its pressed message, nothing through
    the channel's queue."""
    bot = await make_bot()
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await bot.settled()
    pressed = await fake.press(bob, table, fake.button(table, "Check"))
    await bot.settled()
    assert after(fake, pressed) == ANNOUNCED
    assert told(fake, table)[0] == "Clock: level 2 begins (hand 1)."
    assert pressed.texts(ephemeral=False)[0].startswith("Hand 1 is over: ")


async def test_a_line_whose_follow_up_failed_is_posted_by_the_channel_before_the_table_shows_it(fake, make_bot) -> None:
    """Bob's check ends the hand and Discord refuses its follow-up (404 Unknown Webhook) while the channel is held:
    the channel's queue posts his line, then the table shows the hand over, and Dan's /join, typed meanwhile, is read
    after it. The line was lost, the table shown over, and Dan's line posted at once as if the hand's end was read."""
    bot = await make_bot()
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    fake.limit_channel(fake.channels[0], HOLD)
    fake.failing_followups = 1
    pressed = await fake.press(bob, table, fake.button(table, "Check"))
    await until(lambda: fake.failing_followups == 0, "Bob's follow-up refused")
    dan = fake.add_member("Dan")
    joined = await fake.slash(dan, fake.channels[0], "join")
    await bot.settled()
    said = told(fake, table)
    assert said[0].startswith("Hand 1 is over: ") and said[1:] == ["Dan sits down."]
    assert fake.messages[int(table["id"])]["content"] == OVER
    assert OVER not in public_before(fake, "Hand 1 is over: ")
    assert joined.texts(ephemeral=False) == []
    assert pressed.callback_type == 6 and pressed.texts() == []  # nothing went wrong for Bob: no apology


async def test_a_press_line_is_read_before_a_clock_that_rang_once_its_table_state_was_numbered(fake, make_bot) -> None:
    """Bob's check ends the hand while Discord holds the press's acknowledgement (a slow network): its table state
    is numbered, and the clock rings before the press queued its part. The channel reads Bob's line, then the
    clock's: the clock's line, queued in that moment with nothing of the press's ahead of it, was posted first."""
    bot = await make_bot(defer_after=0.05)
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    served = noted(bot, "press", delay=0.1)  # past `defer_after`: the press is deferred
    fake.held_callbacks = asyncio.Event()
    pressing = asyncio.create_task(fake.press(bob, table, fake.button(table, "Check")))
    await served.wait()
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await given(lambda: "Clock: level 2 begins (hand 1)." in told(fake, table), 0.5)
    fake.held_callbacks.set()
    pressed = await pressing
    await bot.settled()
    said = told(fake, table)
    assert said[0].startswith("Hand 1 is over: ") and said[1:] == ["Clock: level 2 begins (hand 1)."]
    assert pressed.callback_type == 6 and pressed.texts(ephemeral=False) == [said[0]]
    assert fake.messages[int(table["id"])]["content"] == OVER


async def test_a_press_line_without_a_table_state_is_read_before_a_clock_that_rang_after_it(fake, turns,
                                                                                            make_bot) -> None:
    """Bob's check ends the hand with a line and no table state; the clock rings while the line is on its way (a
    slow network). The channel reads Bob's line, then the clock's: his press is acknowledged and its line goes
    through the channel's queue, in the order it happened. It was his follow-up, which nothing in the queue
    waited for: the clock's line was posted first."""
    turns.silent_end = True
    bot = await make_bot()
    table, pressed = await hand_ended_with_follow_up_held(fake, bot)
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await given(lambda: "Clock: level 2 begins (hand 1)." in told(fake, table), 0.5)
    fake.held_followups.set()
    await bot.settled()
    said = told(fake, table)
    assert said[0].startswith("Hand 1 is over: ") and said[1:] == ["Clock: level 2 begins (hand 1)."]
    assert after(fake, pressed) == ["callback 6", "POST channel", "POST channel"]
    assert pressed.callback_type == 6 and pressed.texts() == []


async def test_a_commands_line_without_a_table_state_is_read_before_a_clock_that_rang_after_it(fake, turns,
                                                                                              make_bot) -> None:
    """Hand 1 ends with a line and no table state; Dan's /join ('Dan sits down.', no table state either) is served,
    and the clock rings while his answer is on its way (a slow network). The channel reads his line, then the
    clock's: his line is still his command's public answer, and the clock's line, queued after it, waits for it.
    Nothing in the queue waited for that answer: the clock's line was posted first."""
    turns.silent_end = True
    bot = await make_bot()
    (ann, bob), table = await heads_up_dealt(fake, bot)
    for member in (ann, bob):
        await fake.press(member, table, fake.button(table, "Check"))
    await bot.settled()
    served = noted(bot, "handle")
    fake.held_callbacks = asyncio.Event()
    joining = asyncio.create_task(fake.slash(fake.add_member("Dan"), fake.channels[0], "join"))
    await served.wait()
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    await given(lambda: "Clock: level 2 begins (hand 1)." in told(fake, table), 0.5)
    fake.held_callbacks.set()
    joined = await joining
    await bot.settled()
    said = told(fake, table)
    assert said[0].startswith("Hand 1 is over: ")
    assert said[1:] == ["Dan sits down.", "Clock: level 2 begins (hand 1)."]
    assert joined.callback_type == 4 and joined.texts(ephemeral=False) == ["Dan sits down."]


async def test_a_press_line_is_read_after_a_commands_line_without_a_table_state_on_its_way(fake, turns,
                                                                                          make_bot) -> None:
    """Dan's /join ('Dan watches.', no table state) is served while Ann and Bob play, and his answer waits (his
    language is slow to read); Bob's check then ends the hand. The channel reads Dan's line, then Bob's, then the
    table shows the hand over: Bob's press is acknowledged and its line waits in the channel's queue behind Dan's
    answer. Bob's line was his follow-up, posted at once, above Dan's."""
    bot = await make_bot()
    (ann, bob), table = await heads_up_dealt(fake, bot)
    await fake.press(ann, table, fake.button(table, "Check"))
    await bot.settled()
    turns.watching = True
    read, language = asyncio.Event(), bot.service.language

    async def slow(place: Any, actor: Any) -> str:
        if actor is not None and actor.name == "Dan":
            await read.wait()
        return await language(place, actor)

    bot.service.language = slow
    served = noted(bot, "handle")
    joining = asyncio.create_task(fake.slash(fake.add_member("Dan"), fake.channels[0], "join"))
    await served.wait()
    pressed = await fake.press(bob, table, fake.button(table, "Check"))
    read.set()
    joined = await joining
    await bot.settled()
    said = told(fake, table)
    assert said[0] == "Dan watches." and said[1].startswith("Hand 1 is over: ") and len(said) == 2
    assert joined.callback_type == 4 and joined.texts(ephemeral=False) == ["Dan watches."]
    assert pressed.callback_type == 6 and pressed.texts() == []
    assert fake.messages[int(table["id"])]["content"] == OVER
    assert OVER not in public_before(fake, "Hand 1 is over: ")


async def test_a_commands_line_is_posted_in_the_channel_when_it_was_deferred_as_the_service_answered(fake,
                                                                                                     make_bot) -> None:
    """Dan's /join is slow: past `defer_after` it is acknowledged ('thinking', for him alone), and the service
    answers while that acknowledgement is on its way. The channel reads 'Dan sits down.' through its queue, and the
    table then shows his seat; Dan is told where the table is. His line was taken for his command's public answer
    and written into his private 'thinking' message: the channel never read it."""
    bot = await make_bot(defer_after=0.05)
    _, table = await heads_up_dealt(fake, bot)
    served = noted(bot, "handle", delay=0.1)
    fake.held_callbacks = asyncio.Event()
    joining = asyncio.create_task(fake.slash(fake.add_member("Dan"), fake.channels[0], "join"))
    await served.wait()
    fake.held_callbacks.set()
    joined = await joining
    await bot.settled()
    assert told(fake, table) == ["Dan sits down."]
    assert joined.callback_type == 5 and joined.texts(ephemeral=False) == []
    assert joined.texts(ephemeral=True) == [
        f"The table: https://discord.com/channels/{GUILD_ID}/{fake.channels[0]}/{table['id']}"]
    assert fake.messages[int(table["id"])]["content"].startswith("Hand 1\n→ Ann\n  Bob\n  Dan")
