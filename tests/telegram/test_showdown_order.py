"""A showdown with pictures on, in the order the group sees it: its result, its picture, then the table message's
final edit; never the table showing the hand's end before its picture."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.telegram.conftest import WHOLE_HANDS, Running
from tests.telegram.fake_api import CAPTION_LIMIT, GROUP


def long_named(number: int, letter: str) -> dict[str, Any]:
    """A player whose name is as long as Telegram allows (64 characters each for the first and last name)."""
    return {"id": 200 + number, "is_bot": False, "first_name": letter * 64, "last_name": "ы" * 63 + str(number),
            "language_code": "en"}


PLAYERS = [long_named(number, letter) for number, letter in enumerate("ABCD")]


async def all_in_to_the_showdown(bot: Running) -> None:
    """Four long-named players with different stacks go all in preflop; the board is run once (nobody chose twice
    within the 15 seconds given)."""
    await bot.command(PLAYERS[0], "/set structure no-limit")
    for number, player in enumerate(PLAYERS):
        await bot.command(player, f"/join {100 * (number + 2)}")
    await bot.command(PLAYERS[0], "/deal")
    by_name = {f"{player['first_name']} {player['last_name']}": player for player in PLAYERS}
    table = bot.table_message()
    while found := re.search(r"^▶ (.+?) to act", bot.api.messages[GROUP["id"], table.message_id].text, re.MULTILINE):
        await bot.command(by_name[found.group(1)], "/allin")
    await bot.fire_timers(16)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_result_too_long_for_the_pictures_caption_goes_before_it_and_the_tables_end_after_it(
        make_bot, api) -> None:
    """The result with its side pots does not fit the picture's caption, so it goes as a text of its own before the
    picture: the table message's final edit (the hand is over) waits for the picture too, as it waits for the text."""
    bot = await make_bot("holdem", seed=11)
    since = len(api.requests)
    await all_in_to_the_showdown(bot)
    await bot.adapter.flush()
    group = [(call.method, call.params.get("text") or call.params.get("caption") or "")
             for call in api.requests[since:] if int(call.params.get("chat_id") or 0) == GROUP["id"]]
    result = next(index for index, (method, text) in enumerate(group)
                  if method == "sendMessage" and "wins the main pot" in text)
    assert len(group[result][1]) > CAPTION_LIMIT, "the result alone is longer than a caption"
    picture = group.index(("sendPhoto", "Hand #1 · showdown"))
    final = next(index for index, (method, text) in enumerate(group)
                 if method == "editMessageText" and text.endswith("The hand is over."))
    assert (result, final) == (picture - 1, picture + 1), group[result:]
