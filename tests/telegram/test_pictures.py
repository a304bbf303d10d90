"""Table pictures through Telegram: a photo posted to the group at the showdown (and at the flop with `pictures
streets`), and a player's own cards as a photo in his private chat only."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, private_chat
from tests.telegram.fake_api import GROUP
from tests.telegram.test_games import play_out

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_photo_of_the_table_is_posted_at_the_showdown_only_by_default(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    await play_out(bot, bot.table_message())
    captions = [photo.text for photo in api.photos(GROUP["id"])]  # the streets: in the table message's text
    assert len(captions) == 1 and captions[0].endswith("Hand #1 · showdown"), captions
    assert captions[0].startswith("Showdown — "), "the showdown's text went with its picture, as its caption"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_photo_of_the_table_is_posted_at_the_flop_with_pictures_streets(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/set pictures streets")
    await bot.command(ANN, "/deal")
    assert api.photos(GROUP["id"]) == [], "no picture before the flop"
    table = bot.table_message()
    await play_out(bot, table)
    photos = api.photos(GROUP["id"])
    captions = [photo.text for photo in photos]
    assert any("flop" in caption for caption in captions), captions
    assert captions[0] == "Hand #1 · flop", captions  # the first photo is the flop's
    assert all(photo.photo is not None and photo.photo.startswith(PNG) for photo in photos)
    uploads = api.calls("sendPhoto")
    assert len(uploads) == len(photos) and all(int(call["chat_id"]) == GROUP["id"] for call in uploads)


async def test_own_cards_as_a_photo_only_in_a_private_chat(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    await bot.press(ANN, table, "my cards")
    await bot.press(BOB, table, "my cards")
    assert len(api.photos(ANN["id"])) == 1 and api.photos(ANN["id"])[0].photo.startswith(PNG)
    assert api.photos(BOB["id"]) == [], "Bob never opened a private chat"
    assert api.photos(GROUP["id"]) == [], "a player's cards never go to the group"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_pictures_off_sends_text_only(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    for user in (ANN, BOB):
        await bot.command(user, "/join 200")
    await bot.command(ANN, "/set pictures off")
    await bot.command(ANN, "/deal")
    await play_out(bot, bot.table_message())
    assert api.calls("sendPhoto") == []
