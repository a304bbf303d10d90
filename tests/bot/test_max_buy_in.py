"""A cash table's maximum buy-in (`/set max_buy_in`): one bound for the first `/join` and for every top-up. A table
that never set it takes five buy-ins (2,000 at the default buy-in of 400); it is never below the buy-in.

Every player's wallet starts with the welcome grant of 1,000; Ann, the first to speak, is the chat's organizer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, PLACE, dump
from tests.bot.helpers import ledger_ok, refused_without_change, started_service

ANN_WALLET = f"wallet:{PLACE.chat_id}:ann"
BOB_WALLET = f"wallet:{PLACE.chat_id}:bob"


async def wallet(service: Service, account: str) -> int:
    return await service.store.read(lambda tx: tx.balance(account))


async def settings(service: Service) -> list[str]:
    """The lines of the settings listing, told to Ann."""
    return (await service.handle(PLACE, ANN, "/set")).private["ann"][0].split("\n")


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "A buy-in of 700 is more than the table's maximum buy-in (600)."),
    ("ru", "Бай-ин 700 больше максимального бай-ина стола (600)."),
])
async def test_a_first_buy_in_over_the_maximum_is_refused_and_one_at_it_sits(service: Service, language: str,
                                                                             reason: str) -> None:
    await service.handle(PLACE, ANN, "/balance")  # her wallet's grant
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 600")).public == [
        "Setting changed: maximum buy-in — 600."]
    await refused_without_change(service, ANN, "/join 700", {language: reason})  # no seat, no chip moved
    assert await wallet(service, ANN_WALLET) == 1000
    seated = await service.handle(PLACE, ANN, "/join 600")
    assert seated.error is None and seated.table is not None
    assert await wallet(service, ANN_WALLET) == 400
    await ledger_ok(service)


async def test_a_table_that_never_set_it_takes_five_buy_ins(service: Service) -> None:
    await service.handle(PLACE, ANN, "/balance")
    assert "max_buy_in — maximum buy-in: 2,000" in await settings(service)
    before = dump(service.store.location)
    assert (await service.handle(PLACE, BOB, "/join 2001")).error == (
        "A buy-in of 2,001 is more than the table's maximum buy-in (2,000).")
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/set buy_in 500")).public == ["Setting changed: buy-in — 500."]
    assert "max_buy_in — maximum buy-in: 2,500" in await settings(service)


async def test_a_top_up_stops_at_the_maximum(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 600")).error is None
    assert (await service.handle(PLACE, BOB, "/join")).public[0] == "Bob sits down with 400 chips."
    before = dump(service.store.location)
    over = await service.handle(PLACE, BOB, "/join 300")
    assert over.error == ("A top-up of 300 would take your stack (400) over the table's maximum buy-in (600): at most "
                          "200.")
    plain = await service.handle(PLACE, BOB, "/join")  # a plain /join tops up to the buy-in, which he has
    assert plain.error == ("Your stack (400) has already reached the table's buy-in (400), so /join alone adds "
                           "nothing. To add more, type /join and the number of chips, at most 200 (the table's maximum "
                           "buy-in is 600).")
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, BOB, "/join 200")).public == ["Bob tops up 200 chips: stack 600."]
    assert (await service.handle(PLACE, BOB, "/join 1")).error == (
        "Your stack (600) has reached the table's maximum buy-in (600): a top-up only brings a stack up to it.")
    assert await wallet(service, BOB_WALLET) == 400
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "A maximum buy-in of 300 is below the table's buy-in (400), which a plain /join brings: at least 400."),
    ("ru", "Максимальный бай-ин 300 меньше бай-ина стола (400), с которым садятся по /join без суммы: нужно не меньше "
           "400."),
])
async def test_a_maximum_below_the_buy_in_is_refused(service: Service, language: str, reason: str) -> None:
    await refused_without_change(service, ANN, "/set max_buy_in 300", {language: reason})
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 400")).error is None  # the buy-in itself will do


async def test_a_buy_in_raised_past_the_maximum_takes_it_up(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 500")).error is None
    assert (await service.handle(PLACE, ANN, "/set buy_in 600")).public == [
        "Setting changed: buy-in — 600.", "The table's maximum buy-in rises to 600, so as not to be below its buy-in."]
    raised = await service.handle(PLACE, ANN, "/set level 80")
    assert raised.public == ["Setting changed: level — 80.",
                             "The table's buy-in rises with it to 800, ten times the level.",
                             "The table's maximum buy-in rises to 800, so as not to be below its buy-in."]
    assert "max_buy_in — maximum buy-in: 800" in await settings(service)
    assert (await service.handle(PLACE, BOB, "/join")).public[0] == "Bob sits down with 800 chips."


async def test_the_maximum_is_kept_across_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=3)
    assert (await service.handle(PLACE, ANN, "/set max_buy_in 600")).error is None
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=4)
    await restarted.handle(PLACE, ANN, "/lang ru")
    assert (await restarted.handle(PLACE, ANN, "/join 700")).error == (
        "Бай-ин 700 больше максимального бай-ина стола (600).")
    assert "max_buy_in — максимальный бай-ин: 600" in await settings(restarted)
    await store.close()
