from tests.discord.fake_discord import GUILD_ID


async def test_connects_and_syncs(fake, turns, make_bot) -> None:
    bot = await make_bot()
    assert fake.synced and fake.synced[-1][0] == GUILD_ID
    ann = fake.add_member("Ann")
    ix = await fake.slash(ann, fake.channels[0], "balance")
    await bot.settled()
    assert ix.texts(ephemeral=True) == ["Your wallet: 1,000 chips."]
