"""Telegram: a player who chooses his own language in the middle of a hand (`/lang ru me`) reads his very next
private answers in it (the alert of a button he pressed, a refusal in his private chat, the photo of his cards),
while the group's table message and the other players' answers stay in the group's language."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import GROUP


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_language_chosen_mid_hand_answers_the_next_press_and_command_in_it(make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.command(BOB, "/start", private_chat(BOB))
    await bot.seat_three_and_deal()
    table = bot.table_message()
    english = [sent.text for sent in api.chat(BOB["id"]) if sent.text.startswith("Your cards: ")]
    assert len(english) == 1, api.chat(BOB["id"])
    cards = english[0].removeprefix("Your cards: ")

    await bot.command(BOB, "/lang ru me")
    assert api.chat(BOB["id"])[-1].text == "Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."
    mine = await bot.press(BOB, table, "my cards")
    assert mine["text"] == f"Ваши карты: {cards}"
    assert [photo.text for photo in api.photos(BOB["id"])] == ["Ваши карты"], "the photo of his cards is his"
    assert (await bot.press(BOB, table, "fold"))["text"] == "Сейчас не ваш ход: ходит ann."
    assert (await bot.press(BOB, table, "check/fold"))["text"] == "Вы сделаете чек или пас."
    await bot.command(BOB, "/raise abc")
    assert api.chat(BOB["id"])[-1].text == "Сумма: нужно целое число фишек больше нуля, а не «abc»."

    assert (await bot.press(CAT, table, "my cards"))["text"].startswith("Your cards: ")
    assert (await bot.press(CAT, table, "fold"))["text"] == "It's not your turn: waiting for ann."
    shown = api.messages[GROUP["id"], table.message_id]
    assert shown.text.startswith("Hold'em — hand #1 · blinds 10/20 · home-limit\n"), "the group keeps its language"
    assert {"Fold", "⏩ Check/fold"} <= {button["text"] for button in shown.buttons()}
    assert (await bot.press(ANN, table, "my cards"))["text"].startswith("Your cards: ")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_groups_language_chosen_mid_hand_redraws_the_table_message_and_its_buttons_at_once(
        make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.seat_three_and_deal()
    table = bot.table_message()
    await bot.command(ANN, "/lang ru")
    assert "Язык чата: русский (ru)." in [sent.text for sent in bot.group()]
    shown = api.messages[GROUP["id"], table.message_id]
    assert bot.table_message().message_id == table.message_id, "edited in place, not posted again"
    assert shown.text.startswith("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n")
    assert {"Пас", "⏩ Чек/пас", "⏩ Колл любой"} <= {button["text"] for button in shown.buttons()}
    assert (await bot.press(CAT, table, "пас"))["text"] == "Сейчас не ваш ход: ходит ann."
