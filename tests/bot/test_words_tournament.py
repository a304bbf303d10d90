"""A tournament's words (issue 16): a pause and a break say what they are, the seats say what is awaited, a late
start says where it begins, a setting says when it applies, the clock counts seconds in its last minute."""

from datetime import UTC, datetime

import pytest

from bot.clock import FakeClock
from bot.render import Voice
from bot.render.tournament import announcement, narrate
from bot.service import Service
from bot.store import Store
from engine.clock_events import Announcement, AnnouncementKind
from engine.schedule import parse_schedule
from engine.tournament import Tournament, TournamentConfig
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    at,
    everything_said,
    listen,
    night_registered,
    play_out,
    public_lines,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


async def _night(store: Store, start: float) -> tuple[Service, FakeClock]:
    clock = FakeClock(start)
    service = await started_service(store, clock, seed=5)
    await night_registered(service, PLAYERS.values(), structure=None)
    return service, clock


async def test_while_registration_is_open_the_seats_do_not_ask_for_a_deal(store: Store) -> None:
    clock = FakeClock(at(18, 0))
    service = await started_service(store, clock, seed=5)
    await service.handle(PLACE, ANN, "/tournament create home-night")
    assert (await service.handle(PLACE, ANN, "/clock")).public == [
        "Registration open: nobody yet (/join to register)."]  # it read "Registration open: —."
    joined = await service.handle(PLACE, BOB, "/join")
    assert joined.table is not None
    assert (await service.handle(PLACE, ANN, "/clock")).public == ["Registration open: Bob."]
    assert "Registration is open" in joined.table.text and "press Deal" not in joined.table.text
    assert not joined.table.buttons, "no Deal button before the start"


async def test_the_clock_counts_entries_and_payments_from_the_start_not_before(store: Store) -> None:
    """A tournament with options: "0 players left of 0 entries; 0 rebuys …" before the start counted nothing."""
    service = await started_service(store, FakeClock(at(18, 0)), seed=5)
    await service.handle(PLACE, ANN, "/tournament create home-night rebuys 1 addon 1 reentry bounty 10")
    options = "Options: 1 rebuy each through level 1; 1 add-on each at the break; re-entry through level 1; bounty 10."
    assert (await service.handle(PLACE, ANN, "/clock")).public == [
        f"Registration open: nobody yet (/join to register).\n{options}"]
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join")
    assert (await service.handle(PLACE, ANN, "/clock")).public == [f"Registration open: Ann, Bob.\n{options}"]
    await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, ANN, "/clock")).public[0].endswith(
        "\n2 players left of 2 entries; 0 rebuys · 0 add-ons · 0 re-entries · bounties in play: 20; paid in: 100.\n"
        f"{options}")


async def test_one_player_at_a_cash_table_is_told_to_wait_for_a_second(service: Service) -> None:
    alone = await service.handle(PLACE, ANN, "/join")
    assert alone.table is not None
    assert "Waiting for a second player" in alone.table.text and "press Deal" not in alone.table.text
    assert not alone.table.buttons, "no Deal button for one player"
    two = await service.handle(PLACE, BOB, "/join")
    assert two.table is not None and "press Deal" in two.table.text
    assert [button.payload.rsplit("|", 1)[1] for button in two.table.buttons] == ["deal"]


async def test_a_paused_clock_and_a_break_say_what_they_are(store: Store) -> None:
    service, clock = await _night(store, at(18, 0))
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
    await play_out(service, PLACE, PLAYERS, started, preference=("check", "call"))
    paused = "The clock is paused: no hand is dealt until the organizer resumes it (/tournament resume)."
    assert (await service.handle(PLACE, BOB, "/deal")).error == paused
    assert (await service.handle(PLACE, BOB, "/pawn a warm coat")).error == paused
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    assert resumed.error is None and resumed.table is not None, "resuming deals the next hand"
    await play_out(service, PLACE, PLAYERS, resumed, preference=("check", "call"))
    clock.current = at(19, 0, 1)
    await service.scheduler.fire_due()
    assert (await service.handle(PLACE, BOB, "/deal")).error == "Break until 20:00."
    assert (await service.handle(PLACE, BOB, "/pawn a warm coat")).error == "Break until 20:00."


async def test_a_late_start_says_at_which_level_it_begins_and_why(store: Store) -> None:
    service, _ = await _night(store, at(20, 30))
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert ("Started at 20:30: the schedule runs by the clock, so play begins at level 2 (limits 50/100)."
            in started.public)


async def test_a_start_during_the_break_says_when_the_first_hand_comes(store: Store) -> None:
    service, _ = await _night(store, at(19, 30))
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert ("Started at 19:30: the schedule runs by the clock and it is break time now, so the first hand is dealt "
            "at 20:00.") in started.public


@pytest.mark.parametrize(("language", "soon", "began", "level"), [
    ("en", "⏱ Play begins in 5 minutes: limits 50/100.", "▶ Play begins: limits 50/100.", "⏱ Level 2: "),
    ("ru", "⏱ Через 5 минут начинается игра: лимиты 50/100.", "▶ Игра начинается: лимиты 50/100.", "⏱ Уровень 2: "),
])
async def test_a_start_during_the_break_says_play_begins_not_resumes(store: Store, language: str, soon: str,
                                                                     began: str, level: str) -> None:
    """Nothing was played before 20:00, so nothing resumes and no limits go up: play begins. The level is the
    schedule's second, and `/clock`, the clock page and the hands' headers all number it 2 (Level II)."""
    service, clock = await _night(store, at(19, 30))
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    heard = listen(service)
    for minute in (55, 59, 60):
        clock.current = at(19 + minute // 60, minute % 60, 1)
        await service.scheduler.fire_due()
    said = public_lines(heard)
    assert soon in said and began in said
    assert not any("▶ Play resumes" in message or "Игра продолжается" in message for message in said)
    assert (await service.handle(PLACE, BOB, "/clock")).public[0].startswith(level)
    await service.handle(PLACE, ANN, "/lang en")
    state = await service.handle(PLACE, ANN, "/table")
    await play_out(service, PLACE, PLAYERS, state, preference=("fold",))
    history = await service.handle(PLACE, BOB, "/history tournament")
    headers = [line for line in history.files[0].content.decode().splitlines() if line.startswith("PokerStars")]
    assert headers and all(" - Level II (50/100) - " in header for header in headers)


async def test_an_on_time_start_says_nothing_about_lateness(store: Store) -> None:
    service, _ = await _night(store, at(18, 0))
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert not any("Started at" in message for message in started.public)


async def test_the_clock_counts_seconds_in_its_last_minute(store: Store) -> None:
    service, clock = await _night(store, at(18, 0))
    await service.handle(PLACE, ANN, "/tournament start")
    clock.current = at(18, 58, 0)
    assert "2m left" in (await service.handle(PLACE, BOB, "/clock")).public[0]
    clock.current = at(18, 59, 15)
    assert "45s left" in (await service.handle(PLACE, BOB, "/clock")).public[0]


async def test_a_turn_time_set_during_a_hand_applies_from_the_next_hand(service: Service, clock: FakeClock) -> None:
    await service.handle(PLACE, ANN, "/set time_bank 0")  # no time bank: the turn's own time is measured
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    changed = await service.handle(PLACE, ANN, "/set turn_seconds 30")
    assert changed.public == ["Setting changed: turn time (seconds) — 30, from the next hand (this one plays on as it "
                              "was dealt)."]
    heard = listen(service)  # a time-out is a line of the table's story
    assert (await service.handle(PLACE, ANN, "/call")).error is None  # Bob's turn: timed by this hand's 60 s
    clock.advance(31)
    await service.scheduler.fire_due()
    assert "ran out of time" not in everything_said(heard)
    clock.advance(30)
    await service.scheduler.fire_due()
    assert "Bob ran out of time" in everything_said(heard)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "⏸ Break, clock paused (59m left)."),
    ("ru", "⏸ Перерыв, часы на паузе (осталось 59\xa0мин)."),
])
async def test_a_paused_break_says_so_without_an_unknown_end(store: Store, language: str, said: str) -> None:
    service, clock = await _night(store, at(18, 0))
    await service.handle(PLACE, ANN, f"/lang {language}")
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("check", "call"))
    clock.current = at(19, 0, 1)
    await service.scheduler.fire_due()
    clock.current = at(19, 1, 1)
    assert (await service.handle(PLACE, ANN, "/tournament pause")).public == [said]
    assert (await service.handle(PLACE, BOB, "/clock")).public == [said]


async def test_the_seats_do_not_ask_for_a_deal_during_a_pause_or_a_break(store: Store) -> None:
    service, clock = await _night(store, at(18, 0))
    started = await service.handle(PLACE, ANN, "/tournament start")
    await service.handle(PLACE, ANN, "/tournament pause")
    await play_out(service, PLACE, PLAYERS, started, preference=("check", "call"))
    paused = await service.handle(PLACE, BOB, "/table")
    assert paused.table is not None
    assert paused.table.text.endswith("\nThe clock is paused: no hand is dealt until the organizer resumes it "
                                      "(/tournament resume).")
    assert "press Deal" not in paused.table.text
    assert "deal" not in [button.payload.rsplit("|", 1)[1] for button in paused.table.buttons]
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    await play_out(service, PLACE, PLAYERS, resumed, preference=("check", "call"))
    clock.current = at(19, 0, 1)
    await service.scheduler.fire_due()
    await service.handle(PLACE, ANN, "/lang ru")
    on_break = await service.handle(PLACE, BOB, "/table")
    assert on_break.table is not None and on_break.table.text.endswith("\nПерерыв до 20:00.")
    assert "deal" not in [button.payload.rsplit("|", 1)[1] for button in on_break.table.buttons]
    clock.current = at(20, 0, 1)
    await service.scheduler.fire_due()
    after = await service.handle(PLACE, BOB, "/table")  # play goes on: the next hand, or the seats with a Deal
    assert after.table is not None and "Перерыв" not in after.table.text


@pytest.mark.parametrize(("language", "said"), [
    ("en", "⏱ Level 2: limits 50/100 (blinds 25/50), the last level: it plays until the tournament ends."),
    ("ru", "⏱ Уровень 2: лимиты 50/100 (блайнды 25/50), последний: он идёт до конца турнира."),
])
async def test_the_last_level_says_so_without_blank_times(store: Store, language: str, said: str) -> None:
    service, _ = await _night(store, at(20, 30))
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, BOB, "/clock")).public == [said]


@pytest.mark.parametrize(("language", "said"), [
    ("en", "⏱ Limits are now 1,280/2,560 (from the next hand)."),
    ("ru", "⏱ Теперь лимиты 1\u00a0280/2\u00a0560 (со следующей раздачи)."),
])
def test_limits_are_written_as_the_blinds_are_on_the_clock(language: str, said: str) -> None:
    """The limits' numbers as the language writes numbers, like the blinds beside them ("640/1,280")."""
    level = Announcement(AnnouncementKind.LEVEL_STARTED, datetime(2026, 11, 29, 19, 0, tzinfo=UTC), 1, 1280)
    assert announcement(Voice(language), level) == said


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Bob unregisters and gets the buy-in of 50 back; 300 chips leave play (2 players)."),
    ("ru", "Bob снимается с турнира и получает бай-ин 50 обратно; 300 фишек выходят из игры (всего 2 игрока)."),
])
def test_an_unregistered_players_chips_leave_play_and_go_to_no_pot(language: str, said: str) -> None:
    """They read «возвращаются в банк» before: «банк» is the pot everywhere else."""
    tournament = Tournament(TournamentConfig(), parse_schedule("10/20", "UTC"))
    for player in ("ann", "bob", "cat"):
        tournament.register(player)
    assert narrate(Voice(language, str.capitalize), tournament, tournament.unregister("bob")) == [said]
