"""Tournament schedules: levels by duration or by wall-clock time, breaks, presets, and a short text form.

A level's limit L is the small bet of fixed-limit Hold'em: blinds L/2 and L, bets L preflop and on the flop, 2L on the
turn and river. It is written "L/2L" ("10/20"), as in the seed. A level ends after its `duration`, or at the wall-clock
time `until` in the tournament's time zone; the last level never ends (it lasts until the tournament is closed).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.betting import is_valid_level
from engine.text import log_quote, quote_input


class ScheduleError(ValueError):
    """A schedule that cannot be built or read; the message names the problem and quotes the bad part.

    As for `RuleError`, `code` names the problem and `params` fill a translated message; a problem inside one level of
    a written schedule also carries `at_level` (its number) and `at_part` (its text).
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


MAX_DURATION = timedelta(days=7)
"""The longest a level may last: longer is surely a typing mistake, and far longer overflows the clock's dates."""


def limits_text(limit: int | None, number: Callable[[int], str] = str) -> str | None:
    """A level's limits as written at the table: the small bet and the big bet ("10/20"), each written by `number`
    (a language's "1,280/2,560"); None for a break."""
    return None if limit is None else f"{number(limit)}/{number(2 * limit)}"


def clock_time_text(moment: time) -> str:
    """A time of day as the clock announces it: "20:00", with the seconds when the moment is not on a whole minute
    ("20:00:30" for a break that ends half a minute past), so nobody is told a time that has not come yet."""
    return f"{moment:%H:%M}" if moment.second == 0 else f"{moment:%H:%M:%S}"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the clock: a limit L (None for a break) ending after `duration` or at the local time `until`."""

    limit: int | None = None
    duration: timedelta | None = None
    until: time | None = None

    def __post_init__(self) -> None:
        if self.duration is not None and self.until is not None:
            raise ScheduleError("both_ends", f"level {self.label!r} has both a duration and an end time; give one")
        if self.limit is not None and not is_valid_level(self.limit):
            raise ScheduleError("odd_limit", f"limit {self.limit}/{2 * self.limit}: the small bet must be even and at "
                                f"least 2, so that the small blind (half of it) is whole chips",
                                small=self.limit, big=2 * self.limit)
        if self.duration is not None and self.duration < timedelta(minutes=1):
            raise ScheduleError("too_short", f"level {self.label!r}: a level lasts at least one minute")
        if self.duration is not None and self.duration > MAX_DURATION:
            raise ScheduleError("too_long", f"level {self.label!r}: a level lasts at most {MAX_DURATION.days} days",
                                days=MAX_DURATION.days)
        if self.until is not None and (self.until.tzinfo is not None or self.until.second or self.until.microsecond):
            raise ScheduleError("zoned_end",
                                f"level {self.label!r}: the end time is a local hour and minute, without a zone")

    @property
    def is_break(self) -> bool:
        """True for a break (no play)."""
        return self.limit is None

    @property
    def small_blind(self) -> int:
        """Half the small bet."""
        return self._limit() // 2

    @property
    def big_blind(self) -> int:
        """The small bet."""
        return self._limit()

    @property
    def small_bet(self) -> int:
        """The fixed bet and raise preflop and on the flop."""
        return self._limit()

    @property
    def big_bet(self) -> int:
        """The fixed bet and raise on the turn and river (twice the small bet)."""
        return 2 * self._limit()

    @property
    def limits(self) -> str | None:
        """The limits as written at the table ("10/20"), None for a break."""
        return limits_text(self.limit)

    @property
    def label(self) -> str:
        """The limits, or "break"."""
        return self.limits or "break"

    def _limit(self) -> int:
        if self.limit is None:
            raise ScheduleError("no_blinds_on_break", "a break has no blinds or bets")
        return self.limit

    def to_text(self) -> str:
        """This level in the schedule's text form (`10/20 until 19:00`, `break 10m`, `50/100`)."""
        if self.until is not None:
            return f"{self.label} until {self.until:%H:%M}"
        if self.duration is not None:
            return f"{self.label} {format_duration(self.duration)}"
        return self.label

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "limit": self.limit,
            "minutes": None if self.duration is None else self.duration // timedelta(minutes=1),
            "until": None if self.until is None else f"{self.until:%H:%M}",
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Level:
        """The level `to_dict` wrote."""
        minutes, until = data.get("minutes"), data.get("until")
        return cls(
            limit=data.get("limit"),
            duration=None if minutes is None else timedelta(minutes=minutes),
            until=None if until is None else time.fromisoformat(until),
        )


@dataclass(frozen=True, slots=True)
class Schedule:
    """The levels in order and the IANA time zone (`Europe/Moscow`) their wall-clock times are read in.

    Every level but the last needs a duration or an end time; the last one has no end (a given one is ignored) and is
    not a break. Consecutive end times must move forward; one earlier than the one before is read as the next day only
    when it looks like crossing midnight (23:00, then 00:30), else it is refused as a mistake.
    """

    levels: tuple[Level, ...]
    tz: str

    def level_number(self, index: int) -> int:
        """The number players know level `index` by: levels are counted without the breaks between them, so the
        level after the first break is level 2, not 3 (a break has the number of the level before it). The numbers
        are the schedule's, as the clock page lists it: a level the clock passes over (a late start) keeps its number,
        so `home-night` started in its break plays level 2 first, and `/clock`, the page and the hands say so."""
        return sum(not level.is_break for level in self.levels[:index + 1])

    def __post_init__(self) -> None:
        if not self.levels:
            raise ScheduleError("no_levels", "the schedule has no levels")
        try:
            ZoneInfo(self.tz)
        except (ZoneInfoNotFoundError, ValueError):
            zone = quote_input(self.tz)
            raise ScheduleError("unknown_zone", f"unknown time zone {log_quote(zone)} (use a name like "
                                "'Europe/Moscow')", zone=zone) from None
        for number, level in enumerate(self.levels[:-1], 1):
            if level.duration is None and level.until is None:
                raise ScheduleError("needs_end", f"level {number} {level.label!r} needs a duration ('20m') or an end "
                                    f"time ('until 19:00') because another level follows it", number=number)
        if self.levels[-1].is_break:
            raise ScheduleError("ends_with_break", "the schedule ends with a break; the last level must be played")
        previous: time | None = None
        for level in self.levels[:-1]:
            if level.until is None:
                continue
            if previous is not None and not _moves_forward(previous, level.until):
                raise ScheduleError("end_goes_back",
                                    f"{level.to_text()!r} comes before the previous end time {previous:%H:%M}",
                                    until=f"{level.until:%H:%M}", previous=f"{previous:%H:%M}")
            previous = level.until

    @property
    def zone(self) -> ZoneInfo:
        """The time zone as a `ZoneInfo`."""
        return ZoneInfo(self.tz)

    def to_text(self) -> str:
        """The schedule in its short text form; `parse_schedule` reads it back."""
        return "; ".join(level.to_text() for level in self.levels)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"tz": self.tz, "levels": [level.to_dict() for level in self.levels]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Schedule:
        """The schedule `to_dict` wrote."""
        return cls(tuple(Level.from_dict(level) for level in data["levels"]), data["tz"])


def _moves_forward(previous: time, current: time) -> bool:
    """True when `current` follows `previous` on the clock: later the same day, or after midnight (12+ hours back)."""
    before = previous.hour * 60 + previous.minute
    after = current.hour * 60 + current.minute
    return after > before or before - after >= 12 * 60


def format_duration(duration: timedelta) -> str:
    """A whole-minute duration as `20m`, `1h`, `1h30m`."""
    hours, minutes = divmod(duration // timedelta(minutes=1), 60)
    if hours and minutes:
        return f"{hours}h{minutes}m"
    return f"{hours}h" if hours else f"{minutes}m"


# The words of the text form, English and Russian: data, not branches.
BREAK_WORDS = frozenset({"break", "pause", "перерыв"})
UNTIL_WORDS = frozenset({"until", "till", "to", "до"})
# Digits are ASCII 0-9 only: `４０/８０` is not read as 40/80.
_LIMITS = re.compile(r"^([0-9]+)/([0-9]+)$")
_CLOCK = re.compile(r"^([0-9]{1,2})[:.]([0-9]{2})$")
_DURATION = re.compile(r"^(?:([0-9]+)\s*(?:h|hr|hours?|ч))?\s*(?:([0-9]+)\s*(?:m|min|mins|minutes?|мин|м))?$")


MAX_LEVELS = 60
"""The most levels (breaks included) a schedule may have: twenty hours of twenty-minute levels."""


def parse_schedule(text: str, tz: str) -> Schedule:
    """Read a schedule like `10/20 until 19:00; break until 20:00; 50/100` or `10/20 20m; 20/40 20m; break 10m; 40/80`.

    Levels are separated by `;` or new lines. Each is limits (`10/20`, the second twice the first) or `break`, then a
    duration (`20m`, `1h`, `1h30m`) or `until HH:MM`, or nothing for the last level. Raises `ScheduleError` naming the
    problem and quoting the bad part.
    """
    if not text.strip(" \t\n;,"):  # nothing, or nothing but separators: no level at all
        raise ScheduleError("empty", "the schedule is empty; write levels like '10/20 20m; 20/40 20m; 40/80'")
    parts = [part.strip() for part in re.split(r"[;\n]", text.strip())]
    if not parts[-1]:
        parts.pop()
    if len(parts) > MAX_LEVELS:  # a night's schedule, not a wall of text repeated in the chat and every snapshot
        raise ScheduleError("too_many_levels", f"a schedule has at most {MAX_LEVELS} levels, not {len(parts)}",
                            most=MAX_LEVELS, count=len(parts))
    levels = []
    for number, part in enumerate(parts, 1):
        if not part:
            raise ScheduleError("empty_level", f"level {number} is empty (two ';' in a row?)", number=number)
        try:
            levels.append(_parse_level(part))
        except ScheduleError as error:
            shown = quote_input(part)
            raise ScheduleError(error.code, f"level {number} {log_quote(shown)}: {error}", **error.params,
                                at_level=number, at_part=shown) from None
        except (OverflowError, ValueError):  # a number too long to read, or a duration past what timedelta holds
            shown = quote_input(part)
            raise ScheduleError("too_large", f"level {number} {log_quote(shown)}: a number in it is far too large",
                                at_level=number, at_part=shown) from None
    return Schedule(tuple(levels), tz)


def _parse_level(part: str) -> Level:
    head, _, rest = part.lower().partition(" ")
    rest = rest.strip()
    limit: int | None = None
    if head not in BREAK_WORDS:
        match = _LIMITS.match(head)
        shown = quote_input(head)
        if match is None:
            raise ScheduleError("bad_limits", "expected limits like '10/20' or the word 'break', not "
                                f"{log_quote(shown)}", head=shown)
        small, big = int(match[1]), int(match[2])
        if big != 2 * small:
            raise ScheduleError("big_not_double", f"in {log_quote(shown)} the second number (the big bet) must be "
                                "twice the first", head=shown)
        limit = small
    if not rest:
        return Level(limit)
    words = rest.split()
    shown = quote_input(rest)
    if words[0] in UNTIL_WORDS:
        if len(words) != 2:
            raise ScheduleError("bad_until", f"expected one time after {words[0]!r}, like 'until 19:00', not "
                                f"{log_quote(shown)}", rest=shown)
        return Level(limit, until=_parse_clock(words[1]))
    match = _DURATION.match(rest)
    if match is None or not (match[1] or match[2]):
        raise ScheduleError("bad_duration", f"expected a duration like '20m' or '1h30m', or 'until 19:00', not "
                            f"{log_quote(shown)}", rest=shown)
    duration = timedelta(hours=int(match[1] or 0), minutes=int(match[2] or 0))
    if not duration:
        raise ScheduleError("zero_duration", f"the duration {log_quote(shown)} is zero", rest=shown)
    return Level(limit, duration=duration)


def _parse_clock(text: str) -> time:
    match = _CLOCK.match(text)
    shown = quote_input(text)
    if match is None:
        raise ScheduleError("bad_clock", f"expected a time of day like '19:00', not {log_quote(shown)}", text=shown)
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise ScheduleError("not_a_time", f"{log_quote(shown)} is not a time of day (00:00 to 23:59)", text=shown)
    return time(hour, minute)


def home_night(tz: str) -> Schedule:
    """The seed's evening: 10/20 until 19:00, a break until 20:00, then 50/100."""
    return Schedule((Level(10, until=time(19)), Level(None, until=time(20)), Level(50)), tz)


def doubling(
    tz: str,
    *,
    start_limit: int = 10,
    minutes: int = 20,
    break_every: int = 4,
    break_minutes: int = 10,
    level_count: int = 12,
) -> Schedule:
    """Limits doubling every `minutes` from `start_limit`, a break of `break_minutes` after every `break_every` levels.

    `level_count` playing levels; the last one lasts until the end. `break_every=0` means no breaks.
    """
    if level_count < 1:
        raise ScheduleError("no_levels", "a doubling schedule needs at least one level")
    levels: list[Level] = []
    for number in range(level_count):
        last = number + 1 == level_count  # it has no end: written without one, as `Schedule` reads it
        levels.append(Level(start_limit * 2**number, duration=None if last else timedelta(minutes=minutes)))
        if break_every and (number + 1) % break_every == 0 and number + 1 < level_count:
            levels.append(Level(None, duration=timedelta(minutes=break_minutes)))
    return Schedule(tuple(levels), tz)


PRESETS: dict[str, Callable[[str], Schedule]] = {"home-night": home_night, "doubling": doubling}
"""Schedules by name; each takes the tournament's time zone."""
