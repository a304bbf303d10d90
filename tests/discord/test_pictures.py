"""Table pictures on Discord: posted in the channel at the showdown (and at the flop with `pictures streets`; a message
of their own), and a player's own cards as an ephemeral attachment only he sees."""

from __future__ import annotations

from bot.i18n import text
from tests.discord.fake_discord import EPHEMERAL
from tests.discord.test_games import current_table, play_out

PNG = b"\x89PNG\r\n\x1a\n"
MY_CARDS = text("en", "button.my_cards")


async def heads_up(fake, make_bot, pictures: str = "on"):
    """Ann and Bob sit down (`/set pictures` as given) and Ann deals: the bot, the channel and the two members."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(members[0], channel, "set", name="pictures", value=pictures)
    await fake.slash(members[0], channel, "deal")
    await bot.settled()
    return bot, channel, members


async def test_a_picture_of_the_table_is_attached_at_the_showdown_only_by_default(fake, make_bot) -> None:
    bot, channel, _ = await heads_up(fake, make_bot)
    await play_out(fake, bot, channel, "check", "call")
    with_pictures = [m for m in fake.channel_messages(channel) if m["attachments"]]
    assert [a["description"] for m in with_pictures for a in m["attachments"]] == ["Hand #1 · showdown"]


async def test_a_picture_of_the_table_is_attached_at_the_flop_with_pictures_streets(fake, make_bot) -> None:
    bot, channel, _ = await heads_up(fake, make_bot, "streets")
    assert not any(m["attachments"] for m in fake.channel_messages(channel)), "no picture before the flop"
    await play_out(fake, bot, channel, "check", "call")
    with_pictures = [m for m in fake.channel_messages(channel) if m["attachments"]]
    flop = [m for m in with_pictures if any("flop" in (a["description"] or "") for a in m["attachments"])]
    assert flop, [m["content"] for m in with_pictures]
    assert flop[0]["content"] == ""  # a message of its own, so a denied upload loses no text
    pictured = next(index for index, version in enumerate(fake.versions) if version["id"] == flop[0]["id"])
    assert any("\nFlop: " in version["content"] for version in fake.versions[:pictured]), \
        "the table message tells of the flop before its picture"
    assert all(data.startswith(PNG) for m in with_pictures for data in fake.files_of(m))


async def test_own_cards_picture_is_ephemeral(fake, make_bot) -> None:
    bot, channel, members = await heads_up(fake, make_bot)
    table = current_table(fake, channel)
    mine = await fake.press(members[1], table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert len(mine.messages) == 1 and mine.messages[0]["flags"] & EPHEMERAL
    files = fake.files_of(mine.messages[0])
    assert len(files) == 1 and files[0].startswith(PNG)
    assert not any(m["attachments"] for m in fake.channel_messages(channel))
