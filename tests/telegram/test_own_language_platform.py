"""Telegram: a player's private messages are in his client's language (`language_code`) even when another player
deals, unless he chose his own (`/lang en me`); the apology for a bug honours his own choice too."""

from __future__ import annotations

import logging

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running, private_chat

BOB_RU = {**BOB, "language_code": "ru"}
"""Bob, his Telegram in Russian, in a group Ann (English) opened."""


async def cards_told(bot: Running, *before: str) -> list[str]:
    """Bob opens his private chat, Ann, Bob and Cat sit down, Bob says `before`, and Ann deals: what Bob's private
    chat was told of his cards (checked against what "my cards" answers him, in the same language)."""
    await bot.command(BOB_RU, "/start", private_chat(BOB_RU))
    for user in (ANN, BOB_RU, CAT):
        await bot.command(user, "/join 200")
    for line in before:
        await bot.command(BOB_RU, line)
    await bot.command(ANN, "/deal")
    told = [sent.text for sent in bot.api.chat(BOB["id"]) if "карты: " in sent.text or "cards: " in sent.text]
    mine = await bot.press(BOB_RU, bot.table_message(), "my cards")
    assert told == [mine["text"]], "the deal told him what his own press shows him"
    return told


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_russian_client_dealt_by_an_english_player_gets_his_cards_in_russian(make_bot, api) -> None:
    bot = await make_bot("holdem")
    [told] = await cards_told(bot)
    assert told.startswith("Ваши карты: ") and len(told.removeprefix("Ваши карты: ").split()) == 2, told
    assert bot.table_message().text.startswith("Hold'em — hand #1 · blinds 10/20 · home-limit\n"), "the group's own"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_with_his_own_choice_he_gets_them_in_it(make_bot, api) -> None:
    bot = await make_bot("holdem")
    [told] = await cards_told(bot, "/lang en me")
    assert told.startswith("Your cards: ") and len(told.removeprefix("Your cards: ").split()) == 2, told


async def test_the_apology_for_a_bug_is_in_the_players_own_language(make_bot, api, caplog) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join")
    await bot.command(ANN, "/lang ru me")
    await bot.command(BOB_RU, "/lang en me")
    with caplog.at_level(logging.ERROR):
        await bot.command(ANN, "/pawn boom")
        assert bot.group()[-1].text == "Извините, что-то пошло не так; ничего не изменилось. Попробуйте ещё раз."
        await bot.command(BOB_RU, "/pawn boom")
        assert bot.group()[-1].text == "Sorry, something went wrong; nothing was changed. Please try again."
        await bot.command(CAT, "/pawn boom")  # no choice of his own, no client language: the group's
        assert bot.group()[-1].text == "Sorry, something went wrong; nothing was changed. Please try again."
