"""The hint under a hand's table message: only while a player dealt in has no private chat with the bot, naming him."""

from __future__ import annotations

from typing import Any

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, private_chat

HINTS = {
    "en": "🂠 Your cards stay private: press “My cards”. {names}: open a private chat with me and send /start to get "
          "them there too.",
    "ru": "🂠 Ваши карты видите только вы: нажмите «Мои карты». {names}: откройте со мной личный чат и отправьте "
          "/start, чтобы получать их и там.",
}


async def dealt_to_three(make_bot, language: str) -> tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A round dealt to Ann, Bob and Cat, speaking `language`: Ann has a private chat with the bot, the others none.
    The running bot and the three players."""
    ann, bob, cat = ({**user, "language_code": language} for user in (ANN, BOB, CAT))
    bot = await make_bot("duel")
    await bot.command(ann, "/start", private_chat(ann))
    for user in (ann, bob, cat):
        await bot.command(user, "/join")
    await bot.command(ann, "/deal")
    return bot, ann, bob, cat


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_cards_hint_names_who_has_no_private_chat_and_goes_once_nobody_dealt_in_lacks_one(
        make_bot, api, language: str) -> None:
    """Ann has a private chat with the bot; Bob and Cat, dealt in, have none: the hint names them as the table does.
    Bob opens his: the next state of the table names only Cat. Cat opens his: the hint goes with the next state,
    and no edit is sent only for it."""
    bot, ann, bob, cat = await dealt_to_three(make_bot, language)
    table = bot.table_message()
    assert table.text == "Round 1\nTo act: ann\n\n" + HINTS[language].format(names="Bob Brown, cat")

    shown = (table.text, table.edits)
    await bot.command(bob, "/start", private_chat(bob))
    assert (table.text, table.edits) == shown, "no edit only for the hint"
    await bot.press(ann, table, "Check")
    assert table.text == "Round 1\nann checks\nTo act: Bob Brown\n\n" + HINTS[language].format(names="cat")

    shown = (table.text, table.edits)
    await bot.command(cat, "/start", private_chat(cat))
    assert (table.text, table.edits) == shown, "no edit only for the hint"
    await bot.press(bob, table, "Check")
    assert table.text == "Round 1\nann checks\nBob Brown checks\nTo act: cat"


async def test_a_look_at_ones_cards_deals_nobody_in(make_bot, api) -> None:
    """A player not dealt in who presses "My cards" (or types /cards) is told he has none, and the hint does not
    name him: it is for the players whose cards the bot must bring them."""
    bot = await make_bot("duel")
    for user in (ANN, BOB):
        await bot.command(user, "/start", private_chat(user))
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert table.text == "Round 1\nTo act: ann"
    await bot.press(CAT, table, "My cards")
    await bot.command(CAT, "/cards")
    await bot.press(ANN, table, "Check")
    assert table.text == "Round 1\nann checks\nTo act: Bob Brown"


async def test_the_cards_hint_names_who_was_dealt_in_after_a_restart_mid_hand(make_bot, api) -> None:
    """The bot restarts mid-round: the hint still names the players dealt in who have no private chat with the bot
    (Bob and Cat, told their cards at the deal, before the restart), and drops one once he opens his."""
    bot = await make_bot("duel")
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    assert bot.table_message().text == "Round 1\nTo act: ann\n\n" + HINTS["en"].format(names="Bob Brown, cat")
    await bot.stop()

    bot = await make_bot("duel")
    await bot.adapter.flush()
    table = bot.table_message()
    await bot.press(ANN, table, "Check")
    assert table.text == "Round 1\nann checks\nTo act: Bob Brown\n\n" + HINTS["en"].format(names="Bob Brown, cat")
    await bot.command(BOB, "/start", private_chat(BOB))
    await bot.press(BOB, table, "Check")
    assert table.text == "Round 1\nann checks\nBob Brown checks\nTo act: cat\n\n" + HINTS["en"].format(names="cat")


async def test_the_cards_hint_follows_a_group_that_becomes_a_supergroup_mid_round(make_bot, api) -> None:
    """The group becomes a supergroup mid-round: the moved table's message still names Bob and Cat, dealt in before
    the move, who have no private chat with the bot."""
    old = {"id": -4005, "type": "group", "title": "Poker night"}
    new = {"id": -1004005, "type": "supergroup", "title": "Poker night"}
    bot = await make_bot("duel")
    await bot.command(ANN, "/start", private_chat(ANN))
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/join", old)
    await bot.command(ANN, "/deal", old)
    await bot.handled(await api.push(api.service_update(old, ANN, migrate_to_chat_id=new["id"])))
    await bot.command(ANN, "/check", new)
    table = [sent for sent in api.chat(new["id"]) if sent.buttons()][-1]
    assert table.text == "Round 1\nann checks\nTo act: Bob Brown\n\n" + HINTS["en"].format(names="Bob Brown, cat")


OPEN_PRIVATE = {
    "en": "{name}, I can only answer you privately: open a private chat with me "
          "(https://t.me/pokerbot?start=cards_m100500) and send /start{cards}.",
    "ru": "{name}, я могу ответить вам только лично: откройте со мной личный чат "
          "(https://t.me/pokerbot?start=cards_m100500) и отправьте /start{cards}.",
}
"""The hint in the group to a player the bot could not answer privately, the first time."""
OR_MY_CARDS = {"en": ", or press “My cards”", "ru": " — или нажмите «Мои карты»"}
BET_AGAIN = {
    "en": "Bob Brown, I can only answer you privately: open a private chat with me "
          "(https://t.me/pokerbot?start=cards_m100500), press Start, then send /\u2060bet 100000 here again.",
    "ru": "Bob Brown, я могу ответить вам только лично: откройте со мной личный чат "
          "(https://t.me/pokerbot?start=cards_m100500), нажмите «Запустить» и снова отправьте здесь /\u2060bet 100000.",
}
"""The hint to a player whose typed command's answer the bot could not bring: what to do, to read it (the command
as he typed it, quoted: a tap on `/bet` would send it alone)."""


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_refusal_the_bot_cannot_bring_does_not_send_the_player_to_my_cards(
        make_bot, api, language: str) -> None:
    """Bob, with no private chat with the bot, types a bet too large mid-round: the refusal can only go privately,
    and the group's hint ended "or press “My cards”", a button that shows his cards, never why his bet was refused.
    It says what to do to read it: open the private chat, press Start, send /bet 100000 again. Cat, who typed /cards, is
    still sent to the button: it shows what he asked for."""
    bot, _, bob, cat = await dealt_to_three(make_bot, language)
    seen = len(bot.group())
    await bot.command(bob, "/bet 100000")
    await bot.command(cat, "/cards")
    assert [sent.text for sent in bot.group()][seen:] == [
        BET_AGAIN[language],
        OPEN_PRIVATE[language].format(name="@cat", cards=OR_MY_CARDS[language])]
