"""A new group's first evening through Telegram, as its players meet the bot: it is added to the group, says what
it is for, and is removed and added back."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS
from tests.telegram.fake_api import GROUP, Sent

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


OLD_TURN = {"en": "That button was for a turn already over: nothing changed.",
            "ru": "Эта кнопка — для хода, который уже прошёл: ничего не изменилось."}


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_an_old_turns_fold_pressed_on_the_flop_does_not_say_it_was_done(make_bot, api, language: str) -> None:
    """Bob called before the flop by typing /call; on the flop, his turn, he pressed the Fold of the table as it stood
    before the flop (an older copy of the message): the answer was "Already done.", as if he had folded. It says the
    button was for a turn that is over, and nothing changes: he is still to act."""
    ann, bob, cat = ({**user, "language_code": language} for user in (ANN, BOB, CAT))
    bot = await make_bot("holdem", seed=3)
    for user in (ann, bob, cat):
        await bot.command(user, "/join 200")
    await bot.command(ann, "/deal")
    preflop = bot.table_message()
    old = Sent(**{**vars(preflop), "reply_markup": preflop.reply_markup})  # a copy: the message is edited in place
    await bot.command(ann, "/call")
    await bot.command(bob, "/call")
    await bot.command(cat, "/check")
    flop = bot.table_message().text
    assert flop.split("\n\n")[1].splitlines()[-2:] == [{"en": "Flop: 7♥ J♣ 4♥", "ru": "Флоп: 7♥ J♣ 4♥"}[language],
                                        {"en": "▶ Bob Brown to act (⏱ 60\xa0s).",
                                         "ru": "▶ Ход: Bob Brown (⏱ 60\xa0с)."}[language]]
    answer = await bot.press(bob, old, {"en": "Fold", "ru": "Пас"}[language])
    assert (answer["text"], answer["show_alert"]) == (OLD_TURN[language], True)
    assert bot.table_message().text == flop
