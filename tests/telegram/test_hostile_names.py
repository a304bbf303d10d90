"""A prankster's display name on Telegram: a name like `@alice` or `/leave` is shown as typed, but Telegram finds no
mention (which would notify alice) and no command (which a tap would send) in it; the bot's own commands stay."""

from __future__ import annotations

import re

import pytest

from tests.telegram.conftest import ANN, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import FakeBotApi, detected

MENTION = {"id": 201, "is_bot": False, "first_name": "@alice", "language_code": "en"}
COMMAND = {"id": 202, "is_bot": False, "first_name": "/leave", "language_code": "en"}


def without_names(text: str) -> str:
    """The text with the pranksters' names (as typed, or with anything invisible after `@` and `/`) taken out."""
    return re.sub(r"@\u2060?alice|/\u2060?leave", "X", text)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_mention_or_a_command_in_a_display_name_is_only_shown(make_bot, api) -> None:
    bot = await make_bot("holdem")
    for user in (MENTION, COMMAND, ANN):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    await bot.fire_timers(60)
    await bot.command(ANN, "/stats /leave")
    texts = bot.group_texts()
    shown = [text.replace("\u2060", "") for text in texts]
    assert any("@alice" in text for text in shown) and any("/leave" in text for text in shown)
    assert shown[-1] == "/leave: no hands played, no tournaments."  # found by the name typed; the hand goes on
    assert any("▶ @alice to act" in text for text in shown)
    for text in texts:
        names_found = len(detected(text)) - len(detected(without_names(text)))
        assert names_found == 0, f"a name became a mention or a command: {text!r}"
    assert any(sent.found("bot_command") for sent in bot.group())  # the bot's own commands stay tappable


async def test_a_season_named_with_a_command_is_shown_with_no_command_in_it(make_bot) -> None:
    """A season's name is the organizer's words: Telegram finds no command in it, only the bot's own "/season"."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/season start /leave now @alice")
    [started] = bot.group()
    assert started.text == ("Season “/\u2060leave now @\u2060alice” has begun: every tournament created from now on "
                            "counts in its standings (/season).")
    assert (started.found("bot_command"), started.found("mention")) == (["/season"], [])


async def test_a_setting_typed_as_a_command_is_quoted_with_no_command_in_it(make_bot, api: FakeBotApi) -> None:
    """What a player typed, quoted back in a refusal, is his words: Telegram finds no command or mention in it, only
    the bot's own "/set"."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/start", private_chat(ANN))  # a refusal is answered privately
    await bot.command(ANN, "/set straddle /leave@alice")  # a command to another bot
    refused = api.chat(ANN["id"])[-1]
    assert refused.text == ("“/\u2060leave@\u2060alice” is not a valid value for “straddle” (/set straddle takes on, "
                            "off).")
    assert (refused.found("bot_command"), refused.found("mention")) == (["/set"], [])


async def test_a_quote_copied_back_into_a_command_reads_as_typed(make_bot, api: FakeBotApi) -> None:
    """The refusal's quote has a word joiner after the `/`; copied into the next command and mended, joiner and all,
    it reaches the bot through Telegram's text as sent and is read as if it were typed."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/start", private_chat(ANN))  # a refusal is answered privately
    await bot.command(ANN, "/set timezone Europe/Mocsow")
    refused = api.chat(ANN["id"])[-1]
    assert refused.text == ("“Europe/\u2060Mocsow” is not a valid value for “time zone” (/set timezone takes "
                            "Europe/Moscow, UTC, America/New_York…).")
    await bot.command(ANN, "/set timezone Europe/\u2060Moscow")
    assert bot.group_texts() == ["Setting changed: time zone — Europe/Moscow."]
