"""Hand histories on Discord: `/history` answers privately, `/history tournament` attaches the file ephemerally, and
a `which` it cannot read is answered with what the option takes."""

from __future__ import annotations

import pytest

from tests.discord.fake_discord import shown
from tests.discord.test_games import play_out, start_tournament


async def test_history_and_the_tournament_file_are_ephemeral(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    await start_tournament(fake, bot, channel, ann, bob)
    await play_out(fake, bot, channel, "check", "call")

    shown = await fake.slash(bob, channel, "history")
    await bot.settled()
    assert shown.texts(ephemeral=False) == []
    header = "PokerStars Hand #1: Tournament #1, 50+0 Hold'em Limit - Level I (10/20)"  # a tournament's hand
    assert shown.ephemeral_text().startswith(header)

    sent = await fake.slash(bob, channel, "history", which="tournament")
    await bot.settled()
    ((where, name, content, ephemeral),) = [item for item in fake.files if item[1].endswith(".txt")]
    assert (where, name, ephemeral) == (channel, "tournament-1.txt", True)
    assert "Dealt to Bob [" in content.decode() and "Dealt to Ann [" not in content.decode()
    assert sent.texts(ephemeral=False) == []

    stats = await fake.slash(ann, channel, "stats", player=bob)
    await bot.settled()
    assert stats.texts(ephemeral=False)[0].startswith("Bob: 1 hand played, ")


@pytest.mark.parametrize(("locale", "refusal"), [  # (the member's client, what he reads)
    ("en-US", "Usage: {history} [which: number of hands | tournament [number]]"),
    ("ru", "Как писать: {history} [что: число раздач | tournament [номер]]"),
], ids=["en", "ru"])
async def test_a_which_history_cannot_read_is_answered_with_the_options_discord_shows(fake, make_bot, locale: str,
                                                                                       refusal: str) -> None:
    """The usage named the words typed in a chat (`/history [number of hands | tournament [number]]`): on Discord
    what goes in the `which` option, in the member's language."""
    bot = await make_bot(default_game="holdem")
    ann = fake.add_member("Ann")
    ann.locale = locale
    refused = await fake.slash(ann, fake.channels[0], "history", which="yesterday")
    await bot.settled()
    assert shown(refused.ephemeral_text()) == fake.mentioned(refusal)
