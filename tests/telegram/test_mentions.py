"""A mention of a user without a username (Telegram's `text_mention`) means that user, whoever shares his name."""

from __future__ import annotations

import pytest

from bot.telegram.render import place_of
from tests.telegram.conftest import ANN, BOB, private_chat
from tests.telegram.fake_api import GROUP

OTHER_BOB = {"id": 104, "is_bot": False, "first_name": "Bob", "last_name": "Brown"}
"""A second user with Bob's full name and no username: the group reads him as "Bob Brown (2)"."""
STRANGER_BOB = {"id": 105, "is_bot": False, "first_name": "Bob", "last_name": "Brown"}
"""A third, who never played in the group."""

TEXTS = {
    "en": ("Bob Brown (2) receives 50 chips.", "I don't know a player called “Bob Brown” here."),
    "ru": ("Bob Brown (2) получает 50 фишек.", "Игрока «Bob Brown» здесь нет."),
}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_mention_of_a_user_without_a_username_means_him_not_his_name(make_bot, api, language: str) -> None:
    """Two players are called Bob Brown; the organizer picks the second from Telegram's mention list: the chips go
    to him (the typed name alone would have meant the first). A mention of a user who never played here is refused
    as an unknown player, privately, quoting the name as the message showed it (it quoted his id, «tg:105»)."""
    ann, bob, other_bob, stranger = ({**user, "language_code": language}
                                     for user in (ANN, BOB, OTHER_BOB, STRANGER_BOB))
    bot = await make_bot("holdem")
    await bot.command(ann, "/start", private_chat(ann))
    for user in (ann, bob, other_bob):
        await bot.command(user, "/join")
    granted, unknown = TEXTS[language]

    await bot.command(ann, "/grant Bob Brown 50", mentioned=other_bob)
    assert bot.group()[-1].text == granted

    shown = [sent.text for sent in bot.group()]
    await bot.command(ann, "/grant Bob Brown 50", mentioned=stranger)
    assert api.chat(ann["id"])[-1].text == unknown
    assert [sent.text for sent in bot.group()] == shown, "nothing in the group"
    assert await bot.service.player_name(place_of(GROUP["id"], None), "tg:105") == "tg:105", "not made a player"
