"""Hand histories on Discord: `/history` answers privately, `/history tournament` attaches the file ephemerally."""

from __future__ import annotations

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
    assert stats.texts(ephemeral=False)[0].startswith("Bob: hands played 1, ")
