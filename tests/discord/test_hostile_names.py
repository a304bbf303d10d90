"""A prankster's display name on Discord: mentions written into it ping nobody, whatever message shows it."""

from __future__ import annotations

import re

from tests.discord.fake_discord import GUILD_ID, FakeDiscord


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
    assert any(f"<@{victim.id}>" in m["content"] for m in tables)  # the name is shown
    for message in fake.channel_messages(channel):
        pinged = message.get("pinged", {"users": [], "roles": [], "everyone": False})
        to_act = [int(found) for found in re.findall(r"<@(\d+)>$", message["content"])]
        assert pinged == {"users": to_act, "roles": [], "everyone": False}, message["content"]
    assert any(message.get("pinged", {}).get("users") for message in tables)  # the player to act is pinged
