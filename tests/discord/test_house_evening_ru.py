"""The four house games in a Russian Discord guild, read as its members read them: the table message and its edits,
the buttons, the dealer's reveal and the results, the ephemeral answers to slash commands and presses.

Ann, the guild's organizer, chose Russian (`/lang ru`); she, Bob and Cat read Discord in Russian, Dan's client is
English (the guild's language is his all the same). The decks and the payouts are the English evening's
(`tests/discord/test_house_evening.py`), worked out there by hand from RULES.md §2-5, and the Russian texts those of
the Telegram group's evening (`tests/telegram/test_house_evening_ru.py`), with Discord's slash commands, their Russian
option names and its buttons. Along the way: an ANTE over the table's limit and over the wallet, a press out of turn,
a decision pressed twice, a button of the previous round, a press by a member with no box; no English word anywhere,
and no box's cards in the channel before the round's result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot.test_russian_games import english_left
from tests.discord import test_house_evening as house_evening
from tests.discord.fake_discord import EPHEMERAL, GUILD_ID, FakeDiscord, shown
from tests.discord.test_house_evening import CARIBBEAN, RUSSIAN, TEXAS, THREE_CARD, Dealer, Evening

fake, dealer = house_evening.fake, house_evening.dealer  # the evening's fixtures

LATIN = {"Ann", "Bob", "Cat", "Dan", "ru", "vip"}
"""Latin words a Russian member reads too: the members' names, and what is chosen as it is written (the language
`ru`, the tier `vip`)."""
TYPED_ONLY = re.compile(r"\b(?:box|pp|bonus)\b")
"""Option words typed in a Telegram chat (`/ante 10 box 2 pp 5`): a Discord member reads the slash command's Russian
option names instead."""
_DISCORD_MARKUP = re.compile(r"</[a-z ]+:[0-9]+>|<@[0-9]+>|https://discord\.com/\S+")
"""A command's mention, a member's mention, a message link: shown by Discord as the command, the name, the link."""


class RussianEvening(Evening):
    """The evening's members in the guild Ann switched to Russian; a table message opens with « — раунд »."""

    def notices(self, channel: int) -> list[str]:
        """The channel's texts other than the table messages: the dealer's reveal and the results."""
        contents = [message["content"] for message in self.fake.channel_messages(channel)]
        return [content for content in contents if content and " — раунд " not in content.split("\n")[0]]

    async def open(self, channel: int, game: str) -> None:
        """Ann chooses the guild's language, then the channel's game; what the channel read is asserted."""
        for member in (self.ann, self.bob, self.cat):
            member.locale = "ru"
        for name, option in (("lang", {"language": "ru"}), ("game", {"game": game})):
            await self.fake.slash(self.ann, channel, name, **option)
        await self.bot.settled()
        assert self.notices(channel)[:1] == ["Язык чата: русский (ru)."]

    def table_link(self, channel: int) -> str:
        """The ephemeral answer to a slash command that acted: where the table is."""
        return f"Стол: https://discord.com/channels/{GUILD_ID}/{channel}/{self.table(channel)['id']}"

    def result(self, channel: int) -> str:
        return self.notices(channel)[-1]

    async def closed_in_russian(self, channel: int, wallets: dict[str, str], *boxes: str,
                                never: tuple[str, ...] = ()) -> None:
        """The channel's evening over: each member's /balance answer is in `wallets`, the ledger balances, nothing
        anyone read was in English, no box's cards in `boxes` reached the channel before its round's result, and
        those in `never` (a folded box's, a box's before its draw) not at all."""
        await self.closed(channel, wallets)
        assert_russian_throughout(self.fake)
        assert_boxes_kept_private(self.fake, channel, *boxes, never=never)


@pytest.fixture
async def evening(fake: FakeDiscord, make_bot: Any) -> RussianEvening:
    return RussianEvening(fake, await make_bot(default_game="holdem"))


def russian_form(fake: FakeDiscord, name: str) -> list[str]:
    """A slash command and its options as a Russian member's client shows them (their registered Russian names)."""
    command = fake.commands[name]
    return [item["name_localizations"]["ru"] for item in (command, *command.get("options", []))]


def latin_left(text: str) -> list[str]:
    """The English words left in a text a member read (`english_left`), and any option word typed only in Telegram."""
    bare = _DISCORD_MARKUP.sub("", shown(text))
    return english_left(bare, LATIN) + TYPED_ONLY.findall(bare)


def assert_russian_throughout(fake: FakeDiscord) -> None:
    """No English word in any version of any message the bot sent: the channel's and every ephemeral answer."""
    texts = [version["content"] for version in fake.versions]
    labels = [str(button.get("label")) for version in fake.versions for button in fake.buttons(version)]
    assert {text: latin_left(text) for text in texts + labels if latin_left(text)} == {}


def assert_boxes_kept_private(fake: FakeDiscord, channel: int, *boxes: str, never: tuple[str, ...] = ()) -> None:
    """No version of a channel message shows a box's cards (as dealt, or as a draw left them) before the round's
    result does; those in `never` (a folded box's, a box's before its draw) may never show."""
    public = [version["content"] for version in fake.versions
              if int(version["channel_id"]) == channel and not version["flags"] & EPHEMERAL]
    for cards in boxes:
        first = next((text for text in public if cards in text), None)
        assert first is None or "Раунд окончен" in first, f"{cards} in the channel before the result: {first!r}"
    assert {cards: [text for text in public if cards in text] for cards in never} == {cards: [] for cards in never}


async def test_texas_poker_two_rounds_in_russian(evening: RussianEvening, dealer: Dealer) -> None:
    ev, ch = evening, TEXAS
    await ev.open(ch, "texas")
    assert ev.notices(ch)[1] == ev.fake.mentioned("Теперь за этим столом: Покер «Техас». Ставьте АНТЕ командой {ante} "
                                                  "сумма.")
    # what the members fill in, as their clients name it (the fake sends the options by their English names, as Discord)
    assert [russian_form(ev.fake, name) for name in ("ante", "bet", "deal", "buy")] == [
        ["анте", "сумма", "бокс", "пара_плюс", "бонус"], ["бет", "сумма"], ["сдать"], ["прикупить"]]
    assert await ev.slash(ev.dan, ch, "ante", amount=101) == "АНТЕ за этим столом — от 1 до 100, а не 101."
    assert await ev.slash(ev.dan, ch, "ante", amount=10, box=2) == "Бокса 2 за этим столом нет."

    # Round 1: Ann A♠ K♠ bets a royal flush; Bob Q♥ Q♦ buys the fourth card and bets three queens; Cat 7♣ 2♦ buys
    # and folds. The dealer's 9♠ 9♥ qualifies.
    await ev.texas_antes(ch, dealer, 1)
    assert await ev.slash(ev.dan, ch, "deal") == "Закрыть ставки может только игрок, у которого есть ставка на столе."
    assert await ev.slash(ev.ann, ch, "deal") == "Бокс 1: A♠ K♠"
    assert ev.table(ch)["content"] == (
        "Покер «Техас» — раунд 1\nДилер: ▢ ▢\nБорд: Q♠ J♠ T♠ 🂠 🂠\n"
        "▶ Ann · бокс 1 · АНТЕ 10 · решает\n  Bob · бокс 1 · АНТЕ 20 · решает\n"
        "  Cat · бокс 1 · АНТЕ 5 · решает\n\n"
        "Ann ставит на бокс 1: АНТЕ 10.\nBob ставит на бокс 1: АНТЕ 20.\nCat ставит на бокс 1: АНТЕ 5.\n"
        f"Борд: Q♠ J♠ T♠.\n▶ Ann, бокс 1: ваше решение (⏱ 60\xa0с).\n<@{ev.ann.id}>")
    assert ev.labels(ch) == ["🂠 Мои карты", "БЕТ (20)", "Пас", "Прикуп (10)"]
    assert await ev.press(ev.bob, ch, "🂠") == "Ваши боксы:\nбокс 1: Q♥ Q♦"
    assert await ev.press(ev.bob, ch, "БЕТ") == "Сейчас не ваш ход: ходит Ann."
    assert await ev.press(ev.dan, ch, "Пас") == ev.fake.mentioned(
        "У вас нет бокса в этом раунде: поставьте АНТЕ ({ante} сумма) до сдачи следующего.")
    first = ev.table(ch)  # as Ann's client keeps showing it
    assert await ev.press(ev.ann, ch, "БЕТ") == ""
    assert await ev.press(ev.ann, ch, "БЕТ", first) == "Уже сделано."  # twice: Bob's box is untouched
    assert await ev.slash(ev.bob, ch, "bet", amount=30) == ev.fake.mentioned(
        "Ставка на этом боксе — 40, а не 30: напишите просто {bet} (или {play}).")
    assert ev.labels(ch) == ["🂠 Мои карты", "БЕТ (40)", "Пас", "Прикуп (20)"]
    assert await ev.slash(ev.bob, ch, "buy") == ev.table_link(ch)  # the answer to a slash command that acted
    await ev.press(ev.cat, ch, "Прикуп (5)")
    assert ev.table(ch)["content"].split("\n")[2] == "Борд: Q♠ J♠ T♠ 3♣ 🂠"
    await ev.press(ev.bob, ch, "БЕТ (40)")
    await ev.slash(ev.cat, ch, "fold")
    assert ev.result(ch) == "\n".join([
        "Дилер открывает 9♠ 9♥: пара девяток, кикер дама — игра есть.",
        "Ann, бокс 1: выигрыш (+2\xa0010) — роял-флеш: A♠ K♠ Q♠ J♠ T♠; АНТЕ +10 · БЕТ +2\xa0000 (роял-флеш, ×100).",
        "Bob, бокс 1: выигрыш (+80) — тройка дам, кикер валет: Q♠ Q♥ Q♦ J♠ T♠; АНТЕ +20 · БЕТ +80 (тройка дам, "
        "кикер валет, ×2) · плата за прикуп −20.",
        "Cat, бокс 1: пас (−10); АНТЕ −5 · плата за прикуп −5.",
        "Раунд окончен: Ann +2\xa0010, Bob +80, Cat −10."])

    # Round 2: Ann 9♥ T♥ bets a straight flush; Bob A♠ 2♥ buys, exchanges 2♥ for A♣ and bets; Cat 5♦ 6♦ folds.
    # The dealer's 2♣ 7♦ holds no pair with the board: Ann is paid half, Bob's ANTE wins 1:1.
    await ev.texas_antes(ch, dealer, 2)
    await ev.slash(ev.cat, ch, "deal")
    assert await ev.press(ev.ann, ch, "БЕТ", first) == "Этот раунд уже закончился."  # round 1's button
    await ev.press(ev.ann, ch, "БЕТ (20)")
    await ev.press(ev.bob, ch, "Прикуп (20)")
    await ev.press(ev.cat, ch, "Пас")
    assert ev.labels(ch) == ["🂠 Мои карты", "БЕТ (40)", "Пас", "Обмен: ☐ 1", "☐ 2"]
    await ev.press(ev.bob, ch, "☐ 2")
    assert ev.labels(ch) == ["🂠 Мои карты", "БЕТ (40)", "Пас", "Обмен: ☐ 1", "☑ 2", "Обмен 2 (20)"]
    assert await ev.press(ev.bob, ch, "Обмен 2 (20)") == "Бокс 1 теперь: A♠ A♣"
    await ev.slash(ev.bob, ch, "bet")
    assert ev.result(ch) == "\n".join([
        "Дилер открывает 2♣ 7♦: старший король — нет игры: нужна хотя бы пара.",
        "Ann, бокс 1: половина выплаты (+505) — стрит-флеш до короля: K♥ Q♥ J♥ T♥ 9♥; АНТЕ 0 · БЕТ 0 · половина "
        "выплаты +505 (половина от 1\xa0010: стрит-флеш до короля, АНТЕ 1:1 и БЕТ ×50).",
        "Bob, бокс 1: у дилера нет игры (−20) — пара тузов, кикер король: A♠ A♣ K♥ Q♥ J♥; АНТЕ +20 · БЕТ 0 · плата "
        "за прикуп −20 · плата за обмен −20.",
        "Cat, бокс 1: пас (−5); АНТЕ −5.",
        "Раунд окончен: Ann +505, Bob −20, Cat −5."])
    await ev.closed_in_russian(ch, {"Ann": "В кошельке 3\xa0515 фишек.", "Bob": "В кошельке 1\xa0060 фишек.",
                                    "Cat": "В кошельке 985 фишек."},
                               "A♠ K♠", "Q♥ Q♦", "7♣ 2♦", "9♥ T♥", "A♠ 2♥", "A♠ A♣", "5♦ 6♦",
                               never=("7♣ 2♦", "A♠ 2♥", "5♦ 6♦"))


async def test_russian_poker_three_boxes_an_exchange_a_bought_card_and_the_dealers_game(
        evening: RussianEvening, dealer: Dealer) -> None:
    ev, ch = evening, RUSSIAN
    await ev.open(ch, "russian")
    # Ann: box 1 A♠ A♦ K♣ 8♠ 9♥, box 2 3♣ 3♦ 7♥ 7♠ Q♦, box 3 (blind: ANTE 10 and BET 20 at once) K♠ K♦ 4♣ 6♦ T♥;
    # Bob 2♥ 4♥ 6♥ 8♥ J♥; Cat 5♣ 6♣ 9♦ J♠ 2♠; the dealer 2♣ 5♦ 8♣ J♦ 9♠ (9♠ open), no game. Ann's exchange draws
    # 7♣, Bob's bought card T♣, the dealer's draw 2♦: a pair of twos after Ann buys him a game on boxes 1 and 3 (not
    # on box 2; Bob buys none).
    dealer.order = "As Ad Kc 8s 9h 3c 3d 7h 7s Qd Ks Kd 4c 6d Th 2h 4h 6h 8h Jh 5c 6c 9d Js 2s 2c 5d 8c Jd 9s 7c Tc 2d"
    assert await ev.slash(ev.dan, ch, "join") == ev.fake.mentioned(  # how to bet, with the options as Discord has them
        "Русский покер: ставьте АНТЕ командой {ante} сумма (добавьте «бокс: 2» — для второго бокса; бокс 3 играет "
        "втёмную: БЕТ ставится вместе с АНТЕ). Карты приходят лично вам: нажмите «Мои карты», чтобы их увидеть.")
    assert await ev.slash(ev.ann, ch, "ante", amount=10, box=2) == (
        "Боксы занимают по порядку: на бокс 2 можно поставить, только когда занят предыдущий.")
    await ev.antes(ch, ((ev.ann, 10, 1), (ev.ann, 10, 2), (ev.ann, 10, 3), (ev.bob, 20, None), (ev.cat, 5, None)))
    assert await ev.slash(ev.ann, ch, "ante", amount=10, box=2) == "Вы уже поставили на бокс 2."
    assert await ev.slash(ev.ann, ch, "deal") == "Бокс 1: A♠ A♦ K♣ 8♠ 9♥"
    assert ev.table(ch)["content"] == (
        "Русский покер — раунд 1\nДилер: ▢ ▢ ▢ ▢ 9♠\n"
        "▶ Ann · бокс 1 · АНТЕ 10 · решает\n  Ann · бокс 2 · АНТЕ 10 · решает\n"
        "  Ann · бокс 3 · АНТЕ 10 · БЕТ 20 · играет\n  Bob · бокс 1 · АНТЕ 20 · решает\n"
        "  Cat · бокс 1 · АНТЕ 5 · решает\n\n"
        "Ann ставит на бокс 1: АНТЕ 10.\nAnn ставит на бокс 2: АНТЕ 10.\nAnn ставит на бокс 3: АНТЕ 10, БЕТ 20.\n"
        "Bob ставит на бокс 1: АНТЕ 20.\nCat ставит на бокс 1: АНТЕ 5.\nДилер показывает 9♠.\n"
        f"▶ Ann, бокс 1: ваше решение (⏱ 60\xa0с).\n<@{ev.ann.id}>")
    assert ev.labels(ch) == ["🂠 Мои карты", "Играть (20)", "Пас", "Прикуп (10)", "Обмен: ☐ 1", "☐ 2", "☐ 3", "☐ 4",
                             "☐ 5"]
    assert await ev.press(ev.ann, ch, "🂠") == (
        "Ваши боксы:\nбокс 1: A♠ A♦ K♣ 8♠ 9♥\nбокс 2: откроется в свою очередь\n"
        "бокс 3: играет втёмную, откроется при вскрытии\nБокс 1, номера карт на кнопках: 1 A♠ · 2 A♦ · 3 K♣ · 4 8♠ · "
        "5 9♥")
    first = ev.table(ch)  # as Ann's client keeps showing it
    assert await ev.press(ev.ann, ch, "Играть (20)") == "Бокс 2: 3♣ 3♦ 7♥ 7♠ Q♦"  # box 2's turn: to Ann alone
    assert await ev.press(ev.ann, ch, "Играть", first) == "Уже сделано."  # box 2 is not played by it
    await ev.press(ev.ann, ch, "☐ 5")
    assert await ev.press(ev.ann, ch, "Обмен 5 (10)") == "Бокс 2 теперь: 3♣ 3♦ 7♥ 7♠ 7♣"
    assert ev.labels(ch) == ["🂠 Мои карты", "Играть (20)", "Пас"]  # one draw a box
    await ev.slash(ev.ann, ch, "play")
    assert await ev.slash(ev.bob, ch, "buy") == "Бокс 1 теперь: 2♥ 4♥ 6♥ 8♥ J♥ T♣"
    await ev.press(ev.bob, ch, "Играть (40)")
    assert await ev.slash(ev.dan, ch, "fold") == ev.fake.mentioned(
        "У вас нет бокса в этом раунде: поставьте АНТЕ ({ante} сумма) до сдачи следующего.")
    await ev.press(ev.cat, ch, "Пас")
    assert ev.result(ch) == "Дилер открывает 2♣ 5♦ 8♣ J♦ 9♠: нет игры."
    assert ev.labels(ch) == ["🂠 Мои карты", "Купить игру (10)", "Не покупать"]
    assert await ev.press(ev.bob, ch, "Не покупать") == "Сейчас не ваш ход: ходит Ann."
    await ev.press(ev.ann, ch, "Купить игру (10)")
    assert await ev.press(ev.ann, ch, "Не покупать") == "Бокс 3: K♠ K♦ 4♣ 6♦ T♥"  # its turn: the blind box shown
    await ev.slash(ev.ann, ch, "dealergame")
    assert ev.labels(ch) == ["🂠 Мои карты", "Купить игру (20)", "Не покупать"]
    await ev.slash(ev.bob, ch, "decline")
    # Ann box 1: aces with ace-king as the second combination beat the twos: BET 20×(1+1) = +40, fee −10 → +30.
    # Box 2: sevens full, but no game and none bought: ANTE +10, fee −10 → 0. Box 3: kings: BET +20, fee −10 → +10.
    # Bob: no game: ANTE +20, card fee −20 → 0. Cat folded: −5.
    assert ev.result(ch) == "\n".join([
        "Ann, бокс 2: у дилера нет игры (0) — фулл-хаус, семёрки на тройках: 3♣ 3♦ 7♥ 7♠ 7♣; АНТЕ +10 · БЕТ 0 · "
        "плата за обмен −10.",
        "Bob, бокс 1: у дилера нет игры (0) — флеш, старший валет: 2♥ 4♥ 6♥ 8♥ J♥; АНТЕ +20 · БЕТ 0 · плата за "
        "прикуп −20.",
        "Дилер сбрасывает J♦, прикупает 2♦: пара двоек, кикер девятка — игра есть.",
        "Ann, бокс 1: выигрыш (+30) — пара тузов, кикер король: A♠ A♦ K♣ 8♠ 9♥; АНТЕ 0 · БЕТ +40 (пара тузов + "
        "вторая комбинация: туз-король, ×2) · плата за игру дилеру −10.",
        "Ann, бокс 3: выигрыш (+10) — пара королей, кикер десятка: K♠ K♦ 4♣ 6♦ T♥; АНТЕ 0 · БЕТ +20 (пара королей, "
        "×1) · плата за игру дилеру −10.",
        "Cat, бокс 1: пас (−5); АНТЕ −5.",
        "Раунд окончен: Ann +40, Bob 0, Cat −5."])
    await ev.closed_in_russian(ch, {"Ann": "В кошельке 1\xa0040 фишек.", "Bob": "В кошельке 1\xa0000 фишек.",
                                    "Cat": "В кошельке 995 фишек."},
                               "A♠ A♦ K♣ 8♠ 9♥", "3♣ 3♦ 7♥ 7♠ Q♦", "3♣ 3♦ 7♥ 7♠ 7♣", "K♠ K♦ 4♣ 6♦ T♥",
                               "2♥ 4♥ 6♥ 8♥ J♥", "5♣ 6♣ 9♦ J♠ 2♠", never=("3♣ 3♦ 7♥ 7♠ Q♦", "5♣ 6♣ 9♦ J♠ 2♠"))


async def test_caribbean_poker_the_bonus_an_exchange_and_the_suit_tie_break(evening: RussianEvening,
                                                                            dealer: Dealer) -> None:
    ev, ch = evening, CARIBBEAN
    await ev.open(ch, "caribbean")
    assert await ev.slash(ev.dan, ch, "ante", amount=10, bonus=5) == "Ставка БОНУС за этим столом — ровно 10, а не 5."
    # Ann 5♥ 6♥ 7♥ 8♥ 9♥ (bonus 10); Bob Q♣ Q♦ 5♠ 9♣ 3♥ (bonus 10); Cat A♥ K♣ 7♦ 4♣ 2♥; the dealer A♠ K♦ 7♣ 4♠ 2♦
    # (2♦ open): ace-king, he qualifies. Bob's exchange draws Q♠ 9♦ 9♠.
    dealer.order = "5h 6h 7h 8h 9h Qc Qd 5s 9c 3h Ah Kc 7d 4c 2h As Kd 7c 4s 2d Qs 9d 9s"
    await ev.antes(ch, ((ev.ann, 10, 10), (ev.bob, 20, 10), (ev.cat, 5, None)), "bonus")
    assert shown(ev.table(ch)["content"]).split("\n")[:2] == [
        "Карибский покер — раунд 1",
        ev.fake.mentioned("Ставки открыты: {ante} сумма [бокс 1-3] [бонус: 10], затем {deal} (или подождите немного).")]
    assert await ev.slash(ev.cat, ch, "ante", amount=5) == "Вы уже поставили на бокс 1."
    await ev.slash(ev.bob, ch, "deal")
    assert await ev.press(ev.dan, ch, "Играть") == ev.fake.mentioned(
        "У вас нет бокса в этом раунде: поставьте АНТЕ ({ante} сумма) до сдачи следующего.")
    await ev.press(ev.ann, ch, "Играть (20)")
    for card in ("Обмен: ☐ 1", "☐ 3", "☐ 4", "☐ 5", "Обмен: ☑ 1"):
        await ev.press(ev.bob, ch, card)
    assert ev.labels(ch) == ["🂠 Мои карты", "Играть (40)", "Пас", "Обмен: ☐ 1", "☐ 2", "☑ 3", "☑ 4", "☑ 5",
                             "Обмен 3 4 5 (60)"]
    assert await ev.press(ev.bob, ch, "Обмен 3 4 5") == "Бокс 1 теперь: Q♣ Q♦ Q♠ 9♦ 9♠"
    await ev.slash(ev.bob, ch, "play")
    assert await ev.press(ev.cat, ch, "🂠") == (
        "Ваши боксы:\nбокс 1: A♥ K♣ 7♦ 4♣ 2♥\nБокс 1, номера карт на кнопках: 1 A♥ · 2 K♣ · 3 7♦ · 4 4♣ · 5 2♥")
    await ev.press(ev.cat, ch, "Играть (10)")
    # Ann: a straight flush beats ace-king: ANTE +10, BET 20×50; the dealt straight flush pays the bonus 10×100.
    # Bob: queens full: ANTE +20, BET 40×7; his dealt pair loses the bonus; fee 3×20. Cat: the same ranks as the
    # dealer's, her A♥ over his A♠: ANTE +5, BET 10×1.
    assert ev.result(ch) == "\n".join([
        "Дилер открывает A♠ K♦ 7♣ 4♠ 2♦: туз-король — игра есть.",
        "Ann, бокс 1: выигрыш (+2\xa0010) — стрит-флеш до девятки: 5♥ 6♥ 7♥ 8♥ 9♥; АНТЕ +10 · БЕТ +1\xa0000 "
        "(стрит-флеш до девятки, ×50) · БОНУС +1\xa0000 (стрит-флеш до девятки, ×100).",
        "Bob, бокс 1: выигрыш (+230) — фулл-хаус, дамы на девятках: Q♣ Q♦ Q♠ 9♦ 9♠; АНТЕ +20 · БЕТ +280 (фулл-хаус, "
        "дамы на девятках, ×7) · БОНУС −10 · плата за обмен −60.",
        "Cat, бокс 1: выигрыш по масти старшей карты, ♥ > ♣ > ♦ > ♠ (+15) — туз-король: A♥ K♣ 7♦ 4♣ 2♥; АНТЕ +5 · "
        "БЕТ +10 (туз-король, ×1).",
        "Раунд окончен: Ann +2\xa0010, Bob +230, Cat +15."])
    [table] = [content for content in ev.fake.public_versions() if content.startswith("Карибский покер — раунд 1")][-1:]
    assert table.split("\n")[2:5] == [  # the round's table message, its buttons gone
        "  Ann · бокс 1 · АНТЕ 10 · БОНУС 10 (+1\xa0000) · БЕТ 20 · рассчитан +2\xa0010",
        "  Bob · бокс 1 · АНТЕ 20 · БОНУС 10 (−10) · БЕТ 40 · рассчитан +230",
        "  Cat · бокс 1 · АНТЕ 5 · БЕТ 10 · рассчитан +15"]
    await ev.closed_in_russian(ch, {"Ann": "В кошельке 3\xa0010 фишек.", "Bob": "В кошельке 1\xa0230 фишек.",
                                    "Cat": "В кошельке 1\xa0015 фишек."},
                               "5♥ 6♥ 7♥ 8♥ 9♥", "Q♣ Q♦ 5♠ 9♣ 3♥", "Q♣ Q♦ Q♠ 9♦ 9♠", "A♥ K♣ 7♦ 4♣ 2♥",
                               never=("Q♣ Q♦ 5♠ 9♣ 3♥",))


async def test_three_card_poker_pair_plus_two_rounds_and_an_ante_over_the_wallet(evening: RussianEvening,
                                                                                 dealer: Dealer) -> None:
    ev, ch = evening, THREE_CARD
    await ev.open(ch, "three-card")
    assert shown(await ev.slash(ev.dan, ch, "join")) == ev.fake.mentioned(
        "Трёхкарточный покер: ставьте АНТЕ командой {ante} сумма (добавьте «бокс: 2» — для второго бокса; «пара_плюс» "
        "— для ставки «Пара плюс»; с АНТЕ 0 она ставится одна). Карты приходят лично вам: нажмите «Мои карты», чтобы "
        "их увидеть.")
    assert await ev.slash(ev.dan, ch, "ante", amount=51) == "АНТЕ за этим столом — от 1 до 50, а не 51."
    assert await ev.slash(ev.dan, ch, "ante", amount=10, pairplus=26) == (
        "Ставка «Пара плюс» за этим столом — от 1 до 25, а не 26.")
    # Round 1 (LITE). Ann A♥ K♥ Q♥ (ANTE 10, Pair Plus 5); Bob 5♣ 5♦ 2♥ (ANTE 20); Cat 7♠ 8♦ 9♣ (Pair Plus 10
    # alone); the dealer J♣ 9♦ 4♠, jack high: no game.
    dealer.order = "Ah Kh Qh 5c 5d 2h 7s 8d 9c Jc 9d 4s"
    await ev.antes(ch, ((ev.ann, 10, 5), (ev.bob, 20, None), (ev.cat, 0, 10)), "pairplus")
    # the Pair Plus result gives the cards away: told to its owner alone, the channel learns it at the end
    assert await ev.slash(ev.ann, ch, "deal") == (
        "Бокс 1: A♥ K♥ Q♥\n\nБокс 1, дополнительная ставка: «Пара плюс» +200 (стрит-флеш до туза, ×40).")
    assert await ev.press(ev.ann, ch, "🂠") == (
        "Ваши боксы:\nбокс 1: A♥ K♥ Q♥ · дополнительная ставка: «Пара плюс» +200 (стрит-флеш до туза, ×40)")
    assert "+200" not in ev.table(ch)["content"]
    assert ev.table(ch)["content"] == (  # the bets, none of their results
        "Трёхкарточный покер — раунд 1\nДилер: ▢ ▢ ▢\n▶ Ann · бокс 1 · АНТЕ 10 · «Пара плюс» 5 · решает\n"
        "  Bob · бокс 1 · АНТЕ 20 · решает\n  Cat · бокс 1 · «Пара плюс» 10 · играет\n\n"
        "Ann ставит на бокс 1: АНТЕ 10, «Пара плюс» 5.\nBob ставит на бокс 1: АНТЕ 20.\n"
        f"Cat ставит на бокс 1: «Пара плюс» 10.\n▶ Ann, бокс 1: ваше решение (⏱ 60\xa0с).\n<@{ev.ann.id}>")
    assert ev.labels(ch) == ["🂠 Мои карты", "Играть (10)", "Пас"]
    first = ev.table(ch)  # as Ann's client keeps showing it
    await ev.press(ev.ann, ch, "Играть")
    assert await ev.slash(ev.ann, ch, "play") == "Сейчас не ваш ход: ходит Bob."
    await ev.press(ev.bob, ch, "Играть (20)")
    assert ev.result(ch) == "\n".join([
        "Дилер открывает J♣ 9♦ 4♠: старший валет — нет игры: нужна комбинация не ниже, чем старшая дама.",
        "Ann, бокс 1: у дилера нет игры (+250) — стрит-флеш до туза: A♥ K♥ Q♥; «Пара плюс» +200 (стрит-флеш до туза, "
        "×40) · АНТЕ +10 · ИГРА 0 · бонус к АНТЕ +40 (стрит-флеш до туза, ×4).",
        "Bob, бокс 1: у дилера нет игры (+20) — пара пятёрок, кикер двойка: 5♣ 5♦ 2♥; АНТЕ +20 · ИГРА 0.",
        "Cat, бокс 1: выигрыш (+50) — стрит до девятки: 7♠ 8♦ 9♣; «Пара плюс» +50 (стрит до девятки, ×5).",
        "Раунд окончен: Ann +250, Bob +20, Cat +50."])

    # Round 2. Ann K♣ K♦ 4♥ (ANTE 10, Pair Plus 5); Bob Q♠ 9♠ 3♠ (ANTE 20); Cat 2♣ 7♦ 9♥ (ANTE 10); the dealer
    # A♦ 8♣ 5♥, ace high: he qualifies.
    dealer.order = "Kc Kd 4h Qs 9s 3s 2c 7d 9h Ad 8c 5h"
    await ev.antes(ch, ((ev.ann, 10, 5), (ev.bob, 20, None), (ev.cat, 10, None)), "pairplus")
    await ev.slash(ev.cat, ch, "deal")
    assert await ev.press(ev.ann, ch, "Играть", first) == "Этот раунд уже закончился."  # round 1's button
    await ev.press(ev.ann, ch, "Играть")
    await ev.slash(ev.bob, ch, "play")
    await ev.slash(ev.cat, ch, "fold")
    assert ev.result(ch) == "\n".join([
        "Дилер открывает A♦ 8♣ 5♥: старший туз — игра есть.",
        "Ann, бокс 1: выигрыш (+25) — пара королей, кикер четвёрка: K♣ K♦ 4♥; «Пара плюс» +5 (пара королей, кикер "
        "четвёрка, ×1) · АНТЕ +10 · ИГРА +10 (пара королей, кикер четвёрка, ×1).",
        "Bob, бокс 1: выигрыш (+40) — флеш, старшая дама: Q♠ 9♠ 3♠; АНТЕ +20 · ИГРА +20 (флеш, старшая дама, ×1).",
        "Cat, бокс 1: пас (−10); АНТЕ −10.",
        "Раунд окончен: Ann +25, Bob +40, Cat −10."])

    # At the VIP tier an ANTE of 2 000 is more than Cat's 1 040: refused, nothing moves.
    await ev.fake.slash(ev.ann, ch, "set", name="tier", value="vip")
    assert await ev.slash(ev.cat, ch, "ante", amount=2000) == "Нужно 2\xa0000 фишек, а у вас 1\xa0040."
    await ev.closed_in_russian(ch, {"Ann": "В кошельке 1\xa0275 фишек.", "Bob": "В кошельке 1\xa0060 фишек.",
                                    "Cat": "В кошельке 1\xa0040 фишек."},
                               "A♥ K♥ Q♥", "5♣ 5♦ 2♥", "7♠ 8♦ 9♣", "K♣ K♦ 4♥", "Q♠ 9♠ 3♠", "2♣ 7♦ 9♥",
                               never=("2♣ 7♦ 9♥",))
