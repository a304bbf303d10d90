"""Organizers are visible: `/organizers` names them, a refusal says who may do it, and `/lang` for the whole chat is
theirs while anyone chooses the language of his own private messages (`/lang ru me`)."""

from pathlib import Path

from bot.i18n import text
from bot.output import Actor
from bot.service import Service
from bot.telegram.render import bot_commands
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump


async def make_organizers(service: Service, *user_ids: str) -> None:
    """Name the chat's organizers (as a later `/organizers add` or the platform's admin list would)."""
    settings = await service.store.read(lambda tx: tx.chat_settings(PLACE.chat_id))
    await service.store.transact(
        lambda tx: tx.set_chat_settings(PLACE.chat_id, {**settings, "organizers": list(user_ids)}), now=0.0)


async def test_organizers_names_them_in_each_language(service: Service) -> None:
    for actor in (ANN, BOB):  # the chat's first player organizes it
        await service.handle(PLACE, actor, "/balance")
    reply = await service.handle(PLACE, BOB, "/organizers")
    assert reply.private == {"bob": ["Organizers: Ann. The chat's admins can do what organizers do."]}
    assert reply.public == [] and reply.error is None
    await make_organizers(service, "ann", "cat")
    await service.handle(PLACE, CAT, "/balance")
    assert (await service.handle(PLACE, BOB, "/organizers")).private == {
        "bob": ["Organizers: Ann, Cat. The chat's admins can do what organizers do."]}
    await service.handle(PLACE, ANN, "/lang ru")
    assert (await service.handle(PLACE, BOB, "/organizers")).private["bob"] == [
        "Организаторы: Ann, Cat. Администраторы чата могут то же, что и они."]


async def test_organizers_is_in_help_and_in_the_command_menus(service: Service) -> None:
    help_all = (await service.handle(PLACE, ANN, "/help")).private["ann"][0]
    assert "/organizers — who organizes this chat" in help_all
    assert (await service.handle(PLACE, ANN, "/help organizers")).private["ann"] == [
        "/organizers\nwho organizes this chat"]
    menu = {command.command: command.description for command in bot_commands("ru")}
    assert menu["organizers"] == text("ru", "about.organizers") == "кто организует этот чат"


async def test_the_organizer_only_refusal_names_who_may(service: Service) -> None:
    for actor in (ANN, BOB, CAT):
        await service.handle(PLACE, actor, "/balance")
    assert (await service.handle(PLACE, BOB, "/grant ann 5")).error == "Only the organizer — Ann — can do that."
    await make_organizers(service, "ann", "cat")
    assert (await service.handle(PLACE, BOB, "/set level 40")).error == "Only the organizers — Ann, Cat — can do that."
    await make_organizers(service)  # none listed: only the platform's admins organize
    assert (await service.handle(PLACE, BOB, "/grant ann 5")).error == "Only the chat's organizers can do that."
    admin = Actor("boss", "Boss", is_admin=True)
    assert (await service.handle(PLACE, admin, "/grant ann 5")).public == ["Ann receives 5 chips."]


async def test_the_chats_language_is_for_organizers(service: Service, tmp_path: Path) -> None:
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/balance")
    before = dump(tmp_path / "bot.db")
    refused = await service.handle(PLACE, BOB, "/lang ru")
    assert refused.error == ("Only the organizer — Ann — chooses the chat's language; /lang ru me chooses yours for "
                             "what only you read.")
    assert dump(tmp_path / "bot.db") == before, "a refusal changes nothing"
    assert (await service.handle(PLACE, ANN, "/lang ru")).public == ["Язык чата: русский (ru)."]


async def test_anyone_chooses_the_language_of_his_own_private_messages(service: Service) -> None:
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join")
    chosen = await service.handle(PLACE, BOB, "/lang ru me")
    assert chosen.public == [] and chosen.private == {
        "bob": ["Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой."]}
    assert (await service.handle(PLACE, BOB, "/lang")).private["bob"] == [
        "Язык чата: English (en); можно выбрать: English (en), русский (ru). /lang ru я выбирает язык только для "
        "ваших личных сообщений.",
        "Язык ваших личных сообщений: русский (ru)."]
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and "Hand #1: button" in dealt.table.text, "the table stays in the chat's language"
    assert dealt.private["bob"] == ["Ваши карты: 4♦ 8♦"] and dealt.private["ann"] == ["Your cards: 7♠ 2♠"]  # seed 42
    assert (await service.handle(PLACE, BOB, "/balance")).private["bob"] == ["В кошельке 600 фишек."]
    assert (await service.handle(PLACE, BOB, "/grant ann 5")).error == "Это может только организатор — Ann."
    assert (await service.handle(PLACE, BOB, "/frobnicate")).error == text("ru", "parse.unknown_command",
                                                                           command="/\u2060frobnicate")
    assert (await service.handle(PLACE, BOB, "/help")).private["bob"][0].startswith("Команды:")
    assert (await service.handle(PLACE, ANN, "/balance")).private["ann"] == ["Your wallet: 600 chips."]
    assert (await service.handle(PLACE, BOB, "/lang en me")).private == {
        "bob": ["Your private messages are now in English (en); the chat keeps its own language."]}
    assert (await service.handle(PLACE, BOB, "/balance")).private["bob"] == ["Your wallet: 600 chips."]
