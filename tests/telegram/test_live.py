"""Busy real-life situations at Telegram's pace, end to end against the fake Bot API: a group that refused the bot
and took it back, and what its players see then."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.fake_api import GROUP


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_takes_the_bot_back_is_shown_the_round_its_refusal_lost(make_bot, api) -> None:
    """The bot was kicked as it posted a new round's table message (Telegram refused it 403, and so dropped what was
    queued for the group) and later added back: the group is shown the round in play, with its buttons, not the
    old round's message alone (whose buttons no longer act) until the turn times out."""
    bot = await make_bot("duel")
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    first = bot.table_message()
    await bot.press(ANN, first, "Check")
    await bot.press(BOB, bot.table_message(), "Check")
    api.fail("sendMessage", 403, "Forbidden: bot was kicked from the supergroup chat")
    await bot.command(ANN, "/deal")  # round 2: its text and table message are refused, the group pauses
    assert bot.service.is_paused("tg:-100500:0")
    assert not any("Round 2" in sent.text for sent in bot.group())

    await bot.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    await bot.adapter.flush()
    table = bot.table_message()
    assert "Round 2" in table.text and "To act: ann" in table.text, table.text
    answer = await bot.press(ANN, table, "Check")
    assert "text" not in answer, answer
