"""A new group's first evening through Telegram, as its players meet the bot: it is added to the group, says what
it is for, and is removed and added back."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB
from tests.telegram.fake_api import GROUP

HELLO = {
    "en": "Hello! I deal poker in this group. /join to sit down at the table: a hand is dealt once two players sit. "
          "Your cards come in our private chat: open it here (https://t.me/pokerbot?start=cards) and press Start. "
          "/help for every command.",
    "ru": "Привет! Я раздаю покер в этой группе. /join — сесть за стол: раздача начнётся, когда сядут двое. Ваши "
          "карты приходят в наш личный чат: откройте его здесь (https://t.me/pokerbot?start=cards) и нажмите "
          "«Запустить». /help — все команды.",
}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_bot_added_to_a_group_says_what_it_is_for_once(make_bot, api, language: str) -> None:
    """Added to a group, the bot said nothing: its players learnt of /join and of the private chat only by asking.
    It greets the group, in the language of the player who added it; added back to a group that has played, its
    table plays on without a second greeting, and a change of its rights says nothing."""
    ann, bob = ({**user, "language_code": language} for user in (ANN, BOB))
    bot = await make_bot("holdem")
    await bot.handled(await api.push(api.member_update(GROUP, "member", ann, was="left")))
    await bot.adapter.flush()
    assert [sent.text for sent in bot.group()] == [HELLO[language]]

    for user in (ann, bob):
        await bot.command(user, "/join 200")
    seen = [sent.text for sent in bot.group()]
    await bot.handled(await api.push(api.member_update(GROUP, "kicked", ann)))
    await bot.handled(await api.push(api.member_update(GROUP, "member", ann, was="kicked")))
    await bot.handled(await api.push(api.member_update(GROUP, "member", ann)))  # its rights changed
    await bot.adapter.flush()
    assert [sent.text for sent in bot.group()] == seen
