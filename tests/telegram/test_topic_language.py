"""The chat's `/lang` typed in one forum topic reaches the group's other topics: each table in play there has its
table message edited into the new language, the story of its hand included."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

import pytest

from bot import commands as cmd
from bot.output import Actor, Place, Reply
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, Running
from tests.telegram.fake_api import GROUP, Sent
from tests.telegram.test_topics import A, B, in_topic, table_of

RUSSIAN_RAISE = ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                 "Борд: — · Банк: 60\n"
                 "  ann · 160 Ⓓ ставка 40\n"
                 "▶ Bob Brown · 180 ставка 20\n"
                 "\n"
                 "Раздача №1: баттон — ann, блайнды 10/20. Карты розданы — нажмите «Мои карты», чтобы посмотреть "
                 "свои.\n"
                 "ann ставит малый блайнд 10.\n"
                 "Bob Brown ставит большой блайнд 20.\n"
                 "ann: рейз до 40.\n"
                 "▶ Ход: Bob Brown, для колла 20 (⏱ 60\xa0с).\n"
                 "\n"
                 "🂠 Ваши карты видите только вы: нажмите «Мои карты». Bob Brown, ann: откройте со мной личный чат и "
                 "отправьте /start, чтобы получать их и там.")


def table_in(bot: Running, topic: int) -> Sent:
    """The newest message with buttons in a forum topic of the group: its table message."""
    return [sent for sent in bot.group() if sent.topic == topic and sent.buttons()][-1]


async def raised_in_b(bot: Running) -> Sent:
    """Ann and Bob at a table in each of topics A and B, a hand dealt at each; in B Ann raised to 40. B's table."""
    for topic in (A, B):
        for user in (ANN, BOB):
            await bot.command(user, "/join 200", topic=topic)
        await bot.command(ANN, "/deal", topic=topic)
    await bot.press(ANN, table_in(bot, B), "Raise")
    return table_in(bot, B)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_lang_in_one_topic_shows_the_hand_of_another_topic_in_the_new_language(make_bot) -> None:
    bot = await make_bot("holdem", seed=11)
    before = await raised_in_b(bot)
    assert before.text.startswith("Hold'em — hand #1 · blinds 10/20 · home-limit\n")
    await bot.command(ANN, "/lang ru", topic=A)
    shown = table_in(bot, B)
    assert shown.message_id == before.message_id  # edited where it is, not posted anew
    assert shown.text == RUSSIAN_RAISE
    assert [button["text"] for button in shown.buttons()] == ["Пас", "Колл 20", "Рейз до 60", "⏩ Чек/пас",
                                                              "⏩ Колл любой", "🂠 Мои карты"]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_lang_leaves_the_table_of_a_topic_the_bot_lost_as_it_is(make_bot, api) -> None:
    """Topic B was closed (its `/table` refused there, its table paused): the chat's `/lang` in A tries nothing there,
    where it would only be refused."""
    bot = await make_bot("holdem", seed=11)
    before = await raised_in_b(bot)
    api.closed_topics.add((GROUP["id"], B))
    await bot.command(ANN, "/table", topic=B)
    assert bot.service.is_paused(table_of(B))
    since = len(api.requests)
    asked: list[str] = []
    execute = bot.service.execute

    def noted(place: Place, actor: Actor, command: cmd.Command) -> Coroutine[Any, Any, Reply]:
        asked.append(place.table_id)
        return execute(place, actor, command)

    bot.service.execute = noted  # type: ignore[method-assign]
    await bot.command(ANN, "/lang ru", topic=A)
    assert table_of(B) not in asked  # its table is not even read
    assert in_topic(api, B, since) == []
    assert table_in(bot, B).text == before.text
    assert table_in(bot, A).text.startswith("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n")
