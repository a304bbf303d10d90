"""What was played in a chat, read for statistics, seasons and exports: its Hold'em hands' figures, its tournaments'
records and its chip moves (the ledger's rows and the hands' moves in the action log). Every read of theirs goes
through here, so a change of where hands are kept changes this module alone."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from bot.statistics import PlayFigures
from bot.store import figures
from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.tx import LedgerRow, Tx, loads
from bot.store.view import TxView


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One tournament of a chat as stored: its number, table, phase (`registering`, `running`, `finished`), when it
    was created, and its engine state."""

    tournament_id: int
    table_id: str
    status: str
    created_at: float
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LedgerEntry(LedgerRow):
    """One chip move of a chat (a `LedgerRow`: from which account to which, how many chips, why, at which table and
    hand) and when it was made."""

    at: float


def chat_figures(tx: Tx, chat_id: str, since: float | None = None) -> dict[str, PlayFigures]:
    """Each player's Hold'em figures over the chat's hands still in the history (those that ended at `since` or
    later, when given), added up from `hand_figures` (`bot.store.figures`); pruned hands are in `pruned_counts`."""
    return figures.chat_figures(tx.db, chat_id, since)


def chat_tournaments(tx: TxView, chat_id: str) -> list[TournamentRecord]:
    """Every tournament of the chat, oldest first (reads `tournaments`)."""
    rows = tx.db.execute(
        "SELECT id, table_id, status, created_at, state FROM tournaments WHERE chat_id = ? ORDER BY id", (chat_id,))
    return [TournamentRecord(int(number), str(table_id), str(status), float(created), loads(state))
            for number, table_id, status, created, state in rows]


def chat_ledger(tx: Tx, chat_id: str) -> list[LedgerEntry]:
    """Every chip move of the chat in the order made: its `ledger` rows, merged by time with the hands' moves its
    tables' action log rows hold (each in its own order)."""
    written = [_entry(at, move) for at, _, move in tx.ledger_moves(chat_id)]
    logged = sorted((_entry(at, move) for at, _, move in tx.logged_moves(chat_id)),
                    key=_time)  # stable: each table's moves stay in their order
    return list(heapq.merge(written, logged, key=_time))


def _entry(at: float, move: LedgerRow) -> LedgerEntry:
    return LedgerEntry(move.source, move.target, move.amount, move.reason, move.table_id, move.hand_id, at)


def _time(entry: LedgerEntry) -> float:
    return entry.at


PRUNED_COUNTS = ("hands_played", "hands_won", "net", "biggest_pot", "vpip", "pfr", "postflop_aggressive",
                 "postflop_calls", "saw_flop", "showdowns", "showdowns_won")
"""The counts of `pruned_stats`: what the statistics keep of the hands pruned from the history."""
PRUNED_TOTALS = ", ".join(f"{'MAX' if name == 'biggest_pot' else 'SUM'}({name}) AS {name}" for name in PRUNED_COUNTS)
"""The counts of several rows of `pruned_stats` added up, in `PRUNED_COUNTS`' order and by their names (the biggest pot
the largest)."""
DAY = 86_400
UNKNOWN_DAY = -1
"""The day of the counts pruned before migration 35, which kept no day: before every period's first day, so they
count in the statistics of all time only."""


def day_of(at: float) -> int:
    """The UTC day an instant (Unix seconds) falls on, as days since 1970-01-01: the day `pruned_stats` keeps pruned
    hands by. UTC, not a chat's time zone: a day stored stays the same day when the chat's setting changes."""
    return int(at // DAY)


def pruned_counts(tx: Tx, chat_id: str, since: float | None = None) -> dict[str, dict[str, int]]:
    """Per player of the chat, the counts of his Hold'em hands pruned from the history (reads `pruned_stats`): all of
    them, or (with `since`) those of the UTC days that began at or after the start of `since`'s day. A period starting
    mid-day so counts that day's pruned hands whole, where the hands still in the history count from `since` on."""
    where, parameters = ("chat_id = ?", (chat_id,)) if since is None else (
        "chat_id = ? AND day >= ?", (chat_id, day_of(since)))  # UNKNOWN_DAY is before every such day
    rows = tx.db.execute(
        f"SELECT user_id, {PRUNED_TOTALS} FROM pruned_stats WHERE {where} GROUP BY user_id", parameters).fetchall()
    return {str(row[0]): dict(zip(PRUNED_COUNTS, map(int, row[1:]), strict=True)) for row in rows}


def add_pruned_counts(tx: Tx, chat_id: str, ended_at: float, counts: dict[str, dict[str, int]]) -> None:
    """Add the counts of a hand pruned from the history, which ended at `ended_at`, to each player's row of
    `pruned_stats` for that UTC day (the biggest pot is the larger)."""
    updates = ", ".join(f"{name} = {tx.dialect.greater(f'pruned_stats.{name}', f'excluded.{name}')}"
                        if name == "biggest_pot" else f"{name} = pruned_stats.{name} + excluded.{name}"
                        for name in PRUNED_COUNTS)
    day = day_of(ended_at)
    tx.db.executemany(
        f"INSERT INTO pruned_stats(chat_id, day, user_id, {', '.join(PRUNED_COUNTS)}) "
        f"VALUES (?, ?, ?, {', '.join('?' * len(PRUNED_COUNTS))}) "
        f"ON CONFLICT(chat_id, day, user_id) DO UPDATE SET {updates}",
        [(chat_id, day, user, *(mine[name] for name in PRUNED_COUNTS)) for user, mine in counts.items()],
    )


def pruned_stats_by_day(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 35: `pruned_stats` keyed by chat, UTC day (`day_of`) and player, so that `/stats 30d` counts the
    hands pruned on the days in its period; the rows pruned before, whose day is unknown, are kept as `UNKNOWN_DAY`
    (all time only). A database that already has the day (the migration run again) keeps its rows."""
    if "day" in dialect.columns(connection, "pruned_stats"):
        return
    counts = ", ".join(PRUNED_COUNTS)
    connection.execute(dialect.ddl(
        "CREATE TABLE pruned_stats_by_day (chat_id TEXT NOT NULL REFERENCES chats(chat_id), day INTEGER NOT NULL, "
        "user_id TEXT NOT NULL, " + "".join(f"{name} INTEGER NOT NULL DEFAULT 0, " for name in PRUNED_COUNTS)
        + "PRIMARY KEY (chat_id, day, user_id)) WITHOUT ROWID"))
    connection.execute(f"INSERT INTO pruned_stats_by_day(chat_id, day, user_id, {counts}) "
                       f"SELECT chat_id, ?, user_id, {counts} FROM pruned_stats", (UNKNOWN_DAY,))
    connection.execute("DROP TABLE pruned_stats")
    connection.execute("ALTER TABLE pruned_stats_by_day RENAME TO pruned_stats")
