"""What the group reads comes in the order it happened: a reply's announcement ("Bob Brown sits down…") reaches the
group before the table message's edit that shows its effect, at Telegram's real limits (the fake's), in no more
requests than before (each test counts the group's)."""

from __future__ import annotations

import time

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, Running
from tests.telegram.fake_api import GROUP, FakeBotApi
from tests.telegram.test_games import at, home_night_started

DAN = {"id": 104, "is_bot": False, "first_name": "Dan", "username": "dan"}
STEP = 60 / 18
"""The group's spread step once its three back-to-back requests are spent (`bot.telegram.budget.Limits`)."""


def received(api: FakeBotApi, since: int) -> list[tuple[str, str, float]]:
    """Every send and edit the group received after the first `since` requests: method, text, when it arrived."""
    return [(call.method, call.params.get("text", ""), call.at) for call in api.requests[since:]
            if call.method.startswith(("send", "edit")) and int(call.params.get("chat_id", 0)) == GROUP["id"]]


async def command(bot: Running, user: dict[str, object], line: str) -> float:
    """A user types a command; returns when the bot had handled it (what it caused may still be queued)."""
    await bot.handled(await bot.api.push(bot.api.command_update(user, line)))
    return time.monotonic()


async def test_a_player_who_sits_down_is_announced_before_the_table_shows_his_seat(make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.command(ANN, "/join 200")  # the announcement and the table's first message: two of the three at once
    since = len(api.requests)
    handled = await command(bot, BOB, "/join 200")
    await bot.adapter.flush()
    [(said, announcement, _), (edit, table, shown)] = received(api, since)  # two requests, as before
    assert (said, announcement) == ("sendMessage", "Bob Brown sits down with 200 chips.")
    assert edit == "editMessageText" and "Bob Brown — 200" in table
    # between hands the group's budget is not spread: the edit follows at once, as when it went first
    assert shown - handled < STEP / 2


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
async def test_a_player_away_at_his_turn_is_announced_before_the_table_shows_his_hand_folded(make_bot, api) -> None:
    """Mid-hand, the group's budget spread (a request every few seconds): the tournament player to act goes away, his
    hand folded at once. The group reads his line, then the table showing the fold and the next player's buttons;
    two requests, as before (when the edit went first, the line a step later)."""
    bot = await home_night_started(make_bot)
    hand = bot.table_message()
    assert "▶ ann" in hand.text
    since = len(api.requests)
    await bot.command(ANN, "/away")
    [(said, announcement, _), (edit, table, _)] = received(api, since)
    assert said == "sendMessage" and announcement.startswith("ann is away and blinded out")
    assert edit == "editMessageText" and "ann · 300 Ⓓ folded" in table
    assert api.messages[GROUP["id"], hand.message_id].buttons()
