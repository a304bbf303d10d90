"""A table's time zone: the one its times (a tournament's start and levels, an export's rows) are read and written
in, set by `/set timezone` at any table."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Iterable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.games.context import Action, Refusal
from engine.text import quote_input

DEFAULT_TIMEZONE = "UTC"
"""The zone of a table that never set one."""
SETTING = "timezone"
"""The `/set` name of a table's time zone, at every table."""


def list_settings(act: Action, values: Iterable[str]) -> None:
    """`/set` without a name: the table's settings (`name=value` each), its time zone last, told to the actor."""
    act.tell(act.user, "settings.list", values=", ".join([*values, f"{SETTING}={table_zone(act)}"]))


def unknown_setting(act: Action, typed: str, names: Iterable[str]) -> Refusal:
    """The refusal of a `/set` name the table does not have, naming those it has (`names`, and the time zone)."""
    return act.refuse("settings.unknown", name=quote_input(typed), names=", ".join([*names, SETTING]))


def set_table_zone(act: Action, typed: object) -> str:
    """`/set timezone` at any table (the organizer's right checked before): the zone its times are read and written
    in, found whatever its case, said and returned; a zone that does not exist is refused."""
    zone = timezone_named(str(typed))
    if zone is None:
        raise act.refuse("settings.bad_value", name="timezone", value=quote_input(typed),
                         choices="Europe/Moscow, UTC, America/New_York…")
    act.config["timezone"] = zone
    act.say("settings.set", name="timezone", value=zone)
    return zone


def table_zone(act: Action) -> str:
    """The time zone the table's times are read in: its `/set timezone` (or a chat-wide one an older version kept),
    else UTC."""
    zone = str(act.config.get("timezone") or act.chat_settings.get("timezone") or DEFAULT_TIMEZONE)
    return zone if valid_timezone(zone) else DEFAULT_TIMEZONE


def valid_timezone(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine knows."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def timezone_named(typed: str) -> str | None:
    """The IANA time zone a player typed, spelled as the database spells it ("europe/moscow" is Europe/Moscow), or
    None when the machine knows no such zone."""
    return typed if valid_timezone(typed) else _zones_by_folded().get(typed.casefold())


@functools.cache
def _zones_by_folded() -> dict[str, str]:
    """Every time zone this machine knows, by its name casefolded (read once: the list does not change while the
    bot runs)."""
    return {zone.casefold(): zone for zone in zoneinfo.available_timezones()}
