"""Clock pages: the unguessable token of each tournament's page, and what a token leads to."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.i18n import Signed, chat_language, text
from bot.output import SeasonRow
from bot.render.tournament import money
from bot.seasons import season_records, standings
from bot.store.played import chat_tournaments
from bot.store.seasons import current_season
from bot.store.tx import Tx, loads
from bot.store.view import TxView

TOKEN_BYTES = 18
"""Random bytes in a token (24 URL-safe characters): far beyond guessing, short enough to type into a TV."""


@dataclass(frozen=True, slots=True)
class ClockPageTarget:
    """What a clock page's token leads to: one tournament, its chat and table, and its stored state."""

    tournament_id: int
    chat_id: str
    table_id: str
    state: dict[str, Any]


PAGE_STANDINGS = 10
"""The most lines of the season's standings a clock page shows."""


def season_standings(tx: Tx, chat_id: str) -> list[SeasonRow] | None:
    """The chat's season standings for the page to show during breaks, best first (its first `PAGE_STANDINGS`), in
    the chat's language, read in the page's transaction; None while no season is on in the chat."""
    season = current_season(tx, chat_id)
    if season is None:
        return None
    language = chat_language(tx.chat_settings(chat_id))
    lines = standings(season_records(chat_tournaments(tx, chat_id), season))
    return [SeasonRow(tx.player_name(chat_id, line.player),
                      text(language, "season.page_result", money=Signed(money(Fraction(line.net_cents, 100))),
                           points=line.points))
            for line in lines[:PAGE_STANDINGS]]


def clock_page_token(tx: TxView, tournament_id: int) -> str:
    """The token of the tournament's clock page: the one it has, else a new one from `secrets`, kept in this
    transaction (so the link stays the same across restarts)."""
    row = tx.db.execute("SELECT token FROM clock_pages WHERE tournament_id = ?", (tournament_id,)).fetchone()
    if row is not None:
        return str(row[0])
    token = secrets.token_urlsafe(TOKEN_BYTES)
    tx.db.execute("INSERT INTO clock_pages(token, tournament_id) VALUES (?, ?)", (token, tournament_id))
    return token


def clock_page_target(tx: Tx, token: str) -> ClockPageTarget | None:
    """The tournament a token opens, None for a token that opens nothing."""
    row = tx.db.execute(
        "SELECT t.id, t.chat_id, t.table_id, t.state FROM clock_pages p JOIN tournaments t ON t.id = p.tournament_id"
        " WHERE p.token = ?", (token,)).fetchone()
    if row is None:
        return None
    return ClockPageTarget(int(row[0]), str(row[1]), str(row[2]), loads(row[3]))
