"""What was played in a chat, read for statistics, seasons and exports: its Hold'em hands' figures, its tournaments'
records and its chip moves (the ledger's rows and the hands' moves in the action log). Every read of theirs goes
through here, so a change of where hands are kept changes this module alone."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from bot.statistics import PlayFigures
from bot.store import figures
from bot.store.tx import LedgerRow, Tx, loads


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


def chat_tournaments(tx: Tx, chat_id: str) -> list[TournamentRecord]:
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
"""The columns of `pruned_stats`: what the statistics keep of the hands pruned from the history."""


def pruned_counts(tx: Tx, chat_id: str) -> dict[str, dict[str, int]]:
    """Per player of the chat, the counts of his Hold'em hands pruned from the history (reads `pruned_stats`)."""
    rows = tx.db.execute(
        f"SELECT user_id, {', '.join(PRUNED_COUNTS)} FROM pruned_stats WHERE chat_id = ?", (chat_id,)).fetchall()
    return {str(row[0]): dict(zip(PRUNED_COUNTS, map(int, row[1:]), strict=True)) for row in rows}


def add_pruned_counts(tx: Tx, chat_id: str, counts: dict[str, dict[str, int]]) -> None:
    """Add the counts of pruned hands to each player's row of `pruned_stats` (the biggest pot is the larger)."""
    updates = ", ".join(f"{name} = {tx.dialect.greater(f'pruned_stats.{name}', f'excluded.{name}')}"
                        if name == "biggest_pot" else f"{name} = pruned_stats.{name} + excluded.{name}"
                        for name in PRUNED_COUNTS)
    tx.db.executemany(
        f"INSERT INTO pruned_stats(chat_id, user_id, {', '.join(PRUNED_COUNTS)}) "
        f"VALUES (?, ?, {', '.join('?' * len(PRUNED_COUNTS))}) ON CONFLICT(chat_id, user_id) DO UPDATE SET {updates}",
        [(chat_id, user, *(mine[name] for name in PRUNED_COUNTS)) for user, mine in counts.items()],
    )
