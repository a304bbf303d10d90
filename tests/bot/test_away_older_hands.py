"""A tournament player away from the deal is dealt in and blinded out (RULES.md §1a): the engine folds his hand the
moment his turn comes, so his turn never reaches the table and no timer waits for it. Only a hand an older version
dealt, before the engine knew he was absent, still brings his turn to the table: it passes after a moment
(`bot.games.holdem.ABSENT_SECONDS`), checking or folding without a word."""

from typing import Any

import pytest

from bot.clock import FakeClock
from bot.games.holdem import HoldemController
from bot.output import Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE
from tests.bot.helpers import (
    calls_to,
    deal_next,
    ledger_ok,
    patches_compiled_code,
    play_out,
    press_label,
    restart_after_downtime,
    rewrite_saved_hand,
)
from tests.bot.test_away import JACKS, tournament_of_four
from tests.bot.test_table_options import PLAYERS


async def dan_away_from_hand_two(store: Store, decks: list[str]) -> tuple[Service, FakeClock, Reply]:
    """Dan goes away in the first hand and plays it out; the second is dealt (Bob's button, Cat's small blind, Dan's
    big blind, Ann to act) with Dan blinded out: the service, its clock and the second hand's table."""
    service, clock, started = await tournament_of_four(store, decks, JACKS)
    assert (await service.handle(PLACE, DAN, "/away")).error is None
    await play_out(service, PLACE, PLAYERS, started)
    dealt = await deal_next(service, clock)
    assert dealt.table is not None and dealt.table.to_act == "ann"
    return service, clock, dealt


@patches_compiled_code("HoldemController._turn_limit (its calls counted)")
async def test_the_turn_of_a_player_away_from_the_deal_never_reaches_the_table(
        store: Store, decks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Dan's hand is folded as his turn comes: the turn time is asked for the others' turns alone."""
    service, _, dealt = await dan_away_from_hand_two(store, decks)
    limits = calls_to(monkeypatch, HoldemController, "_turn_limit")  # (controller, action, player) each
    for actor in (ANN, BOB, CAT):
        dealt = await service.press(PLACE, actor, press_label(dealt, "call"))
    assert dealt.table is not None and dealt.table.text.splitlines()[-4:] == [
        "Cat calls 5.", "Dan folds.", "Flop: A♠ 3♥ 7♥", "▶ Cat to act (⏱ 60\xa0s)."]
    assert [call[2] for call in limits] == ["bob", "bob", "cat", "cat", "cat", "cat"], "never Dan's"
    await ledger_ok(service)


async def test_in_a_hand_an_older_version_dealt_his_turn_passes_after_a_moment(store: Store, decks: list[str]) -> None:
    """The second hand as an older version saved it, with no player marked absent in it: after a restart Dan's turn
    comes to the table for 2 seconds, with no time bank, and passes (a check, as the big blind of a limped pot)
    without being told as a time-out."""
    _, clock, _ = await dan_away_from_hand_two(store, decks)
    await rewrite_saved_hand(store, PLACE, clock.now(), unmarked)
    await store.close()
    reopened, restarted, _ = await restart_after_downtime(store.location, clock)
    try:
        reply = await restarted.handle(PLACE, ANN, "/table")
        for actor in (ANN, BOB, CAT):
            reply = await restarted.press(PLACE, actor, press_label(reply, "call"))
        assert reply.table is not None and reply.table.to_act == "dan"
        assert reply.table.text.splitlines()[-2:] == ["Cat calls 5.", "▶ Dan to act (⏱ 2\xa0s)."]
        clock.advance(1.9)
        assert await restarted.scheduler.fire_due() == 0
        clock.advance(0.1)
        assert await restarted.scheduler.fire_due() == 1
        reply = await restarted.handle(PLACE, ANN, "/table")
        assert reply.table is not None and reply.table.text.splitlines()[-4:] == [
            "Cat calls 5.", "Dan checks.", "Flop: A♠ 3♥ 7♥", "▶ Cat to act (⏱ 60\xa0s)."]
        await ledger_ok(restarted)
    finally:
        await reopened.close()


def unmarked(hand: dict[str, Any]) -> None:
    """The saved hand as a version before the engine's absent players wrote it: no seat says whether it is absent."""
    for seat in hand["seats"]:
        del seat["absent"]
