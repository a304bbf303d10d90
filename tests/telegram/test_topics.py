"""A forum group's topics, each its own table, end to end against the fake Bot API: what one topic's refusal (closed
by an administrator, pictures not allowed) does to it and to the others, and what comes back when it is reachable."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.pauses import paused_tables
from bot.telegram.render import place_of
from tests.bot.test_shared_database import stop_watching
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, Running
from tests.telegram.fake_api import BOT, GROUP, FakeBotApi
from tests.telegram.test_games import play_out

TOPIC = 7
A, B = 7, 9
"""Two forum topics of the group, each with its table."""


def table_of(topic: int) -> str:
    return place_of(GROUP["id"], topic).table_id


async def round_with_a_clock(bot: Running, topic: int) -> None:
    """Ann and Bob play a round in the topic, and Ann starts the clock (it announces a level in 300 s)."""
    for user in (ANN, BOB):
        await bot.command(user, "/join", topic=topic)
    await bot.command(ANN, "/deal", topic=topic)
    await bot.command(ANN, "/clock", topic=topic)


async def two_topics_b_closed(bot: Running) -> None:
    """A round with a clock in topics A and B; an administrator closes B, whose clock's announcement 300 s later is
    refused: B's table pauses, A's plays on."""
    for topic in (A, B):
        await round_with_a_clock(bot, topic)
    bot.api.closed_topics.add((GROUP["id"], B))
    await bot.fire_timers(300)
    assert bot.service.is_paused(table_of(B)) and not bot.service.is_paused(table_of(A))


async def reopen(bot: Running, topic: int) -> None:
    """An administrator reopens a closed topic (Telegram says so there, in a service message)."""
    bot.api.closed_topics.discard((GROUP["id"], topic))
    await bot.handled(await bot.api.push(bot.api.service_update(GROUP, ANN, message_thread_id=topic,
                                                                is_topic_message=True, forum_topic_reopened={})))
    await bot.adapter.flush()


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


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_reopened_topic_resumes_its_own_table_not_another_closed_one(make_bot, api) -> None:
    """Both topics are closed and their tables paused: reopening one says nothing of the other, whose players still
    cannot post (its table would time them out, hand after hand), even after a restart."""
    bot = await make_bot("duel")
    for topic in (A, B):
        await round_with_a_clock(bot, topic)
    api.closed_topics |= {(GROUP["id"], A), (GROUP["id"], B)}
    await bot.fire_timers(300)  # each clock's announcement is refused in its closed topic
    assert bot.service.is_paused(table_of(A)) and bot.service.is_paused(table_of(B))
    await bot.stop()
    bot = await make_bot("duel")
    await reopen(bot, A)
    assert not bot.service.is_paused(table_of(A))
    assert bot.service.is_paused(table_of(B))
    await reopen(bot, B)
    assert not bot.service.is_paused(table_of(B))


def in_topic(api: FakeBotApi, topic: int, since: int) -> list[tuple[str, str]]:
    """The requests the bot made into a forum topic of the group since the `since`-th: method and text."""
    return [(call.method, call.params.get("text", "")) for call in api.requests[since:]
            if call.params.get("message_thread_id") == str(topic)]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_takes_the_bot_back_resumes_what_its_loss_paused_not_a_closed_topic(make_bot,
                                                                                               api) -> None:
    """Topic B is closed (its table paused), then the bot is removed from the group (A's table pauses too): added
    back, A plays on; B's table stays paused, nothing tried in its topic (a post there would only be refused, and its
    table would play on for a moment first), until B is reopened: then B reads its dropped announcement, once."""
    bot = await make_bot("duel")
    await two_topics_b_closed(bot)
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ANN)))
    assert bot.service.is_paused(table_of(A))
    resumed: list[list[str]] = []
    resume = bot.service.resume

    async def noted(table_ids: list[str]) -> dict[str, list[str]]:
        lifted = await resume(table_ids)
        resumed.append(sorted(lifted))
        return lifted

    bot.service.resume = noted  # type: ignore[method-assign]
    added = len(api.requests)

    await bot.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    await bot.adapter.flush()
    assert not bot.service.is_paused(table_of(A))
    assert bot.service.is_paused(table_of(B))
    assert resumed == [[table_of(A)]]
    assert in_topic(api, B, added) == []

    await reopen(bot, B)
    assert not bot.service.is_paused(table_of(B))
    assert resumed == [[table_of(A)], [table_of(B)]]
    assert in_topic(api, B, added) == [("sendMessage", "Level 2 in 5 minutes: blinds 20/40.")]
    assert [sent.topic for sent in bot.group() if "Level 2 in 5 minutes" in sent.text] == [A, B]


async def kicked_as_round_2_is_dealt(bot: Running, api: FakeBotApi) -> None:
    """Ann and Bob play round 1 in the group's General topic; the bot is kicked as it says round 2 is dealt
    (Telegram refuses that line 403, and so the round's table message queued after it is dropped): the table
    pauses, the line kept for when the group takes the bot back."""
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    await bot.press(ANN, bot.table_message(), "Check")
    await bot.press(BOB, bot.table_message(), "Check")
    api.fail("sendMessage", 403, "Forbidden: bot was kicked from the supergroup chat")
    await bot.command(ANN, "/deal")
    assert bot.service.is_paused(table_of(0))
    assert not any("Round 2" in sent.text for sent in bot.group())


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_takes_the_bot_back_reads_what_its_refusal_dropped_before_the_table(make_bot,
                                                                                               api) -> None:
    """The bot was kicked as it said a new round was dealt (`kicked_as_round_2_is_dealt`): added back, the group
    reads that line, then the round's table message."""
    bot = await make_bot("duel")
    await kicked_as_round_2_is_dealt(bot, api)

    await bot.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    await bot.adapter.flush()
    texts = [sent.text for sent in bot.group()]
    dealt = [index for index, text in enumerate(texts) if text.startswith("Round 2 dealt.")]
    table = [index for index, text in enumerate(texts) if text.startswith("Round 2\n")]
    assert len(dealt) == 1 and len(table) == 1 and dealt[0] < table[0], texts


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_reopened_topic_reads_the_announcement_its_closing_dropped(make_bot, api) -> None:
    """The clock's announcement was refused in the closed topic: it is posted there once the topic is reopened."""
    bot = await make_bot("duel")
    await round_with_a_clock(bot, B)
    api.closed_topics.add((GROUP["id"], B))
    await bot.fire_timers(300)
    assert bot.service.is_paused(table_of(B))
    announcement = "Level 2 in 5 minutes: blinds 20/40."
    assert not any(announcement in sent.text for sent in bot.group())
    await reopen(bot, B)
    assert [sent.topic for sent in bot.group() if announcement in sent.text] == [B]


async def say(bot: Running, topic: int, **fields: object) -> None:
    """Something the bot hears in a forum topic of the group (a service message: no command, no table asked for)."""
    await bot.handled(await bot.api.push(bot.api.service_update(GROUP, ANN, message_thread_id=topic,
                                                                is_topic_message=True, **fields)))
    await bot.adapter.flush()


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_message_in_a_topic_without_a_paused_table_resumes_what_the_groups_loss_paused(make_bot,
                                                                                             api) -> None:
    """Topic B is closed, then the group refuses the bot a post in A (403: the membership update never came), so A
    pauses too. A new topic C, which has no table, is created: hearing of it proves the group reachable, so A plays
    on (and is shown again); B still waits for its own topic."""
    bot = await make_bot("duel")
    await two_topics_b_closed(bot)
    api.fail("sendMessage", 403, "Forbidden: bot was kicked from the supergroup chat")
    await bot.command(ANN, "/table", topic=A)
    assert bot.service.is_paused(table_of(A))
    shown = len(api.calls("sendMessage"))

    await say(bot, 11, forum_topic_created={"name": "Chat", "icon_color": 7322096})
    assert not bot.service.is_paused(table_of(A))
    assert bot.service.is_paused(table_of(B))
    assert [call.get("message_thread_id") for call in api.calls("sendMessage")[shown:]] == [str(A)]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_news_of_the_bots_own_removal_does_not_resume_the_group(make_bot, api) -> None:
    """Telegram tells a group the bot was removed in a service message the bot may hear too: that message comes from
    the group, but says the bot is out of it, so its table stays paused."""
    bot = await make_bot("duel")
    await round_with_a_clock(bot, 0)
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ANN)))
    assert bot.service.is_paused(table_of(0))
    await bot.handled(await api.push(api.service_update(GROUP, ANN, left_chat_member=BOT)))
    assert bot.service.is_paused(table_of(0))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_topic_reopened_while_the_bot_was_out_plays_on_once_heard_from(make_bot, api) -> None:
    """Topic B is closed (its clock's announcement refused), then the bot is removed from the group; an administrator
    reopens B meanwhile, which Telegram tells only the group's members. Added back, the bot cannot know B is open
    (only a refused post would say it is not): A plays on, B waits, nothing tried there. A message in B says it is
    open: B plays on and reads the announcement its closing dropped."""
    bot = await make_bot("duel")
    await two_topics_b_closed(bot)
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ANN)))
    api.closed_topics.discard((GROUP["id"], B))  # reopened while the bot was out: no update comes
    added = len(api.requests)

    await bot.handled(await api.push(api.member_update(GROUP, "member", ANN)))
    await bot.adapter.flush()
    assert not bot.service.is_paused(table_of(A)) and bot.service.is_paused(table_of(B))
    assert in_topic(api, B, added) == []

    await say(bot, B, text="Reopened, play on!")
    assert not bot.service.is_paused(table_of(B))
    assert in_topic(api, B, added) == [("sendMessage", "Level 2 in 5 minutes: blinds 20/40.")]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_news_of_a_topics_closing_heard_late_does_not_resume_its_table(make_bot, api) -> None:
    """Telegram tells a topic it was closed in a service message there, which the bot may hear only after its post
    was refused (updates come late): that message comes from the topic but says it refuses the bot, so its table
    stays paused and nothing is tried there."""
    bot = await make_bot("duel")
    await two_topics_b_closed(bot)
    tried = len(api.calls("sendMessage"))

    await say(bot, B, forum_topic_closed={})
    assert bot.service.is_paused(table_of(B))
    assert [call for call in api.calls("sendMessage")[tried:] if call.get("message_thread_id") == str(B)] == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_press_in_a_closed_topic_does_not_resume_its_table(make_bot, api) -> None:
    """A press on a button says the group has the bot (`test_a_press_on_a_paused_tables_button_resumes_it_as_a_message
    _does`), not that the topic is open again: buttons work in a closed topic, where posts are refused. Its table
    stays paused and nothing is tried there."""
    bot = await make_bot("duel")
    await two_topics_b_closed(bot)
    tried = len(api.calls("sendMessage"))
    table = [sent for sent in bot.group() if sent.topic == B and sent.buttons()][-1]
    await bot.press_data(ANN, table, table.buttons()[0]["callback_data"])
    assert bot.service.is_paused(table_of(B))
    assert [call for call in api.calls("sendMessage")[tried:] if call.get("message_thread_id") == str(B)] == []


async def learn_the_pauses(bot: Running, *paused: str) -> None:
    """The process's watch (`Service.watch_timers`) reads the pauses other processes made until it knows `paused`."""
    watching = asyncio.create_task(bot.service.watch_timers(every=0.01))
    try:
        async with asyncio.timeout(5):
            while not all(bot.service.is_paused(table_id) for table_id in paused):
                await asyncio.sleep(0.01)
    finally:
        await stop_watching(watching)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_topic_one_process_found_closed_is_not_resumed_by_another(two_processes, api) -> None:
    """Two processes on one database: `one` plays the rounds of topics A and B and finds B closed (its clock's
    announcement refused: B's table pauses). `two`, started before, learns the pause from its watch, then hears from
    the group for the first time (a command in A): the group has the bot, but B is still closed, so `two` leaves B's
    table paused and tries nothing there; Telegram refused the bot once in B, not once more for each process."""
    one, two = await two_processes("duel")
    await two_topics_b_closed(one)  # the refusal: B's clock's announcement
    refused = len(api.requests)
    await learn_the_pauses(two, table_of(B))
    await two.command(ANN, "/table", topic=A)
    assert (one.service.is_paused(table_of(B)), two.service.is_paused(table_of(B))) == (True, True)
    assert in_topic(api, B, refused) == []


async def paused_by_one(api: FakeBotApi, one: Running, two: Running, *, heard_first: bool,
                        heard_again: bool = True) -> None:
    """A round with a clock through `one` in the group's General topic (`heard_first`: Bob asks `two` for the
    table, so `two` has heard from the group); a second later `one` is told the bot was removed from the group and
    pauses the table; a second later still (`heard_again`), the bot added back, Bob asks `two` for the table again:
    the group has the bot. `two`'s watch has not looked since the pause."""
    await round_with_a_clock(one, 0)
    if heard_first:
        await two.command(BOB, "/table")
    one.clock.advance(1)
    await one.handled(await one.deliver(api.member_update(GROUP, "kicked", ANN)))
    assert one.service.is_paused(table_of(0)) and not two.service.is_paused(table_of(0))
    one.clock.advance(1)
    if heard_again:
        await two.command(BOB, "/table")


async def stored_pauses(bot: Running) -> list[str]:
    """The paused tables the database holds."""
    return sorted(await bot.store.read(paused_tables))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_heard_from_by_a_process_yet_to_learn_its_pause_plays_on(two_processes, api) -> None:
    """`one` pauses the group's table (the bot removed); `two`, which has not heard from the group since its start,
    hears from it before its watch tells it of the pause: the group has the bot, so the table the database holds
    paused plays on at once (it used to resume only the tables `two` knew paused: none)."""
    one, two = await two_processes("duel")
    await paused_by_one(api, one, two, heard_first=False)
    assert await stored_pauses(two) == []


@pytest.mark.parametrize("heard_again", [True, False], ids=["heard from after the pause", "not since"])
@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_heard_from_before_its_pause_was_learned_plays_on_once_it_is(two_processes, api,
                                                                                   heard_again: bool) -> None:
    """`two` has heard from the group already when `one` pauses its table; Bob asks `two` for the table a second
    after the pause, before `two`'s watch tells it of the pause: that says nothing to `two` then, but once its watch
    learns the pause, the group was heard from since the pause began, so `two` lets the table play on (it used to
    stay paused until the group was heard from again, maybe long after). Heard from only before the pause, the
    table stays paused."""
    one, two = await two_processes("duel")
    await paused_by_one(api, one, two, heard_first=True, heard_again=heard_again)
    assert await stored_pauses(two) == [table_of(0)]
    watching = asyncio.create_task(two.service.watch_timers(every=0.01))
    try:
        async with asyncio.timeout(5):
            while not two.service.is_paused(table_of(0)) and await stored_pauses(two):
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # many looks: a resume they start is done
    finally:
        await stop_watching(watching)
    assert await stored_pauses(two) == ([] if heard_again else [table_of(0)])
