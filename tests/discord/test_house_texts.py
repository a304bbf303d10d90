"""What players read of the house games around their results: the table's link in the player's own language, a box's
PAIRPLUS kept on the table, a Russian box's five cards that count, one naming of hands for both sides at Caribbean,
and a Three Card dealer's qualifying hand at any setting. Stacked decks; every payout worked by hand from RULES.md."""

from __future__ import annotations

from tests.discord import test_house_evening as house_evening
from tests.discord.fake_discord import GUILD_ID
from tests.discord.test_house_evening import CARIBBEAN, Evening

fake, dealer, evening = house_evening.fake, house_evening.dealer, house_evening.evening  # the evening's fixtures


async def test_the_tables_link_is_in_the_players_own_language(evening: Evening) -> None:
    ev, ch = evening, CARIBBEAN
    await ev.open(ch, "caribbean")  # Ann's English is the channel's
    ev.cat.locale = "ru"
    await ev.slash(ev.ann, ch, "ante", amount=10)
    link = f"https://discord.com/channels/{GUILD_ID}/{ch}/{ev.table(ch)['id']}"
    assert await ev.slash(ev.cat, ch, "ante", amount=10) == f"Стол: {link}"
    assert await ev.slash(ev.bob, ch, "ante", amount=10) == f"The table: {link}"
    assert "Cat bets on box 1: ANTE 10." in ev.table(ch)["content"]  # the channel still reads English
