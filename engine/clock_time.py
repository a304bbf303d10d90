"""The tournament clock's time arithmetic: instants in UTC and as ISO text, time run across pauses, and levels
passed over.

A pause is (began, ended), ended None while it goes on; a span is a level's (start, end), end None when unknown.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

ZERO = timedelta(0)
Span = tuple[datetime, datetime | None]
Pause = tuple[datetime, datetime | None]


def to_utc(instant: datetime) -> datetime:
    """An aware datetime in UTC; a naive one is a bug in the caller."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{instant!r} has no time zone; the clock needs aware datetimes")
    return instant.astimezone(UTC)


def played_after(index: int, spans: list[Span]) -> int:
    """The index of the level played after level `index`: the next one, passing over those whose end time had
    passed when they would have begun (they never happen)."""
    following = index + 1
    while following < len(spans) and spans[following][1] == spans[following][0]:
        following += 1
    return following


def run_until(start: datetime, amount: timedelta, pauses: list[Pause]) -> datetime | None:
    """The instant at which the clock has run `amount` since `start`, skipping pauses; None if a pause never ends."""
    at, left = start, max(amount, ZERO)
    for began, ended in pauses:
        if ended is not None and ended <= at:
            continue
        began = max(began, at)
        if at + left <= began:
            return at + left
        left -= began - at
        if ended is None:
            return None
        at = ended
    return at + left


def running_time(start: datetime, at: datetime, pauses: list[Pause]) -> timedelta:
    """How long the clock ran between `start` and `at`."""
    total = at - start
    for began, ended in pauses:
        overlap = min(at, ended or at) - max(start, began)
        if overlap > ZERO:
            total -= overlap
    return total


def is_inside(at: datetime, pauses: list[Pause], *, closed: bool = False) -> bool:
    """True when `at` falls strictly inside a pause (or, with `closed`, also at its first instant)."""
    return any((began <= at if closed else began < at) and (ended is None or at < ended) for began, ended in pauses)


def settle(at: datetime, pauses: list[Pause]) -> datetime | None:
    """A wall-clock change at `at`, postponed to the end of the pause it falls in (None: that pause goes on)."""
    for began, ended in pauses:
        if began < at and (ended is None or at < ended):
            return ended
    return at


def to_iso(instant: datetime | None) -> str | None:
    """An instant (or None) as ISO text for JSON."""
    return None if instant is None else instant.isoformat()


def from_iso(text: str | None) -> datetime | None:
    """The UTC instant (or None) that `to_iso` wrote."""
    return None if text is None else to_utc(datetime.fromisoformat(text))


def required_instant(instant: datetime | None) -> datetime:
    """A stored instant that must be there (a pause's start, a forced end); its absence is a broken record."""
    if instant is None:
        raise ValueError("a stored clock instant is missing")
    return instant
