"""What players read of the house games around their results: the table's link in the player's own language, a box's
PAIRPLUS kept on the table, a Russian box's five cards that count, one naming of hands for both sides at Caribbean,
a Three Card dealer's qualifying hand at any setting, and `/ante` named as Discord shows it. Stacked decks; every
payout worked by hand from RULES.md."""

from __future__ import annotations

import pytest

from tests.bot.helpers import ledger_ok
from tests.discord import test_house_evening as house_evening
from tests.discord.fake_discord import GUILD_ID, shown
from tests.discord.test_house_evening import CARIBBEAN, RUSSIAN, TEXAS, THREE_CARD, Evening

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


BETS_OPEN_ON_DISCORD = [  # (game, channel, the chat's language, side option, the table message as it reads,
    # each `{command}` its mention: `FakeDiscord.mentioned`)
    ("three-card", THREE_CARD, "en", "pairplus",
     "Three Card Poker — round 1\nBets are open: {ante} amount [box 1-3] [pairplus], then {deal} (or wait a moment).\n"
     "  Ann · box 1 · ANTE 10 · PAIRPLUS 10 · waiting\n\nAnn bets on box 1: ANTE 10, PAIRPLUS 10."),
    ("caribbean", CARIBBEAN, "ru", "bonus",
     "Карибский покер — раунд 1\nСтавки открыты: {ante} сумма [бокс 1-3] [бонус: 10], затем {deal} (или подождите "
     "немного).\n  Ann · бокс 1 · АНТЕ 10 · БОНУС 10 · ждёт\n\nAnn ставит на бокс 1: АНТЕ 10, БОНУС 10."),
    ("texas", TEXAS, "en", None,
     "Texas Poker — round 1\nBets are open: {ante} amount, then {deal} (or wait a moment).\n"
     "  Ann · box 1 · ANTE 10 · waiting\n\nAnn bets on box 1: ANTE 10."),
    ("russian", RUSSIAN, "ru", None,
     "Русский покер — раунд 1\nСтавки открыты: {ante} сумма [бокс 1-3], затем {deal} (или подождите немного).\n"
     "  Ann · бокс 1 · АНТЕ 10 · ждёт\n\nAnn ставит на бокс 1: АНТЕ 10."),
]


@pytest.mark.parametrize(("game", "channel", "language", "side", "table"), BETS_OPEN_ON_DISCORD)
async def test_the_table_names_ante_and_its_options_as_discord_shows_them(
        evening: Evening, game: str, channel: int, language: str, side: str | None, table: str) -> None:
    """The house table's "bets are open" named the words typed in a Telegram chat (`/ante chips [box 1-3] [pp
    chips]`): on Discord it names the slash command's options, only those the table has, in the chat's language, and
    the commands by their mentions (clickable)."""
    ev = evening
    await ev.open(channel, game)
    await ev.slash(ev.ann, channel, "lang", language=language)
    await ev.slash(ev.ann, channel, "ante", amount=10, **({side: 10} if side else {}))
    assert shown(ev.table(channel)["content"]) == ev.fake.mentioned(table)


async def test_the_house_hints_name_antes_options_as_discord_shows_them(evening: Evening) -> None:
    """What a house table tells of `/ante` (the game's announcement, a seat's hint, a refusal) named the typed words
    (`/ante chips`, “pp chips”, `/join 50`): on Discord the slash command's options, in each reader's language."""
    ev, ch = evening, THREE_CARD
    chosen = await ev.fake.slash(ev.ann, ch, "game", game="three-card")
    await ev.bot.settled()
    assert chosen.texts(ephemeral=False) == [
        ev.fake.mentioned("This table now plays Three Card Poker: place your ANTE with {ante} amount.")]
    ev.cat.locale = "ru"
    assert shown(await ev.slash(ev.bob, ch, "join", chips=50)) == ev.fake.mentioned(
        "A house table takes no buy-in: every bet comes straight from your wallet, so {join} chips: 50 took nothing "
        "from it.\n\nThree Card Poker: place your ANTE with {ante} amount (add “box: 2” for a second box; “pairplus” "
        "for the PAIRPLUS bet, which an ANTE of 0 places alone). Your cards come privately: press “My cards” to see "
        "them.")
    assert shown(await ev.slash(ev.cat, ch, "join")) == ev.fake.mentioned(
        "Трёхкарточный покер: ставьте АНТЕ командой {ante} сумма (добавьте «бокс: 2» — для второго бокса; «пара_плюс» "
        "— для ставки «Пара плюс»; с АНТЕ 0 она ставится одна). Карты приходят лично вам: нажмите «Мои карты», чтобы "
        "их увидеть.")
