"""The clock at fixed instants: levels, announcements, pause and resume, skip, added minutes, time zones and DST."""

import json
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.i18n import text
from engine.clock import Clock
from engine.clock_events import AnnouncementKind as Kind
from engine.common import RuleError
from engine.schedule import home_night, parse_schedule

MOSCOW = ZoneInfo("Europe/Moscow")
BERLIN = ZoneInfo("Europe/Berlin")


def at(hour: int, minute: int = 0, day: int = 4, zone: ZoneInfo = MOSCOW) -> datetime:
    return datetime(2024, 5, day, hour, minute, tzinfo=zone)


def night(start: datetime) -> Clock:
    clock = Clock(home_night("Europe/Moscow"))
    clock.start(start)
    return clock


def by_duration(start: datetime, text: str = "10/20 20m; 20/40 20m; break 10m; 40/80 20m; 80/160") -> Clock:
    clock = Clock(parse_schedule(text, "Europe/Moscow"))
    clock.start(start)
    return clock


def kinds(clock: Clock, since: datetime, now: datetime) -> list[tuple[Kind, datetime, str | None, int | None]]:
    return [(item.kind, item.at.astimezone(MOSCOW), item.limits, item.minutes)
            for item in clock.announcements_between(since, now)]


@pytest.mark.parametrize(
    ("hour", "minute", "index", "limits", "remaining"),
    [
        (17, 0, 0, "10/20", timedelta(hours=2)),
        (18, 55, 0, "10/20", timedelta(minutes=5)),
        (19, 0, 1, None, timedelta(hours=1)),
        (19, 30, 1, None, timedelta(minutes=30)),
        (20, 0, 2, "50/100", None),
        (23, 59, 2, "50/100", None),
    ],
)
def test_home_night_levels_at_fixed_instants(hour: int, minute: int, index: int, limits: str | None,
                                             remaining: timedelta | None) -> None:
    status = night(at(17)).level_at(at(hour, minute))
    assert (status.index, status.level.limits, status.remaining) == (index, limits, remaining)
    assert status.is_break == (limits is None)


def test_home_night_announcements() -> None:
    clock = night(at(17))
    assert kinds(clock, at(17, 1), at(18, 54)) == []
    assert kinds(clock, at(18, 54), at(18, 55)) == [(Kind.LEVEL_SOON, at(18, 55), None, 5)]
    assert kinds(clock, at(18, 55), at(19, 0)) == [(Kind.LEVEL_SOON, at(18, 59), None, 1),
                                                   (Kind.BREAK_STARTED, at(19), None, None)]
    assert clock.announcements_between(at(18, 59), at(19))[0].until == time(20)
    soon = clock.announcements_between(at(18, 54), at(18, 55))[0]
    assert (soon.until, soon.level_index) == (time(20), 1)
    assert kinds(clock, at(19, 0), at(20, 30)) == [(Kind.LEVEL_SOON, at(19, 55), "50/100", 5),
                                                   (Kind.LEVEL_SOON, at(19, 59), "50/100", 1),
                                                   (Kind.PLAY_RESUMED, at(20), "50/100", None)]
    assert kinds(clock, at(20, 0), at(23)) == []


def test_next_announcement_and_change_for_the_scheduler() -> None:
    clock = night(at(17))
    assert clock.next_announcement_at(at(17)) == at(18, 55)
    assert clock.next_announcement_at(at(18, 55)) == at(18, 59)
    assert clock.next_change(at(18, 30)) == at(19)
    assert clock.next_announcement_at(at(20)) is None
    assert clock.next_change(at(20)) is None
    assert clock.next_announcement_at(at(17)).tzinfo == UTC  # type: ignore[union-attr]


def test_consecutive_windows_announce_everything_once() -> None:
    clock = by_duration(at(18))
    whole = clock.announcements_between(at(17), at(21))
    pieces = [item for minute in range(0, 240, 7)
              for item in clock.announcements_between(at(17) + timedelta(minutes=minute),
                                                      at(17) + timedelta(minutes=min(minute + 7, 240)))]
    assert pieces == whole
    assert [item.kind for item in whole].count(Kind.PLAY_RESUMED) == 1


def test_start_after_seven_begins_in_the_break() -> None:
    """Started in the break, nothing has been played at 20:00: play begins there (it said "resumes", and the
    warnings said the limits "go up"). The level keeps the schedule's index (and so its number, 2: `/clock`, the
    clock page and the hands' headers read the schedule's numbers, which the players see on the page)."""
    clock = night(at(19, 30))
    status = clock.level_at(at(19, 30))
    assert (status.index, status.is_break, status.ends_at) == (1, True, at(20))
    assert kinds(clock, at(19), at(20)) == [(Kind.BREAK_STARTED, at(19, 30), None, None),
                                            (Kind.PLAY_SOON, at(19, 55), "50/100", 5),
                                            (Kind.PLAY_SOON, at(19, 59), "50/100", 1),
                                            (Kind.PLAY_BEGAN, at(20), "50/100", None)]
    assert clock.announcements_between(at(19, 59), at(20))[0].level_index == 2
    assert clock.schedule.level_number(2) == 2


def test_play_begins_once_and_resumes_after_later_breaks() -> None:
    clock = by_duration(at(18), "break 10m; 10/20 20m; break 10m; 20/40")
    assert [item.kind for item in clock.announcements_between(at(17), at(19))] == [
        Kind.BREAK_STARTED, Kind.PLAY_SOON, Kind.PLAY_SOON, Kind.PLAY_BEGAN, Kind.LEVEL_SOON, Kind.LEVEL_SOON,
        Kind.BREAK_STARTED, Kind.LEVEL_SOON, Kind.LEVEL_SOON, Kind.PLAY_RESUMED]
    paused = night(at(19, 30))
    paused.pause(at(19, 40))
    assert paused.announcements_between(at(19, 40), at(21)) == [], "paused in the break before any play"


def test_schedule_already_past_at_the_start() -> None:
    clock = night(at(21))
    assert clock.level_at(at(21)).index == 2
    assert kinds(clock, at(20), at(23)) == [(Kind.PLAY_BEGAN, at(21), "50/100", None)]


def test_the_next_level_is_the_one_played_not_one_whose_end_time_will_have_passed() -> None:
    """20/40 ends at 19:00, but the 20 minutes of 10/20 begun at 18:45 end at 19:05: 20/40 never happens, and the
    clock announces the break next. The status said the next level was 20/40 (the /clock line, the clock page)."""
    clock = by_duration(at(18, 45), "10/20 20m; 20/40 until 19:00; break until 20:00; 50/100")
    status = clock.level_at(at(18, 50))
    assert (status.index, status.ends_at) == (0, at(19, 5))
    assert status.next_level is not None and status.next_level.is_break
    assert [item.level_index for item in clock.announcements_between(at(18, 50), at(19, 5))] == [2, 2, 2]
    assert clock.level_at(at(19, 30)).next_level == clock.schedule.levels[3]
    assert clock.level_at(at(20, 30)).next_level is None


def test_before_the_start_the_end_times_can_move_to_another_zone_and_not_after() -> None:
    clock = Clock(home_night("UTC"))
    assert [event.to_dict() for event in clock.set_zone("Europe/Moscow")] == [{"kind": "ClockZoneSet",
                                                                              "visible_to": None, "moves": [],
                                                                              "tz": "Europe/Moscow"}]
    clock.start(at(17))
    assert clock.level_at(at(18, 30)).ends_at == at(19), "19:00 in Moscow, not 19:00 UTC"
    with pytest.raises(RuleError) as refused:
        clock.set_zone("Asia/Tokyo")
    assert refused.value.code == "clock_started" and clock.schedule.tz == "Europe/Moscow"
    assert not Clock(home_night("UTC")).can_set_zone("Mars/Olympus")


LONG_ZONE = "Europe/" + "x" * 493
"""A 500-character zone: its answer quotes 40 characters of it."""


@pytest.mark.parametrize(("typed", "zone", "logged", "english", "russian"), [
    ("/fold", "/\u2060fold", "'/fold'", "Unknown time zone “/\u2060fold” (use a name like Europe/Moscow).",
     "Неизвестный часовой пояс «/\u2060fold» (напишите название вроде Europe/Moscow)."),
    (LONG_ZONE, "Europe/\u2060" + "x" * 33 + "…", "'Europe/" + "x" * 33 + "…'",
     "Unknown time zone “Europe/\u2060" + "x" * 33 + "…” (use a name like Europe/Moscow).",
     "Неизвестный часовой пояс «Europe/\u2060" + "x" * 33 + "…» (напишите название вроде Europe/Moscow)."),
], ids=["command", "500 characters"])
def test_an_unknown_zone_is_quoted_inert_and_briefly(typed: str, zone: str, logged: str, english: str,
                                                     russian: str) -> None:
    """A zone a player typed ("/fold", 500 characters) comes back as other input does (`quote_input`): 40 characters
    at most, no tappable command; the log's English reads it as typed, without the joiners."""
    clock = Clock(home_night("UTC"))
    with pytest.raises(RuleError) as refused:
        clock.set_zone(typed)
    assert (refused.value.code, refused.value.params, clock.schedule.tz) == ("unknown_zone", {"zone": zone}, "UTC")
    assert str(refused.value) == f"unknown time zone {logged} (use a name like 'Europe/Moscow')"
    assert (text("en", "rule.unknown_zone", **refused.value.params),
            text("ru", "rule.unknown_zone", **refused.value.params)) == (english, russian)


def test_end_times_after_midnight_belong_to_tonight() -> None:
    clock = Clock(parse_schedule("10/20 until 00:30; break until 01:00; 50/100", "Europe/Moscow"))
    clock.start(at(23, 45))
    assert clock.level_at(at(23, 50)).ends_at == at(0, 30, day=5)
    assert clock.level_at(at(0, 40, day=5)).is_break
    assert clock.level_at(at(1, 0, day=5)).level.limit == 50


def test_a_twenty_minute_level_across_the_spring_change_lasts_twenty_minutes() -> None:
    clock = Clock(parse_schedule("10/20 20m; 20/40 20m; 40/80", "Europe/Berlin"))
    clock.start(datetime(2024, 3, 31, 1, 30, tzinfo=BERLIN))
    second = clock.level_at(datetime(2024, 3, 31, 1, 55, tzinfo=BERLIN))
    assert second.index == 1
    assert second.ends_at == datetime(2024, 3, 31, 1, 10, tzinfo=UTC)
    assert clock.local(second.ends_at) == datetime(2024, 3, 31, 3, 10, tzinfo=BERLIN)
    assert clock.level_at(datetime(2024, 3, 31, 3, 5, tzinfo=BERLIN)).index == 1
    assert clock.level_at(datetime(2024, 3, 31, 3, 10, tzinfo=BERLIN)).index == 2


def test_wall_clock_times_on_change_days() -> None:
    spring = Clock(parse_schedule("10/20 until 02:30; break until 04:00; 50/100", "Europe/Berlin"))
    spring.start(datetime(2024, 3, 31, 1, 0, tzinfo=BERLIN))
    # 02:30 does not exist that night: it is the moment after the jump, 03:30 summer time.
    ends = spring.level_at(datetime(2024, 3, 31, 1, 0, tzinfo=BERLIN)).ends_at
    assert ends == datetime(2024, 3, 31, 1, 30, tzinfo=UTC)
    autumn = Clock(parse_schedule("10/20 until 04:00; 50/100", "Europe/Berlin"))
    autumn.start(datetime(2024, 10, 27, 1, 0, tzinfo=BERLIN))
    status = autumn.level_at(datetime(2024, 10, 27, 1, 0, tzinfo=BERLIN))
    assert status.remaining == timedelta(hours=4)  # three hours on the wall, four in fact
    twice = Clock(parse_schedule("10/20 until 02:30; 50/100", "Europe/Berlin"))
    twice.start(datetime(2024, 10, 27, 1, 0, tzinfo=BERLIN))
    ends = twice.level_at(datetime(2024, 10, 27, 1, 0, tzinfo=BERLIN)).ends_at
    assert ends == datetime(2024, 10, 27, 0, 30, tzinfo=UTC)  # the first 02:30, still summer time


def test_pause_freezes_a_duration_level_and_resume_continues_it() -> None:
    clock = by_duration(at(18))
    clock.pause(at(18, 10))
    status = clock.level_at(at(18, 40))
    assert (status.index, status.is_paused, status.remaining, status.ends_at) == (0, True, timedelta(minutes=10), None)
    assert clock.next_announcement_at(at(18, 40)) is None
    assert not clock.can_pause(at(18, 41))
    events = clock.resume(at(18, 45))
    assert events[0].paused_for == timedelta(minutes=35)  # type: ignore[attr-defined]
    assert clock.level_at(at(18, 50)).ends_at == at(18, 55)
    assert kinds(clock, at(18, 45), at(18, 55)) == [(Kind.LEVEL_SOON, at(18, 50), "20/40", 5),
                                                    (Kind.LEVEL_SOON, at(18, 54), "20/40", 1),
                                                    (Kind.LEVEL_STARTED, at(18, 55), "20/40", None)]
    assert not clock.can_resume(at(18, 50))


def test_nothing_is_announced_inside_a_pause() -> None:
    clock = by_duration(at(18))
    clock.pause(at(18, 14))
    clock.resume(at(18, 16))
    assert kinds(clock, at(17), at(18, 30)) == [(Kind.PLAY_BEGAN, at(18), "10/20", None),
                                                (Kind.LEVEL_SOON, at(18, 17), "20/40", 5),
                                                (Kind.LEVEL_SOON, at(18, 21), "20/40", 1),
                                                (Kind.LEVEL_STARTED, at(18, 22), "20/40", None)]
    wall = night(at(17))
    wall.pause(at(18, 56))
    wall.resume(at(19, 5))
    assert kinds(wall, at(18, 55), at(19, 10)) == [(Kind.BREAK_STARTED, at(19, 5), None, None)]


def test_pausing_keeps_wall_clock_appointments() -> None:
    clock = night(at(17))
    clock.pause(at(18, 50))
    status = clock.level_at(at(19, 10))
    assert (status.index, status.is_paused, status.remaining) == (0, True, timedelta(0))
    clock.resume(at(19, 20))
    assert clock.level_at(at(19, 20)).is_break
    assert clock.level_at(at(19, 20)).ends_at == at(20)
    assert kinds(clock, at(19, 19), at(19, 59)) == [(Kind.BREAK_STARTED, at(19, 20), None, None),
                                                    (Kind.LEVEL_SOON, at(19, 55), "50/100", 5),
                                                    (Kind.LEVEL_SOON, at(19, 59), "50/100", 1)]


def test_a_short_pause_before_a_wall_clock_end_moves_no_time_of_the_evening() -> None:
    """home-night paused at 18:50 and resumed at 18:55: RULES.md §1 sets the break at 19:00–20:00 and 50/100 from
    20:00, so the pause moves none of them (a clock by durations would shift by the five minutes). While paused the
    level has no end (nothing happens) but its time left runs down to the appointment."""
    clock = night(at(17))
    clock.pause(at(18, 50))
    paused = clock.level_at(at(18, 52))
    assert (paused.index, paused.is_paused, paused.ends_at, paused.remaining) == (0, True, None,
                                                                                  timedelta(minutes=8))
    assert clock.next_announcement_at(at(18, 52)) is None
    assert kinds(clock, at(18, 50), at(18, 55)) == [], "nothing is said while paused"
    clock.resume(at(18, 55))
    resumed = clock.level_at(at(18, 55))
    assert (resumed.index, resumed.is_paused, resumed.ends_at, resumed.remaining) == (0, False, at(19),
                                                                                      timedelta(minutes=5))
    assert clock.span(1) == (at(19), at(20))
    assert kinds(clock, at(18, 55), at(20)) == [(Kind.LEVEL_SOON, at(18, 59), None, 1),
                                                (Kind.BREAK_STARTED, at(19), None, None),
                                                (Kind.LEVEL_SOON, at(19, 55), "50/100", 5),
                                                (Kind.LEVEL_SOON, at(19, 59), "50/100", 1),
                                                (Kind.PLAY_RESUMED, at(20), "50/100", None)]
    assert clock.announcements_between(at(18, 58), at(19))[-1].until == time(20)


def test_a_pause_across_a_whole_wall_clock_break_passes_it_over_and_keeps_its_span_before_the_pause() -> None:
    """home-night paused from 18:50 to 20:05: the 19:00-20:00 break's end passed during the pause, so on resuming
    level 1 ends and the break is passed over (50/100 from 20:05). `span_before_pause` keeps the break as it was
    before that pause (19:00-20:00): the time the pause took from it, which the tournament gives back as downtime."""
    clock = night(at(17))
    clock.pause(at(18, 50))
    clock.resume(at(20, 5))
    assert clock.span(1) == (at(20, 5), at(20, 5))
    assert clock.level_at(at(20, 5)).level.limit == 50
    assert clock.span_before_pause(1, 0) == (at(19), at(20))
    assert clock.span_before_pause(1, 1) == clock.span(1), "with every pause taken"
    assert clock.span_before_pause(3, 0) is None, "no such level"


def test_a_paused_level_names_as_next_the_level_resuming_would_bring() -> None:
    """home-night paused at 18:50: resumed before 20:00, level 1 ends and the break follows; once 20:00 has passed
    in the pause, the break would be passed over, so 50/100 comes next (it said "break")."""
    clock = night(at(17))
    clock.pause(at(18, 50))
    for now in (at(18, 55), at(19, 30), at(19, 59)):
        assert clock.level_at(now).next_level == clock.schedule.levels[1]
    for now in (at(20), at(20, 5)):
        status = clock.level_at(now)
        assert (status.index, status.is_paused, status.next_level) == (0, True, clock.schedule.levels[2])


def test_skip_ends_the_level_now() -> None:
    clock = by_duration(at(18))
    clock.skip(at(18, 5))
    status = clock.level_at(at(18, 5))
    assert (status.index, status.starts_at, status.ends_at) == (1, at(18, 5), at(18, 25))
    assert kinds(clock, at(18, 4), at(18, 5)) == [(Kind.LEVEL_STARTED, at(18, 5), "20/40", None)]
    wall = night(at(17))
    wall.skip(at(19, 30))
    assert kinds(wall, at(19, 29), at(19, 30)) == [(Kind.PLAY_RESUMED, at(19, 30), "50/100", None)]
    with pytest.raises(RuleError, match="last level"):
        wall.skip(at(19, 40))


def test_skip_while_paused_starts_the_next_level_paused() -> None:
    clock = by_duration(at(18))
    clock.pause(at(18, 5))
    clock.skip(at(18, 6))
    status = clock.level_at(at(18, 30))
    assert (status.index, status.is_paused, status.remaining) == (1, True, timedelta(minutes=20))
    clock.resume(at(18, 40))
    assert clock.level_at(at(18, 40)).ends_at == at(19)


def test_adding_and_removing_minutes() -> None:
    clock = by_duration(at(18))
    clock.adjust(at(18, 5), 10)
    assert clock.level_at(at(18, 5)).ends_at == at(18, 30)
    clock.adjust(at(18, 10), -5)
    assert clock.level_at(at(18, 10)).ends_at == at(18, 25)
    clock.adjust(at(18, 12), -60)
    assert clock.level_at(at(18, 12)).index == 1
    assert clock.level_at(at(18, 12)).starts_at == at(18, 12)
    wall = night(at(17))
    wall.adjust(at(18), 15)
    assert wall.level_at(at(19, 10)).level.limit == 10
    assert wall.level_at(at(19, 15)).ends_at == at(20)
    with pytest.raises(RuleError):
        wall.adjust(at(18, 1), 0)


@pytest.mark.parametrize("minutes", [24 * 60 + 1, -(24 * 60 + 1), 10**10, -(10**10)])
def test_adjusting_by_more_than_a_day_is_refused_and_changes_nothing(minutes: int) -> None:
    clock = by_duration(at(18))
    before = clock.to_dict()
    with pytest.raises(RuleError) as caught:
        clock.adjust(at(18, 5), minutes)
    assert caught.value.code == "bad_minutes" and caught.value.params == {"minutes": minutes, "max": 24 * 60}
    assert not clock.can_adjust(at(18, 5), minutes)
    assert clock.to_dict() == before
    clock.adjust(at(18, 5), 24 * 60)  # a whole day is still allowed
    assert clock.level_at(at(18, 5)).ends_at == at(18, 20) + timedelta(days=1)


def test_refusals() -> None:
    clock = Clock(home_night("Europe/Moscow"))
    for action in (clock.pause, clock.resume, clock.skip, clock.level_at):
        with pytest.raises(RuleError, match="not started"):
            action(at(17))
    clock.start(at(17))
    assert not clock.can_start(at(17))
    clock.pause(at(18))
    with pytest.raises(RuleError, match="before"):
        clock.resume(at(17, 59))
    with pytest.raises(ValueError, match="time zone"):
        clock.resume(datetime(2024, 5, 4, 18, 30))


def test_serialised_clock_continues_the_same() -> None:
    clock = by_duration(at(18))
    clock.adjust(at(18, 2), 3)
    clock.pause(at(18, 5))
    clock.resume(at(18, 9))
    clock.skip(at(18, 30))
    clock.pause(at(18, 40))
    copy = Clock.from_dict(json.loads(json.dumps(clock.to_dict())))
    assert copy.to_dict() == clock.to_dict()
    for moment in (at(18, 41), at(19, 30)):
        assert copy.level_at(moment) == clock.level_at(moment)
    copy.resume(at(19))
    clock.resume(at(19))
    assert copy.announcements_between(at(17), at(23)) == clock.announcements_between(at(17), at(23))


def test_clock_events_serialise_to_json() -> None:
    clock = Clock(home_night("Europe/Moscow"))
    events = clock.start(at(17)) + clock.pause(at(18)) + clock.resume(at(18, 30))
    data = json.loads(json.dumps([event.to_dict() for event in events]))
    assert data[2] == {"kind": "ClockResumed", "visible_to": None, "moves": [], "at": "2024-05-04T15:30:00+00:00",
                       "paused_for": 1800.0}
    assert clock.announcements_between(at(16), at(17))[0].to_dict()["limits"] == "10/20"


def test_a_break_that_ends_half_a_minute_past_is_announced_to_the_second() -> None:
    started = datetime(2024, 5, 4, 19, 40, 30, 250_000, tzinfo=MOSCOW)
    clock = by_duration(started, "10/20 10m; break 10m; 20/40")
    soon, _, began = clock.announcements_between(started, started + timedelta(minutes=10))
    assert (soon.kind, soon.until) == (Kind.LEVEL_SOON, time(20, 0, 30))
    assert (began.kind, began.until) == (Kind.BREAK_STARTED, time(20, 0, 30))
    assert began.to_dict()["until"] == "20:00:30"
    assert clock.level_at(started + timedelta(minutes=19, seconds=59)).is_break
    assert not clock.level_at(started + timedelta(minutes=20)).is_break


def test_a_break_on_a_whole_minute_keeps_its_short_form() -> None:
    clock = night(at(17))
    assert clock.announcements_between(at(18, 59), at(19))[0].to_dict()["until"] == "20:00"
