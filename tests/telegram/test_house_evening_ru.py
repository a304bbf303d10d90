"""An evening of the four house games in a Russian-speaking Telegram group, read as its players read it after
`/lang ru`: the table message and its edits, the buttons, the dealer's reveal and the results, the private answers
and messages.

The decks are the Discord evening's (`tests/discord/test_house_evening.py`), so its payouts, worked out there by hand
from RULES.md §2-5, hold here too: ivan, Пётр Петров and olga sit where Ann, Bob and Cat do; Саша, who opened a private
chat with the bot, bets nowhere unless told. Every player starts with the 1 000-chip welcome grant. Along the way: an
ANTE over the table's limit and over the wallet, a press out of turn, a decision pressed twice, a button of the
previous round, a press by someone with no box; and no box's cards reach the group before the round's result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.test_russian_games import english_left
from tests.discord.test_house_evening import Dealer
from tests.telegram.conftest import WHOLE_HANDS, Running, private_chat
from tests.telegram.russian_night import IVAN, OLGA, PETROV, SASHA
from tests.telegram.test_cash_evening import private
from tests.telegram.test_games import group_texts_in_order

FRIENDS = (IVAN, PETROV, OLGA, SASHA)


@pytest.fixture
def dealer(monkeypatch: pytest.MonkeyPatch) -> Dealer:
    """The deck of each round, stacked by the test."""
    return Dealer(monkeypatch)


async def opened(make_bot: Any, game: str) -> Running:
    """A group that switched to Russian, whose four friends opened their private chats, playing `game`."""
    bot: Running = await make_bot("holdem", seed=1)
    await bot.command(IVAN, "/lang ru")
    for user in FRIENDS:
        await bot.command(user, "/start", private_chat(user))
    await bot.command(IVAN, f"/game {game}")
    return bot


async def press(bot: Running, user: dict[str, Any], label: str) -> str:
    """A user presses the button whose label holds `label` on the table message; what the bot answered him alone."""
    table = bot.table_message()
    answer = await bot.press_data(user, table, table.button(label)["callback_data"])
    return str(answer.get("text", ""))


def labels(bot: Running) -> list[str]:
    """The table message's buttons as the group sees them."""
    return [button["text"] for button in bot.table_message().buttons()]


def last_said(bot: Running, user: dict[str, Any]) -> str:
    """The last message the bot sent to a user's private chat."""
    return private(bot, user)[-1]


def result(bot: Running) -> str:
    """The round's result as the group reads it: the text of its last notice (the caption of the table's picture,
    without the picture's title)."""
    return bot.group()[-1].text.split("\n\n")[0]


async def closed(bot: Running, *wallets: str) -> None:
    """The evening at this table over: what /balance tells ivan, Пётр Петров and olga (each in his private chat) is
    `wallets`, nothing was ever shown in English, and the ledger balances."""
    for user in (IVAN, PETROV, OLGA):
        await bot.command(user, "/balance")
    assert [last_said(bot, user) for user in (IVAN, PETROV, OLGA)] == list(wallets)
    assert_russian_throughout(bot)
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


def assert_russian_throughout(bot: Running) -> None:
    """No English word in anything the group or a private chat was ever shown, the answers to presses included: Latin
    letters only in the players' names and in what is typed as it is (the language `ru`)."""
    texts = bot.group_texts() + [text for user in FRIENDS for text in bot.api.texts_ever_shown(user["id"])]
    texts += [str(answer["text"]) for answer in bot.api.calls("answerCallbackQuery") if answer.get("text")]
    latin = {"ivan", "olga", "ru"}
    assert {text: english_left(text, latin) for text in texts if english_left(text, latin)} == {}


def assert_boxes_kept_private(bot: Running, *boxes: str) -> None:
    """No group text shows a box's cards (as dealt, or as a draw left them) before the round's result does; a folded
    box's, a box's before its draw, may never show."""
    texts = group_texts_in_order(bot)
    for cards in boxes:
        first = next((text for text in texts if cards in text), None)
        assert first is None or "Раунд окончен" in first, f"{cards} in the group before the result: {first!r}"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_texas_poker_two_rounds_in_russian(make_bot, api, dealer: Dealer) -> None:
    bot = await opened(make_bot, "texas")
    assert bot.group_texts()[:2] == ["Язык чата: русский (ru).",
                                     "Теперь за этим столом: Покер «Техас». Ставьте АНТЕ командой /ante фишки."]
    await bot.command(SASHA, "/ante 101")
    await bot.command(SASHA, "/ante 10 box 2")
    assert private(bot, SASHA)[-2:] == ["АНТЕ за этим столом — от 1 до 100, а не 101.",
                                        "Бокса 2 за этим столом нет."]

    # Round 1: ivan A♠ K♠ bets a royal flush; Пётр Q♥ Q♦ buys the fourth card and bets three queens; olga 7♣ 2♦ buys
    # and folds. The dealer's 9♠ 9♥ qualifies.
    dealer.order = "As Ks Qh Qd 7c 2d 9s 9h Qs Js Ts 3c 4d"
    for user, ante in ((IVAN, 10), (PETROV, 20), (OLGA, 5)):
        await bot.command(user, f"/ante {ante}")
    await bot.command(SASHA, "/deal")
    assert last_said(bot, SASHA) == "Закрыть ставки может только игрок, у которого есть ставка на столе."
    await bot.command(IVAN, "/deal")
    assert [last_said(bot, user) for user in (IVAN, PETROV, OLGA)] == [
        "Бокс 1: A♠ K♠", "Бокс 1: Q♥ Q♦", "Бокс 1: 7♣ 2♦"]
    assert bot.table_message().text == (
        "Покер «Техас» — раунд 1\nДилер: ▢ ▢\nБорд: Q♠ J♠ T♠ 🂠 🂠\n"
        "▶ ivan · бокс 1 · АНТЕ 10 · решает\n  Пётр Петров · бокс 1 · АНТЕ 20 · решает\n"
        "  olga · бокс 1 · АНТЕ 5 · решает\n\n"
        "ivan ставит на бокс 1: АНТЕ 10.\nПётр Петров ставит на бокс 1: АНТЕ 20.\nolga ставит на бокс 1: АНТЕ 5.\n"
        "Борд: Q♠ J♠ T♠.\n▶ ivan, бокс 1: ваше решение (⏱ 60\xa0с).")
    assert labels(bot) == ["БЕТ (20)", "Пас", "Прикуп (10)", "🂠 Мои карты"]
    assert await press(bot, IVAN, "Мои карты") == "Ваши боксы:\nбокс 1: A♠ K♠"
    assert await press(bot, PETROV, "БЕТ") == "Сейчас не ваш ход: ходит ivan."
    assert await press(bot, SASHA, "Пас") == (
        "У вас нет бокса в этом раунде: поставьте АНТЕ (/ante фишки) до сдачи следующего.")
    first = bot.table_message()
    stale = first.button("БЕТ")["callback_data"]  # as ivan's client keeps showing it
    assert await press(bot, IVAN, "БЕТ") == ""
    assert (await bot.press_data(IVAN, first, stale))["text"] == "Уже сделано."  # twice: Пётр's box is untouched
    await bot.command(PETROV, "/bet 30")
    assert last_said(bot, PETROV) == "Ставка на этом боксе — 40, а не 30: напишите просто /bet (или /play)."
    assert labels(bot) == ["БЕТ (40)", "Пас", "Прикуп (20)", "🂠 Мои карты"]
    await bot.command(PETROV, "/buy")
    await press(bot, OLGA, "Прикуп")
    assert bot.table_message().text.split("\n")[2] == "Борд: Q♠ J♠ T♠ 3♣ 🂠"
    await press(bot, PETROV, "БЕТ")
    await bot.command(OLGA, "/fold")
    assert result(bot) == "\n".join([
        "Дилер открывает 9♠ 9♥: пара девяток, кикер дама — игра есть.",
        "ivan, бокс 1: выигрыш (+2\xa0010) — роял-флеш: A♠ K♠ Q♠ J♠ T♠; АНТЕ +10 · БЕТ +2\xa0000 (роял-флеш, ×100).",
        "Пётр Петров, бокс 1: выигрыш (+80) — тройка дам, кикер валет: Q♠ Q♥ Q♦ J♠ T♠; АНТЕ +20 · БЕТ +80 (тройка "
        "дам, кикер валет, ×2) · плата за прикуп −20.",
        "olga, бокс 1: пас (−10); АНТЕ −5 · плата за прикуп −5.",
        "Раунд окончен: ivan +2\xa0010, Пётр Петров +80, olga −10."])
    assert_boxes_kept_private(bot, "A♠ K♠", "Q♥ Q♦", "7♣ 2♦")

    # Round 2: ivan 9♥ T♥ bets a straight flush; Пётр A♠ 2♥ buys, exchanges 2♥ for A♣ and bets; olga 5♦ 6♦ folds.
    # The dealer's 2♣ 7♦ holds no pair with the board: ivan is paid half, Пётр's ANTE wins 1:1.
    dealer.order = "9h Th As 2h 5d 6d 2c 7d Jh Qh Kh 3s 8c Ac"
    for user, ante in ((IVAN, 10), (PETROV, 20), (OLGA, 5)):
        await bot.command(user, f"/ante {ante}")
    await bot.command(OLGA, "/deal")
    assert (await bot.press_data(IVAN, first, stale))["text"] == "Этот раунд уже закончился."  # round 1's button
    await press(bot, IVAN, "БЕТ")
    await press(bot, PETROV, "Прикуп")
    await press(bot, OLGA, "Пас")
    assert labels(bot) == ["БЕТ (40)", "Пас", "Обмен: ☐ 1", "☐ 2", "🂠 Мои карты"]
    await press(bot, PETROV, "☐ 2")
    assert labels(bot) == ["БЕТ (40)", "Пас", "Обмен: ☐ 1", "☑ 2", "Обмен 2 (20)", "🂠 Мои карты"]
    assert await press(bot, PETROV, "Обмен 2") == "Бокс 1 теперь: A♠ A♣"
    await bot.command(PETROV, "/bet")
    assert result(bot) == "\n".join([
        "Дилер открывает 2♣ 7♦: старший король — нет игры: нужна хотя бы пара.",
        "ivan, бокс 1: половина выплаты (+505) — стрит-флеш до короля: K♥ Q♥ J♥ T♥ 9♥; АНТЕ 0 · БЕТ 0 · половина "
        "выплаты +505 (половина от 1\xa0010: стрит-флеш до короля, АНТЕ 1:1 и БЕТ ×50).",
        "Пётр Петров, бокс 1: у дилера нет игры (−20) — пара тузов, кикер король: A♠ A♣ K♥ Q♥ J♥; АНТЕ +20 · БЕТ 0 · "
        "плата за прикуп −20 · плата за обмен −20.",
        "olga, бокс 1: пас (−5); АНТЕ −5.",
        "Раунд окончен: ivan +505, Пётр Петров −20, olga −5."])
    assert_boxes_kept_private(bot, "9♥ T♥", "A♠ 2♥", "A♠ A♣", "5♦ 6♦")
    await closed(bot, "В кошельке 3\xa0515 фишек.", "В кошельке 1\xa0060 фишек.", "В кошельке 985 фишек.")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_russian_poker_three_boxes_an_exchange_a_bought_card_and_the_dealers_game(make_bot, api,
                                                                                       dealer: Dealer) -> None:
    bot = await opened(make_bot, "russian")
    # ivan: box 1 A♠ A♦ K♣ 8♠ 9♥, box 2 3♣ 3♦ 7♥ 7♠ Q♦, box 3 (blind: ANTE 10 and BET 20 at once) K♠ K♦ 4♣ 6♦ T♥;
    # Пётр 2♥ 4♥ 6♥ 8♥ J♥; olga 5♣ 6♣ 9♦ J♠ 2♠; the dealer 2♣ 5♦ 8♣ J♦ 9♠ (9♠ open), no game. ivan's exchange
    # draws 7♣, Пётр's bought card T♣, the dealer's draw 2♦: a pair of twos after ivan buys him a game on boxes 1
    # and 3 (not on box 2; Пётр buys none).
    dealer.order = "As Ad Kc 8s 9h 3c 3d 7h 7s Qd Ks Kd 4c 6d Th 2h 4h 6h 8h Jh 5c 6c 9d Js 2s 2c 5d 8c Jd 9s 7c Tc 2d"
    await bot.command(IVAN, "/ante 10 box 2")
    assert last_said(bot, IVAN) == ("Боксы занимают по порядку: на бокс 2 можно поставить, только когда занят "
                                    "предыдущий.")
    for user, bet in ((IVAN, "10"), (IVAN, "10 box 2"), (IVAN, "10 box 3"), (PETROV, "20"), (OLGA, "5")):
        await bot.command(user, f"/ante {bet}")
    await bot.command(IVAN, "/ante 10 box 2")
    assert last_said(bot, IVAN) == "Вы уже поставили на бокс 2."
    await bot.command(IVAN, "/deal")
    assert bot.table_message().text == (
        "Русский покер — раунд 1\nДилер: ▢ ▢ ▢ ▢ 9♠\n"
        "▶ ivan · бокс 1 · АНТЕ 10 · решает\n  ivan · бокс 2 · АНТЕ 10 · решает\n"
        "  ivan · бокс 3 · АНТЕ 10 · БЕТ 20 · играет\n  Пётр Петров · бокс 1 · АНТЕ 20 · решает\n"
        "  olga · бокс 1 · АНТЕ 5 · решает\n\n"
        "ivan ставит на бокс 1: АНТЕ 10.\nivan ставит на бокс 2: АНТЕ 10.\nivan ставит на бокс 3: АНТЕ 10, БЕТ 20.\n"
        "Пётр Петров ставит на бокс 1: АНТЕ 20.\nolga ставит на бокс 1: АНТЕ 5.\nДилер показывает 9♠.\n"
        "▶ ivan, бокс 1: ваше решение (⏱ 60\xa0с).")
    assert labels(bot) == ["Играть (20)", "Пас", "Прикуп (10)", "Обмен: ☐ 1", "☐ 2", "☐ 3", "☐ 4", "☐ 5",
                           "🂠 Мои карты"]
    assert await press(bot, IVAN, "Мои карты") == (
        "Ваши боксы:\nбокс 1: A♠ A♦ K♣ 8♠ 9♥\nбокс 2: откроется в свою очередь\n"
        "бокс 3: играет втёмную, откроется при вскрытии\nБокс 1, номера карт на кнопках: 1 A♠ · 2 A♦ · 3 K♣ · 4 8♠ · "
        "5 9♥")
    first = bot.table_message()
    play = first.button("Играть")["callback_data"]  # as ivan's client keeps showing it
    assert await press(bot, IVAN, "Играть") == "Бокс 2: 3♣ 3♦ 7♥ 7♠ Q♦"  # box 2's turn: its cards, to ivan alone
    assert (await bot.press_data(IVAN, first, play))["text"] == "Уже сделано."  # box 2 is not played by it
    await press(bot, IVAN, "☐ 5")
    assert await press(bot, IVAN, "Обмен 5 (10)") == "Бокс 2 теперь: 3♣ 3♦ 7♥ 7♠ 7♣"
    assert labels(bot) == ["Играть (20)", "Пас", "🂠 Мои карты"]  # one draw a box
    await bot.command(IVAN, "/play")
    await bot.command(PETROV, "/buy")
    assert last_said(bot, PETROV) == "Бокс 1 теперь: 2♥ 4♥ 6♥ 8♥ J♥ T♣"
    await press(bot, PETROV, "Играть (40)")
    await bot.command(SASHA, "/fold")
    assert last_said(bot, SASHA) == "У вас нет бокса в этом раунде: поставьте АНТЕ (/ante фишки) до сдачи следующего."
    await press(bot, OLGA, "Пас")
    assert result(bot) == "Дилер открывает 2♣ 5♦ 8♣ J♦ 9♠: нет игры."
    assert labels(bot) == ["Купить игру (10)", "Не покупать", "🂠 Мои карты"]
    assert await press(bot, PETROV, "Не покупать") == "Сейчас не ваш ход: ходит ivan."
    await press(bot, IVAN, "Купить игру")
    assert await press(bot, IVAN, "Не покупать") == "Бокс 3: K♠ K♦ 4♣ 6♦ T♥"  # its turn: the blind box shown
    await bot.command(IVAN, "/dealergame")
    assert labels(bot) == ["Купить игру (20)", "Не покупать", "🂠 Мои карты"]
    await bot.command(PETROV, "/decline")
    # ivan box 1: aces with ace-king as the second combination beat the twos: BET 20×(1+1) = +40, fee −10 → +30.
    # Box 2: sevens full, but no game and none bought: ANTE +10, fee −10 → 0. Box 3: kings: BET +20, fee −10 → +10.
    # Пётр: no game: ANTE +20, card fee −20 → 0. olga folded: −5.
    assert result(bot) == "\n".join([
        "ivan, бокс 2: у дилера нет игры (0) — фулл-хаус, семёрки на тройках: 3♣ 3♦ 7♥ 7♠ 7♣; АНТЕ +10 · БЕТ 0 · "
        "плата за обмен −10.",
        "Пётр Петров, бокс 1: у дилера нет игры (0) — флеш, старший валет: 2♥ 4♥ 6♥ 8♥ J♥; АНТЕ +20 · БЕТ 0 · "
        "плата за прикуп −20.",
        "Дилер сбрасывает J♦, прикупает 2♦: пара двоек, кикер девятка — игра есть.",
        "ivan, бокс 1: выигрыш (+30) — пара тузов, кикер король: A♠ A♦ K♣ 8♠ 9♥; АНТЕ 0 · БЕТ +40 (пара тузов + "
        "вторая комбинация: туз-король, ×2) · плата за игру дилеру −10.",
        "ivan, бокс 3: выигрыш (+10) — пара королей, кикер десятка: K♠ K♦ 4♣ 6♦ T♥; АНТЕ 0 · БЕТ +20 (пара королей, "
        "×1) · плата за игру дилеру −10.",
        "olga, бокс 1: пас (−5); АНТЕ −5.",
        "Раунд окончен: ivan +40, Пётр Петров 0, olga −5."])
    assert_boxes_kept_private(bot, "A♠ A♦ K♣ 8♠ 9♥", "3♣ 3♦ 7♥ 7♠ Q♦", "3♣ 3♦ 7♥ 7♠ 7♣", "K♠ K♦ 4♣ 6♦ T♥",
                              "2♥ 4♥ 6♥ 8♥ J♥", "5♣ 6♣ 9♦ J♠ 2♠")
    await closed(bot, "В кошельке 1\xa0040 фишек.", "В кошельке 1\xa0000 фишек.", "В кошельке 995 фишек.")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_caribbean_poker_the_bonus_an_exchange_and_the_suit_tie_break(make_bot, api, dealer: Dealer) -> None:
    bot = await opened(make_bot, "caribbean")
    await bot.command(SASHA, "/ante 10 bonus 5")
    assert last_said(bot, SASHA) == "Ставка БОНУС за этим столом — ровно 10, а не 5."
    # ivan 5♥ 6♥ 7♥ 8♥ 9♥ (bonus 10); Пётр Q♣ Q♦ 5♠ 9♣ 3♥ (bonus 10); olga A♥ K♣ 7♦ 4♣ 2♥; the dealer A♠ K♦ 7♣ 4♠ 2♦
    # (2♦ open): ace-king, he qualifies. Пётр's exchange draws Q♠ 9♦ 9♠.
    dealer.order = "5h 6h 7h 8h 9h Qc Qd 5s 9c 3h Ah Kc 7d 4c 2h As Kd 7c 4s 2d Qs 9d 9s"
    for user, bet in ((IVAN, "10 bonus 10"), (PETROV, "20 bonus 10"), (OLGA, "5")):
        await bot.command(user, f"/ante {bet}")
    assert bot.table_message().text.split("\n")[:2] == [
        "Карибский покер — раунд 1",
        "Ставки открыты: /ante фишки [box 1-3] [bonus 10], затем /deal (или подождите немного)."]
    await bot.command(OLGA, "/ante 5")
    assert last_said(bot, OLGA) == "Вы уже поставили на бокс 1."
    await bot.command(PETROV, "/deal")
    assert await press(bot, SASHA, "Играть") == (
        "У вас нет бокса в этом раунде: поставьте АНТЕ (/ante фишки) до сдачи следующего.")
    await press(bot, IVAN, "Играть (20)")
    for card in ("Обмен: ☐ 1", "☐ 3", "☐ 4", "☐ 5", "Обмен: ☑ 1"):
        await press(bot, PETROV, card)
    assert labels(bot) == ["Играть (40)", "Пас", "Обмен: ☐ 1", "☐ 2", "☑ 3", "☑ 4", "☑ 5", "Обмен 3 4 5 (60)",
                           "🂠 Мои карты"]
    assert await press(bot, PETROV, "Обмен 3 4 5") == "Бокс 1 теперь: Q♣ Q♦ Q♠ 9♦ 9♠"
    await bot.command(PETROV, "/play")
    assert await press(bot, OLGA, "Мои карты") == (
        "Ваши боксы:\nбокс 1: A♥ K♣ 7♦ 4♣ 2♥\nБокс 1, номера карт на кнопках: 1 A♥ · 2 K♣ · 3 7♦ · 4 4♣ · 5 2♥")
    await press(bot, OLGA, "Играть (10)")
    # ivan: a straight flush beats ace-king: ANTE +10, BET 20×50; the dealt straight flush pays the bonus 10×100.
    # Пётр: queens full: ANTE +20, BET 40×7; his dealt pair loses the bonus; fee 3×20. olga: the same ranks as the
    # dealer's, her A♥ over his A♠: ANTE +5, BET 10×1.
    assert result(bot) == "\n".join([
        "Дилер открывает A♠ K♦ 7♣ 4♠ 2♦: туз-король — игра есть.",
        "ivan, бокс 1: выигрыш (+2\xa0010) — стрит-флеш до девятки: 5♥ 6♥ 7♥ 8♥ 9♥; АНТЕ +10 · БЕТ +1\xa0000 "
        "(стрит-флеш до девятки, ×50) · БОНУС +1\xa0000 (стрит-флеш до девятки, ×100).",
        "Пётр Петров, бокс 1: выигрыш (+230) — фулл-хаус, дамы на девятках: Q♣ Q♦ Q♠ 9♦ 9♠; АНТЕ +20 · БЕТ +280 "
        "(фулл-хаус, дамы на девятках, ×7) · БОНУС −10 · плата за обмен −60.",
        "olga, бокс 1: выигрыш по масти старшей карты, ♥ > ♣ > ♦ > ♠ (+15) — туз-король: A♥ K♣ 7♦ 4♣ 2♥; АНТЕ +5 · "
        "БЕТ +10 (туз-король, ×1).",
        "Раунд окончен: ivan +2\xa0010, Пётр Петров +230, olga +15."])
    [table] = [sent for sent in bot.group() if sent.photo is None and sent.text.startswith("Карибский покер — раунд 1")]
    assert table.text.split("\n")[2:5] == [
        "  ivan · бокс 1 · АНТЕ 10 · БОНУС 10 (+1\xa0000) · БЕТ 20 · рассчитан +2\xa0010",
        "  Пётр Петров · бокс 1 · АНТЕ 20 · БОНУС 10 (−10) · БЕТ 40 · рассчитан +230",
        "  olga · бокс 1 · АНТЕ 5 · БЕТ 10 · рассчитан +15"]
    assert_boxes_kept_private(bot, "5♥ 6♥ 7♥ 8♥ 9♥", "Q♣ Q♦ 5♠ 9♣ 3♥", "Q♣ Q♦ Q♠ 9♦ 9♠", "A♥ K♣ 7♦ 4♣ 2♥")
    await closed(bot, "В кошельке 3\xa0010 фишек.", "В кошельке 1\xa0230 фишек.", "В кошельке 1\xa0015 фишек.")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_three_card_poker_pair_plus_two_rounds_and_an_ante_over_the_wallet(make_bot, api,
                                                                                 dealer: Dealer) -> None:
    bot = await opened(make_bot, "three-card")
    await bot.command(SASHA, "/ante 51")
    await bot.command(SASHA, "/ante 10 pp 26")
    assert private(bot, SASHA)[-2:] == ["АНТЕ за этим столом — от 1 до 50, а не 51.",
                                        "Ставка «Пара плюс» за этим столом — от 1 до 25, а не 26."]
    # Round 1 (LITE). ivan A♥ K♥ Q♥ (ANTE 10, Pair Plus 5); Пётр 5♣ 5♦ 2♥ (ANTE 20); olga 7♠ 8♦ 9♣ (Pair Plus 10
    # alone); the dealer J♣ 9♦ 4♠, jack high: no game.
    dealer.order = "Ah Kh Qh 5c 5d 2h 7s 8d 9c Jc 9d 4s"
    for user, bet in ((IVAN, "10 pp 5"), (PETROV, "20"), (OLGA, "0 pp 10")):
        await bot.command(user, f"/ante {bet}")
    await bot.command(PETROV, "/deal")
    # the Pair Plus result gives the cards away: told to its owner alone, the group learns it at the end
    assert private(bot, IVAN)[-1] == (
        "Бокс 1: A♥ K♥ Q♥\n\nБокс 1, дополнительная ставка: «Пара плюс» +200 (стрит-флеш до туза, ×40).")
    assert await press(bot, IVAN, "Мои карты") == (
        "Ваши боксы:\nбокс 1: A♥ K♥ Q♥ · дополнительная ставка: «Пара плюс» +200 (стрит-флеш до туза, ×40)")
    assert "+200" not in bot.table_message().text
    assert labels(bot) == ["Играть (10)", "Пас", "🂠 Мои карты"]
    first = bot.table_message()
    play = first.button("Играть")["callback_data"]  # as ivan's client keeps showing it
    await press(bot, IVAN, "Играть")
    await bot.command(IVAN, "/play")
    assert last_said(bot, IVAN) == "Сейчас не ваш ход: ходит Пётр Петров."
    await press(bot, PETROV, "Играть (20)")
    assert result(bot) == "\n".join([
        "Дилер открывает J♣ 9♦ 4♠: старший валет — нет игры: нужна комбинация не ниже, чем старшая дама.",
        "ivan, бокс 1: у дилера нет игры (+250) — стрит-флеш до туза: A♥ K♥ Q♥; «Пара плюс» +200 (стрит-флеш до "
        "туза, ×40) · АНТЕ +10 · ИГРА 0 · бонус к АНТЕ +40 (стрит-флеш до туза, ×4).",
        "Пётр Петров, бокс 1: у дилера нет игры (+20) — пара пятёрок, кикер двойка: 5♣ 5♦ 2♥; АНТЕ +20 · ИГРА 0.",
        "olga, бокс 1: выигрыш (+50) — стрит до девятки: 7♠ 8♦ 9♣; «Пара плюс» +50 (стрит до девятки, ×5).",
        "Раунд окончен: ivan +250, Пётр Петров +20, olga +50."])
    assert_boxes_kept_private(bot, "A♥ K♥ Q♥", "5♣ 5♦ 2♥", "7♠ 8♦ 9♣")

    # Round 2. ivan K♣ K♦ 4♥ (ANTE 10, Pair Plus 5); Пётр Q♠ 9♠ 3♠ (ANTE 20); olga 2♣ 7♦ 9♥ (ANTE 10); the dealer
    # A♦ 8♣ 5♥, ace high: he qualifies.
    dealer.order = "Kc Kd 4h Qs 9s 3s 2c 7d 9h Ad 8c 5h"
    for user, bet in ((IVAN, "10 pp 5"), (PETROV, "20"), (OLGA, "10")):
        await bot.command(user, f"/ante {bet}")
    await bot.command(OLGA, "/deal")
    assert (await bot.press_data(IVAN, first, play))["text"] == "Этот раунд уже закончился."  # round 1's button
    await press(bot, IVAN, "Играть")
    await bot.command(PETROV, "/play")
    await bot.command(OLGA, "/fold")
    assert result(bot) == "\n".join([
        "Дилер открывает A♦ 8♣ 5♥: старший туз — игра есть.",
        "ivan, бокс 1: выигрыш (+25) — пара королей, кикер четвёрка: K♣ K♦ 4♥; «Пара плюс» +5 (пара королей, кикер "
        "четвёрка, ×1) · АНТЕ +10 · ИГРА +10 (пара королей, кикер четвёрка, ×1).",
        "Пётр Петров, бокс 1: выигрыш (+40) — флеш, старшая дама: Q♠ 9♠ 3♠; АНТЕ +20 · ИГРА +20 (флеш, старшая "
        "дама, ×1).",
        "olga, бокс 1: пас (−10); АНТЕ −10.",
        "Раунд окончен: ivan +25, Пётр Петров +40, olga −10."])
    assert_boxes_kept_private(bot, "K♣ K♦ 4♥", "Q♠ 9♠ 3♠", "2♣ 7♦ 9♥")

    # At the VIP tier an ANTE of 2 000 is more than olga's 1 040: refused, nothing moves.
    await bot.command(IVAN, "/set tier vip")
    await bot.command(OLGA, "/ante 2000")
    assert last_said(bot, OLGA) == "Нужно 2\xa0000 фишек, а у вас 1\xa0040."
    await closed(bot, "В кошельке 1\xa0275 фишек.", "В кошельке 1\xa0060 фишек.", "В кошельке 1\xa0040 фишек.")
