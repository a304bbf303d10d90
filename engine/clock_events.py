"""What the tournament clock says: its announcements to the channel, and the events of the tournament and its clock.

The clock (`engine.clock`) works out when each announcement is due; this module only names them and their texts'
parameters, so that rendering reads them without the clock's reckoning.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import StrEnum
from typing import Any

from engine.common import Event
from engine.schedule import clock_time_text, limits_text


class AnnouncementKind(StrEnum):
    """What the clock tells the channel."""

    LEVEL_SOON = "level_soon"
    """`minutes` before the current level ends; `limit` is the next level's (None: a break comes)."""
    LEVEL_STARTED = "level_started"
    """Limits are now `limit` (from the next hand)."""
    BREAK_STARTED = "break_started"
    """A break until `until` (local time; None when unknown)."""
    PLAY_RESUMED = "play_resumed"
    """The break is over; limits are `limit`."""
    PLAY_SOON = "play_soon"
    """`minutes` before a break that comes before any play ends (a clock started during a break, a schedule that
    opens with one): play begins at `limit`. Nothing was played, so nothing goes up."""
    PLAY_BEGAN = "play_began"
    """The first level played begins, at `limit`: at the start, or at the end of a break that came before any play
    (nothing resumes)."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to post in the channel at instant `at` (UTC), with the parameters of its text."""

    kind: AnnouncementKind
    at: datetime
    level_index: int
    limit: int | None
    minutes: int | None = None
    until: time | None = None
    """A break's end, local time to the second (a break of minutes that began half a minute past ends so too)."""

    @property
    def limits(self) -> str | None:
        """The limits as written at the table ("50/100"), None for a break."""
        return limits_text(self.limit)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "kind": self.kind.value, "at": self.at.isoformat(), "level_index": self.level_index, "limit": self.limit,
            "limits": self.limits, "minutes": self.minutes,
            "until": None if self.until is None else clock_time_text(self.until),
        }


@dataclass(frozen=True, kw_only=True)
class TournamentEvent(Event):
    """An event of the tournament or its clock (`to_dict` writes instants in ISO form, durations in seconds)."""


@dataclass(frozen=True, kw_only=True)
class ClockStarted(TournamentEvent):
    """The clock started at `at`."""

    at: datetime


@dataclass(frozen=True, kw_only=True)
class ClockPaused(TournamentEvent):
    """The organizer paused the clock."""

    at: datetime


@dataclass(frozen=True, kw_only=True)
class ClockResumed(TournamentEvent):
    """The organizer resumed the clock after `paused_for`."""

    at: datetime
    paused_for: timedelta


@dataclass(frozen=True, kw_only=True)
class LevelSkipped(TournamentEvent):
    """The organizer ended level `index` now."""

    at: datetime
    index: int


@dataclass(frozen=True, kw_only=True)
class ClockAdjusted(TournamentEvent):
    """The organizer added (or removed, when negative) `minutes` to level `index`."""

    at: datetime
    index: int
    minutes: int


@dataclass(frozen=True, kw_only=True)
class ClockZoneSet(TournamentEvent):
    """Before the start, the schedule's end times were set to be read in the time zone `tz`."""

    tz: str
