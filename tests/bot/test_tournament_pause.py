"""The organizer's pause of a tournament clock through the service: the appointments of a schedule by the clock
(`home-night`'s break at 19:00–20:00, RULES.md §1) stay where they are across a pause and a restart during it; the
hand in play is finished, no new hand is dealt, and purchases between hands go on, as in a card room."""

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import (
    at,
    ledger_ok,
    night_registered,
    play_out,
    restart_after_downtime,
    shove_out,
    started_service,
)
from tests.bot.test_service_tournament_options import seat_stacks, start_rebuy_night

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
LEVEL_LEFT = {"en": "⏱ Level 1: limits 10/20 (blinds 5/10), {}m left; next: break.",
              "ru": "⏱ Уровень 1: лимиты 10/20 (блайнды 5/10), осталось {}\xa0мин; дальше: перерыв."}
PAUSED = {"en": " (clock paused)", "ru": " (часы на паузе)"}
EVENING = {
    "en": ["⏱ Break in 1 minute.", "⏸ Break until 20:00.", "⏱ Limits go up to 50/100 in 5 minutes.",
           "⏱ Limits go up to 50/100 in 1 minute.", "▶ Play resumes: limits 50/100."],
    "ru": ["⏱ Перерыв через 1 минуту.", "⏸ Перерыв до 20:00.", "⏱ Через 5 минут лимиты поднимутся до 50/100.",
           "⏱ Через 1 минуту лимиты поднимутся до 50/100.", "▶ Игра продолжается: лимиты 50/100."],
}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_pause_from_18_50_to_18_55_moves_neither_the_break_nor_the_new_limits(
        tmp_path: Path, language: str) -> None:
    """Paused at 18:50 (10 minutes left), the bot restarted at 18:52, resumed at 18:55: 5 minutes are left, not 10,
    the break still comes at 19:00 and ends at 20:00, and the clock says each of its announcements on time."""
    clock = FakeClock(at(18, 0))
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=5)
    await service.handle(PLACE, ANN, f"/lang {language}")
    await night_registered(service, PLAYERS.values(), structure=None)
    await play_out(service, PLACE, PLAYERS, await service.handle(PLACE, ANN, "/tournament start"),
                   preference=("fold", "check"))
    clock.current = at(18, 50)
    paused = await service.handle(PLACE, ANN, "/tournament pause")
    assert paused.public == [LEVEL_LEFT[language].format(10) + PAUSED[language]]
    clock.current = at(18, 52)
    await store.close()
    store, service, heard = await restart_after_downtime(tmp_path / "bot.db", clock)
    assert (await service.handle(PLACE, BOB, "/clock")).public == [LEVEL_LEFT[language].format(8) + PAUSED[language]]
    clock.current = at(18, 55)
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    assert resumed.public == [LEVEL_LEFT[language].format(5)]
    for hour, minute in ((18, 56), (18, 59), (19, 0), (19, 55), (19, 59), (20, 0)):  # each when its timer fires
        clock.current = at(hour, minute)
        await service.scheduler.fire_due()
    said = [message for reply in heard for message in reply.public]
    assert said == EVENING[language]
    await store.close()


@pytest.mark.parametrize(("language", "paused", "rebought"), [
    ("en", "The clock is paused: no hand is dealt until the organizer resumes it (/tournament resume).",
     "{player} rebuys: 300 chips for 50."),
    ("ru", "Часы на паузе: раздач не будет, пока организатор их не запустит (/tournament resume).",
     "{player} делает ребай: 300 фишек за 50."),
])
async def test_a_paused_clock_lets_the_hand_in_play_finish_and_a_rebuy_but_deals_no_hand(
        store: Store, language: str, paused: str, rebought: str) -> None:
    """RULES.md only says the organizer pauses and resumes the clock; a card room then finishes the hand in play and
    deals no new one. Paused during the first hand of a two-player rebuy night, the hand is played out (all-in: one
    player busts, out for now); the busted player's rebuy is taken (the clock standing before the first break, the
    rebuy period stands); the deal is refused, saying why, and changes nothing; resumed, the next hand is dealt."""
    service = await started_service(store, FakeClock(at(18, 0)), seed=3)
    await service.handle(PLACE, ANN, f"/lang {language}")
    started = await start_rebuy_night(service)
    assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
    await shove_out(service, started, {actor.user_id: actor for actor in (ANN, BOB)})
    [busted] = [actor for actor in (ANN, BOB) if actor.user_id not in await seat_stacks(service)]
    left = ANN if busted is BOB else BOB
    back = await service.handle(PLACE, busted, "/rebuy")
    assert (back.error, back.public) == (None, [rebought.format(player=busted.name)])
    before = dump(service.store.location)
    assert (await service.handle(PLACE, left, "/deal")).error == paused
    assert dump(service.store.location) == before
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    assert resumed.table is not None and resumed.table.to_act is not None, "resumed, the next hand is dealt"
    await ledger_ok(service)
