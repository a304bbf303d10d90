"""What the clock page shows at an instant: the level, the time left, the numbers of the night, the options, the
schedule.

A view is a plain JSON-able dict with every text already in the chat's language, so the page only lays it out and
counts the seconds down. Rebuys and add-ons come from the tournament's `summary()`, the options as `/clock` says them
(`bot.render.clock_options`), season standings through `bot.store.clock_pages.season_standings`.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bot.i18n import format_number, text
from bot.output import SeasonRow
from bot.render import Voice
from bot.render.clock_options import clock_options
from bot.render.tournament import limits, local_time, money
from engine.schedule import Level
from engine.tournament import ItemStatus, Phase, Tournament

LABELS = ("break", "paused", "next", "last_level", "players", "average", "chips", "pawned", "rebuys",
          "pool", "options", "schedule", "season", "sound", "reconnecting", "registering", "finished")
"""The page's fixed words (`clock_page.<name>` in the catalogues), sent with the page in the chat's language."""


def clock_view(tournament: Tournament, number: int, now: datetime, language: str,
               season: list[SeasonRow] | None = None) -> dict[str, Any]:
    """The page's content for tournament `number` at the clock's instant `now`, in `language`."""
    def num(value: int | Fraction | Decimal) -> str:
        return format_number(language, value)

    summary = tournament.summary()
    players_left = summary.players_left
    if tournament.phase is Phase.FINISHED:  # everyone was cashed out at the end: the winner is left
        players_left = sum(entrant.place == 1 for entrant in tournament.entrants.values())
    view: dict[str, Any] = {
        "language": language,
        "title": text(language, "clock_page.title", number=number),
        "phase": tournament.phase.value,
        "players": text(language, "clock_page.players_value", left=players_left, entries=summary.entries),
        "average": num(tournament.chips_in_play // players_left) if tournament.chips_in_play and players_left else "—",
        "chips": num(tournament.chips_in_play),
        "pawned": num(sum(item.status is ItemStatus.HELD for item in tournament.items)),
        "rebuys": f"{num(summary.rebuys)} / {num(summary.addons)}",
        "pool": num(money(tournament.config.to_money(tournament.chips_in_play))),
        "rate": text(language, "clock_page.rate", chips=_plain(tournament.config.rate)),
        "season": [{"player": row.player, "result": row.result} for row in season] if season else None,
        "options": [{"text": option.text, "over": option.is_over, "room": option.other_text}
                    for option in clock_options(Voice(language), tournament, now)],
        "schedule": _schedule(language, tournament, None), "level": None, "remaining_ms": None, "ends_at": None,
        "running": False, "paused": False, "until": None, "next": None,
    }
    if tournament.phase is not Phase.RUNNING:
        return view
    status = tournament.clock.level_at(now)
    view["level"] = _level(language, status.index, tournament.clock.schedule.level_number(status.index), status.level)
    if status.remaining is not None:
        view["remaining_ms"] = max(0, round(status.remaining.total_seconds() * 1000))
    view["running"] = status.ends_at is not None and not status.is_paused
    view["ends_at"] = status.ends_at.timestamp() if status.ends_at is not None else None
    view["paused"] = status.is_paused
    if status.is_break and status.ends_at is not None:
        view["until"] = text(language, "clock_page.until", time=local_time(tournament, status.ends_at))
    if status.next_level is not None:
        view["next"] = _coming(language, status.next_level)
    view["schedule"] = _schedule(language, tournament, status.index)
    return view


def _level(language: str, index: int, number: int, level: Level) -> dict[str, Any]:
    """The level on (`index` in the schedule, `number` as players count the levels): its name ("Level 3", or the
    break), its limits and its blinds."""
    if level.is_break:
        return {"index": index, "is_break": True, "name": text(language, "clock_page.break"), "limits": "",
                "blinds": ""}
    return {"index": index, "is_break": False, "name": text(language, "clock_page.level_number", number=number),
            "limits": text(language, "clock_page.limits", limits=limits(language, level.limit)),
            "blinds": text(language, "clock_page.blinds", small=level.small_blind, big=level.big_blind)}


def _coming(language: str, level: Level) -> str:
    """The next level in a few words: its limits and blinds, or the break."""
    if level.is_break:
        return text(language, "clock_page.break")
    return text(language, "clock_page.next_level", limits=limits(language, level.limit), small=level.small_blind,
                big=level.big_blind)


def labels(language: str) -> dict[str, str]:
    """The page's fixed words in `language`."""
    return {name: text(language, f"clock_page.{name}") for name in LABELS}


def _schedule(language: str, tournament: Tournament, current: int | None) -> list[dict[str, Any]]:
    """The schedule a line a level: its limits (or the break), how long it lasts or until when (nothing for the last
    level, which lasts until the end), and whether it is on now."""
    levels = tournament.clock.schedule.levels
    return [{"limits": limits(language, level.limit) or text(language, "clock_page.break"),
             "detail": _lasts(language, level) if index < len(levels) - 1 else "",
             "is_break": level.is_break, "current": index == current} for index, level in enumerate(levels)]


def _lasts(language: str, level: Level) -> str:
    if level.until is not None:
        return text(language, "clock_page.until", time=f"{level.until:%H:%M}")
    assert level.duration is not None, "a level before the last has a duration or an end time"
    minutes = int(level.duration.total_seconds() // 60)
    if minutes >= 60:
        return text(language, "duration.hours", hours=minutes // 60, minutes=f"{minutes % 60:02d}")
    return text(language, "duration.minutes", minutes=minutes)


def _plain(value: Fraction) -> int | Fraction:
    """A whole rate as an int, so its words agree with it ("6 chips", «6 фишек»)."""
    return value.numerator if value.denominator == 1 else value
