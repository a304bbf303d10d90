"""`/season`: the chat's league across tournaments (RULES.md §1d) — its standings, and, for organizers, its start
and end. A season counts the chat's tournaments created while it is on; it ends only once they have all finished,
so its final standings are final."""

from __future__ import annotations

from fractions import Fraction

from bot import commands as cmd
from bot.games.context import Action
from bot.i18n import Signed
from bot.render.tournament import money
from bot.seasons import Standing, finished_count, ranks, season_records, standings, unfinished
from bot.store.played import chat_tournaments
from bot.store.seasons import SeasonRecord, current_season, end_season, last_season, start_season
from engine.text import inert

MAX_NAME = 60
"""The longest season name: it heads the standings."""
SHOW_WORDS = ("", "standings", "show", "table")
END_WORDS = ("end", "close", "stop")


def season_command(act: Action, command: cmd.Command) -> None:
    """`/season` (the standings of the season on, else of the last one), `/season start [name]`, `/season end`."""
    assert isinstance(command, cmd.Season)
    if command.action in SHOW_WORDS:
        _show(act)
    elif command.action == "start":
        _start(act, command.argument.strip())
    elif command.action in END_WORDS:
        _end(act)
    else:
        raise act.usage_refusal(cmd.Season.name, "usage.season")


def season_name(act: Action, season: SeasonRecord) -> str:
    """The season's name as the bot's lines quote it (`inert`: a name like "/fold" is no command there), or
    "Season N" for one started without a name."""
    return inert(season.name) if season.name else act.t("season.default_name", number=season.number)


def standing_lines(act: Action, lines: list[Standing]) -> str:
    """The standings, one line per player, best first, each with its rank (players level on money and tournaments
    played share one)."""
    return "\n".join(act.t("season.line", place=place, player=act.name(line.player), money=signed_money(line.net_cents),
                           played=line.played, points=line.points)
                     for place, line in zip(ranks(lines), lines, strict=True))


def signed_money(cents: int) -> Signed:
    """Money in cents as a signed amount (+12.50, −3)."""
    return Signed(money(Fraction(cents, 100)))


def _show(act: Action) -> None:
    season = last_season(act.tx, act.place.chat_id)
    if season is None:
        raise act.refuse("season.none")
    _say_standings(act, season, "season.standings" if season.ended_at is None else "season.final")


def _say_standings(act: Action, season: SeasonRecord, key: str) -> None:
    records = season_records(chat_tournaments(act.tx, act.place.chat_id), season)
    lines = standings(records)
    act.say(key, name=season_name(act, season), tournaments=finished_count(records),
            lines=standing_lines(act, lines) if lines else act.t("season.no_results"))


def _start(act: Action, name: str) -> None:
    act.require_organizer()
    running = current_season(act.tx, act.place.chat_id)
    if running is not None:
        raise act.refuse("season.already_on", name=season_name(act, running))
    if len(name) > MAX_NAME:
        raise act.refuse("season.long_name", limit=MAX_NAME)
    season = start_season(act.tx, act.place.chat_id, " ".join(name.split()) or None)
    act.say("season.started", name=season_name(act, season))


def _end(act: Action) -> None:
    act.require_organizer()
    running = current_season(act.tx, act.place.chat_id)
    if running is None:
        raise act.refuse("season.none_on")
    still_on = unfinished(season_records(chat_tournaments(act.tx, act.place.chat_id), running))
    if still_on:
        raise act.refuse("season.tournament_on", number=still_on[0])
    ended = end_season(act.tx, act.place.chat_id)
    assert ended is not None
    _say_standings(act, ended, "season.ended")
