"""The tournament clock: which level is on at a given instant, what to announce and when; pause, skip, add minutes.

What it says is named in `engine.clock_events` (its announcements and events); its time arithmetic (UTC, time run
across pauses) is `engine.clock_time`.

Time is always an argument (`now`, a timezone-aware `datetime`); the clock never reads it. Instants it returns are in
UTC (aware), so the application can subtract and compare them safely; `Clock.local()` gives the tournament's local time
for display. Durations are real elapsed time (a 20-minute level across a daylight-saving change lasts 20 minutes); end
times are read in the schedule's time zone with `zoneinfo`: a time the change skips (02:30 when clocks jump from 02:00
to 03:00) is the moment after the jump (03:30), a time that happens twice is the first of the two.

Wall-clock end times are anchored to the start: the first one is the occurrence from 6 hours before the start to 18
hours after it (start at 19:30 with "until 19:00": that level is already over and the clock begins in the break; start
at 23:45 with "until 00:30": tonight, after midnight); each later one is the next occurrence after the one before. A
level whose end time has passed when it would begin never happens (it is skipped silently); a first break passed over so
(by a late start, downtime or a pause) is the tournament's concern (`engine.tournament_entries`). The first level played
is announced as play beginning (`PLAY_SOON`, `PLAY_BEGAN`), not resuming, even after a break: a clock started in the
break, or a schedule that opens with one, has played nothing before it.

Pausing. A paused clock changes nothing: no level starts or ends and nothing is announced until it resumes. On
resuming, duration-based levels continue where they stopped (their remaining time is kept), while wall-clock end times
stay where they are: RULES.md §1 sets `home-night`'s break at 19:00-20:00 and 50/100 from 20:00, and in a home game
"break at 19:00" is an appointment (dinner) rather than an amount of play (paused at 18:50 and resumed at 18:55, the
level has 5 minutes left, not 10); an end time that passed during the pause takes effect at the moment of resuming.
A change of level applies from the next hand: the application asks `level_at(now)` when it starts a hand, never during
one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.clock_events import (
    Announcement,
    AnnouncementKind,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    ClockZoneSet,
    LevelSkipped,
)
from engine.clock_time import (
    ZERO,
    Pause,
    Span,
    from_iso,
    is_inside,
    played_after,
    required_instant,
    run_until,
    running_time,
    settle,
    to_iso,
    to_utc,
)
from engine.common import Event, RuleError, allowed
from engine.schedule import Level, Schedule, ScheduleError
from engine.text import log_quote, quote_input

MAX_ADJUST_MINUTES = 24 * 60
"""The most minutes one `adjust` may add or remove (a day; far more would overflow the clock's dates)."""


@dataclass(frozen=True, slots=True)
class LevelStatus:
    """The level on at an instant: its index, when it began and ends (UTC; None: no end or paused), time left, and
    the level played after it (a level whose end time will have passed when it would begin is passed over; while
    paused, the level that resuming at that instant would bring)."""

    index: int
    level: Level
    starts_at: datetime
    ends_at: datetime | None
    remaining: timedelta | None
    is_paused: bool
    next_level: Level | None

    @property
    def is_break(self) -> bool:
        """True during a break."""
        return self.level.is_break


class Clock:
    """A schedule's clock: its start, its pauses, skipped levels and minutes added; the rest is computed from `now`.

    `warnings` are the minutes before a level ends at which `LEVEL_SOON` is announced.
    """

    def __init__(self, schedule: Schedule, *, warnings: tuple[int, ...] = (5, 1)) -> None:
        self.schedule = schedule
        self.warnings = tuple(sorted(set(warnings), reverse=True))
        self.started_at: datetime | None = None
        self.pauses: list[Pause] = []
        self.forced_ends: dict[int, datetime] = {}
        self.extra_minutes: dict[int, int] = {}
        self.changed_at: datetime | None = None

    # --- state -----------------------------------------------------------------------------------------------------

    @property
    def is_started(self) -> bool:
        """True once started."""
        return self.started_at is not None

    @property
    def paused_at(self) -> datetime | None:
        """When the current pause began, None when running."""
        return self.pauses[-1][0] if self.pauses and self.pauses[-1][1] is None else None

    @property
    def is_paused(self) -> bool:
        """True while paused."""
        return self.paused_at is not None

    def local(self, instant: datetime) -> datetime:
        """An instant in the tournament's time zone, for display."""
        return instant.astimezone(self.schedule.zone)

    # --- actions: verify / can / do --------------------------------------------------------------------------------

    def verify_start(self, now: datetime) -> None:
        """Raise unless the clock can start now."""
        to_utc(now)
        if self.is_started:
            raise RuleError("clock_started", "the clock is already running")

    def can_start(self, now: datetime) -> bool:
        """Whether `start(now)` is allowed."""
        return allowed(self.verify_start, now)

    def start(self, now: datetime) -> list[Event]:
        """Start the clock at `now`; wall-clock levels already over are skipped."""
        self.verify_start(now)
        self.started_at = self.changed_at = to_utc(now)
        return [ClockStarted(at=self.started_at)]

    def verify_set_zone(self, tz: str) -> None:
        """Raise unless the schedule's end times can be read in the IANA time zone `tz` from now on: only before the
        start (a running clock keeps the appointments it announced), and only a zone this machine knows."""
        if self.is_started:
            raise RuleError("clock_started", "the clock is already running")
        try:
            Schedule(self.schedule.levels, tz)
        except ScheduleError:
            zone = quote_input(tz)
            raise RuleError("unknown_zone", f"unknown time zone {log_quote(zone)} (use a name like 'Europe/Moscow')",
                            zone=zone) from None

    def can_set_zone(self, tz: str) -> bool:
        """Whether `set_zone(tz)` is allowed."""
        return allowed(self.verify_set_zone, tz)

    def set_zone(self, tz: str) -> list[Event]:
        """Read the schedule's end times in `tz` ("until 19:00" is then 19:00 there)."""
        self.verify_set_zone(tz)
        self.schedule = replace(self.schedule, tz=tz)
        return [ClockZoneSet(tz=tz)]

    def verify_pause(self, now: datetime) -> None:
        """Raise unless the clock can be paused now."""
        self._verify_running(now)
        if self.is_paused:
            raise RuleError("clock_paused", "the clock is already paused")

    def can_pause(self, now: datetime) -> bool:
        """Whether `pause(now)` is allowed."""
        return allowed(self.verify_pause, now)

    def pause(self, now: datetime) -> list[Event]:
        """Stop the clock: nothing changes until `resume`."""
        self.verify_pause(now)
        at = self.changed_at = to_utc(now)
        self.pauses.append((at, None))
        return [ClockPaused(at=at)]

    def verify_resume(self, now: datetime) -> None:
        """Raise unless the clock is paused."""
        self._verify_running(now)
        if not self.is_paused:
            raise RuleError("clock_not_paused", "the clock is not paused")

    def can_resume(self, now: datetime) -> bool:
        """Whether `resume(now)` is allowed."""
        return allowed(self.verify_resume, now)

    def resume(self, now: datetime) -> list[Event]:
        """Restart a paused clock; duration levels go on where they stopped, wall-clock end times stay put."""
        self.verify_resume(now)
        at = self.changed_at = to_utc(now)
        began = self.pauses[-1][0]
        self.pauses[-1] = (began, at)
        return [ClockResumed(at=at, paused_for=at - began)]

    def resumed_at(self, now: datetime) -> Clock:
        """A copy of this paused clock resumed at `now` (this one unchanged): the timeline play would take if the
        organizer resumed now, for what a pause decides only on resuming (which levels it passes over)."""
        resumed = Clock.from_dict(self.to_dict())
        resumed.resume(now)
        return resumed

    def verify_skip(self, now: datetime) -> None:
        """Raise unless the current level can be ended now (not the last one)."""
        self._verify_running(now)
        if self.level_at(now).index == len(self.schedule.levels) - 1:
            raise RuleError("last_level", "this is the last level; there is none to skip to")

    def can_skip(self, now: datetime) -> bool:
        """Whether `skip(now)` is allowed."""
        return allowed(self.verify_skip, now)

    def skip(self, now: datetime) -> list[Event]:
        """End the current level now; the next one starts (even while paused, where it starts paused)."""
        self.verify_skip(now)
        index = self.level_at(now).index
        at = self.changed_at = to_utc(now)
        self.forced_ends[index] = at
        return [LevelSkipped(at=at, index=index)]

    def verify_adjust(self, now: datetime, minutes: int) -> None:
        """Raise unless `minutes` (non-zero, at most a day either way) can be added to the current level."""
        self._verify_running(now)
        if minutes == 0:
            raise RuleError("zero_minutes", "add or remove at least one minute")
        if abs(minutes) > MAX_ADJUST_MINUTES:
            raise RuleError("bad_minutes", f"move a level's end by at most {MAX_ADJUST_MINUTES} minutes at a time",
                            minutes=minutes, max=MAX_ADJUST_MINUTES)
        if self.level_at(now).index == len(self.schedule.levels) - 1:
            raise RuleError("last_level", "the last level has no end to move")

    def can_adjust(self, now: datetime, minutes: int) -> bool:
        """Whether `adjust(now, minutes)` is allowed."""
        return allowed(self.verify_adjust, now, minutes)

    def adjust(self, now: datetime, minutes: int) -> list[Event]:
        """Move the current level's end by `minutes` (negative: sooner); an end moved into the past is now."""
        self.verify_adjust(now, minutes)
        at = to_utc(now)
        index = self.level_at(now).index
        self.extra_minutes[index] = self.extra_minutes.get(index, 0) + minutes
        span = self._spans()[index]
        remaining = self._remaining(index, span, at)
        if remaining is not None and remaining <= ZERO:
            self.forced_ends[index] = at
        self.changed_at = at
        return [ClockAdjusted(at=at, index=index, minutes=minutes)]

    def _verify_running(self, now: datetime) -> None:
        at = to_utc(now)
        if self.started_at is None:
            raise RuleError("clock_not_started", "the clock has not started")
        if self.changed_at is not None and at < self.changed_at:
            raise RuleError("time_went_back", "that time is before the clock's last change")

    # --- queries ---------------------------------------------------------------------------------------------------

    def level_at(self, now: datetime) -> LevelStatus:
        """The level on at `now` (from the start on)."""
        at = to_utc(now)
        if self.started_at is None or at < self.started_at:
            raise RuleError("clock_not_started", "the clock has not started")
        spans = self._spans()
        index = next(number for number, (start, end) in enumerate(spans) if start <= at and (end is None or at < end))
        start, end = spans[index]
        levels = self.schedule.levels
        paused_here = end is None and index < len(levels) - 1  # (the last level has no end and nothing after it)
        following = played_after(index, self._spans_if_resumed(at) if paused_here else spans)
        return LevelStatus(
            index=index, level=levels[index], starts_at=start, ends_at=end,
            remaining=self._remaining(index, (start, end), at), is_paused=is_inside(at, self.pauses, closed=True),
            next_level=levels[following] if following < len(levels) else None,
        )

    def span(self, index: int) -> Span | None:
        """When level `index` begins and ends on the clock's timeline (UTC; the end None on the last level or while a
        pause goes on), equal when it is passed over; None when a pause that has not ended comes before it."""
        spans = self._spans()
        return spans[index] if index < len(spans) else None

    def span_before_pause(self, index: int, pause: int) -> Span | None:
        """When level `index` would begin and end had the clock run on through its pause number `pause` (counted from
        0) and those after it (as `span`): where a pause passed a wall-clock level over, the time it took from it
        (`engine.tournament_entries` gives a first break's add-ons back so)."""
        spans = self._spans(self.pauses[:pause])
        return spans[index] if index < len(spans) else None

    def next_change(self, now: datetime) -> datetime | None:
        """When the level on at `now` ends (UTC); None on the last level or while paused."""
        return self.level_at(now).ends_at

    def announcements_between(self, since: datetime, now: datetime) -> list[Announcement]:
        """What to announce at instants in (since, now], in order."""
        after, upto = to_utc(since), to_utc(now)
        return [item for item in self._announcements() if after < item.at <= upto]

    def next_announcement_at(self, now: datetime) -> datetime | None:
        """The first instant after `now` with something to announce; None when nothing is due (paused, last level)."""
        at = to_utc(now)
        return next((item.at for item in self._announcements() if item.at > at), None)

    # --- the timeline ----------------------------------------------------------------------------------------------

    def wall_ends(self) -> list[datetime | None]:
        """Each level's end time from the schedule resolved to a UTC instant (None for levels by duration)."""
        if self.started_at is None:
            raise RuleError("clock_not_started", "the clock has not started")
        zone = self.schedule.zone
        result: list[datetime | None] = []
        previous: datetime | None = None
        for level in self.schedule.levels:
            if level.until is None:
                result.append(None)
                continue
            if previous is None:
                earliest = self.started_at.astimezone(zone).replace(tzinfo=None) - timedelta(hours=6)
                local = datetime.combine(earliest.date(), level.until)
                if local < earliest:
                    local += timedelta(days=1)
            else:
                local = datetime.combine(previous.date(), level.until)
                if local <= previous:
                    local += timedelta(days=1)
            previous = local
            result.append(local.replace(tzinfo=zone).astimezone(UTC))
        return result

    def _extra(self, index: int) -> timedelta:
        """The minutes the organizer added to (or took from) level `index`."""
        return timedelta(minutes=self.extra_minutes.get(index, 0))

    def _spans(self, pauses: list[Pause] | None = None) -> list[Span]:
        """(start, end) of each level up to the first with an unknown end (paused) or no end (the last), across the
        clock's pauses (or those given)."""
        assert self.started_at is not None
        pauses = self.pauses if pauses is None else pauses
        walls = self.wall_ends()
        levels = self.schedule.levels
        spans: list[Span] = []
        start = self.started_at
        for index, level in enumerate(levels):
            end: datetime | None
            extra = self._extra(index)
            wall = walls[index]
            if index in self.forced_ends:
                end = self.forced_ends[index]
            elif index == len(levels) - 1:
                end = None
            elif level.duration is not None:
                end = run_until(start, level.duration + extra, pauses)
            else:
                assert wall is not None
                end = start if wall + extra <= start else settle(wall + extra, pauses)
            spans.append((start, end))
            if end is None:
                break
            start = end
        return spans

    def _spans_if_resumed(self, at: datetime) -> list[Span]:
        """The timeline as it would be if a pause that has not ended ended at `at` (the levels whose end times pass
        during a pause are passed over when it ends: what comes next depends on when)."""
        if not self.is_paused:
            return self._spans()
        began = self.pauses[-1][0]
        return self._spans([*self.pauses[:-1], (began, max(began, at))])

    def _remaining(self, index: int, span: Span, at: datetime) -> timedelta | None:
        """Time left in level `index` at `at`: real time to its end, or, while paused, the time it will still last."""
        start, end = span
        if end is not None:
            return end - at
        level = self.schedule.levels[index]
        extra = self._extra(index)
        if index == len(self.schedule.levels) - 1:
            return None
        if level.duration is not None:
            return level.duration + extra - running_time(start, at, self.pauses)
        wall = self.wall_ends()[index]
        assert wall is not None
        return max(wall + extra - at, ZERO)

    def _announcements(self) -> list[Announcement]:
        """Everything the current timeline announces, in order of time."""
        if self.started_at is None:
            return []
        spans = self._spans()
        levels = self.schedule.levels
        walls = self.wall_ends()
        result: list[Announcement] = []
        played: list[int] = [index for index, (start, end) in enumerate(spans) if end is None or end > start]
        first_play = next((index for index in played if not levels[index].is_break), None)  # None: paused before it
        for position, index in enumerate(played):
            start, end = spans[index]
            level = levels[index]
            if level.is_break:
                until = end if end is not None else walls[index]
                kind = AnnouncementKind.BREAK_STARTED
            else:
                until = None
                resumed = position > 0 and levels[played[position - 1]].is_break
                kind = (AnnouncementKind.PLAY_BEGAN if index == first_play else
                        AnnouncementKind.PLAY_RESUMED if resumed else AnnouncementKind.LEVEL_STARTED)
            local_until = None if until is None else self.local(until).time().replace(microsecond=0)
            result.append(Announcement(kind, start, index, level.limit, until=local_until))
            if end is None:
                continue
            following = played_after(index, spans)
            coming = levels[following]
            coming_end = spans[following][1] if following < len(spans) else None
            coming_until = None
            if coming.is_break and coming_end is not None:
                coming_until = self.local(coming_end).time().replace(microsecond=0)
            soon = AnnouncementKind.PLAY_SOON if following == first_play else AnnouncementKind.LEVEL_SOON
            for minutes in self.warnings:
                warn_at = self._warning_at(index, start, minutes, walls[index])
                if warn_at is not None and start < warn_at < end and not is_inside(warn_at, self.pauses):
                    result.append(Announcement(soon, warn_at, following, coming.limit, minutes=minutes,
                                               until=coming_until))
        result.sort(key=lambda item: item.at)
        return result

    def _warning_at(self, index: int, start: datetime, minutes: int, wall: datetime | None) -> datetime | None:
        """When `minutes` are left in level `index` by its own rule (a skip may end it sooner)."""
        level = self.schedule.levels[index]
        extra = self._extra(index)
        lead = timedelta(minutes=minutes)
        if level.duration is not None:
            amount = level.duration + extra - lead
            return run_until(start, amount, self.pauses) if amount > ZERO else None
        if wall is not None:
            return wall + extra - lead
        return None

    # --- serialisation ---------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "schedule": self.schedule.to_dict(),
            "warnings": list(self.warnings),
            "started_at": to_iso(self.started_at),
            "pauses": [[to_iso(began), to_iso(ended)] for began, ended in self.pauses],
            "forced_ends": {str(index): to_iso(at) for index, at in self.forced_ends.items()},
            "extra_minutes": {str(index): minutes for index, minutes in self.extra_minutes.items()},
            "changed_at": to_iso(self.changed_at),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Clock:
        """The clock `to_dict` wrote."""
        clock = cls(Schedule.from_dict(data["schedule"]), warnings=tuple(data["warnings"]))
        clock.started_at = from_iso(data["started_at"])
        clock.pauses = [(required_instant(from_iso(began)), from_iso(ended)) for began, ended in data["pauses"]]
        clock.forced_ends = {int(index): required_instant(from_iso(at)) for index, at in data["forced_ends"].items()}
        clock.extra_minutes = {int(index): int(minutes) for index, minutes in data["extra_minutes"].items()}
        clock.changed_at = from_iso(data["changed_at"])
        return clock
