"""`/set` in the reader's language: each setting named by its label and its words by theirs, the word `/set` takes
beside them where it differs (it answered "Настройка изменена: structure = no-limit." in a Russian chat, and listed
`name=value` pairs)."""

from __future__ import annotations

import pytest

from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE, dump

CASH_LISTING = {
    "en": "Table settings:\n"
          "structure — betting structure: home-limit\n"
          "level — level: 20\n"
          "buy_in — buy-in: 400\n"
          "min_buy_in — minimum buy-in: 200\n"
          "max_buy_in — maximum buy-in: 2,000\n"
          "turn_seconds — turn time (seconds): 60\n"
          "next_hand_seconds — pause between hands (seconds): 8\n"
          "max_seats — seats: 10\n"
          "pictures — pictures: every street (streets)\n"
          "time_bank — time bank (seconds): 60\n"
          "straddle — straddle: on\n"
          "away_minutes — time away before standing up (minutes): 30\n"
          "run_it_twice — run it twice: on\n"
          "timezone — time zone: Europe/Moscow\n"
          "Organizers change them with /set name value.",
    "ru": "Настройки стола:\n"
          "structure — структура ставок: домашний лимит (home-limit)\n"
          "level — уровень: 20\n"
          "buy_in — бай-ин: 400\n"
          "min_buy_in — минимальный бай-ин: 200\n"
          "max_buy_in — максимальный бай-ин: 2\u00a0000\n"
          "turn_seconds — время на ход (сек.): 60\n"
          "next_hand_seconds — пауза между раздачами (сек.): 8\n"
          "max_seats — число мест: 10\n"
          "pictures — картинки: на каждой улице (streets)\n"
          "time_bank — запас времени (сек.): 60\n"
          "straddle — стрэддл: вкл (on)\n"
          "away_minutes — время отсутствия до ухода из-за стола (мин.): 30\n"
          "run_it_twice — раздача борда дважды: вкл (on)\n"
          "timezone — часовой пояс: Europe/Moscow\n"
          "Организаторы меняют их командой /set имя значение.",
}
ANSWERS = {
    "en": ["Setting changed: pictures — every street.", "Setting changed: straddle — on.",
           "Setting changed: time zone — Europe/Moscow."],
    "ru": ["Настройка изменена: картинки — на каждой улице.", "Настройка изменена: стрэддл — вкл.",
           "Настройка изменена: часовой пояс — Europe/Moscow."],
}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_cash_table_lists_and_answers_each_setting_by_its_label(service: Service, language: str) -> None:
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    answers = [await service.handle(PLACE, ANN, line)
               for line in ("/set pictures streets", "/set straddle on", "/set timezone europe/moscow")]
    assert [reply.public for reply in answers] == [[said] for said in ANSWERS[language]]
    listed = await service.handle(PLACE, ANN, "/set")
    assert (listed.public, listed.private) == ([], {"ann": [CASH_LISTING[language]]})


async def test_a_structure_is_said_as_the_tables_title_says_it(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).public == [
        "Настройка изменена: структура ставок — безлимит."]
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join")
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/set structure fixed-limit")).public == [
        "Настройка изменена: структура ставок — фикс-лимит, со следующей раздачи (текущая доигрывается как была "
        "сдана)."]


async def test_a_house_table_lists_its_own_settings_by_their_labels(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/set ante_bonus always")).public == [
        "Настройка изменена: бонус к АНТЕ платится — всегда."]
    assert (await service.handle(PLACE, ANN, "/set max_payout 5000")).public == [
        "Настройка изменена: максимальная выплата на бокс — 5\u00a0000."]
    assert (await service.handle(PLACE, ANN, "/set")).private == {"ann": [
        "Настройки стола:\n"
        "min_ante — минимальное АНТЕ: 1\n"
        "max_ante — максимальное АНТЕ: 50\n"
        "max_payout — максимальная выплата на бокс: 5\u00a0000\n"
        "bet_seconds — время на ставки (сек.): 30\n"
        "turn_seconds — время на ход (сек.): 60\n"
        "pictures — картинки: вкл (on)\n"
        "tier — уровень лимитов: LITE (lite)\n"
        "ante_bonus — бонус к АНТЕ платится: всегда (always)\n"
        "timezone — часовой пояс: UTC\n"
        "Организаторы меняют их командой /set имя значение."]}


async def test_a_tier_typed_in_capitals_is_said_as_the_listing_shows_it(service: Service) -> None:
    # "/set tier VIP" answered "limits tier — VIP." while /set listed the same tier as "vip": both name it VIP now
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/set tier VIP")).public == ["Setting changed: limit tier — VIP."]
    assert "tier — limit tier: VIP (vip)\n" in (await service.handle(PLACE, ANN, "/set")).private["ann"][0]


async def test_a_holdem_word_typed_in_capitals_is_taken_and_said_as_the_listing_shows_it(service: Service) -> None:
    # Hold'em refused "/set straddle ON" («“ON” is not a valid value … takes on, off») where house tables took it
    answers = [await service.handle(PLACE, ANN, line) for line in (
        "/set structure NO-LIMIT", "/set straddle ON", "/set pictures Streets", "/set run_it_twice OFF")]
    assert [(reply.error, reply.public) for reply in answers] == [
        (None, ["Setting changed: betting structure — no-limit."]), (None, ["Setting changed: straddle — on."]),
        (None, ["Setting changed: pictures — every street."]), (None, ["Setting changed: run it twice — off."])]
    listed = (await service.handle(PLACE, ANN, "/set")).private["ann"][0].split("\n")
    assert [line for line in listed if line.startswith(("structure", "straddle", "pictures", "run_it"))] == [
        "structure — betting structure: no-limit", "pictures — pictures: every street (streets)",
        "straddle — straddle: on", "run_it_twice — run it twice: off"]
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set straddle YES")).error == (
        "“YES” is not a valid value for “straddle” (/set straddle takes on, off).")
    assert dump(service.store.location) == before


async def test_a_value_is_taken_as_the_listing_labels_it_in_the_players_language(service: Service) -> None:
    # a Russian player reads «стрэддл: вкл (on)» in the listing, and "/set straddle вкл" was refused («“вкл” —
    # недопустимое значение…»): only the English word was taken
    await service.handle(PLACE, ANN, "/lang ru")
    answers = [await service.handle(PLACE, ANN, line) for line in (
        "/set straddle ВКЛ", "/set structure безлимит", "/set run_it_twice выкл")]
    assert [(reply.error, reply.public) for reply in answers] == [
        (None, ["Настройка изменена: стрэддл — вкл."]),
        (None, ["Настройка изменена: структура ставок — безлимит."]),
        (None, ["Настройка изменена: раздача борда дважды — выкл."])]
    await service.handle(PLACE, ANN, "/lang en")
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set straddle вкл")).error == (  # the labels of his own language only
        "“вкл” is not a valid value for “straddle” (/set straddle takes on, off).")
    assert dump(service.store.location) == before


async def test_a_house_tables_pictures_typed_in_capitals_are_taken(service: Service) -> None:
    # the house tables took a tier or an ante bonus in any case, but not their pictures: "/set pictures OFF" was refused
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/set pictures OFF")).public == ["Setting changed: pictures — off."]
    assert "pictures — pictures: off\n" in (await service.handle(PLACE, ANN, "/set")).private["ann"][0]


@pytest.mark.parametrize(("line", "refusal"), [
    ("/set structure pot-limit", "«pot-limit» — недопустимое значение для настройки «структура ставок» (/set structure "
                                 "принимает home-limit, fixed-limit, no-limit)."),
    ("/set straddle да", "«да» — недопустимое значение для настройки «стрэддл» (/set straddle принимает on, off)."),
    ("/set seats 9", "Настройки «seats» нет; настройки: structure (структура ставок), level (уровень), buy_in "
                     "(бай-ин), min_buy_in (минимальный бай-ин), max_buy_in (максимальный бай-ин), turn_seconds "
                     "(время на ход (сек.)), "
                     "next_hand_seconds (пауза между раздачами (сек.)), "
                     "max_seats (число мест), pictures (картинки), time_bank (запас времени (сек.)), straddle "
                     "(стрэддл), away_minutes (время отсутствия до ухода из-за стола (мин.)), run_it_twice (раздача "
                     "борда дважды), timezone (часовой пояс)."),
])
async def test_a_refusal_names_the_setting_by_its_label_and_the_word_to_type(service: Service, line: str,
                                                                             refusal: str) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, line)
    assert (reply.error, reply.public) == (refusal, [])
    assert dump(service.store.location) == before


async def test_a_player_who_reads_russian_in_an_english_chat_is_told_in_russian_and_the_chat_in_english(
        service: Service) -> None:
    """What only the organizer reads (the listing, a refusal) is in his own language, labels included; what the
    channel reads stays in the chat's."""
    await service.handle(PLACE, ANN, "/balance")  # the chat's organizer
    assert (await service.handle(PLACE, ANN, "/lang ru me")).error is None
    assert (await service.handle(PLACE, ANN, "/set max_seats 1")).error == (
        "«1» — недопустимое значение для настройки «число мест» (/set max_seats принимает 2…22).")
    assert (await service.handle(PLACE, ANN, "/set max_seats 6")).public == ["Setting changed: seats — 6."]
    listed = (await service.handle(PLACE, ANN, "/set")).private["ann"][0].split("\n")
    assert (listed[0], listed[8]) == ("Настройки стола:", "max_seats — число мест: 6")
