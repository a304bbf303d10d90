"""Every table's snapshot in one read, for start-up (it checks each one can resume and keeps the tables in memory),
the tables a clean shutdown snapshots afresh, and the tables of one platform (an adapter shows them again)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from bot.store.tx import Tx


class Snapshot(NamedTuple):
    """One stored table as start-up reads it."""

    table_id: str
    chat_id: str
    config: str
    state: str
    """JSON text, `{}` for none."""
    seq: int
    """The number of the last action the snapshot includes."""
    logged: bool
    """Whether actions were logged after it (the table must be read the full way: snapshot, then its log replayed)."""
    number: int
    """The table's last hand or round number."""


AFTER_SNAPSHOT = ("FROM actions WHERE actions.table_id = tables.table_id "
                  "AND actions.seq > tables.snapshot_seq")
"""The log rows of a `tables` row's table after its snapshot (a correlated subquery's FROM and WHERE)."""


def snapshots(tx: Tx) -> Iterator[Snapshot]:
    """Each stored table's snapshot, one row at a time from one SELECT."""
    for table_id, chat_id, config, state, seq, logged, number in tx.db.execute(
        f"SELECT table_id, chat_id, config, state, snapshot_seq, EXISTS (SELECT 1 {AFTER_SNAPSHOT}), last_number "
        "FROM tables ORDER BY table_id"
    ):
        yield Snapshot(str(table_id), str(chat_id), str(config), str(state or "{}"), int(seq), bool(logged),
                       int(number))


def logged_tables(tx: Tx) -> list[str]:
    """The tables with actions logged after their snapshot: a look at each table's log past its snapshot (the log
    keeps every action, as the history, so it is not read whole)."""
    return [str(row[0]) for row in tx.db.execute(
        f"SELECT table_id FROM tables WHERE EXISTS (SELECT 1 {AFTER_SNAPSHOT}) ORDER BY table_id")]


def platform_tables(tx: Tx, prefix: str, *, exact: bool = False) -> list[str]:
    """The tables of one platform: those whose id starts with `prefix` (`tg:`, `dc:`, or a Telegram group's
    `tg:-100123:`); with `exact`, the one table `prefix` names (a Discord channel's `dc:123`, which `dc:1234` also
    starts with), if stored."""
    where, value = ("table_id = ?", prefix) if exact else ("table_id LIKE ?", f"{prefix}%")
    return [str(row[0]) for row in tx.db.execute(
        f"SELECT table_id FROM tables WHERE {where} ORDER BY table_id", (value,))]
