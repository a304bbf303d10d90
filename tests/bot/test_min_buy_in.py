"""A cash table's minimum buy-in (`/set min_buy_in`): the fewest chips a first `/join` may bring. A table that never
set it asks ten levels (200 at the default level of 20); it is never above the maximum buy-in, and the table's buy-in
(what a plain `/join` brings) is never below it.

Every player's wallet starts with the welcome grant of 1,000; Ann, the first to speak, is the chat's organizer."""

from __future__ import annotations

import pytest

from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE, dump
from tests.bot.helpers import ledger_ok, refused_without_change

BOB_WALLET = f"wallet:{PLACE.chat_id}:bob"


async def settings(service: Service) -> list[str]:
    """The lines of the settings listing, told to Ann."""
    return (await service.handle(PLACE, ANN, "/set")).private["ann"][0].split("\n")


async def test_a_table_that_never_set_it_asks_ten_levels(service: Service) -> None:
    await service.handle(PLACE, ANN, "/balance")
    assert "min_buy_in — minimum buy-in: 200" in await settings(service)
    before = dump(service.store.location)
    assert (await service.handle(PLACE, BOB, "/join 199")).error == "A buy-in of 199 is too small: at least 200."
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/set level 40")).error is None
    assert "min_buy_in — minimum buy-in: 400" in await settings(service)


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "A buy-in of 299 is too small: at least 300."),
    ("ru", "Бай-ин 299 слишком мал: нужно не меньше 300."),
])
async def test_a_first_buy_in_below_the_set_minimum_is_refused_and_one_at_it_sits(service: Service, language: str,
                                                                                  reason: str) -> None:
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 300")).public == [
        "Setting changed: minimum buy-in — 300."]
    assert "min_buy_in — minimum buy-in: 300" in await settings(service)
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, BOB, "/balance")  # his wallet's grant
    before = dump(service.store.location)
    refused = await service.handle(PLACE, BOB, "/join 299")
    assert refused.error == reason
    assert refused.public == [] and refused.private == {} and refused.table is None
    assert dump(service.store.location) == before  # no seat, no chip moved
    seated = await service.handle(PLACE, BOB, "/join 300")
    assert seated.error is None and seated.table is not None
    assert await service.store.read(lambda tx: tx.balance(BOB_WALLET)) == 700
    await ledger_ok(service)


async def test_a_minimum_below_ten_levels_seats_a_shorter_stack(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 100")).error is None
    assert (await service.handle(PLACE, BOB, "/join 100")).public[0] == "Bob sits down with 100 chips."
    assert (await service.handle(PLACE, ANN, "/join 99")).error == "A buy-in of 99 is too small: at least 100."
    await ledger_ok(service)


@pytest.mark.parametrize(("first", "then", "language", "reason"), [
    ("/set max_buy_in 600", "/set min_buy_in 700", "en",
     "A minimum buy-in of 700 is above the table's maximum buy-in (600): at most 600."),
    ("/set max_buy_in 600", "/set min_buy_in 700", "ru",
     "Минимальный бай-ин 700 больше максимального бай-ина стола (600): можно не больше 600."),
    ("/set min_buy_in 500", "/set max_buy_in 499", "en",
     "A maximum buy-in of 499 is below the table's minimum buy-in (500): at least 500."),
    ("/set min_buy_in 500", "/set max_buy_in 499", "ru",
     "Максимальный бай-ин 499 меньше минимального бай-ина стола (500): нужно не меньше 500."),
])
async def test_a_minimum_above_the_maximum_is_refused_either_way(service: Service, first: str, then: str,
                                                                language: str, reason: str) -> None:
    assert (await service.handle(PLACE, ANN, first)).error is None
    await refused_without_change(service, ANN, then, {language: reason})


async def test_a_maximum_may_equal_the_minimum(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 500")).error is None
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 500")).error is None


async def test_a_minimum_above_an_unset_maximum_is_refused(service: Service) -> None:
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 2001")).error == (
        "A minimum buy-in of 2,001 is above the table's maximum buy-in (2,000): at most 2,000.")
    assert dump(service.store.location) == before


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "“{typed}” is not a valid value for “minimum buy-in” (/set min_buy_in takes 1, 2, 3…)."),
    ("ru", "«{typed}» — недопустимое значение для настройки «минимальный бай-ин» (/set min_buy_in принимает 1, 2, "
           "3…)."),
])
@pytest.mark.parametrize("typed", ["-5", "0", "abc", "12345678901234567890"])
async def test_a_bad_minimum_is_refused(service: Service, language: str, reason: str, typed: str) -> None:
    await refused_without_change(service, ANN, f"/set min_buy_in {typed}", {language: reason.format(typed=typed)})


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Setting changed: minimum buy-in — 500.",
            "The table's buy-in rises to 500, so as not to be below its minimum buy-in."]),
    ("ru", ["Настройка изменена: минимальный бай-ин — 500.",
            "Бай-ин стола поднимается до 500, чтобы не быть меньше минимального бай-ина."]),
])
async def test_a_minimum_above_the_buy_in_takes_it_up(service: Service, language: str, said: list[str]) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 500")).public == said
    await service.handle(PLACE, ANN, "/lang en")
    assert (await service.handle(PLACE, BOB, "/join")).public[0] == "Bob sits down with 500 chips."
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set buy_in 450")).error == (
        "A buy-in of 450 is too small: at least 500.")
    assert dump(service.store.location) == before


async def test_a_set_minimum_stays_when_the_level_rises(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set min_buy_in 300")).error is None
    assert (await service.handle(PLACE, ANN, "/set level 40")).public == ["Setting changed: level — 40."]
    assert "min_buy_in — minimum buy-in: 300" in await settings(service)
    assert (await service.handle(PLACE, BOB, "/join 300")).public[0] == "Bob sits down with 300 chips."
