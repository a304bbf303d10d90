"""What `/set` says at every table (its listing, answers and refusals, settings named in the reader's language), and
a table's time zone: the one its times (a tournament's start and levels, an export's rows) are read and written in,
set by `/set timezone` at any table."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Iterable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.games.context import Action, Refusal
from bot.i18n import DEFAULT_LANGUAGE, catalogue
from engine.text import quote_input

DEFAULT_TIMEZONE = "UTC"
"""The zone of a table that never set one."""
SETTING = "timezone"
"""The `/set` name of a table's time zone, at every table."""


def list_settings(act: Action, values: Iterable[tuple[str, object]]) -> None:
    """`/set` without a name: the table's settings (`(name, value)` each), its time zone last, told to the actor one
    a line: the name `/set` takes, what it is in his language, and its value (with the word `/set` takes)."""
    with act.privately(act.user):
        lines = [act.t("settings.item", name=name, label=setting_name(act, name), value=_listed(act, name, value))
                 for name, value in [*values, (SETTING, table_zone(act))]]
        act.tell(act.user, "settings.list", values="\n".join(lines))


def say_set(act: Action, name: str, value: object, *, next_hand: bool = False) -> None:
    """Say that a setting changed (from the next hand, with `next_hand`), named and valued in the chat's language."""
    act.say("settings.set_next_hand" if next_hand else "settings.set", name=setting_name(act, name),
            value=setting_value(act, name, value))


def setting_name(act: Action, name: str) -> str:
    """What the setting `/set` calls `name` is called in the language now in use."""
    return act.t(f"setting.name.{name}")


def setting_value(act: Action, name: str, value: object) -> object:
    """A setting's value in the language now in use: a word `/set` takes by its label (the setting's own, as a
    tier's "VIP" for `vip`, or one kept under the setting's name, as a structure's that the table's title shows; else
    the one its word has at every setting), anything else (numbers, zones) as it is."""
    if isinstance(value, str):
        for key in (f"setting.value.{name}.{value}", f"{name}.{value}", f"setting.value.{value}"):
            if key in catalogue(DEFAULT_LANGUAGE):
                return act.t(key)
    return value


def _listed(act: Action, name: str, value: object) -> object:
    """A value as the listing shows it: its label, and the word `/set` takes when that differs."""
    shown = setting_value(act, name, value)
    return shown if shown == value else act.t("settings.value_word", value=shown, word=value)


def unknown_setting(act: Action, typed: str, names: Iterable[str]) -> Refusal:
    """The refusal of a `/set` name the table does not have, naming those it has (`names`, and the time zone), each
    with its label in the actor's language."""
    with act.privately(act.user):
        named = [_named(act, name) for name in [*names, SETTING]]
        return act.refuse("settings.unknown", name=quote_input(typed), names=", ".join(named))


def bad_value(act: Action, name: str, typed: object, choices: str) -> Refusal:
    """The refusal of a value the setting `name` does not take: the setting by its label in the actor's language
    and by the word `/set` takes, with the values it takes (`choices`)."""
    with act.privately(act.user):
        return act.refuse("settings.bad_value", name=name, label=setting_name(act, name), value=quote_input(typed),
                          choices=choices)


def chosen(act: Action, name: str, typed: object, words: Iterable[str]) -> str:
    """The word of `words` (those the setting `name` takes, as `/set` lists them) that a player typed, whatever its
    case (`/set straddle ON` is `on`), or typed as its label in his language (`/set straddle вкл`, as the listing
    shows it); a word it does not take is refused, quoted as typed, listing those it takes."""
    word, taken = str(typed).casefold(), tuple(words)
    for candidate in taken:
        if word in (candidate, str(setting_value(act, name, candidate)).casefold()):
            return candidate
    raise bad_value(act, name, typed, ", ".join(taken))


def _named(act: Action, name: str) -> str:
    """A setting as a refusal lists it: the word `/set` takes, with its label when that differs."""
    label = setting_name(act, name)
    return name if label == name else act.t("settings.name_label", name=name, label=label)


def set_table_zone(act: Action, typed: object) -> str:
    """`/set timezone` at any table (the organizer's right checked before): the zone its times are read and written
    in, found whatever its case, said and returned; a zone that does not exist is refused."""
    zone = timezone_named(str(typed))
    if zone is None:
        raise bad_value(act, SETTING, typed, "Europe/Moscow, UTC, America/New_York…")
    act.config["timezone"] = zone
    say_set(act, SETTING, zone)
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
