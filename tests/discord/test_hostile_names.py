"""A prankster's display name on Discord: mentions written into it ping nobody, and its markdown is shown as typed,
whatever message shows it."""

from __future__ import annotations

import re

from tests.discord.fake_discord import GUILD_ID, FakeDiscord, markup, shown


async def test_a_mention_in_a_display_name_pings_only_the_player_to_act(fake: FakeDiscord, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    victim = fake.add_member("Vic")  # in the guild, not at the table
    prankster = fake.add_member(f"<@{victim.id}> <@&{GUILD_ID}> @everyone")
    bob = fake.add_member("Bob")
    for member in (prankster, bob):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(bob, channel, "deal")
    await bot.settled()
    tables = [m for m in fake.channel_messages(channel) if m["components"]]
    assert any(f"<@{victim.id}>" in shown(m["content"]) for m in tables)  # the name is shown
    for message in fake.channel_messages(channel):
        pinged = message.get("pinged", {"users": [], "roles": [], "everyone": False})
        to_act = [int(found) for found in re.findall(r"<@(\d+)>$", message["content"])]
        assert pinged == {"users": to_act, "roles": [], "everyone": False}, message["content"]
    assert any(message.get("pinged", {}).get("users") for message in tables)  # the player to act is pinged


async def test_markdown_in_a_display_name_is_shown_as_typed(fake: FakeDiscord, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    name = "**Bob** ||x|| [free chips](https://e.vil) <t:0:R> `y` @here"
    prankster, ann = fake.add_member(name), fake.add_member("Ann")
    for member in (prankster, ann):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    stats = await fake.slash(ann, channel, "stats", player=prankster)  # the command's own (public) answer
    table = [m for m in fake.channel_messages(channel) if m["components"]][-1]
    mine = await fake.press(prankster, table, fake.button(table, "🂠 My cards"))  # a private answer
    await bot.settled()
    said = [re.sub(r"\n<@\d+>$", "", m["content"]) for m in fake.channel_messages(channel)]
    said += [*stats.texts(), *mine.texts()]
    assert all(markup(content) == [] for content in said), [markup(content) for content in said]
    assert name in shown(stats.texts()[0]) and any(name in shown(content) for content in said[:-2])
