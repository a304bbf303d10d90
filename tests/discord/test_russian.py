"""Discord in Russian: a member's interaction locale picks Russian when the channel chose no language."""

from __future__ import annotations

from tests.discord.fake_discord import EPHEMERAL


async def test_a_russian_client_is_answered_in_russian(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ivan, olga = fake.add_member("Ivan"), fake.add_member("Olga")
    ivan.locale = olga.locale = "ru"
    for member in (ivan, olga):
        await fake.slash(member, fake.channels[0], "join")
    await bot.settled()
    contents = [message["content"] for message in fake.channel_messages(fake.channels[0])]
    assert any("садится за стол" in content for content in contents), contents
    balance = await fake.slash(ivan, fake.channels[0], "balance")
    await bot.settled()
    answer = balance.callbacks[0]["data"]
    assert answer["flags"] & EPHEMERAL and "В кошельке" in answer["content"]


async def test_an_english_client_in_a_russian_channel_reads_russian(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ann = fake.add_member("Ann")
    await fake.slash(ann, fake.channels[0], "lang", language="ru")
    await fake.slash(ann, fake.channels[0], "join")
    await bot.settled()
    contents = [message["content"] for message in fake.channel_messages(fake.channels[0])]
    assert any("садится за стол" in content for content in contents), contents


async def test_organizers_and_a_members_own_language(fake, make_bot) -> None:
    bot = await make_bot("holdem")
    ann, bob = fake.add_member("Ann"), fake.add_member("Bob")
    await fake.slash(ann, fake.channels[0], "balance")  # the chat's first player organizes it
    named = await fake.slash(bob, fake.channels[0], "organizers")
    await bot.settled()
    assert named.ephemeral_text() == "Organizers: Ann. The chat's admins can do what organizers do."
    refused = await fake.slash(bob, fake.channels[0], "lang", language="ru")
    await bot.settled()
    assert refused.ephemeral_text().startswith("Only the organizer — Ann — chooses the chat's language")
    chosen = await fake.slash(bob, fake.channels[0], "lang", language="ru", me=True)
    await bot.settled()
    assert chosen.ephemeral_text().startswith("Теперь ваши личные сообщения — на языке ru")
    balance = await fake.slash(bob, fake.channels[0], "balance")
    await bot.settled()
    assert balance.ephemeral_text().startswith("В кошельке")
    assert (await fake.slash(ann, fake.channels[0], "balance")).ephemeral_text().startswith("Your wallet")
