"""Discord: a member who chooses his own language in the middle of a hand (`/lang language:ru me:True`) reads his
very next private answers in it (the ephemeral answer to a button he pressed, its picture, a refusal), while the
channel's table message and the other members' answers stay in the channel's language."""

from __future__ import annotations

from tests.discord.fake_discord import EPHEMERAL
from tests.discord.test_games import MY_CARDS, current_table


async def test_a_language_chosen_mid_hand_answers_the_next_press_and_command_in_it(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for member in (ann, bob, cat):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    english = await fake.press(bob, table, fake.button(table, MY_CARDS))
    await bot.settled()
    cards = english.ephemeral_text().removeprefix("Your cards: ")
    assert len(cards.split()) == 2, english.ephemeral_text()

    chosen = await fake.slash(bob, channel, "lang", language="ru", me=True)
    await bot.settled()
    assert chosen.ephemeral_text() == "Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."
    mine = await fake.press(bob, table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert mine.ephemeral_text() == f"Ваши карты: {cards}"
    assert [(message["flags"] & EPHEMERAL, [attached["description"] for attached in message["attachments"]])
            for message in mine.messages] == [(EPHEMERAL, ["Ваши карты"])], "the picture of his cards is his"
    folded = await fake.press(bob, table, fake.button(table, "Fold"))
    await bot.settled()
    assert folded.ephemeral_text() == "Сейчас не ваш ход: ходит Ann."
    early = await fake.press(bob, table, fake.button(table, "⏩ Check/fold"))
    await bot.settled()
    assert early.ephemeral_text() == "Вы сделаете чек или пас."
    typed = await fake.slash(bob, channel, "check")
    await bot.settled()
    assert typed.ephemeral_text() == "Сейчас не ваш ход: ходит Ann."

    theirs = await fake.press(cat, table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert theirs.ephemeral_text().startswith("Your cards: ")
    assert [attached["description"] for attached in theirs.messages[0]["attachments"]] == ["Your cards"]
    refused = await fake.press(cat, table, fake.button(table, "Fold"))
    await bot.settled()
    assert refused.ephemeral_text() == "It's not your turn: waiting for Ann."
    shown = fake.messages[int(table["id"])]
    assert shown["content"].startswith("Hold'em — hand #1 · blinds 10/20 · home-limit\n")
    assert {MY_CARDS, "Fold", "⏩ Check/fold"} <= {button["label"] for button in fake.buttons(shown)}


async def test_the_lang_hints_name_the_me_option_as_discord_shows_it(fake, make_bot) -> None:
    """`/lang` and an organizer's refusal hint at choosing one's own language: on Discord by the command's `me`
    option (`/lang ru с параметром «лично»` in Russian: the command word in English, as every Russian text writes
    it, the option as a Russian client sees it), never a word typed after the code. The command is Discord's mention
    of it, which every client shows by its English name, clickable."""
    await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, ivan = [fake.add_member(name) for name in ("Ann", "Bob", "Ivan")]
    ivan.locale = "ru"
    await fake.slash(ann, channel, "join", chips=200)  # Ann, the chat's first, organizes it
    asked = await fake.slash(bob, channel, "lang")
    assert asked.ephemeral_text() == fake.mentioned(
        "The chat's language: English (en); choose from English (en), русский (ru). {lang} ru with the “me” option "
        "chooses yours for what only you read.")
    refused = await fake.slash(bob, channel, "lang", language="ru")
    assert refused.ephemeral_text() == fake.mentioned(
        "Only the organizer — Ann — chooses the chat's language; {lang} ru with the “me” option chooses yours for what "
        "only you read.")
    asked = await fake.slash(ivan, channel, "lang")
    assert asked.ephemeral_text() == fake.mentioned(
        "Язык чата: English (en); можно выбрать: English (en), русский (ru). {lang} ru с параметром «лично» выбирает "
        "язык только для ваших личных сообщений.")
    refused = await fake.slash(ivan, channel, "lang", language="en")
    assert refused.ephemeral_text() == fake.mentioned(
        "Язык чата выбирает только организатор — Ann; {lang} en с параметром «лично» выбирает язык ваших личных "
        "сообщений.")
