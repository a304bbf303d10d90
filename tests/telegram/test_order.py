"""What the group reads comes in the order it happened: a reply's announcement ("Bob Brown sits down…") reaches the
group before the table message's edit that shows its effect, at Telegram's real limits (the fake's), in no more
requests than before (each test counts the group's)."""

from __future__ import annotations

import pytest

from tests.bot.helpers import at
from tests.telegram.conftest import ANN, BOB, CAT, Running
from tests.telegram.fake_api import GROUP, FakeBotApi
from tests.telegram.test_forum_pace import STEP, WAIT_LIMIT, wait_for
from tests.telegram.test_games import home_night_started

DAN = {"id": 104, "is_bot": False, "first_name": "Dan", "username": "dan"}
SLOW = STEP / (2 * WAIT_LIMIT)
"""A time scale (Telegram's limits and the bot's budget alike, `telegram_time_scale`) on which the group's spread step
lasts twice `WAIT_LIMIT`: a request spread by the budget could not go within a wait for the bot."""


def received(api: FakeBotApi, since: int) -> list[tuple[str, str, float]]:
    """Every send and edit the group received after the first `since` requests: method, text, when it arrived."""
    return [(call.method, call.params.get("text", ""), call.at) for call in api.requests[since:]
            if call.method.startswith(("send", "edit")) and int(call.params.get("chat_id", 0)) == GROUP["id"]]


async def command(bot: Running, user: dict[str, object], line: str) -> None:
    """A user types a command; returns once the bot has handled it (what it caused may still be queued)."""
    await bot.handled(await bot.api.push(bot.api.command_update(user, line)))


@pytest.mark.telegram_time_scale(SLOW)
async def test_a_player_who_sits_down_is_announced_before_the_table_shows_his_seat(make_bot, api) -> None:
    """Between hands the group's budget is not spread: Bob's line and the table's edit, the group's third and fourth
    requests back to back, both go at once, as when the edit went first (spread, the edit would wait a step: on this
    time scale, longer than the wait for it)."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/join 200")  # the announcement and the table's first message: two of the three at once
    since = len(api.requests)
    await command(bot, BOB, "/join 200")
    await wait_for(lambda: len(received(api, since)) == 2, "Bob's line and the table's edit")
    await bot.adapter.flush()
    [(said, announcement, _), (edit, table, _)] = received(api, since)  # two requests, as before
    assert (said, announcement) == ("sendMessage", "Bob Brown sits down with 200 chips.")
    assert edit == "editMessageText" and "Bob Brown — 200" in table


@pytest.mark.telegram_time_scale(10)
async def test_a_player_who_comes_back_is_announced_before_the_table_shows_him_in(make_bot, api) -> None:
    bot = await make_bot("holdem")
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(BOB, "/away")
    away = bot.table_message().text
    since = len(api.requests)
    await bot.command(BOB, "/back")
    [(said, announcement, _), (edit, table, _)] = received(api, since)
    assert (said, announcement) == ("sendMessage", "Bob Brown is back in.")
    assert edit == "editMessageText" and table != away


async def test_three_quick_registrations_are_all_announced_before_the_table_shows_them(make_bot, api) -> None:
    """Bob, Cat and Dan register one right after another, each while the last one's line is on its way: the group
    reads their three lines (in as many messages as the timing allows: texts waiting together join), then the table
    showing all four seats, in one edit. Before, the same registrations cost five requests: the table showed Bob's and
    Cat's seats, then their lines, then Dan's seat, then his line."""
    bot = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    await bot.command(ANN, "/tournament create home-night")
    await bot.command(ANN, "/join")
    since = len(api.requests)
    for user in (BOB, CAT, DAN):
        await command(bot, user, "/join")
    await bot.adapter.flush()
    got = received(api, since)
    *said, (edit, table, _) = got
    assert {method for method, _, _ in said} == {"sendMessage"} and edit == "editMessageText"
    lines = [line for _, text, _ in said for line in text.split("\n\n")]
    assert [line.split(" registers")[0] for line in lines] == ["Bob Brown", "cat", "dan"]
    assert all(f"{name} — 300" in table for name in ("ann", "Bob Brown", "cat", "dan"))
    assert len(got) <= 4


@pytest.mark.telegram_time_scale(10)
async def test_a_player_away_at_his_turn_is_announced_and_plays_the_hand_on(make_bot, api) -> None:
    """Mid-hand, the group's budget spread (a request every few seconds): the tournament player to act goes away. He
    is blinded out from the next hand (RULES.md §1a), so the group reads his line alone, in one request: the table,
    still his turn with his buttons, is not edited (before, his hand was folded at once and the table edited after
    the line)."""
    bot = await home_night_started(make_bot)
    hand = bot.table_message()
    assert "▶ ann" in hand.text
    since = len(api.requests)
    await bot.command(ANN, "/away")
    [(said, announcement, _)] = received(api, since)
    assert said == "sendMessage" and announcement == (
        "ann will be away from the next hand, dealt in and blinded out (blinds posted, the hand folded at each "
        "turn): /back to return.")
    assert bot.table_message().text == hand.text
    assert api.messages[GROUP["id"], hand.message_id].buttons()
