"""Schedules: the text form read and written back, bad input refused with a message naming the problem, presets."""

from datetime import time, timedelta

import pytest

from engine.schedule import MAX_LEVELS, PRESETS, Level, Schedule, ScheduleError, doubling, home_night, parse_schedule
from engine.text import quote_input

TZ = "Europe/Moscow"


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("10/20 until 19:00; break until 20:00; 50/100",
         [Level(10, until=time(19)), Level(None, until=time(20)), Level(50)]),
        ("10/20 20m; 20/40 20m; break 10m; 40/80 20m",
         [Level(10, duration=timedelta(minutes=20)), Level(20, duration=timedelta(minutes=20)),
          Level(None, duration=timedelta(minutes=10)), Level(40, duration=timedelta(minutes=20))]),
        ("10/20 1h30m\n20/40 2h\n40/80", [Level(10, duration=timedelta(minutes=90)),
                                          Level(20, duration=timedelta(hours=2)), Level(40)]),
        ("  10/20 90 min ;  BREAK till 9:05 ; 20/40 ; ", [Level(10, duration=timedelta(minutes=90)),
                                                          Level(None, until=time(9, 5)), Level(20)]),
        ("10/20 до 19:00; перерыв до 20:00; 50/100",
         [Level(10, until=time(19)), Level(None, until=time(20)), Level(50)]),
        ("10/20 until 23:00; break until 00:30; 50/100",
         [Level(10, until=time(23)), Level(None, until=time(0, 30)), Level(50)]),
        ("100/200", [Level(100)]),
    ],
)
def test_good_forms_are_read(text: str, levels: list[Level]) -> None:
    schedule = parse_schedule(text, TZ)
    assert schedule == Schedule(tuple(levels), TZ)
    assert parse_schedule(schedule.to_text(), TZ) == schedule
    assert Schedule.from_dict(schedule.to_dict()) == schedule


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("", ["empty"]),
        (" ; ", ["the schedule is empty"]),
        ("; ;", ["the schedule is empty"]),
        (",", ["the schedule is empty"]),
        ("10/20 20m;; 20/40", ["level 2", "empty"]),
        ("10/30 20m; 20/40", ["'10/30'", "twice"]),  # as typed: the joiners of `quote_input` are not printed
        ("ten/20 20m; 20/40", ["'ten/20'", "limits"]),
        ("15/30 20m; 30/60", ["15/30", "even"]),
        ("0/0 20m; 20/40", ["0/0", "even"]),
        ("10/20; 20/40", ["level 1", "needs a duration"]),
        ("10/20 20x; 20/40", ["'20x'", "duration"]),
        ("10/20 0m; 20/40", ["'0m'", "zero"]),
        ("10/20 until 25:00; 20/40", ["'25:00'", "time of day"]),
        ("10/20 until 19:61; 20/40", ["'19:61'", "time of day"]),
        ("10/20 until seven; 20/40", ["'seven'", "time of day"]),
        ("10/20 until 19:00 sharp; 20/40", ["'until 19:00 sharp'"]),
        ("10/20 20m; break", ["ends with a break"]),
        ("10/20 until 20:00; break until 19:00; 50/100", ["'break until 19:00'", "20:00"]),
        ("10/20 until 19:00; break until 19:00; 50/100", ["'break until 19:00'", "before"]),
    ],
)
def test_bad_forms_are_refused_with_the_reason(text: str, fragments: list[str]) -> None:
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(text, TZ)
    for fragment in fragments:
        assert fragment in str(caught.value)


@pytest.mark.parametrize(("text", "message"), [
    ("10/30 20m; 20/40",
     "level 1 '10/30 20m': in '10/30' the second number (the big bet) must be twice the first"),
    ("/fold/20 20m; 20/40",
     "level 1 '/fold/20 20m': expected limits like '10/20' or the word 'break', not '/fold/20'"),
    ("10/20 until @bob /fold; 20/40",
     "level 1 '10/20 until @bob /fold': expected one time after 'until', like 'until 19:00', not 'until @bob /fold'"),
    ("10/20 /fold; 20/40",
     "level 1 '10/20 /fold': expected a duration like '20m' or '1h30m', or 'until 19:00', not '/fold'"),
    ("10/20 until 1/2; 20/40", "level 1 '10/20 until 1/2': expected a time of day like '19:00', not '1/2'"),
    ("10/20 " + "9" * 50 + "m; 20/40", "level 1 '10/20 " + "9" * 34 + "…': a number in it is far too large"),
])
def test_the_logs_english_reads_the_input_as_typed(text: str, message: str) -> None:
    """The English a log prints quotes the input as the player typed it: the word joiners that make it inert in an
    answer (`quote_input`) are not written as `\\u2060` escapes, while the answer's parameters keep them."""
    with pytest.raises(ScheduleError) as refused:
        parse_schedule(text, TZ)
    assert str(refused.value) == message
    assert refused.value.params["at_part"] == quote_input(text.split(";")[0])


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("10/20 99999999h; 20/40", "at most 7 days"),
        ("10/20 169h; 20/40", "at most 7 days"),
        ("break 10081m; 20/40", "at most 7 days"),
        ("10/20 99999999999999h; 20/40", "far too large"),
        ("10/20 " + "9" * 5000 + "m; 20/40", "far too large"),
        ("1" * 5000 + "/2 20m; 20/40", "far too large"),
    ],
)
def test_absurdly_long_levels_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(ScheduleError, match=fragment):
        parse_schedule(text, TZ)


def test_a_week_long_level_still_works() -> None:
    schedule = parse_schedule("10/20 168h; 20/40", TZ)
    assert schedule.levels[0].duration == timedelta(days=7)
    with pytest.raises(ScheduleError, match="at most 7 days"):
        Level(10, duration=timedelta(days=7, minutes=1))


def test_unknown_time_zone_is_refused() -> None:
    with pytest.raises(ScheduleError, match="Mars/Olympus"):
        parse_schedule("10/20", "Mars/Olympus")


@pytest.mark.parametrize(("tz", "zone", "message"), [
    ("/fold", "/\u2060fold", "unknown time zone '/fold' (use a name like 'Europe/Moscow')"),
    ("@x" * 250, "@\u2060x" * 20 + "…", "unknown time zone '" + "@x" * 20 + "…' (use a name like 'Europe/Moscow')"),
], ids=["command", "500 characters"])
def test_an_unknown_time_zone_is_quoted_inert_and_briefly(tz: str, zone: str, message: str) -> None:
    """The zone is quoted as other input is (`quote_input`: 40 characters, no command or mention) for the player's
    answer, and as typed (no joiners shown as `\\u2060`) in the English the logs print."""
    with pytest.raises(ScheduleError) as refused:
        parse_schedule("10/20", tz)
    assert (refused.value.code, refused.value.params, str(refused.value)) == ("unknown_zone", {"zone": zone}, message)


def test_schedule_error_is_a_value_error() -> None:
    assert issubclass(ScheduleError, ValueError)


def test_level_bets_and_blinds() -> None:
    level = Level(50)
    assert (level.small_blind, level.big_blind, level.small_bet, level.big_bet) == (25, 50, 50, 100)
    assert (level.limits, level.label, level.is_break) == ("50/100", "50/100", False)
    assert Level(None, duration=timedelta(minutes=5)).label == "break"
    with pytest.raises(ScheduleError):
        _ = Level(None, duration=timedelta(minutes=5)).big_blind


def test_home_night_preset_is_the_seeds_evening() -> None:
    assert PRESETS["home-night"](TZ) == parse_schedule("10/20 until 19:00; break until 20:00; 50/100", TZ)
    assert home_night(TZ).to_text() == "10/20 until 19:00; break until 20:00; 50/100"


def test_doubling_preset_doubles_with_breaks() -> None:
    schedule = doubling(TZ, start_limit=10, minutes=20, break_every=2, break_minutes=10, level_count=5)
    assert schedule.to_text() == "10/20 20m; 20/40 20m; break 10m; 40/80 20m; 80/160 20m; break 10m; 160/320"
    assert PRESETS["doubling"](TZ).to_text() == (  # RULES.md §1: every 20 minutes the limits double
        "10/20 20m; 20/40 20m; 40/80 20m; 80/160 20m; break 10m; 160/320 20m; 320/640 20m; 640/1280 20m; "
        "1280/2560 20m; break 10m; 2560/5120 20m; 5120/10240 20m; 10240/20480 20m; 20480/40960")
    assert all(not level.is_break for level in doubling(TZ, break_every=0).levels)


def test_levels_are_numbered_without_the_breaks() -> None:
    """Players count levels, not breaks: home night's 50/100 after its break is level 2 (the clock said 3)."""
    schedule = parse_schedule("10/20 20m; break 10m; 50/100 20m; 100/200 20m; break 5m; 200/400", "UTC")
    assert [schedule.level_number(index) for index in range(len(schedule.levels))] == [1, 1, 2, 3, 3, 4]
    night = home_night("UTC")
    assert [level.is_break for level in night.levels] == [False, True, False]
    assert night.level_number(2) == 2


def test_a_schedule_of_more_levels_than_a_night_has_is_refused() -> None:
    """A schedule is repeated in the chat and kept in every snapshot: past MAX_LEVELS levels it is refused, naming
    both counts, and a schedule of exactly MAX_LEVELS is read."""
    levels = "; ".join(f"{2 * (n + 1)}/{4 * (n + 1)} 20m" for n in range(MAX_LEVELS - 1)) + "; 1000/2000"
    assert len(parse_schedule(levels, "UTC").levels) == MAX_LEVELS
    with pytest.raises(ScheduleError) as refused:
        parse_schedule("10/20 20m; " + levels, "UTC")
    assert refused.value.code == "too_many_levels" and refused.value.params == {"most": MAX_LEVELS,
                                                                              "count": MAX_LEVELS + 1}
