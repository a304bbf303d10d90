"""Busy real-life situations at Telegram's pace, end to end against the fake Bot API: a group that refused the bot
and took it back, a forum topic closed under a table in play."""

from __future__ import annotations

import pytest

from bot.telegram.render import place_of
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.fake_api import GROUP
from tests.telegram.test_delivery import hand_of_or_none
from tests.telegram.test_games import to_act

CLOSED, OPEN = 7, 9
"""Two forum topics of the group, each with its table."""


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


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_closed_forum_topic_pauses_its_table_alone_until_it_is_reopened(make_bot, api) -> None:
    """An administrator closes the topic of one table: the bot may no longer post there (its edits still go), so the
    table waits as it is, rather than dealing hands and timing out players who can see none of them; the table in
    the group's other topic plays on, and the closed one plays on once the topic is reopened."""
    bot = await make_bot("holdem", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200", topic=CLOSED)
        await bot.command(user, "/join 200", topic=OPEN)
    await bot.command(ANN, "/deal", topic=CLOSED)
    table = [sent for sent in bot.group() if sent.topic == CLOSED and sent.buttons()][-1]
    api.closed_topics.add((GROUP["id"], CLOSED))
    player = to_act(table)
    assert player is not None
    await bot.press(player, table, "Fold")  # the hand ends (its result is shown by an edit)
    await bot.fire_timers(10)  # the next hand is dealt, and its message may not be posted in the closed topic
    closed = place_of(GROUP["id"], CLOSED).table_id
    assert bot.service.is_paused(closed)
    waiting = await hand_of_or_none(bot, closed)
    assert waiting is not None and waiting.hand_number == 2
    await bot.fire_timers(3600)  # an hour: its turns would have timed out, hand after hand
    assert (await hand_of_or_none(bot, closed)).to_dict() == waiting.to_dict()  # type: ignore[union-attr]
    assert not bot.service.is_paused(place_of(GROUP["id"], OPEN).table_id)  # the other topic's table plays on:
    assert any("hand #1" in sent.text for sent in bot.group() if sent.topic == OPEN)  # its first hand, dealt since

    api.closed_topics.clear()
    await bot.handled(await api.push(api.service_update(GROUP, ANN, message_thread_id=CLOSED, is_topic_message=True,
                                                        forum_topic_reopened={})))
    await bot.adapter.flush()
    assert not bot.service.is_paused(closed)
    shown = [sent for sent in bot.group() if sent.topic == CLOSED and sent.buttons()][-1]
    assert "hand #2" in shown.text and to_act(shown) is not None, shown.text
