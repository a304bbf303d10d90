"""A tournament night as the group sees it through Telegram."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.test_games import home_night_started, play_out


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_tournament_closed_between_hands_leaves_no_deal_button(make_bot, api) -> None:
    """Closed between hands, the tournament's table message showed the seats and "the next deal comes in a moment,
    or press Deal" with its button, and went on showing them after the results: it says the tournament is over."""
    bot = await home_night_started(make_bot, (ANN, BOB))
    await play_out(bot, bot.table_message())
    await bot.command(BOB, "/table")  # between hands: the seats, with a Deal button
    table = bot.table_message()
    assert table.text == ("Texas Hold'em — seats:\n"
                          "  ann — 310\n"
                          "  Bob Brown — 290\n"
                          "Hand #1: ann wins 20.\n"
                          "Between hands: the next deal comes in a moment, or press Deal.")
    assert [button["text"] for button in table.buttons()] == ["Deal"]

    await bot.command(ANN, "/tournament close")
    assert bot.group()[-1].text == ("ann finishes with 310 chips, worth 51.67.\n\n"
                                    "Bob Brown finishes with 290 chips, worth 48.33.\n\n"
                                    "🏆 The tournament is over. Winner: ann!\n"
                                    "Places: 1. ann · 2. Bob Brown\n\n"
                                    "Settlement (money units):\n"
                                    "ann: paid 50, cashed out 51.67, net +1.67\n"
                                    "Bob Brown: paid 50, cashed out 48.33, net −1.67\n"
                                    "Payments:\n"
                                    "Bob Brown → ann: 1.67")
    shown = api.messages[table.chat_id, table.message_id]
    assert shown.text == "The tournament is over: /tournament close shows its places and who pays whom."
    assert [sent.buttons() for sent in bot.group() if sent.buttons()] == []
