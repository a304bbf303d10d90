"""Discord holds a channel's messages (a 429) while a timer's announcement ("Ann ran out of time.") waits in the
channel's queue: a press answered meanwhile never shows the table ahead of it. Its callback still goes at once, showing
at most the last state whose announcement was sent; its own line, if it has one, is read after the held one; the
table is edited to the newest state right after the announcement goes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.context import Action
from tests.discord.conftest import Turns
from tests.discord.fake_discord import FakeDiscord, Member
from tests.discord.test_games import current_table
from tests.discord.test_order import after

HOLD = 2.0
"""Seconds Discord answers 429 to the channel's messages and edits."""


class TimedTurns(Turns):
    """The scripted game, whose clock times out the player to act: the table hears it and the turn passes on."""

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        seated = act.state["seated"]
        act.reply.public.append(f"{act.name(seated[act.state['to_act']])} ran out of time.")
        act.state["to_act"] += 1
        act.show_table(self.table_message(act))
        return True


@pytest.fixture
def turns() -> Turns:
    return TimedTurns()


async def dealt(fake: FakeDiscord, bot, names: tuple[str, ...]) -> tuple[list[Member], dict[str, Any]]:
    """Members of these names seated and dealt in the first channel; the table message, the first to act."""
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in names]
    for member in members:
        await fake.slash(member, channel, "join")
    await fake.slash(members[0], channel, "deal")
    await bot.settled()
    return members, current_table(fake, channel)


async def time_out_held(fake: FakeDiscord, bot) -> None:
    """Discord holds the channel, then the turn's clock runs out: its announcement waits for the channel."""
    fake.limit_channel(fake.channels[0], HOLD)
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1


def public_before(fake: FakeDiscord, line: str) -> list[str]:
    """Every version of a public message the channel read before the message that says `line`."""
    public = fake.public_versions()
    return public[:next(index for index, content in enumerate(public) if line in content)]


async def test_a_press_without_a_line_never_shows_the_table_ahead_of_a_held_time_out(fake, turns, make_bot) -> None:
    """Ann runs out of time while Discord holds the channel; Bob, next, checks at once on the message that still shows
    Ann's turn. His press is acknowledged at once (its message shows nothing newer already announced), then the
    channel reads 'Ann ran out of time.', then the table shows Cat to act: one edit."""
    bot = await make_bot()
    (_, bob, _), table = await dealt(fake, bot, ("Ann", "Bob", "Cat"))
    await time_out_held(fake, bot)
    pressed = await fake.press(bob, table, fake.button(table, "Check"))
    await bot.settled()
    assert pressed.callback_type == 6
    assert after(fake, pressed) == ["callback 6", "POST channel", "PATCH channel"]
    assert fake.channel_messages(fake.channels[0])[-1]["content"] == "Ann ran out of time."
    assert fake.messages[int(table["id"])]["content"].startswith("Hand 1\n  Ann\n  Bob\n→ Cat")
    assert not [version for version in public_before(fake, "Ann ran out of time.") if "→ Ann" not in version
                and version.startswith("Hand 1\n")]


async def test_a_press_shows_the_last_state_announced_while_a_time_out_is_held(fake, turns, make_bot) -> None:
    """Ann checks by command while Discord holds the channel (the edit showing Bob to act waits), then Bob runs out of
    time. Cat's press, on the message still showing Ann's turn, shows at once the state before the time-out (Bob to
    act), not his own; the channel reads 'Bob ran out of time.', then the table shows Dan to act."""
    bot = await make_bot()
    (ann, _, cat, _), table = await dealt(fake, bot, ("Ann", "Bob", "Cat", "Dan"))
    fake.limit_channel(fake.channels[0], HOLD)
    await fake.slash(ann, fake.channels[0], "check")
    bot.clock.advance(61)
    assert await bot.service.scheduler.fire_due() == 1
    pressed = await fake.press(cat, table, fake.button(table, "Check"))
    await bot.settled()
    assert pressed.callback_type == 7
    assert pressed.callbacks[0]["data"]["content"].startswith("Hand 1\n  Ann\n→ Bob\n  Cat\n  Dan")
    assert after(fake, pressed) == ["callback 7", "PATCH channel", "POST channel", "PATCH channel"]
    assert fake.channel_messages(fake.channels[0])[-1]["content"] == "Bob ran out of time."
    assert fake.messages[int(table["id"])]["content"].startswith("Hand 1\n  Ann\n  Bob\n  Cat\n→ Dan")
    assert not [version for version in public_before(fake, "Bob ran out of time.") if "→ Cat" in version
                or "→ Dan" in version]


async def test_a_press_with_a_line_says_it_after_a_held_time_out(fake, turns, make_bot) -> None:
    """Ann runs out of time while Discord holds the channel; Bob checks, and Cat's check ends the hand. Cat's line
    waits behind Ann's (the channel reads them in the order they happened), and the table shows the hand over only
    after both."""
    bot = await make_bot()
    (_, bob, cat), table = await dealt(fake, bot, ("Ann", "Bob", "Cat"))
    await time_out_held(fake, bot)
    await fake.press(bob, table, fake.button(table, "Check"))
    pressed = await fake.press(cat, table, fake.button(table, "Check"))
    await bot.settled()
    assert pressed.callback_type == 6 and pressed.texts(ephemeral=False) == []
    assert after(fake, pressed) == ["callback 6", "POST channel", "POST channel", "PATCH channel"]
    told = [m["content"] for m in fake.channel_messages(fake.channels[0]) if int(m["id"]) > int(table["id"])]
    assert told[0] == "Ann ran out of time." and told[1].startswith("Hand 1 is over: ")
    assert fake.messages[int(table["id"])]["content"] == "Hand 1: over."
    assert "Hand 1: over." not in public_before(fake, "Hand 1 is over: ")


async def test_a_commands_public_line_is_read_after_a_held_time_out(fake, turns, make_bot) -> None:
    """Ann runs out of time while Discord holds the channel; Dan runs /join meanwhile. His command is answered at once,
    to him alone (where the table is), and the channel reads 'Ann ran out of time.', then 'Dan sits down.': the
    order they happened in. His line used to be the command's public answer, posted at once, above the held one."""
    bot = await make_bot()
    _, table = await dealt(fake, bot, ("Ann", "Bob", "Cat"))
    await time_out_held(fake, bot)
    dan = fake.add_member("Dan")
    joined = await fake.slash(dan, fake.channels[0], "join")
    await bot.settled()
    assert after(fake, joined) == ["callback 4", "POST channel", "POST channel", "PATCH channel"]  # answered first
    assert joined.texts(ephemeral=False) == []
    assert joined.ephemeral_text().startswith("The table: https://discord.com/channels/")
    told = [m["content"] for m in fake.channel_messages(fake.channels[0]) if int(m["id"]) > int(table["id"])]
    assert told == ["Ann ran out of time.", "Dan sits down."]
    assert fake.messages[int(table["id"])]["content"].startswith("Hand 1\n  Ann\n→ Bob\n  Cat\n  Dan")
