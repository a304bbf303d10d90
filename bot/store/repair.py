"""The migration to hand and round numbers unique per table for good: the records that shared a number split apart.

Before it, each game counted its hands in the table's snapshot, which `/game` replaces: after `/game russian` and
`/game holdem` the table dealt hand 1 again, and the new hand's history and ledger rows went under the id (`h1`) of an
older one. The migration gives each table one counter, `tables.last_number`, above every number it has used, and
splits every id that holds several hands (or rounds) at their start events:

- the last hand under the id keeps it: it may be the hand in play, which the snapshot and the buttons name;
- each earlier one takes the next number of the counter, in its history rows (and the `hand_number` its events
  carry) and in its ledger rows, which are told apart by the chips on the table returning to zero at each hand's end;
- rows that belong to no hand (before any start event) or a part that is not one whole hand are excluded: they go
  under an `excluded:` id, which no export or statistic reads, with a logged warning. Nothing is deleted.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass

from bot.store.dialect import SQLITE, Dialect

log = logging.getLogger(__name__)

EXCLUDED = "excluded:"
"""The prefix of a history id whose rows are kept but read by nothing (exports and statistics read `h…`/`r…`)."""

_ENDS = {"h": "HandEnded", "r": "RoundEnded"}


@dataclass
class _Piece:
    """One hand's (or round's) history rows under a merged id, and the id they are to have."""

    rows: list[tuple[int, str]]  # (history row id, event kind), in order
    sound: bool
    new_id: str = ""
    number: int = 0


def number_hands_per_table(connection: sqlite3.Connection, dialect: Dialect = SQLITE) -> None:
    """Add the per-table counter and repair every table's records (inside the migration's transaction; its SQL is
    the same in both dialects)."""
    connection.execute("ALTER TABLE tables ADD COLUMN last_number INTEGER NOT NULL DEFAULT 0")
    for table_id, state in connection.execute("SELECT table_id, state FROM tables").fetchall():
        last = _repair_table(connection, str(table_id), _snapshot_number(state))
        connection.execute("UPDATE tables SET last_number = ? WHERE table_id = ?", (last, table_id))


def _snapshot_number(state: str | None) -> int:
    """The number the table's snapshot holds (its game's last hand or round), 0 when it has none or is unreadable."""
    try:
        number = json.loads(state or "{}").get("number", 0)
    except (ValueError, AttributeError):
        return 0
    return number if isinstance(number, int) else 0


def _repair_table(connection: sqlite3.Connection, table_id: str, number: int) -> int:
    """Split the table's merged ids; return the last number used (the counter's value)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for row_id, hand_id, kind in connection.execute(
        "SELECT id, hand_id, json_extract(event, '$.kind') FROM history WHERE table_id = ? "
        "AND (hand_id GLOB 'h[0-9]*' OR hand_id GLOB 'r[0-9]*') ORDER BY id",
        (table_id,),
    ):
        if str(hand_id)[1:].isdigit():
            groups.setdefault(str(hand_id), []).append((int(row_id), str(kind)))
    last = max([number, *(int(hand_id[1:]) for hand_id in groups)])
    for hand_id, rows in groups.items():  # in the order of each id's first row (dicts keep insertion order)
        pieces = _pieces(hand_id[0], rows)
        if len(pieces) == 1 and pieces[0].sound:
            continue
        for index, piece in enumerate(pieces):
            if index == len(pieces) - 1 and piece.sound:
                piece.new_id = hand_id
                continue
            last += 1
            piece.number = last
            piece.new_id = f"{hand_id[0]}{last}" if piece.sound else f"{EXCLUDED}{hand_id[0]}{last}"
            if not piece.sound:
                log.warning("table %s: %d history rows under %s are not one whole hand; they are left out of "
                            "exports and statistics as %s", table_id, len(piece.rows), hand_id, piece.new_id)
        _rename_history(connection, table_id, hand_id, pieces)
        _rename_ledger(connection, table_id, hand_id, pieces)
        log.info("table %s: %s held %d records; now %s", table_id, hand_id, len(pieces),
                 ", ".join(piece.new_id for piece in pieces))
    return last


def _pieces(prefix: str, rows: list[tuple[int, str]]) -> list[_Piece]:
    """The id's rows cut at each start event (a Hold'em `HandStarted`; in a house game the first `BetsPlaced` after
    any other event, since a round's stakes are all placed before its cards are dealt). Rows before the first start
    make an unsound piece of their own; a piece is sound when it ends, if at all, with its one end event."""
    pieces: list[_Piece] = []
    previous = ""
    for row in rows:
        kind = row[1]
        starts = kind == "HandStarted" if prefix == "h" else (kind == "BetsPlaced" and previous != "BetsPlaced")
        if starts or not pieces:
            pieces.append(_Piece([], sound=starts))
        pieces[-1].rows.append(row)
        previous = kind
    for piece in pieces:
        ends = [index for index, (_, kind) in enumerate(piece.rows) if kind == _ENDS[prefix]]
        if ends and ends != [len(piece.rows) - 1]:
            piece.sound = False
    return pieces


def _rename_history(connection: sqlite3.Connection, table_id: str, hand_id: str, pieces: list[_Piece]) -> None:
    for piece in pieces:
        if piece.new_id == hand_id:
            continue
        connection.execute(
            "UPDATE history SET hand_id = ?, event = CASE WHEN json_type(event, '$.hand_number') = 'integer' "
            "THEN json_set(event, '$.hand_number', ?) ELSE event END "
            "WHERE table_id = ? AND hand_id = ? AND id BETWEEN ? AND ?",
            (piece.new_id, piece.number, table_id, hand_id, piece.rows[0][0], piece.rows[-1][0]),
        )


def _rename_ledger(connection: sqlite3.Connection, table_id: str, hand_id: str, pieces: list[_Piece]) -> None:
    """Give each piece its own ledger rows: the id's rows cut where the chips on the table (the pot, the boxes)
    come back to zero, which happens once at the end of every hand and round and never inside one."""
    rows = connection.execute(
        "SELECT id, source, target, amount FROM ledger WHERE table_id = ? AND hand_id = ? ORDER BY id",
        (table_id, hand_id),
    ).fetchall()
    if not rows:
        return
    parts: list[list[int]] = [[]]
    on_table, closed = 0, False
    for row_id, source, target, amount in rows:
        if closed:
            parts.append([])
            closed = False
        parts[-1].append(int(row_id))
        on_table += amount * (_is_table_account(target, table_id) - _is_table_account(source, table_id))
        closed = on_table == 0 and _is_table_account(source, table_id)
    if len(parts) != len(pieces):
        log.warning("table %s: the ledger rows under %s make %d hands but its history %d; they keep the id",
                    table_id, hand_id, len(parts), len(pieces))
        return
    for part, piece in zip(parts, pieces, strict=True):
        if piece.new_id != hand_id:
            connection.execute(
                "UPDATE ledger SET hand_id = ? WHERE table_id = ? AND hand_id = ? AND id BETWEEN ? AND ?",
                (piece.new_id, table_id, hand_id, part[0], part[-1]),
            )


def _is_table_account(account: str, table_id: str) -> bool:
    return account == f"pot:{table_id}" or account.startswith(f"box:{table_id}:")
