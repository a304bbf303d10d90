"""A prankster's display name on Discord: mentions written into it ping nobody, and its markdown is shown as typed,
whatever message shows it."""

from __future__ import annotations

import re

import pytest

from tests.discord.fake_discord import (
    GUILD_ID,
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    FakeDiscord,
    markup,
    shown,
)


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


async def test_a_name_that_names_a_command_is_shown_as_typed_never_as_its_mention(fake: FakeDiscord, make_bot) -> None:
    """Once the commands' ids are known, the bot's own words name them as mentions ("</join:…>"); a display name
    that names one, or holds a mention of one, is written inert (a word joiner after its `/`, its `<` escaped), so
    it is never rewritten as Discord shows the command nor made its mention, in the table message or in a line."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    fold, forged, back = (fake.add_member(name) for name in ("/fold", "</fold:123>", "/back post"))
    await fake.slash(fold, channel, "join", chips=200)
    await bot.settled()
    [table] = [m for m in fake.channel_messages(channel) if m["content"].startswith("Texas Hold'em")]
    assert table["content"] == fake.mentioned(
        "Texas Hold'em — seats:\n  /\u2060fold — 200\nWaiting for a second player: {join} to sit down.")
    for member in (forged, back):
        await fake.slash(member, channel, "join", chips=200)
    await bot.settled()
    assert [m["content"] for m in fake.channel_messages(channel) if not m["components"]] == [
        "/\u2060fold sits down with 200 chips.", "\\</\u2060fold:123> sits down with 200 chips.",
        "/\u2060back post sits down with 200 chips."]
    assert fake.messages[int(table["id"])]["content"] == (
        "Texas Hold'em — seats:\n  /\u2060fold — 200\n  \\</\u2060fold:123> — 200\n  /\u2060back post — 200\n"
        "Between hands: the next deal comes in a moment, or press Deal.")


async def test_a_member_named_in_a_refusal_is_shown_as_typed_never_as_a_commands_mention(fake: FakeDiscord,
                                                                                          make_bot) -> None:
    """A member the chat never saw, named by a command's option, is quoted back by his display name: a name that
    names a command is no mention of it."""
    await make_bot(default_game="holdem")
    channel = fake.channels[0]
    organizer = fake.add_member("Ann", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
    stranger = fake.add_member("/fold")
    granted = await fake.slash(organizer, channel, "grant", player=stranger, chips=10)
    assert granted.texts() == ["I don't know a player called “/\u2060fold” here."]


SET = "is not a valid value for “straddle” ({set} name: straddle takes on, off)."


@pytest.mark.parametrize(("value", "read"), [
    ("/fold", f"“/\u2060fold” {SET}"),
    ("x”/fold", f"“x”/\u2060fold” {SET}"),
    ("</fold:1>", f"“\\</\u2060fold:1>” {SET}"),
    ("/join", f"“/\u2060join” {SET}"),
], ids=["command", "quote-inside", "forged-mention", "bot-named-command"])
async def test_a_setting_typed_as_a_command_is_quoted_as_typed_never_as_its_mention(
        fake: FakeDiscord, make_bot, value: str, read: str) -> None:
    """What a member typed, quoted back in a refusal, is his, not the bot's words: never made a command's mention,
    whatever quotes it holds; the bot's own `/set` in the same refusal is its mention."""
    await make_bot(default_game="holdem")
    organizer = fake.add_member("Ann", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
    refused = await fake.slash(organizer, fake.channels[0], "set", name="straddle", value=value)
    assert refused.texts() == [fake.mentioned(read)]
    unknown = await fake.slash(organizer, fake.channels[0], "set", name=value, value="on")
    assert unknown.texts()[0].partition(";")[0] == f"No setting “{read.partition('” ')[0][1:]}”"


async def test_a_season_named_as_a_command_is_shown_as_typed_never_as_its_mention(fake: FakeDiscord,
                                                                                   make_bot) -> None:
    """A name a member gave, kept and quoted in the bot's lines (a season's, a pawned item's), is no command of the
    bot's: it is written inert (a word joiner after its `/`), so it is never rewritten as Discord shows the command
    nor made its mention."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    organizer = fake.add_member("Ann", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
    started = await fake.slash(organizer, channel, "season", subcommand="start", name="/fold now")
    await bot.settled()
    assert started.texts() == [
        "Season “/\u2060fold now” has begun: every tournament created from now on counts in its standings (/season)."]
    standings = await fake.slash(organizer, channel, "season", subcommand="standings")
    assert standings.texts()[0].partition(",")[0] == "Season “/\u2060fold now”"
