"""Migrations 10, 16, 17, 18 and 20: the action log (one row per action; replayed after the table's last snapshot)
with the history in it (each action's events in its row, and where each hand lies in its table's log: `hand_spans`)
and the ledger's record of the hands' chip moves."""

from __future__ import annotations

import sqlite3
from typing import Any

import orjson

from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.tx import ENDING_KINDS, HISTORY_ONLY, IN_TABLE_ROW, net_of_moves, tournament_hand_ids

_BACKFILL_BATCH = 5000


def add_action_log(connection: sqlite3.Connection, dialect: Dialect = SQLITE) -> None:
    """Create `actions`, give `tables` the sequence number its snapshot includes, and move history's event kind
    into `history.kind` (filled for the rows already there, read by Python rather than a JSON function).

    An older database's snapshots stay as they are: each is the state after its table's last action (sequence 0),
    with no action after it to replay."""
    connection.execute(dialect.ddl(
        "CREATE TABLE actions ("
        " table_id TEXT NOT NULL,"
        " seq      INTEGER NOT NULL,"
        " at       REAL NOT NULL,"
        " entry    TEXT NOT NULL,"
        " PRIMARY KEY (table_id, seq))"
    ))
    connection.execute(dialect.ddl("ALTER TABLE tables ADD COLUMN snapshot_seq INTEGER NOT NULL DEFAULT 0"))
    connection.execute("ALTER TABLE history ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
    last = 0
    while True:
        rows = connection.execute(
            "SELECT id, event FROM history WHERE id > ? ORDER BY id LIMIT ?", (last, _BACKFILL_BATCH)
        ).fetchall()
        if not rows:
            break
        connection.executemany(
            "UPDATE history SET kind = ? WHERE id = ?",
            [(str(orjson.loads(event).get("kind", "")), row_id) for row_id, event in rows],
        )
        last = rows[-1][0]
    connection.execute("DROP INDEX IF EXISTS history_kind")
    connection.execute("CREATE INDEX history_by_kind ON history(table_id, kind)")


def history_into_action_log(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 16: the history kept in the action log. Each action's events go into its log row (`actions.events`,
    `[[hand id, [events]], …]`), log rows are kept after a snapshot (for their events; a replay starts after the
    snapshot's number), and `hand_spans` says where each hand, round or tournament lies in its table's log (the
    number of its first row, when that was, and the number of the row that ended it), which `/history`, the
    statistics and the pruning read instead of an index of every event.

    The `history` table's rows move into log rows numbered below every logged action of their table (from -1
    down, oldest lowest), one row per action as they were written (consecutive rows of the same moment), each
    marked as history alone (`HISTORY_ONLY`); then the table goes."""
    connection.execute("ALTER TABLE actions ADD COLUMN events TEXT")
    connection.execute(dialect.ddl(
        "CREATE TABLE hand_spans ("
        " table_id  TEXT NOT NULL,"
        " hand_id   TEXT NOT NULL,"
        " first_seq INTEGER NOT NULL,"
        " at        REAL NOT NULL,"
        " ended_seq INTEGER,"
        " PRIMARY KEY (table_id, hand_id))"
    ))
    connection.execute("CREATE INDEX hand_spans_ended ON hand_spans(table_id, ended_seq) WHERE ended_seq IS NOT NULL")
    connection.execute("CREATE INDEX hand_spans_by_time ON hand_spans(at, table_id, hand_id)")
    connection.execute("CREATE INDEX hand_spans_in_log ON hand_spans(table_id, first_seq)")
    tables = [str(table_id) for (table_id,) in connection.execute("SELECT DISTINCT table_id FROM history")]
    for table_id in tables:
        _move_history(connection, table_id)
    connection.execute("DROP TABLE history")


def _move_history(connection: Connection, table_id: str) -> None:
    """One table's history rows as log rows and spans (see `history_into_action_log`)."""
    rows = connection.execute(
        "SELECT hand_id, at, event FROM history WHERE table_id = ? ORDER BY id", (table_id,)).fetchall()
    actions: list[tuple[float, list[list[Any]]]] = []  # each action's time and its `[hand id, [events]]`
    for hand_id, at, event in rows:
        if not actions or actions[-1][0] != at:
            actions.append((float(at), []))
        recorded = actions[-1][1]
        if not recorded or recorded[-1][0] != hand_id:
            recorded.append([str(hand_id), []])
        recorded[-1][1].append(orjson.loads(event))
    spans: dict[str, list[Any]] = {}  # hand id -> [first number, its time, ending number]
    logged = []
    for seq, (at, recorded) in enumerate(actions, start=-len(actions)):
        logged.append((table_id, seq, at, HISTORY_ONLY, orjson.dumps(recorded).decode()))
        for hand_id, events in recorded:
            span = spans.setdefault(hand_id, [seq, at, None])
            if span[2] is None and any(event.get("kind") in ENDING_KINDS for event in events):
                span[2] = seq
    connection.executemany("INSERT INTO actions(table_id, seq, at, entry, events) VALUES (?, ?, ?, ?, ?)", logged)
    connection.executemany(
        "INSERT INTO hand_spans(table_id, hand_id, first_seq, at, ended_seq) VALUES (?, ?, ?, ?, ?)",
        [(table_id, hand_id, *span) for hand_id, span in spans.items()])


def moves_into_action_log(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 17: the chip moves of a hand, round or tournament recorded in the log row of the action that made
    them (`actions.moves`, `[[source, target, amount, reason, hand id], …]`) rather than in ledger rows; the moves
    made before stay in `ledger`, and `Tx.check_ledger` adds both up."""
    connection.execute("ALTER TABLE actions ADD COLUMN moves TEXT")


def hands_settled_at_their_end(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 18: a Hold'em hand's moves between its table's stacks and pot reach their balances when it ends
    (`Tx.settle_hand`), not as they are made. A hand in play when the database is upgraded has its moves so far in the
    balances already: they are taken out again (what `Tx.in_play` gives, read as the schema stood then: a hand in
    play was one whose span had not ended), so that its end writes them once."""
    moves = []
    for table_id, hand_id, first, bound in connection.execute(
            "SELECT table_id, hand_id, first_seq, (SELECT MIN(later.first_seq) FROM hand_spans later WHERE "
            "later.table_id = span.table_id AND later.first_seq > span.first_seq "
            "AND substr(later.hand_id, 1, 1) = 'h') FROM hand_spans span "
            "WHERE ended_seq IS NULL AND hand_id LIKE 'h%'").fetchall():
        for (logged,) in connection.execute(
                "SELECT moves FROM actions WHERE table_id = ? AND seq >= ? AND seq < ? AND moves IS NOT NULL",
                (table_id, first, 2**62 if bound is None else bound)).fetchall():
            moves += [move for move in orjson.loads(logged) if move[4] == hand_id]
    for account, chips in net_of_moves(moves).items():
        if chips:
            connection.execute("UPDATE accounts SET balance = balance - ? WHERE name = ?", (chips, account))


def hands_in_their_tables_row(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 20: where a hand or house round in play begins is kept in its table's row (`tables.hand_id`,
    `hand_seq`, `hand_at`, see `Tx.log_action`), and its `hand_spans` row is written once, when it ends. Each table's
    latest span of those kinds that has not ended moves into its row (its span row stays, and gets its end there);
    an older one that never ended is a voided hand's."""
    connection.execute(dialect.ddl("ALTER TABLE tables ADD COLUMN hand_id TEXT"))
    connection.execute(dialect.ddl("ALTER TABLE tables ADD COLUMN hand_seq INTEGER"))
    connection.execute(dialect.ddl("ALTER TABLE tables ADD COLUMN hand_at REAL"))
    kinds = ", ".join(f"'{kind}'" for kind in sorted(IN_TABLE_ROW))
    connection.execute(
        "UPDATE tables SET (hand_id, hand_seq, hand_at) = (SELECT hand_id, first_seq, at FROM hand_spans WHERE "
        f"hand_spans.table_id = tables.table_id AND ended_seq IS NULL AND substr(hand_id, 1, 1) IN ({kinds}) "
        "ORDER BY first_seq DESC LIMIT 1)")


def spans_by_their_end(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 23: a span's end has its time (`hand_spans.ended_at`, the time of the log row that ends it), and the
    pruning takes spans in the order they ended (`hand_spans_by_end`) rather than began. Since 20 a span row is
    written when its hand ends: keyed by when the hand began, each row went to a page of its own among the last
    minutes' hands; keyed by when it ended, each goes at the index's end. A span whose ending row is gone keeps its
    beginning's time (it is older still)."""
    connection.execute(dialect.ddl("ALTER TABLE hand_spans ADD COLUMN ended_at REAL"))
    connection.execute(
        "UPDATE hand_spans SET ended_at = COALESCE((SELECT actions.at FROM actions WHERE actions.table_id = "
        "hand_spans.table_id AND actions.seq = hand_spans.ended_seq), at) WHERE ended_seq IS NOT NULL")
    connection.execute("DROP INDEX IF EXISTS hand_spans_by_time")
    connection.execute("CREATE INDEX hand_spans_by_end ON hand_spans(ended_at, table_id, hand_id)")


def figures_know_tournament_hands(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 25: each hand's figures say whether it was a tournament's (`hand_figures.tournament`), so that the
    statistics' chips (net, biggest pot) are the cash games' alone; the hands of every tournament still in the log
    are marked. Hands pruned before left their chips in `pruned_stats`, which migration 34 takes out again
    (`bot.store.pruned_tournaments`)."""
    connection.execute(dialect.ddl("ALTER TABLE hand_figures ADD COLUMN tournament INTEGER NOT NULL DEFAULT 0"))
    for tournament_id, table_id in connection.execute("SELECT id, table_id FROM tournaments").fetchall():
        hands = tournament_hand_ids(connection, str(table_id), int(tournament_id))
        connection.executemany("UPDATE hand_figures SET tournament = 1 WHERE table_id = ? AND hand_id = ?",
                               [(table_id, hand_id) for hand_id in hands])
