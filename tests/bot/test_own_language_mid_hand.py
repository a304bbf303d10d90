"""A language chosen in the middle of a hand takes effect at once: a player's next private answer (his cards and
their picture, a refusal, the answer to a button he pressed) is in his new language, while the other players' and
the table's stay in the chat's."""

from __future__ import annotations

from bot.output import Place, Reply
from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE


def captions(reply: Reply) -> list[tuple[str | None, str]]:
    """The reply's pictures as (whom each is for, its caption)."""
    return [(picture.to, picture.caption) for picture in reply.pictures]


def first_line(reply: Reply) -> str:
    """The first line of the reply's table message."""
    assert reply.table is not None
    return reply.table.text.split("\n")[0]


def labels(reply: Reply) -> list[str]:
    """The labels of the reply's table message's buttons."""
    assert reply.table is not None
    return [button.label for button in reply.table.buttons]


async def dealt_with_pictures(service: Service) -> Reply:
    """Ann, Bob and Cat sit down at an English table that draws pictures, and Ann deals; Ann is to act."""
    assert (await service.handle(PLACE, ANN, "/set pictures on")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    return dealt


async def test_a_player_who_chooses_russian_mid_hand_reads_his_very_next_private_answers_in_russian(
        service: Service) -> None:
    dealt = await dealt_with_pictures(service)
    [bob_english], [cat_english] = dealt.private["bob"], dealt.private["cat"]
    bob_cards, cat_cards = bob_english.removeprefix("Your cards: "), cat_english.removeprefix("Your cards: ")
    assert (await service.handle(PLACE, BOB, "/lang ru me")).private == {
        "bob": ["Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."]}

    mine = await service.view(PLACE, BOB)  # "My cards"
    assert mine.private == {"bob": [f"Ваши карты: {bob_cards}"]}
    assert captions(mine) == [("bob", "Ваши карты")], "the picture of his cards is titled in his language too"
    assert first_line(mine) == "Hold'em — hand #1 · blinds 10/20 · home-limit", "the table keeps the chat's language"
    assert labels(mine)[0] == "🂠 My cards" and "⏩ Check/fold" in labels(mine)
    assert (await service.handle(PLACE, BOB, "/cards")).private == {"bob": [f"Ваши карты: {bob_cards}"]}
    assert (await service.handle(PLACE, BOB, "/check")).error == "Сейчас не ваш ход: ходит Ann."
    assert (await service.press(PLACE, BOB, "h1|s1|fold")).error == "Сейчас не ваш ход: ходит Ann."
    assert (await service.handle(PLACE, BOB, "/raise abc")).error == (
        "Сумма: нужно целое число фишек больше нуля, а не «abc».")
    assert (await service.press(PLACE, BOB, "h0|s1|call")).error == "Эта раздача уже закончилась."
    assert (await service.press(PLACE, BOB, "h1|pre check_fold")).private == {"bob": ["Вы сделаете чек или пас."]}

    theirs = await service.view(PLACE, CAT)  # the others read theirs in the chat's language still
    assert theirs.private == {"cat": [f"Your cards: {cat_cards}"]} and captions(theirs) == [("cat", "Your cards")]
    assert (await service.handle(PLACE, CAT, "/check")).error == "It's not your turn: waiting for Ann."
    assert (await service.press(PLACE, CAT, "h1|pre check_fold")).private == {"cat": ["You will check or fold."]}

    assert (await service.handle(PLACE, BOB, "/lang en me")).error is None  # and back, at once as well
    back = await service.view(PLACE, BOB)
    assert back.private == {"bob": [f"Your cards: {bob_cards}"]} and captions(back) == [("bob", "Your cards")]


async def test_the_chats_language_chosen_mid_hand_reaches_the_private_answers_of_everyone_without_his_own(
        service: Service) -> None:
    dealt = await dealt_with_pictures(service)
    [cat_english] = dealt.private["cat"]
    assert (await service.handle(PLACE, BOB, "/lang en me")).error is None  # Bob keeps English for himself
    assert (await service.handle(PLACE, ANN, "/lang ru")).public == ["Язык чата: русский (ru)."]

    theirs = await service.view(PLACE, CAT)
    assert theirs.private == {"cat": [cat_english.replace("Your cards", "Ваши карты")]}
    assert captions(theirs) == [("cat", "Ваши карты")]
    assert (await service.handle(PLACE, CAT, "/check")).error == "Сейчас не ваш ход: ходит Ann."
    assert (await service.handle(PLACE, BOB, "/check")).error == "It's not your turn: waiting for Ann."
    mine = await service.view(PLACE, BOB)
    assert captions(mine) == [("bob", "Your cards")]
    assert first_line(mine) == "Холдем — раздача №1 · блайнды 10/20 · домашний лимит"
    assert labels(mine)[0] == "🂠 Мои карты" and "⏩ Чек/пас" in labels(mine)


async def test_the_chats_language_chosen_mid_hand_shows_the_table_and_its_buttons_in_it_at_once(
        service: Service) -> None:
    """The table message kept its English buttons (the pre-action ones too) until the next action redrew it."""
    await dealt_with_pictures(service)
    chosen = await service.handle(PLACE, ANN, "/lang ru")
    assert chosen.public == ["Язык чата: русский (ru)."]
    assert first_line(chosen) == "Холдем — раздача №1 · блайнды 10/20 · домашний лимит"
    assert labels(chosen) == ["🂠 Мои карты", "Пас", "Колл 20", "Рейз до 40", "⏩ Чек/пас", "⏩ Чек", "⏩ Колл 10",
                              "⏩ Колл любой"]
    mine = await service.handle(PLACE, BOB, "/lang en me")  # his own language: the table stays the chat's
    assert mine.table is None and mine.public == []
    empty = await service.handle(Place("chat", "chat/other"), ANN, "/lang en")  # a table nobody sits at: no message
    assert empty.public == ["Language set: English (en)."] and empty.table is None
