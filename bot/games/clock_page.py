"""`/clock tv`: the link of the tournament's clock page, a read-only web page for a TV in the room."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.games.context import Action
from bot.games.tournament_play import clock_reading
from bot.output import SeasonRow
from bot.store import clock_pages
from bot.store.clock_pages import ClockPageTarget, clock_page_token
from bot.store.tx import Tx
from engine.tournament import Tournament


@dataclass(frozen=True, slots=True)
class ClockPageReading:
    """What a clock page's token leads to at one instant: the tournament, the instant its clock reads, the chat's
    settings (for the language) and the season's standings, with the table whose changes wake the page."""

    table_id: str
    tournament_id: int
    tournament: Tournament
    reading: datetime
    settings: dict[str, Any]
    season: list[SeasonRow] | None


def post_clock_page_link(act: Action, web_url: str | None) -> None:
    """Post the link of the table's tournament's clock page (its token made once and kept); without a web address
    configured, say how to serve the pages."""
    if web_url is None:
        raise act.refuse("clock_page.off")
    data = act.state.get("tournament")
    if not data:
        raise act.refuse("tournament.none")
    token = clock_page_token(act.tx, int(data["id"]))
    act.say("clock_page.link", url=f"{web_url.rstrip('/')}/clock/{token}")


def read_clock_page(tx: Tx, target: ClockPageTarget, record: dict[str, Any] | None, now: datetime) -> ClockPageReading:
    """The tournament a clock page's token opened, at the wall clock's `now`: from `record`, the table's own copy
    (`state["tournament"]` as the live table holds it, which also knows the clock's last announcement) when it is
    this tournament's, else the tournament's stored state; with the chat's settings and season, read in `tx`."""
    if record is not None and record.get("id") != target.tournament_id:
        record = None
    tournament = Tournament.from_dict(record["engine"] if record is not None else target.state)
    reading = clock_reading(now, tournament, record) if tournament.clock.is_started else now
    return ClockPageReading(target.table_id, target.tournament_id, tournament, reading,
                            tx.chat_settings(target.chat_id), clock_pages.season_standings(tx, target.chat_id))
