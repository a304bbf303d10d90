"""A chat's seasons (RULES.md §1d): which one is on, starting one, ending it (the `seasons` table)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.tx import Tx


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a chat: its number in the chat, its name (None: it goes by its number), when it started, and
    when it ended (None while it is on)."""

    number: int
    name: str | None
    started_at: float
    ended_at: float | None


def current_season(tx: Tx, chat_id: str) -> SeasonRecord | None:
    """The season on in the chat, None when none is."""
    row = tx.db.execute("SELECT number, name, started_at, ended_at FROM seasons WHERE chat_id = ? AND ended_at IS NULL",
                        (chat_id,)).fetchone()
    return None if row is None else SeasonRecord(*row)


def last_season(tx: Tx, chat_id: str) -> SeasonRecord | None:
    """The chat's latest season, on or ended; None when it never had one."""
    row = tx.db.execute("SELECT number, name, started_at, ended_at FROM seasons WHERE chat_id = ? "
                        "ORDER BY number DESC LIMIT 1", (chat_id,)).fetchone()
    return None if row is None else SeasonRecord(*row)


def start_season(tx: Tx, chat_id: str, name: str | None) -> SeasonRecord:
    """Start the chat's next season now (none may be on: the caller checks)."""
    tx.ensure_chat(chat_id)
    (last,) = tx.db.execute("SELECT COALESCE(MAX(number), 0) FROM seasons WHERE chat_id = ?", (chat_id,)).fetchone()
    season = SeasonRecord(int(last) + 1, name, tx.now, None)
    tx.db.execute("INSERT INTO seasons(chat_id, number, name, started_at) VALUES (?, ?, ?, ?)",
                  (chat_id, season.number, name, season.started_at))
    return season


def end_season(tx: Tx, chat_id: str) -> SeasonRecord | None:
    """End the season on in the chat now; the season as ended, None when none was on."""
    row = tx.db.execute("UPDATE seasons SET ended_at = ? WHERE chat_id = ? AND ended_at IS NULL "
                        "RETURNING number, name, started_at, ended_at", (tx.now, chat_id)).fetchone()
    return None if row is None else SeasonRecord(*row)
