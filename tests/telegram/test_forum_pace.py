"""A forum's topics, each a table, sharing their group's 20 requests a minute: one topic's hand ending leaves the
spacing while another topic plays, a ready edit of one topic goes while another topic's waits for a newer state, and
three topics playing at once are each shown in turn, never starved, without a 429; a table paused (its topic closed,
the bot out of the group) or moved to a supergroup's id marks the group as playing only while its hand has someone
to act."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.output import TableMessage
from bot.telegram.budget import Limits
from bot.telegram.ops import ChatQueue, PhotoOp, TableOp
from bot.telegram.render import place_of
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running
from tests.telegram.fake_api import GROUP, LIMITED, Request, Sent
from tests.telegram.test_games import PREFERENCE, command_of, to_act

CHAT = GROUP["id"]
TOPICS = (7, 9, 11)
LIMITS = Limits()
STEP = LIMITS.group[1] / (LIMITS.group[0] - LIMITS.group_burst + 1)
"""Seconds between a busy group's requests once its first few went back to back: its 20 a minute, spread evenly."""
SHOWN_AFTER = 2 * (len(TOPICS) - 1) + 1
"""How many of the group's requests may go between a topic's new state being queued and shown: the topics are served
in turn, so ahead of it wait at most one state and one notice (the picture ending a hand) of each other topic, and
one request may be on its way already. At 20 a minute, spread: within `SHOWN_AFTER * STEP` seconds and the `hold`
a state that found the budget spent may wait for a newer one (about 19 s)."""
ENDED_AFTER = SHOWN_AFTER + 1
"""The state ending a hand goes after its own picture too."""
WAIT_LIMIT = 30.0
"""Seconds of the test's clock after which a wait for the bot is a failure, not a hang (no bound on its speed)."""


def table_of(topic: int) -> str:
    return place_of(CHAT, topic).table_id


def state(topic: int, to_act: str | None, text: str = "Ann calls") -> TableOp:
    return TableOp(table_of(topic), CHAT, topic, TableMessage(f"h{topic}", text, (), to_act), "en")


def spent_queue() -> ChatQueue:
    """The group's queue just after its first three requests went back to back at 0 s: its budget spent until
    `STEP`; every table state edits a message already posted."""
    window = LIMITS.window(CHAT)
    for _ in range(LIMITS.group_burst):
        window.start()
        window.finish(0.0)
    return ChatQueue(CHAT, window, hold=LIMITS.hold, notice_wait=LIMITS.notice_wait, is_edit=lambda op: True)


def test_one_topics_ended_hand_keeps_the_groups_spacing_while_another_topic_plays() -> None:
    """Topic 7's hand plays (its state was just sent); topic 9's ends: the group still shares its budget with the
    actions coming in 7, so 9's end and picture wait their step. Once 7's hand ends too, nothing is coming: what
    waits goes as soon as the minute's count allows."""
    queue = spent_queue()
    queue.add_table(state(7, "tg:101"), now=0.0)
    queue.take(0.0)
    queue.add_table(state(9, None, "Bob wins 40"), now=0.5)
    queue.add(PhotoOp(CHAT, 9, b"png", "Bob wins"), now=0.5)
    assert not queue.settled
    assert queue.ready_in(0.5) == STEP - 0.5, "topic 7 plays on: the spacing stays"
    queue.add_table(state(7, None, "Ann wins 20"), now=1.0)
    assert queue.settled
    assert queue.ready_in(1.0) == 0, "no table of the group plays: the count alone binds"


def test_a_ready_edit_of_another_topic_goes_while_the_first_waits_for_a_newer_state() -> None:
    """Topic 7's state found the budget spent at 1 s: when the budget frees (`STEP`) it waits, until 3.5 s, for a
    newer state to carry with it. Topic 9's state, queued after it with the budget free, goes meanwhile; then 7's."""
    queue = spent_queue()
    queue.add_table(state(7, "tg:102"), now=1.0)
    assert queue.ready_in(1.0) > 0
    now = STEP + 0.1
    assert queue.ready_in(now) == 1.0 + LIMITS.hold - now, "nothing else: 7's state waits for a newer one"
    queue.add_table(state(9, "tg:101"), now=now)
    assert queue.ready_in(now) == 0
    assert queue.take(now).topic == 9  # type: ignore[union-attr]
    assert queue.take(1.0 + LIMITS.hold).topic == 7  # type: ignore[union-attr]


def group_requests(api: Any, since: int = 0, until: int | None = None) -> list[Request]:
    """The group's requests that count toward its 20 a minute, among those the fake received (from `since`, before
    `until`)."""
    return [call for call in api.requests[since:until]
            if call.method in LIMITED and call.params.get("chat_id") == str(CHAT)]


def edits_of(api: Any, message_id: int, since: int = 0) -> list[int]:
    """Which of the requests the fake received (from `since`) edited the table message."""
    return [index for index, call in enumerate(api.requests) if index >= since and call.method == "editMessageText"
            and call.params.get("message_id") == str(message_id)]


async def wait_for(condition: Any, what: str) -> None:
    """Wait for the bot to do something (no bound on how fast: a loaded machine is slow), failing rather than
    hanging if it never does."""
    try:
        async with asyncio.timeout(WAIT_LIMIT):
            while not condition():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


async def tables_dealt(bot: Running, topics: tuple[int, ...]) -> dict[int, int]:
    """Ann and Bob sit down in each topic and Ann deals; returns each topic's table message."""
    for topic in topics:
        for user in (ANN, BOB):
            await bot.command(user, "/join 200", topic=topic)
        await bot.command(ANN, "/deal", topic=topic)
    await bot.adapter.flush(retired=True)
    return {topic: [sent for sent in bot.group() if sent.topic == topic and sent.buttons()][-1].message_id
            for topic in topics}


async def press(bot: Running, message: Sent, word: str) -> None:
    """Whoever the table message says must act presses the first of its buttons `word` names (`PREFERENCE`)."""
    user = to_act(message)
    assert user is not None
    buttons = [button for button in message.buttons() if command_of(button) != "cards"]
    button = next(button for word in (word, *PREFERENCE) for button in buttons if command_of(button).split()[0] == word)
    update, _ = bot.api.press_update(user, message, button["callback_data"])
    await bot.handled(await bot.api.push(update))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_with_the_fake_a_topics_ended_hand_is_shown_while_another_topics_state_waits(make_bot, api) -> None:
    """Topic 7's state is refused 429 (the group waits 1 s); 9's hand ends by a fold meanwhile. When the group may
    send again, 7's state still waits for a newer one (a hold of 2 s of the test's clock here, so that no load on the
    machine ends it first): 9's end goes then, 7's after it, not 9's behind 7's whole hold."""
    bot = await make_bot("holdem", seed=11)
    bot.adapter.outbox.limits = dataclasses.replace(bot.adapter.outbox.limits, hold=2.0 * WHOLE_HANDS)
    tables = await tables_dealt(bot, (7, 9))
    since = len(api.requests)
    api.fail("editMessageText", 429, "Too Many Requests: retry after 1", retry_after=1)
    await press(bot, api.messages[CHAT, tables[7]], "call")
    await wait_for(lambda: edits_of(api, tables[7], since), "topic 7's state sent")
    await press(bot, api.messages[CHAT, tables[9]], "fold")
    await wait_for(lambda: len(edits_of(api, tables[7], since)) == 2, "topic 7's state sent again")
    nine, seven = edits_of(api, tables[9], since), edits_of(api, tables[7], since)
    assert nine and nine[-1] < seven[1], "topic 9's end went while 7's state waited"
    assert to_act(api.messages[CHAT, tables[9]]) is None and to_act(api.messages[CHAT, tables[7]]) is not None


async def play_on_sight(bot: Running, topic: int, message_id: int) -> list[int]:
    """The topic's players act as soon as the table message says it is their turn, until the hand ends; returns,
    for each action, how many of the group's requests went between its state being queued and shown."""
    api = bot.api
    between = []
    while to_act(current := api.messages[CHAT, message_id]) is not None:
        before, text = len(api.requests), current.text
        await press(bot, current, "call")
        queued = len(api.requests)  # (its state may be on its way already: then none went before it)
        await wait_for(lambda: api.messages[CHAT, message_id].text != text, f"topic {topic} shown")  # noqa: B023
        between.append(len(group_requests(api, queued, edits_of(api, message_id, before)[0])))
    return between


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_three_topics_playing_at_once_are_each_shown_in_turn_within_the_groups_budget(make_bot, api) -> None:
    """Three topics' players act the moment their table shows their turn, all at once: no request is refused 429 (the
    `api` fixture fails the test on one), each topic's new state is shown after at most `SHOWN_AFTER` of the group's
    requests (`ENDED_AFTER` for the hand's end), and each hand ends with its picture, then the table's end."""
    bot = await make_bot("holdem", seed=11)
    tables = await tables_dealt(bot, TOPICS)
    since = len(api.requests)
    async with asyncio.timeout(3 * WAIT_LIMIT):
        waits = await asyncio.gather(*(play_on_sight(bot, topic, tables[topic]) for topic in TOPICS))
        await bot.adapter.flush()
    for topic, between in zip(TOPICS, waits, strict=True):
        assert len(between) >= 4, "a hand of several actions"
        assert max(between[:-1]) <= SHOWN_AFTER and between[-1] <= ENDED_AFTER, (topic, between)
        thread, message = str(topic), str(tables[topic])
        shown = [call.method for call in group_requests(api, since)
                 if call.params.get("message_thread_id") == thread or call.params.get("message_id") == message]
        assert shown[-2:] == ["sendPhoto", "editMessageText"], "the picture, then the table's end"
        assert api.messages[CHAT, tables[topic]].text.endswith("The hand is over.")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_topic_closed_mid_hand_no_longer_keeps_the_group_spaced(make_bot, api) -> None:
    """An administrator closes topic 9 in the middle of its hand: the bot's next post there ("Cat sits down") is
    refused and 9's table pauses, its hand waiting as it is. Nobody acts there meanwhile, so once topic 7's hand ends
    no table of the group has anyone to act: what the group is sent next goes as soon as the minute's count allows,
    not spread as while 9 played."""
    bot = await make_bot("holdem", seed=11)
    tables = await tables_dealt(bot, (7, 9))
    api.closed_topics.add((CHAT, 9))
    await bot.command(CAT, "/join 200", topic=9)
    assert bot.service.is_paused(table_of(9))
    await play_on_sight(bot, 7, tables[7])
    queue = bot.adapter.outbox._chats[CHAT]
    assert queue.playing == {table_of(7): False}
    assert queue.settled


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_removed_the_bot_mid_hand_keeps_no_table_marked_as_playing(make_bot, api) -> None:
    """The bot is removed from the group while both topics' hands are in play: both tables pause, their hands waiting
    as they are, and neither is marked as having someone to act any more."""
    bot = await make_bot("holdem", seed=11)
    await tables_dealt(bot, (7, 9))
    assert bot.adapter.outbox._chats[CHAT].playing == {table_of(7): True, table_of(9): True}
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ANN)))
    assert bot.service.is_paused(table_of(7)) and bot.service.is_paused(table_of(9))
    assert bot.adapter.outbox._chats[CHAT].playing == {}


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_upgraded_mid_hand_keeps_its_spacing_under_the_supergroups_id(make_bot, api) -> None:
    """A group becomes a supergroup while its hand is in play: the table posted anew (`/table`) is refused for the
    old id and goes to the new one, whose queue knows the table has someone to act, so it spaces the group's requests
    as the old one did rather than sending unspaced until the table's next state."""
    old, new = {"id": -4005, "type": "group", "title": "Poker night"}, -1004005
    bot = await make_bot("holdem", seed=3)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200", old)
    await bot.command(ANN, "/deal", old)
    api.migrated[old["id"]] = new
    await bot.command(ANN, "/table", old)
    assert [sent.chat_id for sent in api.chat(new) if sent.buttons()] == [new]
    queue = bot.adapter.outbox._chats[new]
    assert queue.playing == {place_of(new, None).table_id: True}
    assert not queue.settled
