"""Telegram in Russian: a user's `language_code` picks Russian when the group chose no language."""

from __future__ import annotations

from tests.telegram.conftest import ANN

IVAN = {"id": 201, "is_bot": False, "first_name": "Ivan", "username": "ivan", "language_code": "ru"}
OLGA = {"id": 202, "is_bot": False, "first_name": "Olga", "username": "olga", "language_code": "ru"}


async def test_a_russian_speaking_user_is_answered_in_russian(make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.command(IVAN, "/join")
    await bot.command(OLGA, "/join")
    assert any("садится за стол" in text for text in bot.group_texts())
    await bot.command(IVAN, "/deal")
    assert any("Раздача №1" in text for text in bot.group_texts())
    assert bot.table_message().button("Мои карты")


async def test_the_group_language_wins_over_the_users(make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.command(ANN, "/lang en")
    await bot.command(IVAN, "/join")
    assert any("sits down" in text for text in bot.group_texts())


async def test_russian_command_descriptions_are_published(make_bot, api) -> None:
    await make_bot("holdem")
    published = {call.get("language_code", ""): call["commands"] for call in api.calls("setMyCommands")}
    russian = {command["command"]: command["description"] for command in published["ru"]}
    assert russian["raise"] == "рейз: поднять ставку до суммы"


async def test_the_private_chat_link_is_given_in_russian(make_bot, api) -> None:
    bot = await make_bot("holdem")
    await bot.command(IVAN, "/start")
    assert bot.group()[-1].text == ("@ivan, наш личный чат открывается здесь (затем нажмите «Запустить»): "
                                    "https://t.me/pokerbot?start=cards_m100500")
    await bot.command(IVAN, "/balance")  # no hand dealt: no “Мои карты” button to press
    assert bot.group()[-1].text == ("@ivan, я могу ответить вам только лично: откройте со мной личный чат "
                                    "(https://t.me/pokerbot?start=cards_m100500), нажмите «Запустить» и снова "
                                    "отправьте здесь /balance.")
    bot.clock.current += 300  # his /start was answered with the link: no pointer for five minutes
    await bot.command(IVAN, "/balance")
    assert bot.group()[-1].text == ("@ivan, на это я отвечаю только лично: откройте "
                                    "https://t.me/pokerbot?start=cards_m100500, нажмите «Запустить» и снова "
                                    "отправьте здесь /balance.")


async def test_while_a_hand_plays_the_private_chat_hint_in_russian_offers_the_my_cards_button(make_bot, api) -> None:
    """Ivan deals and cannot be told his cards privately: the hint also points to the table's “Мои карты” button,
    which its message has while the hand plays."""
    bot = await make_bot("holdem")
    for user in (IVAN, OLGA):
        await bot.command(user, "/join")
    await bot.command(IVAN, "/deal")
    assert bot.table_message().button("Мои карты")
    assert bot.group()[-1].text == ("@ivan, я могу ответить вам только лично: откройте со мной личный чат "
                                    "(https://t.me/pokerbot?start=cards_m100500) и отправьте /start — или нажмите "
                                    "«Мои карты».")
