"""Hand histories through Telegram: `/history` privately, `/history tournament` as a document in the private chat."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.fake_api import GROUP
from tests.telegram.test_games import home_night_started, play_out


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_history_and_the_tournament_file_go_to_the_private_chat(make_bot, api) -> None:
    bot = await home_night_started(make_bot, (ANN, BOB), private=(BOB,))
    await play_out(bot, bot.table_message())

    await bot.command(BOB, "/history")
    texts = [sent.text for sent in api.chat(BOB["id"])]
    header = "PokerStars Hand #1: Tournament #1, 50+0 Hold'em Limit - Level I (10/20)"  # a tournament's hand
    assert any(text.startswith(header) for text in texts)
    assert not any("PokerStars" in text for text in bot.group_texts())

    await bot.command(BOB, "/history tournament")
    ((chat_id, name, content),) = api.documents
    assert chat_id == BOB["id"] and name == "tournament-1.txt"
    assert content.decode().startswith("PokerStars Hand #1: ") and "Dealt to Bob Brown [" in content.decode()
    assert all(chat != GROUP["id"] for chat, _, _ in api.documents)
