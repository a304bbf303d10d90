"""Clock pages: the unguessable token of each tournament's page, and what a token leads to."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from bot.output import SeasonRow
from bot.store.tx import Tx, loads

TOKEN_BYTES = 18
"""Random bytes in a token (24 URL-safe characters): far beyond guessing, short enough to type into a TV."""


@dataclass(frozen=True, slots=True)
class ClockPageTarget:
    """What a clock page's token leads to: one tournament, its chat and table, and its stored state."""

    tournament_id: int
    chat_id: str
    table_id: str
    state: dict[str, Any]


def season_standings(tx: Tx, chat_id: str) -> list[SeasonRow] | None:
    """The chat's season standings for the page to show during breaks, best first, read in the page's transaction;
    None while the chat plays no season (seasons, RULES.md §1d, answer here)."""
    return None


def clock_page_token(tx: Tx, tournament_id: int) -> str:
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
