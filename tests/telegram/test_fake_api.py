"""The fake Bot API's flood limits on their own: every end-to-end test leans on them, so they are checked here, on a
fake clock, and once through HTTP."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from tests.telegram.fake_api import (
    ALERT_LIMIT,
    CALLBACK_DATA_LIMIT,
    CAPTION_LIMIT,
    GROUP,
    TEXT_LIMIT,
    TOKEN,
    FakeBotApi,
    FloodControl,
)

PRIVATE = 101
ACE = "\N{PLAYING CARD ACE OF SPADES}"
"""A character beyond the Basic Multilingual Plane: two UTF-16 code units."""


def test_a_group_refuses_its_21st_request_in_a_minute_until_the_first_is_a_minute_old() -> None:
    flood = FloodControl()
    assert [flood.admit(GROUP["id"], float(second)) for second in range(20)] == [0.0] * 20
    assert flood.admit(GROUP["id"], 30.0) == 30.0  # the first of the 20 counts until 60.0
    assert flood.admit(GROUP["id"], 59.9) > 0  # a refused request is not counted: the wait stays the first's
    assert flood.admit(GROUP["id"], 60.0) == 0.0
    assert flood.admit(GROUP["id"] - 1, 30.0) == 0.0  # another group has its own 20


def test_a_private_chat_refuses_a_second_request_within_a_second() -> None:
    flood = FloodControl()
    assert flood.admit(PRIVATE, 10.0) == 0.0
    assert flood.admit(PRIVATE, 10.5) == 0.5
    assert flood.admit(PRIVATE + 1, 10.5) == 0.0  # another private chat is not held
    assert flood.admit(PRIVATE, 11.0) == 0.0


def test_the_bot_is_refused_its_31st_request_in_a_second_whatever_the_chats() -> None:
    flood = FloodControl()
    assert [flood.admit(PRIVATE + chat, 5.0) for chat in range(30)] == [0.0] * 30
    assert flood.admit(GROUP["id"], 5.25) == 0.75  # a chat that sent nothing yet still waits for the bot's budget
    assert flood.admit(GROUP["id"], 6.0) == 0.0


def test_a_time_scale_shortens_every_window() -> None:
    flood = FloodControl(time_scale=30)
    for second in range(20):
        assert flood.admit(GROUP["id"], second / 10) == 0.0
    assert flood.admit(GROUP["id"], 1.95) > 0  # the minute lasts 2 s
    assert flood.admit(GROUP["id"], 2.0) == 0.0


async def test_a_request_over_a_limit_is_answered_429_with_retry_after_and_recorded() -> None:
    api = FakeBotApi()
    await api.start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"{api.base_url}{TOKEN}"
            answers = [await (await session.post(f"{url}/sendMessage", json={"chat_id": PRIVATE, "text": t})).json()
                       for t in ("one", "two")]
            answered = await session.post(f"{url}/answerCallbackQuery", json={"callback_query_id": "1"})
            assert (await answered.json())["ok"], "a callback answer is not a message: no chat limit"
    finally:
        await api.stop()
    assert answers[0]["ok"]
    assert answers[1]["error_code"] == 429 and answers[1]["parameters"] == {"retry_after": 1}
    assert [(call.method, call.params["text"]) for call in api.rejected] == [("sendMessage", "two")]
    assert [sent.text for sent in api.chat(PRIVATE)] == ["one"]


def _button(data: str) -> dict[str, object]:
    return {"inline_keyboard": [[{"text": "Deal", "callback_data": data}]]}


@pytest.mark.parametrize(("method", "params", "refusal"), [
    ("sendMessage", {"text": "x" * (TEXT_LIMIT + 1)}, "Bad Request: message is too long"),
    # fewer characters than the limit, more UTF-16 units: an emoji beyond the Basic Multilingual Plane counts two
    ("editMessageText", {"message_id": 1, "text": "x" + ACE * (TEXT_LIMIT // 2)}, "Bad Request: message is too long"),
    ("sendPhoto", {"caption": ACE * (CAPTION_LIMIT // 2 + 1)}, "Bad Request: message caption is too long"),
    ("sendMessage", {"text": "Deal?", "reply_markup": _button("d" * (CALLBACK_DATA_LIMIT + 1))},
     "Bad Request: BUTTON_DATA_INVALID"),
    ("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * (ALERT_LIMIT + 1)},
     "Bad Request: MESSAGE_TOO_LONG"),
    ("editMessageCaption", {"message_id": 1, "caption": "x" * (CAPTION_LIMIT + 1)},
     "Bad Request: message caption is too long"),
])
async def test_a_text_over_telegrams_limit_is_refused(method: str, params: dict[str, object], refusal: str) -> None:
    api = FakeBotApi()
    await api.start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"{api.base_url}{TOKEN}"
            refused = await (await session.post(f"{url}/{method}", json={"chat_id": PRIVATE, **params})).json()
            await asyncio.sleep(1.05)  # the private chat's one request a second
            longest = {"text": "x" * TEXT_LIMIT, "reply_markup": _button("d" * CALLBACK_DATA_LIMIT)}
            taken = await (await session.post(f"{url}/sendMessage", json={"chat_id": PRIVATE, **longest})).json()
    finally:
        await api.stop()
    assert (refused["ok"], refused["error_code"], refused["description"]) == (False, 400, refusal)
    assert taken["ok"], "at the limit it is taken"
    assert [sent.text for sent in api.chat(PRIVATE)] == ["x" * TEXT_LIMIT]


async def test_a_forums_topics_share_their_groups_20_a_minute() -> None:
    """Telegram's limit is the group's: the 21st request of a minute is refused whichever topic it is for."""
    api = FakeBotApi()
    await api.start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"{api.base_url}{TOKEN}/sendMessage"
            answers = [await (await session.post(url, json={"chat_id": GROUP["id"], "message_thread_id": 7 + 2 * (
                sent % 3), "text": f"{sent}"})).json() for sent in range(21)]
    finally:
        await api.stop()
    assert [answer["ok"] for answer in answers] == [True] * 20 + [False]
    assert answers[20]["error_code"] == 429
