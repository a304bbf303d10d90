"""Discord: a member's client language (the interaction's `locale`) is kept as the language of what he alone is told,
so what another member's action tells him (his cards at a deal) is written in it; he reads his cards in it, or in
his own choice (`/lang en me`)."""

from __future__ import annotations

from typing import Any

from tests.discord.fake_discord import GUILD_ID, FakeDiscord, Member
from tests.discord.test_games import MY_CARDS, current_table


async def dealt_by_ann(fake: FakeDiscord, bot: Any, **lang: object) -> tuple[Member, dict[str, Any]]:
    """Ann (English), Bob (his Discord in Russian) and Cat sit down, Bob says `/lang` with the options `lang` if
    any, and Ann deals: Bob, and the table message."""
    channel = fake.channels[0]
    ann, bob, cat = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    bob.locale = "ru"
    for member in (ann, bob, cat):
        await fake.slash(member, channel, "join", chips=200)
    if lang:
        await fake.slash(bob, channel, "lang", **lang)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    return bob, current_table(fake, channel)


async def locale_kept(bot: Any, member: Member) -> str | None:
    """The client language the service keeps for the member in the guild."""
    locale: str | None = await bot.store.read(lambda tx: tx.player_locale(f"dc:{GUILD_ID}", f"dc:{member.id}"))
    return locale


async def test_a_russian_client_dealt_by_an_english_member_gets_his_cards_in_russian(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    bob, table = await dealt_by_ann(fake, bot)
    assert await locale_kept(bot, bob) == "ru", "what Ann's deal tells him alone is written in it"
    mine = await fake.press(bob, table, fake.button(table, MY_CARDS))
    await bot.settled()
    cards = mine.ephemeral_text().removeprefix("Ваши карты: ")
    assert len(cards.split()) == 2, mine.ephemeral_text()
    assert table["content"].startswith("Hold'em — hand #1 · blinds 10/20 · home-limit\n"), "the channel's own"


async def test_with_his_own_choice_he_gets_them_in_it(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    bob, table = await dealt_by_ann(fake, bot, language="en", me=True)
    mine = await fake.press(bob, table, fake.button(table, MY_CARDS))
    await bot.settled()
    cards = mine.ephemeral_text().removeprefix("Your cards: ")
    assert len(cards.split()) == 2, mine.ephemeral_text()
