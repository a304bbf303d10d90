"""A cash-game evening in a Russian-speaking Telegram group, read as its four friends read it after `/lang ru`: the
straddle, pre-actions, the time bank and a time-out, the winner's show, bad inputs, all-ins with a side pot run twice,
a player stepping away, and what each private chat gets.

The decks are the cash evening's (`test_cash_evening`), so its pots, worked out there by hand, hold here too: ivan,
Пётр Петров, olga and Саша sit where ann, Bob, cat and dan do."""

from __future__ import annotations

import pytest

from tests.bot.helpers import at
from tests.telegram.conftest import WHOLE_HANDS, Running, private_chat
from tests.telegram.russian_night import IVAN, OLGA, PETROV, SASHA, play_hand
from tests.telegram.test_cash_evening import HAND_1, HAND_2, HAND_3, actions, now, private, stack_decks, story
from tests.telegram.test_games import group_texts_in_order

FRIENDS = (IVAN, PETROV, OLGA, SASHA)


async def seated_in_russian(bot: Running) -> None:
    """The group switches to Russian, everyone opens a private chat, and the four sit down with 400 at a no-limit
    table with straddles and a 30-second time bank."""
    await bot.command(IVAN, "/lang ru")
    for user in FRIENDS:
        await bot.command(user, "/start", private_chat(user))
    await actions(bot, (IVAN, "/set structure no-limit"), (IVAN, "/set straddle on"), (IVAN, "/set time_bank 30"))
    await actions(bot, *((user, "/join 400") for user in FRIENDS))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_cash_evening_reads_in_natural_russian(make_bot, api, monkeypatch) -> None:
    """Every line the group and the private chats read, exactly. Саша's /away, typed while he was dealt in, told the
    group "отходит и пропускает раздачи" as if he left that hand, and his seat then read "(пропускает)", skipping
    nothing named: the group now reads from when he sits out and what he skips."""
    bot = await make_bot("holdem", seed=1)
    stack_decks(monkeypatch, HAND_1, HAND_2, HAND_3)
    await seated_in_russian(bot)
    assert bot.group_texts()[:5] == [
        "Язык чата: русский (ru).", "Настройка изменена: структура ставок — безлимит.",
        "Настройка изменена: стрэддл — вкл.", "Настройка изменена: запас времени (сек.) — 30.",
        "ivan садится за стол с 400 фишками."]
    assert private(bot, OLGA) == ["Привет, olga! Теперь ваши карты и личные ответы будут приходить сюда. Играйте в "
                                  "своей группе: /join."]

    # --- hand 1: Саша straddles; pre-actions; Пётр's turn runs out on the time bank; Саша shows
    await bot.press(SASHA, bot.table_message(), "Стрэддл 40 (Саша)")
    assert bot.group()[-1].text == "Саша ставит стрэддл 40 в следующей раздаче."
    await bot.command(IVAN, "/deal")
    table = bot.table_message()
    assert story(table) == ("Раздача №1: баттон — ivan, блайнды 10/20. Карты розданы — нажмите «Мои карты», чтобы "
                            "посмотреть свои.\nПётр Петров ставит малый блайнд 10.\nolga ставит большой блайнд 20.\n"
                            "Саша ставит стрэддл 40.\n▶ Ход: ivan, для колла 40 (⏱ 60\xa0с).")
    assert [private(bot, user)[-1] for user in FRIENDS] == [
        "Ваши карты: 3♦ 9♦", "Ваши карты: A♥ 7♠", "Ваши карты: K♥ K♠", "Ваши карты: 2♣ 8♦"]
    assert [button["text"] for button in table.buttons()] == [
        "Пас", "Колл 40", "Рейз до 80", "½ банка: 95", "Банк: 150", "Олл-ин 400", "⏩ Чек/пас", "⏩ Чек",
        "⏩ Колл до 40", "⏩ Колл любой", "🂠 Мои карты"]
    # bad inputs: out of turn, over the stack, not a number, under the minimum; each answered privately, nothing moves
    await actions(bot, (OLGA, "/call"), (IVAN, "/bet 100000"), (IVAN, "/raise abc"), (IVAN, "/raise 10"))
    assert private(bot, OLGA)[-1] == "Сейчас не ваш ход: ходит ivan."
    assert private(bot, IVAN)[-3:] == ["Сейчас нельзя поставить или поднять до 100\xa0000: выберите от 80 до 400.",
                                       "Сумма: нужно целое число фишек больше нуля, а не «abc».",
                                       "Сейчас нельзя поставить или поднять до 10: выберите от 80 до 400."]
    assert now(bot, table).text.startswith("Холдем — раздача №1 · блайнды 10/20 · безлимит\nБорд: — · Банк: 70\n")
    assert (await bot.press(PETROV, table, "⏩ Колл до 40"))["text"] == (
        "Вы сделаете колл 30 (отменится, если кто-то повысит).")
    assert (await bot.press(OLGA, table, "⏩ Чек/пас"))["text"] == "Вы сделаете чек или пас."
    await bot.press(IVAN, table, "Колл 40")
    await bot.press(SASHA, now(bot, table), "Чек")
    assert story(now(bot, table)).endswith("ivan: колл 40.\nПётр Петров: колл 30.\nolga: пас.\nСаша: чек.\n"
                                           "Флоп: J♣ T♣ 2♥\n▶ Ход: Пётр Петров (⏱ 60\xa0с).")
    await bot.fire_timers(61)
    assert now(bot, table).text.endswith("▶ Ход: Пётр Петров.\n⏳ Пётр Петров тратит запас времени: 30\xa0с.")
    await bot.fire_timers(31)
    assert "Пётр Петров: время хода вышло.\nПётр Петров: чек.\n▶ Ход: Саша" in now(bot, table).text
    await actions(bot, (SASHA, "/bet 100"), (IVAN, "/fold"), (PETROV, "/fold"))
    assert story(now(bot, table)).endswith("Саша: бет 100.\nivan: пас.\nПётр Петров: пас.\n"
                                           "Саша получает обратно 100 неуравненных фишек.\n"
                                           "Саша забирает основной банк (140).\nРаздача окончена.")
    await bot.press(SASHA, now(bot, table), "Показать мои карты")
    assert "Саша показывает 2♣ 8♦." in bot.group_texts()
    stale = table

    # --- hand 2: all-ins and a side pot run twice; Пётр leaves after it, olga busts and buys in again
    await bot.command(OLGA, "/deal")
    table = bot.table_message()
    await actions(bot, (IVAN, "/allin"), (PETROV, "/leave"), (PETROV, "/fold"), (OLGA, "/allin"), (SASHA, "/call"))
    assert private(bot, PETROV)[-1] == "Вы встанете из-за стола, когда закончится эта раздача (/join — остаться)."
    assert now(bot, table).text.endswith(
        "Торговля окончена: раздать борд один раз или дважды? Каждый игрок раздачи выбирает за 15 секунд; дважды — "
        "только если согласны все.\n▶ Раздать один раз или дважды? Ждём ответа: ivan, olga, Саша (дважды — только "
        "если согласны все).")
    for user in (IVAN, OLGA, SASHA):
        await bot.press(user, bot.table_message(), "Раздать дважды")
    final = now(bot, table).text
    for line in ("Борд раздаётся дважды: каждый банк делится между двумя бордами.",
                 "Первый борд — Саша забирает основной банк (540): тройка дам, кикер девятка.",
                 "Первый борд — Саша забирает побочный банк 1 (20): тройка дам, кикер девятка.",
                 "Второй борд — ivan забирает основной банк (540): флеш, старший туз; решает старшая карта: ivan — "
                 "туз, Саша — дама.",
                 "Второй борд — Саша забирает побочный банк 1 (20): флеш, старшая дама."):
        assert f"\n{line}\n" in final, line
    assert bot.group()[-1].text == ("Пётр Петров встаёт из-за стола с 360 фишками.\n\n"
                                    "olga встаёт из-за стола: фишек не осталось.")
    refused = await bot.press_data(PETROV, stale, "h1|s6|fold")  # a button of hand 1, pressed late
    assert refused["text"] == "Эта раздача уже закончилась."
    await bot.command(OLGA, "/join 300")
    assert bot.group()[-1].text == "olga садится за стол с 300 фишками."

    # --- hand 3: Саша steps away while dealt in: he plays this hand out and sits out from the next one
    await bot.command(OLGA, "/deal")
    await bot.command(SASHA, "/away")
    assert bot.group()[-1].text == ("Саша отходит и пропускает раздачи, начиная со следующей, но сохраняет место: "
                                    "/back, чтобы вернуться.")
    await play_hand(bot, set())
    await bot.command(IVAN, "/table")
    assert bot.table_message().text == (  # Саша, the button, called 20 and lost at the showdown
        "Техасский холдем — места:\n  ivan — 580\n  Саша — 680 (пропускает раздачи)\n  olga — 280\n"
        "Раздача №3: ivan выигрывает 60.\n"
        "Между раздачами: следующая будет сдана через несколько секунд, или нажмите «Сдать».")

    await actions(bot, *((user, "/balance") for user in FRIENDS))
    assert [private(bot, user)[-1] for user in FRIENDS] == [
        "В кошельке 600 фишек.", "В кошельке 960 фишек.", "В кошельке 300 фишек.", "В кошельке 600 фишек."]
    group = "\n".join(group_texts_in_order(bot))
    assert [cards for cards in ("3♦ 9♦", "A♥ 7♠") if cards in group] == []  # folded: never shown
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_tournament_player_stepping_away_is_told_of_without_a_gender(make_bot, api) -> None:
    """olga's /away in a tournament told the group "его блайнды … в его ход": "his" of a name whose gender nobody
    knows. It reads with no pronoun now, as the table's other lines about a player do."""
    bot = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    await bot.command(IVAN, "/tournament create home-night")
    for user in (IVAN, OLGA, PETROV):
        await bot.command(user, "/join")
    await bot.command(IVAN, "/tournament start")
    await bot.command(OLGA, "/away")
    assert bot.group()[-1].text == ("olga отойдёт со следующей раздачи: блайнды будут ставиться сами, а карты — "
                                    "сбрасываться, когда дойдёт ход; /back, чтобы вернуться.")
