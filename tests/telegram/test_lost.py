"""What a paused table keeps of the texts Telegram dropped for it (its last few public ones, kept by the service in
the database) and who posts them: the process that lets the table play on, after a restart or in another process."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.ops import DocumentOp, PhotoOp, TextOp, public_texts
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS
from tests.telegram.fake_api import GROUP
from tests.telegram.test_topics import kicked_as_round_2_is_dealt, table_of


def test_only_public_texts_are_kept_of_what_was_dropped() -> None:
    dropped = [
        TextOp(-100500, 7, "Bob wins 40"),
        TextOp(-100500, 7, "Your cards: As Kd", private_to=102),
        PhotoOp(-100500, 7, b"png", "Hand #1 · showdown", text="Showdown — Bob wins 40"),
        PhotoOp(101, None, b"png", "Your cards", private_to=101, text="Your cards: As Kd"),
        DocumentOp(-100500, 7, "history.csv", b"1"),
    ]
    assert [op.text for op in public_texts(dropped)] == ["Bob wins 40", "Showdown — Bob wins 40"]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_group_that_takes_the_bot_back_after_a_restart_reads_what_its_refusal_dropped_once(make_bot,
                                                                                                  api) -> None:
    """The bot is kicked as it says round 2 is dealt, and restarts while out of the group: added back, the group
    reads that line, then the round's table message (the line was kept in memory only, and lost by the restart).
    Kicked and added back once more, the group reads nothing new (its table message is the round's): the line was
    posted once."""
    bot = await make_bot("duel")
    await kicked_as_round_2_is_dealt(bot, api)
    await bot.stop()
    again = await make_bot("duel")
    before = len(again.group())

    for status in ("member", "kicked", "member"):
        await again.handled(await api.push(api.member_update(GROUP, status, ANN)))
        await again.adapter.flush()
    said = [sent.text.split("\n")[0] for sent in again.group()[before:]]
    assert said == ["Round 2 dealt.", "Round 2"], said


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_process_that_lets_the_group_play_on_posts_what_the_other_kept_once(two_processes, api) -> None:
    """Two processes on one database: `one` is refused as it says round 2 is dealt (the bot kicked), pauses the
    table and keeps the line. The group is heard from by `two` first (Bob's message): `two` lets the table play on
    and posts the line, then the round's table message; heard from by `one` next, `one` finds the table playing and
    posts nothing (it kept the line in its memory, and used to post it again, or only it, whoever resumed)."""
    one, two = await two_processes("duel")
    await kicked_as_round_2_is_dealt(one, api)
    before = len(one.group())

    await two.handled(await two.deliver(api.service_update(GROUP, BOB, text="Back!")))
    await two.adapter.flush()
    await one.handled(await one.deliver(api.service_update(GROUP, ANN, text="Let's go")))
    await one.adapter.flush()
    said = [sent.text.split("\n")[0] for sent in one.group()[before:]]
    assert said == ["Round 2 dealt.", "Round 2"], said
    assert not (one.service.is_paused(table_of(0)) or two.service.is_paused(table_of(0)))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_stop_waits_for_the_resume_the_watch_started_and_leaves_none_running(make_bot, api) -> None:
    """The watch tells of a pause another process made of a group heard from since (`Reach.paused_elsewhere`), and
    its resume, slow to lift the pause, is still running when the bot stops: the stop waits for it, so the line the
    table's chat missed is posted before the outbox closes, and no resume is left running (one used to run on past
    the stop: the line it took as it lifted the pause went to a closed outbox)."""
    bot = await make_bot("duel")
    await kicked_as_round_2_is_dealt(bot, api)
    before = len(bot.group())
    resume, lifting = bot.service.resume, asyncio.Event()

    async def slow(table_ids: list[str]) -> dict[str, list[str]]:
        await lifting.wait()
        return await resume(table_ids)

    bot.service.resume = slow  # type: ignore[method-assign]
    bot.adapter.reach.paused_elsewhere({table_of(0): 0.0})
    asyncio.get_running_loop().call_later(0.5, lifting.set)
    await bot.stop()
    assert bot.adapter.reach._resuming == set()
    said = [sent.text.split("\n")[0] for sent in bot.group()[before:]]
    assert said == ["Round 2 dealt.", "Round 2"], said
