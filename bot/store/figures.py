"""Each ended Hold'em hand's statistics per player (`bot.statistics`), written when the hand ends, so that `/stats`
adds up a few rows per player instead of reading every event of the chat's history (which took half a second per
thousand hands, in the thread every read shares).

`hand_figures(chat_id, table_id, hand_id, user_id, ended_at, <the counts>, tournament)`: one row per player dealt
into the hand, `tournament` 1 for a tournament's hand (migration 25): its chips are a tournament's, which the
statistics' cash figures (net, biggest pot) leave out (RULES.md: "Tournament chips are separate");
kept in one B-tree ordered by chat and end time (migration 22): a chat's `/stats` reads a range of it, and a hand's
end writes at the end of its chat's range, one page, where the key by table and hand and an index by chat wrote two.
Pruning moves a hand's rows into `pruned_stats` with its history (`bot.store.prune`), finding them by their chat and
end time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from operator import attrgetter
from typing import Any

import orjson

from bot.statistics import COUNTED_KINDS, PlayFigures, hand_figures
from bot.store.dialect import SQLITE, Connection, Dialect

COUNTS = tuple(item.name for item in fields(PlayFigures))
"""The count columns, in `PlayFigures`' order."""
COLUMNS = f"chat_id, table_id, hand_id, user_id, ended_at, {', '.join(COUNTS)}"
"""Every column, in the table's order."""
_COUNTS_OF = attrgetter(*COUNTS)
_INSERT = f"INSERT INTO hand_figures({COLUMNS}) VALUES (?, ?, ?, ?, ?, {', '.join('?' * len(COUNTS))})"
_INSERT_MARKED = (f"INSERT INTO hand_figures({COLUMNS}, tournament) "
                  f"VALUES (?, ?, ?, ?, ?, {', '.join('?' * len(COUNTS))}, ?)")
_CASH_ONLY = frozenset({"net", "biggest_pot"})
"""The counts that are chips: a tournament's hand counts 0 in them."""


def summarise_hand(connection: Connection, chat_id: str, table_id: str, hand_id: str, ended_at: float) -> None:
    """Write the figures of an ended Hold'em hand from its rows in the `history` table (migration 13, on a database
    from before migration 16 moved the history into the action log)."""
    rows = connection.execute(
        "SELECT kind, event FROM history WHERE table_id = ? AND hand_id = ? ORDER BY id", (table_id, hand_id)
    ).fetchall()
    _write(connection, chat_id, table_id, hand_id, ended_at, _figures(rows))


def summarise_events(connection: Connection, chat_id: str, table_id: str, hand_id: str, ended_at: float,
                     events: Iterable[Mapping[str, Any]], tournament: bool) -> None:
    """Write the figures of a Hold'em hand that has just ended from its events as its log rows hold them, in
    order (those of `COUNTED_KINDS` suffice), marked as a tournament's hand or a cash game's: what `summarise_hand`
    writes, without reading the rows back."""
    _write(connection, chat_id, table_id, hand_id, ended_at, hand_figures(events), tournament)


def chat_figures(connection: Connection, chat_id: str, since: float | None = None) -> dict[str, PlayFigures]:
    """Each player's figures over the chat's hands kept in the history (ended at `since` or later, when given), the
    chips (net, biggest pot) of its cash games alone; hands pruned since are in `pruned_stats`, not here."""
    totals = ", ".join(f"{'MAX' if name == 'biggest_pot' else 'SUM'}"
                       f"({f'CASE WHEN tournament = 0 THEN {name} ELSE 0 END' if name in _CASH_ONLY else name})"
                       for name in COUNTS)
    where, parameters = ("chat_id = ?", (chat_id,)) if since is None else (
        "chat_id = ? AND ended_at >= ?", (chat_id, since))
    rows = connection.execute(
        f"SELECT user_id, {totals} FROM hand_figures WHERE {where} GROUP BY user_id", parameters).fetchall()
    return {str(row[0]): PlayFigures(*map(int, row[1:])) for row in rows}


def take_hand(connection: Connection, chat_id: str, ended_at: float, table_id: str, hand_id: str,
              ) -> dict[str, dict[str, int]]:
    """Delete the rows of a hand that ended at `ended_at` (the time of its log row with its end: the figures are
    written in that action) and return each player's counts, for `pruned_stats` (a tournament's hand's chips as 0,
    as `chat_figures` counts them). A hand whose rows are not at that time (figures written by an older bot, see
    `add_hand_figures`) is looked for among all its chat's."""
    for where, parameters in (("chat_id = ? AND ended_at = ? AND table_id = ? AND hand_id = ?",
                               (chat_id, ended_at, table_id, hand_id)),
                              ("chat_id = ? AND table_id = ? AND hand_id = ?", (chat_id, table_id, hand_id))):
        rows = connection.execute(f"SELECT user_id, tournament, {', '.join(COUNTS)} FROM hand_figures WHERE {where}",
                                  parameters).fetchall()
        if rows:
            connection.execute(f"DELETE FROM hand_figures WHERE {where}", parameters)
            return {str(user): {name: 0 if tournament and name in _CASH_ONLY else int(count)
                                for name, count in zip(COUNTS, counts, strict=True)}
                    for user, tournament, *counts in rows}
    return {}


def figures_table(name: str, key: str) -> str:
    """The statement that creates a table of hands' figures (`COLUMNS`) under `name`, with `key` its primary key."""
    return (f"CREATE TABLE {name} (chat_id TEXT NOT NULL, table_id TEXT NOT NULL, hand_id TEXT NOT NULL, "
            "user_id TEXT NOT NULL, ended_at REAL NOT NULL, "
            + "".join(f"{count} INTEGER NOT NULL DEFAULT 0, " for count in COUNTS) + f"PRIMARY KEY ({key}))")


def add_hand_figures(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration: create `hand_figures` and fill it from every ended Hold'em hand already in the history."""
    connection.execute(dialect.ddl(figures_table("hand_figures", "table_id, hand_id, user_id")))
    connection.execute("CREATE INDEX hand_figures_by_chat ON hand_figures(chat_id, ended_at)")
    ended = connection.execute(
        f"SELECT t.chat_id, h.table_id, h.hand_id, h.at FROM tables t {dialect.join_in_order} history h "
        "ON h.table_id = t.table_id WHERE h.hand_id LIKE 'h%' AND h.kind = 'HandEnded' ORDER BY h.id").fetchall()
    for chat_id, table_id, hand_id, at in ended:
        summarise_hand(connection, str(chat_id), str(table_id), str(hand_id), float(at))


def figures_by_chat_and_time(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration: `hand_figures` rebuilt as one B-tree keyed by chat, end time, table, hand and player (on SQLite a
    `WITHOUT ROWID` table), its rows copied; the key by table and hand and the index by chat go with the old table."""
    key = "chat_id, ended_at, table_id, hand_id, user_id"
    connection.execute(dialect.ddl(figures_table("hand_figures_by_time", key) + " WITHOUT ROWID"))
    connection.execute(f"INSERT INTO hand_figures_by_time({COLUMNS}) SELECT {COLUMNS} FROM hand_figures")
    connection.execute("DROP TABLE hand_figures")
    connection.execute("ALTER TABLE hand_figures_by_time RENAME TO hand_figures")


def _figures(rows: Iterable[tuple[Any, Any]]) -> dict[str, PlayFigures]:
    return hand_figures(orjson.loads(event) for kind, event in rows if kind in COUNTED_KINDS)


def _write(connection: Connection, chat_id: str, table_id: str, hand_id: str, ended_at: float,
           figures: dict[str, PlayFigures], tournament: bool | None = None) -> None:
    """Insert a hand's rows; `tournament` None in the migration that creates the table (13), before the column."""
    if tournament is None:
        connection.executemany(_INSERT, [(chat_id, table_id, hand_id, user, ended_at, *_COUNTS_OF(mine))
                                         for user, mine in figures.items()])
    else:
        connection.executemany(_INSERT_MARKED, [(chat_id, table_id, hand_id, user, ended_at, *_COUNTS_OF(mine),
                                                 int(tournament)) for user, mine in figures.items()])
