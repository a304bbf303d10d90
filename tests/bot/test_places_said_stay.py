"""A tournament place said final stays said (RULES.md §1c is silent; a card room never takes back a place it
announced): the rebuy period given back after downtime or a pause (`Tournament.reopen_rebuys`) does not run again once
a player went out, with his place said, after the period ended, so no comeback or late entry renumbers it.

A three-player rebuy night (one rebuy each, no-limit) starts at 18:58, two minutes before the rebuy period ends with
the first break at 19:00; the first hand, dealt then, is played out at 19:00:05, Cat folding and Ann and Bob all-in:
each says to run the board once; one of them is eliminated, in 3rd place, after the period's end."""

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    at,
    everything_said,
    ledger_ok,
    listen,
    night_registered,
    restart_after_downtime,
    shove_out,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
OVER = "The rebuy period is over (it ends at the first break)."


async def start_the_night(service: Service, clock: FakeClock) -> Reply:
    """The night (see the module's docstring) created at 18:50 and started at 18:58, its first hand dealt."""
    clock.current = at(18, 50)
    await night_registered(service, PLAYERS.values(), "home-night rebuys 1")
    clock.current = at(18, 58)
    reply = await service.handle(PLACE, ANN, "/tournament start")
    assert reply.error is None, reply.error
    return reply


async def bust_after_the_rebuy_period(service: Service, clock: FakeClock, *, pause_at: float | None = None) -> Actor:
    """The night to the bust at 19:00:05, the table paused at `pause_at` (before the period's end) when given, as
    when a Telegram forum topic refuses the bot while its buttons still work. The busted player, told his place at
    once."""
    reply = await start_the_night(service, clock)
    if pause_at is not None:
        clock.current = pause_at
        await service.pause([PLACE.table_id])
    clock.current = at(19, 0, 5)
    said = everything_said(await shove_out(service, reply, PLAYERS, CAT))
    busted = [actor for actor in (ANN, BOB) if f"{actor.name} is eliminated in 3rd place." in said]
    assert len(busted) == 1, said
    return busted[0]


async def test_a_crash_after_a_bust_past_the_rebuy_period_does_not_give_it_back(tmp_path: Path) -> None:
    """The bot crashes right after the bust at 19:00:05, before its 19:00 announcement fired, and starts again at
    19:30: the bust is its last stored action, so its downtime began after the period's end, which it did not cut
    short. Nothing is given back; the busted player's place stands (no /rebuy, no late entry)."""
    store = await Store.open(tmp_path / "bot.db")
    clock = FakeClock(at(18, 50))
    service = await started_service(store, clock, seed=3)
    busted = await bust_after_the_rebuy_period(service, clock)
    await store.close()  # a crash: no clean stop

    reopened, restarted, heard = await restart_after_downtime(tmp_path / "bot.db", FakeClock(at(19, 30)))
    assert "runs again" not in everything_said(heard)
    before = await reopened.read(lambda tx: tx.balances(""))
    assert (await restarted.handle(PLACE, busted, "/rebuy")).error == OVER
    assert await reopened.read(lambda tx: tx.balances("")) == before
    await ledger_ok(restarted)
    await reopened.close()


@pytest.mark.parametrize(("language", "refused"), [
    ("en", OVER),
    ("ru", "Время ребаев прошло (оно кончается с первым перерывом)."),
])
async def test_a_pause_across_a_bust_past_the_rebuy_period_does_not_give_it_back(store: Store, language: str,
                                                                                 refused: str) -> None:
    """The table pauses at 18:58:30 (the bot cannot post in its topic) but its buttons still work: the hand is played
    out at 19:00:05 and a player is eliminated in 3rd place, said final, the period over. When play resumes at 19:30
    the clock's 19:00 announcement fires with the pause's start: the pause took 30 seconds of the period, but a place
    was said since its end, so it does not run again (which let the busted player rebuy, and the place said move)."""
    clock = FakeClock(at(18, 50))
    service = await started_service(store, clock, seed=3)
    busted = await bust_after_the_rebuy_period(service, clock, pause_at=at(18, 58, 30))
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    heard: list[Reply] = listen(service)
    clock.current = at(19, 30)
    await service.resume([PLACE.table_id])
    await service.scheduler.fire_due()
    assert "runs again" not in everything_said(heard) and "идёт снова" not in everything_said(heard)
    before = await service.store.read(lambda tx: tx.balances(""))
    assert (await service.handle(PLACE, busted, "/rebuy")).error == refused
    assert await service.store.read(lambda tx: tx.balances("")) == before
    await ledger_ok(service)


async def test_places_said_at_the_periods_end_on_a_paused_table_keep_it_from_running_again(store: Store) -> None:
    """A player busts at 18:58:10, out for now; the table pauses at 18:58:30 with the next hand dealt, whose buttons
    still work: it ends at 19:00:05 with nobody out, and the places of those out are said final. When play resumes
    at 19:30 the rebuy period does not run again, and the busted player's place stands."""
    clock = FakeClock(at(18, 50))
    service = await started_service(store, clock, seed=3)
    reply = await start_the_night(service, clock)
    clock.current = at(18, 58, 10)
    said = everything_said(await shove_out(service, reply, PLAYERS, CAT))
    [busted] = [actor for actor in (ANN, BOB) if f"{actor.name} is out for now and may come back" in said]
    left = ANN if busted is BOB else BOB
    clock.current = at(18, 58, 20)
    reply = await service.handle(PLACE, left, "/deal")
    assert reply.error is None, reply.error
    clock.current = at(18, 58, 30)
    await service.pause([PLACE.table_id])
    clock.current = at(19, 0, 5)
    assert reply.table is not None and reply.table.to_act is not None
    ended = await service.handle(PLACE, PLAYERS[reply.table.to_act], "/fold")
    assert f"The rebuy period is over, so the places of those out are final: 3. {busted.name}" in everything_said(
        [ended])
    heard: list[Reply] = listen(service)
    clock.current = at(19, 30)
    await service.resume([PLACE.table_id])
    await service.scheduler.fire_due()
    assert "runs again" not in everything_said(heard)
    assert (await service.handle(PLACE, busted, "/rebuy")).error == OVER
    await ledger_ok(service)
