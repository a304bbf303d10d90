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

from tests.discord.test_house_evening import Dealer
from tests.telegram.conftest import WHOLE_HANDS, Running, private_chat
from tests.telegram.russian_night import IVAN, OLGA, PETROV, SASHA
from tests.telegram.test_cash_evening import private
from tests.telegram.test_games import group_texts_in_order

FRIENDS = (IVAN, PETROV, OLGA, SASHA)


@pytest.fixture
def dealer(monkeypatch: pytest.MonkeyPatch) -> Dealer:
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


async def wallets(bot: Running) -> list[str]:
    """What /balance tells ivan, Пётр Петров and olga, each in his private chat."""
    for user in (IVAN, PETROV, OLGA):
        await bot.command(user, "/balance")
    return [last_said(bot, user) for user in (IVAN, PETROV, OLGA)]


def assert_boxes_kept_private(bot: Running, *boxes: str) -> None:
    """No group text shows a box's cards before the round's result does (the folded boxes' never)."""
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
    assert await wallets(bot) == ["В кошельке 3\xa0515 фишек.", "В кошельке 1\xa0060 фишек.",
                                  "В кошельке 985 фишек."]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
