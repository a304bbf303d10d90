"""A chat's seasons (RULES.md §1d): which one is on, starting one, ending it (the `seasons` table)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.view import TxView

_COLUMNS = "number, name, started_at, ended_at, after_tournament, through_tournament"


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a chat: its number in the chat, its name (None: it goes by its number), when it started and
    ended (None while it is on), and its tournaments: those numbered after `after_tournament` up to
    `through_tournament` (no end while it is on). Numbers, not times, bound it: a tournament created in the second a
    season starts or ends still belongs to exactly one side."""

    number: int
    name: str | None
    started_at: float
    ended_at: float | None
    after_tournament: int
    through_tournament: int | None

    def holds(self, tournament_id: int) -> bool:
        """Whether the tournament numbered `tournament_id` is one of the season's."""
        return self.after_tournament < tournament_id and (
            self.through_tournament is None or tournament_id <= self.through_tournament)


def current_season(tx: TxView, chat_id: str) -> SeasonRecord | None:
    """The season on in the chat, None when none is."""
    row = tx.db.execute("SELECT " + _COLUMNS + " FROM seasons WHERE chat_id = ? AND ended_at IS NULL",
                        (chat_id,)).fetchone()
    return None if row is None else SeasonRecord(*row)


def last_season(tx: TxView, chat_id: str) -> SeasonRecord | None:
    """The chat's latest season, on or ended; None when it never had one."""
    row = tx.db.execute(f"SELECT {_COLUMNS} FROM seasons WHERE chat_id = ? ORDER BY number DESC LIMIT 1",
                        (chat_id,)).fetchone()
    return None if row is None else SeasonRecord(*row)


def start_season(tx: TxView, chat_id: str, name: str | None) -> SeasonRecord:
    """Start the chat's next season now (none may be on: the caller checks)."""
    tx.ensure_chat(chat_id)
    (last,) = tx.db.execute("SELECT COALESCE(MAX(number), 0) FROM seasons WHERE chat_id = ?", (chat_id,)).fetchone()
    season = SeasonRecord(int(last) + 1, name, tx.now, None, _last_tournament(tx), None)
    tx.db.execute("INSERT INTO seasons(chat_id, number, name, started_at, after_tournament) VALUES (?, ?, ?, ?, ?)",
                  (chat_id, season.number, name, season.started_at, season.after_tournament))
    return season


def end_season(tx: TxView, chat_id: str) -> SeasonRecord | None:
    """End the season on in the chat now; the season as ended, None when none was on."""
    row = tx.db.execute(f"UPDATE seasons SET ended_at = ?, through_tournament = ? WHERE chat_id = ? "
                        f"AND ended_at IS NULL RETURNING {_COLUMNS}",
                        (tx.now, _last_tournament(tx), chat_id)).fetchone()
    return None if row is None else SeasonRecord(*row)


def _last_tournament(tx: TxView) -> int:
    """The number of the latest tournament of any chat (0 before the first): a season's bound."""
    (last,) = tx.db.execute("SELECT COALESCE(MAX(id), 0) FROM tournaments").fetchone()
    return int(last)
