"""A tournament place said final stays said (RULES.md §1c is silent; a card room never takes back a place it
announced): the rebuy period given back after downtime (`Tournament.reopen_rebuys`) does not run again once a player
went out, with his place said, after the period ended, so no comeback or late entry renumbers it. A table paused
because the bot cannot reach its chat plays nothing, so no place is said during its pause: the period it took is given
back (`bot.service.pauses`).

A three-player rebuy night (one rebuy each, no-limit) starts at 18:58, two minutes before the rebuy period ends with
the first break at 19:00; the first hand, dealt then, is played out at 19:00:05, Cat folding and Ann and Bob all-in:
each says to run the board once; one of them is eliminated, in 3rd place, after the period's end."""

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
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


async def bust_after_the_rebuy_period(service: Service, clock: FakeClock) -> Actor:
    """The night to the bust at 19:00:05. The busted player, told his place at once."""
    reply = await start_the_night(service, clock)
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


PAUSED = {"en": "This table is paused: the bot cannot post in this chat. Play goes on where it stopped once it can.",
          "ru": "Стол на паузе: бот не может писать в этот чат. Игра продолжится с того же места, когда он снова "
                "сможет."}
GIVEN_BACK = {"en": "The rebuy period ended while the table was paused (the bot could not reach this chat): it runs "
                    "again until 19:31:30, for as long as the pause cut it short.",
              "ru": "Время ребаев закончилось, пока стол стоял на паузе (бот не мог связаться с этим чатом): оно идёт "
                    "снова до 19:31:30 — столько, сколько отняла пауза."}

CLOCK = {"en": "⏸ Break until 20:00 (1h00m left).\n3 players left of 3 entries; 0 rebuys; paid in: 150.",
         "ru": "⏸ Перерыв до 20:00 (осталось 1\xa0ч\xa000\xa0мин).\n"
               "В игре 3 игрока, 3 входа в турнир; 0 ребаев; внесено: 150."}
OPTIONS = {"en": "Options: 1 rebuy per player until the first break, with 300 chips or fewer; a rebuy costs 50 for 300 "
                 "chips.",
           "ru": "Опции: 1 ребай на игрока до первого перерыва, при стеке не больше 300 фишек; ребай стоит 50 за 300 "
                 "фишек."}
"""What `/tournament status` says after the clock."""
CLOCK_OPTIONS = {"en": "Options: rebuys are over.", "ru": "Опции: ребаи закончились."}
"""What `/clock` says after the clock: the options in short, the rebuy period over at the break (given back only when
play resumes)."""
CARDS = {"en": "Your cards: 2♠ 8♥", "ru": "Ваши карты: 2♠ 8♥"}


async def refused_while_paused(service: Service, language: str, *lines: tuple[Actor, str]) -> None:
    """Each command is refused, saying the table is paused, and changes nothing."""
    before = dump(service.store.location)
    for actor, line in lines:
        reply = await service.handle(PLACE, actor, line)
        assert (reply.error, reply.public, reply.private, reply.table) == (PAUSED[language], [], {}, None), line
    assert dump(service.store.location) == before


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_paused_tables_hand_waits_and_the_rebuy_period_the_pause_took_is_given_back(
        store: Store, language: str) -> None:
    """The table pauses at 18:58:30 (the bot cannot post in its topic) with the first hand in play, whose buttons still
    reach the bot. Nothing is played while it is paused (the players see nothing of the table): at 19:00:05 the
    player to act, a deal, a cash-out, a registration and the organizer's close are refused, saying why, and change
    nothing; the table (as it stood), the clock, the tournament's status and one's cards are still answered. When
    play resumes at 19:30 the rebuy period gets back the minute and a half the pause took from it, the hand is played
    out from where it stopped, and the player it eliminates is out for now and may rebuy (no place was said final
    during the pause)."""
    clock = FakeClock(at(18, 50))
    service = await started_service(store, clock, seed=3)
    reply = await start_the_night(service, clock)
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    clock.current = at(18, 58, 30)
    assert reply.table is not None and reply.table.to_act is not None
    to_act = PLAYERS[reply.table.to_act]
    as_paused = (await service.handle(PLACE, to_act, "/table")).table
    await service.pause([PLACE.table_id])
    clock.current = at(19, 0, 5)
    await refused_while_paused(service, language, (to_act, "/allin"), (to_act, "/fold"), (CAT, "/deal"),
                               (CAT, "/cashout"), (Actor("dan", "Dan"), "/join"), (ANN, "/tournament close"))
    assert (await service.handle(PLACE, to_act, "/table")).table == as_paused, "the table as it stood"
    assert (await service.handle(PLACE, CAT, "/clock")).public == [f"{CLOCK[language]}\n{CLOCK_OPTIONS[language]}"]
    assert (await service.handle(PLACE, BOB, "/tournament status")).private == {
        "bob": [f"{CLOCK[language]}\n{OPTIONS[language]}"]}
    assert (await service.handle(PLACE, to_act, "/cards")).private == {to_act.user_id: [CARDS[language]]}
    heard: list[Reply] = listen(service)
    clock.current = at(19, 30)
    await service.resume([PLACE.table_id])
    await service.scheduler.fire_due()
    assert GIVEN_BACK[language] in everything_said(heard).splitlines()
    await service.handle(PLACE, ANN, "/lang en")
    said = everything_said(await shove_out(service, reply, PLAYERS, CAT))
    [busted] = [actor for actor in (ANN, BOB) if f"{actor.name} is out for now and may come back with /rebuy until " \
                "19:31:30." in said]
    assert (await service.handle(PLACE, busted, "/rebuy")).public == [f"{busted.name} rebuys: 300 chips for 50."]
    await ledger_ok(service)


async def test_a_player_out_for_now_when_the_table_pauses_rebuys_once_play_resumes(store: Store) -> None:
    """A player busts at 18:58:10, out for now; the table pauses at 18:58:30, between hands. During the pause his
    /rebuy and the next deal are refused and change nothing; when play resumes at 19:30 his rebuy is taken (the
    period runs again for the minute and a half the pause took), one he sent before the table resumed too: whether
    the table is paused is asked when the command runs, not when it is read."""
    clock = FakeClock(at(18, 50))
    service = await started_service(store, clock, seed=3)
    reply = await start_the_night(service, clock)
    clock.current = at(18, 58, 10)
    said = everything_said(await shove_out(service, reply, PLAYERS, CAT))
    [busted] = [actor for actor in (ANN, BOB) if f"{actor.name} is out for now and may come back" in said]
    left = ANN if busted is BOB else BOB
    clock.current = at(18, 58, 30)
    await service.pause([PLACE.table_id])
    clock.current = at(19, 0, 5)
    await refused_while_paused(service, "en", (busted, "/rebuy"), (left, "/deal"))
    clock.current = at(19, 30)
    rebuying = service.handle(PLACE, busted, "/rebuy")  # read while paused, run once resumed (as on Discord)
    await service.resume([PLACE.table_id])
    await service.scheduler.fire_due()
    back = await rebuying
    assert (back.error, back.public) == (None, [f"{busted.name} rebuys: 300 chips for 50."])
    await ledger_ok(service)
