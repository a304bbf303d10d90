"""A forum group's topics, each its own table, end to end against the fake Bot API: what one topic's refusal (closed
by an administrator, pictures not allowed) does to it and to the others, and what comes back when it is reachable."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.fake_api import GROUP
from tests.telegram.test_games import play_out

TOPIC = 7


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_refused_picture_is_explained_in_the_topic_it_was_for(make_bot, api) -> None:
    """The group refuses pictures: the notice goes to the topic whose table's picture was refused, where its players
    read on, not to the group's General topic."""
    api.no_photos.add(GROUP["id"])
    bot = await make_bot("holdem", seed=11)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200", topic=TOPIC)
    await bot.command(ANN, "/deal", topic=TOPIC)
    table = [sent for sent in bot.group() if sent.topic == TOPIC and sent.buttons()][-1]
    await play_out(bot, table)
    assert len(api.calls("sendPhoto")) == 1
    notices = [sent for sent in bot.group() if "I may not send pictures" in sent.text]
    assert [sent.topic for sent in notices] == [TOPIC]
