"""A transaction's part for tournaments: their rows (status and engine state) and the hands each one played."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.store.dialect import Connection
from bot.store.log import ActionLog, hand_number
from bot.store.txbase import dumps, loads


class Tournaments(ActionLog):
    """The `tournaments` rows, and the hands of a table that a tournament played."""

    def last_tournament(self, table_id: str) -> int | None:
        """The id of the table's current or last tournament."""
        row = self.db.execute(
            "SELECT id FROM tournaments WHERE table_id = ? ORDER BY id DESC LIMIT 1", (table_id,)
        ).fetchone()
        return int(row[0]) if row else None

    def played_here(self, table_id: str, tournament_id: int) -> bool:
        """Whether tournament `tournament_id` is one of the table's."""
        return self.db.execute("SELECT 1 FROM tournaments WHERE id = ? AND table_id = ?",
                               (tournament_id, table_id)).fetchone() is not None

    def tournament_hands(self, table_id: str, tournament_id: int) -> list[str]:
        """The Hold'em hands that ended at the table while the tournament ran, oldest first (`tournament_hand_ids`)."""
        return tournament_hand_ids(self.db, table_id, tournament_id)

    def hands_tournaments(self, table_id: str, hand_ids: Iterable[str]) -> dict[str, tuple[int, dict[str, Any]]]:
        """Of these hands of the table, those a tournament played, each with its tournament's number and engine state:
        the table's tournaments looked at newest first, up to one whose last hand is older than the oldest asked."""
        wanted = set(hand_ids)
        oldest = min(map(hand_number, wanted), default=0)
        found: dict[str, tuple[int, dict[str, Any]]] = {}
        rows = self.db.execute("SELECT id FROM tournaments WHERE table_id = ? ORDER BY id DESC", (table_id,))
        for (number,) in rows.fetchall():
            if not wanted:
                break
            hands = tournament_hand_ids(self.db, table_id, int(number))
            if hands and hand_number(hands[-1]) < oldest:
                break
            if played := wanted.intersection(hands):
                (state,) = self.db.execute("SELECT state FROM tournaments WHERE id = ?", (number,)).fetchone()
                found.update(dict.fromkeys(played, (int(number), loads(state))))
                wanted -= played
        return found

    def finished_tournaments(self, chat_id: str) -> list[dict[str, Any]]:
        """The engine states of the chat's finished tournaments, oldest first (each settles its money)."""
        rows = self.db.execute(
            "SELECT state FROM tournaments WHERE chat_id = ? AND status = 'finished' ORDER BY id", (chat_id,))
        return [loads(state) for (state,) in rows]

    def save_tournament(
        self, tournament_id: int | None, chat_id: str, table_id: str, status: str, state: dict[str, Any]
    ) -> int:
        """Insert or update a tournament's state; return its id."""
        if tournament_id is None:
            row = self.db.execute(
                "INSERT INTO tournaments(chat_id, table_id, status, state, created_at) VALUES (?, ?, ?, ?, ?) "
                "RETURNING id", (chat_id, table_id, status, dumps(state), self.now),
            ).fetchone()
            return int(row[0])
        self.db.execute(
            "UPDATE tournaments SET status = ?, state = ? WHERE id = ?", (status, dumps(state), tournament_id)
        )
        return tournament_id


def tournament_hand_ids(db: Connection, table_id: str, tournament_id: int) -> list[str]:
    """The Hold'em hands that ended at the table while the tournament ran (from its first recorded event to its
    `TournamentFinished`, or to now), oldest first. A table plays no cash hand while it has a tournament."""
    span = db.execute("SELECT first_seq, ended_seq FROM hand_spans WHERE table_id = ? AND hand_id = ?",
                      (table_id, f"t{tournament_id}")).fetchone()
    if span is None:
        return []
    first, finished = span
    last = finished if finished is not None else 2**62  # the last hand ends in the action that finishes it
    # the table's hands follow one another: those that ended after its first row began after it, but for the one
    # in play then, the last to begin by then (looked up in the order hands begin, as the rest)
    begun = db.execute(
        "SELECT first_seq FROM hand_spans WHERE table_id = ? AND first_seq <= ? AND hand_id LIKE 'h%' "
        "ORDER BY first_seq DESC LIMIT 1", (table_id, first)).fetchone()
    rows = db.execute(
        "SELECT hand_id FROM hand_spans WHERE table_id = ? AND first_seq >= ? AND first_seq <= ? "
        "AND hand_id LIKE 'h%' AND ended_seq > ? AND ended_seq <= ? ORDER BY first_seq",
        (table_id, first if begun is None else begun[0], last, first, last),
    ).fetchall()
    return [str(row[0]) for row in rows]

