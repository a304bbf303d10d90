"""What players read of the house games around their results: the table's link in the player's own language, a box's
PAIRPLUS kept on the table, a Russian box's five cards that count, one naming of hands for both sides at Caribbean,
and a Three Card dealer's qualifying hand at any setting. Stacked decks; every payout worked by hand from RULES.md."""

from __future__ import annotations

from tests.bot.helpers import ledger_ok
from tests.discord import test_house_evening as house_evening
from tests.discord.fake_discord import GUILD_ID
from tests.discord.test_house_evening import CARIBBEAN, THREE_CARD, Evening

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


def box_lines(ev: Evening, channel: int) -> list[str]:
    """The box lines of the channel's latest table message (the round's, kept when it is over)."""
    tables = [m["content"] for m in ev.fake.channel_messages(channel) if " — round " in m["content"].split("\n")[0]]
    return [line for line in tables[-1].split("\n") if " · box " in line]


async def test_three_card_keeps_each_boxs_pairplus_on_the_table_and_shows_its_result_at_the_end(
        evening: Evening, dealer: house_evening.Dealer) -> None:
    ev, ch = evening, THREE_CARD
    await ev.open(ch, "three-card")
    # Ann K♣ K♦ 4♥ (ANTE 10, PAIRPLUS 5); Bob Q♠ 9♠ 3♠ (ANTE 20); Cat 2♣ 7♦ 9♥ (PAIRPLUS 10 alone); dealer A♦ 8♣ 5♥:
    # ace high, he qualifies.
    # Ann: PAIRPLUS on a pair 5×1 = +5; she plays (10): kings beat ace high: ANTE +10, PLAY +10 → +25.
    # Bob folds: −20. Cat: PAIRPLUS on nine high loses −10.
    dealer.order = "Kc Kd 4h Qs 9s 3s 2c 7d 9h Ad 8c 5h"
    for member, ante, pairplus in ((ev.ann, 10, 5), (ev.bob, 20, None), (ev.cat, 0, 10)):
        await ev.slash(member, ch, "ante", amount=ante, pairplus=pairplus)
    await ev.slash(ev.bob, ch, "deal")
    # settled on the deal, the PAIRPLUS stays on the table; what it did is its owner's alone until the round's end
    assert box_lines(ev, ch) == ["▶ Ann · box 1 · ANTE 10 · PAIRPLUS 5 · deciding",
                                 "  Bob · box 1 · ANTE 20 · deciding",
                                 "  Cat · box 1 · PAIRPLUS 10 · playing"]
    await ev.press(ev.ann, ch, "Play (10)")
    await ev.press(ev.bob, ch, "Fold")
    assert box_lines(ev, ch) == ["  Ann · box 1 · ANTE 10 · PAIRPLUS 5 (+5) · PLAY 10 · settled +25",
                                 "  Bob · box 1 · ANTE 20 · settled −20",
                                 "  Cat · box 1 · PAIRPLUS 10 (−10) · settled −10"]
    await ledger_ok(ev.bot.service)
