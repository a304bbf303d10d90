"""A transaction's part for tables: their rows, holding each one's config and snapshot."""

from __future__ import annotations

from typing import Any

from bot.store.hands import Hands
from bot.store.txbase import dumps, loads


class Tables(Hands):
    """The `tables` rows: each table's chat, config and snapshot (its state as of an action of its log)."""

    def load_table(self, table_id: str) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
        """The table's config and state (None when it has no game in progress), or None for an unknown table."""
        raw = self.load_table_json(table_id)
        if raw is None:
            return None
        return loads(raw[1]), (loads(raw[2]) if raw[2] else None)

    def load_table_json(self, table_id: str) -> tuple[str, str, str | None] | None:
        """The table's chat, config and state as stored (JSON text), or None for an unknown table."""
        row = self.db.execute("SELECT chat_id, config, state FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return (str(row[0]), str(row[1]), row[2]) if row else None

    def save_table(
        self, table_id: str, chat_id: str, config: dict[str, Any], state: dict[str, Any] | None
    ) -> None:
        """Store the table's config and its serialised state (the snapshot resumed after a restart)."""
        self.ensure_chat(chat_id)
        self.save_table_json(table_id, chat_id, dumps(config), dumps(state) if state is not None else None)

    def save_table_json(self, table_id: str, chat_id: str, config: str, state: str | None) -> None:
        """Store the table's config and state already written as JSON text (the chat must exist): the whole truth
        about the table from now on, so no logged action is replayed on it (their numbers are not reused)."""
        self.save_snapshot(table_id, chat_id, config, state, self._last_seq(table_id) or 0)

    def save_snapshot(self, table_id: str, chat_id: str, config: str, state: str | None, seq: int,
                      number: int = 0, *, timers: bool = False) -> None:
        """Store the table's snapshot as of its action number `seq`: the log rows up to it are never replayed again
        (they stay, for the history their events are). `number` is the table's last hand or round number
        (`Action.next_number`): one counter per table for every game, kept in its own column rather than in the
        snapshot (a change of game replaces the snapshot) and never lowered. With `timers`, the table's timers are
        written into their rows as well (`compact_timers`)."""
        begun = self.begun.pop(table_id, ())
        # the hand's columns only when it begins: each None sqlite3 binds costs it a statement's time (Python 3.11)
        hand = (", hand_id, hand_seq, hand_at", ", ?, ?, ?",
                ", hand_id = excluded.hand_id, hand_seq = excluded.hand_seq, hand_at = excluded.hand_at")
        columns, marks, updates = hand if begun else ("", "", "")
        self.db.execute(
            f"INSERT INTO tables(table_id, chat_id, config, state, updated_at, snapshot_seq, last_number{columns}) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?{marks}) ON CONFLICT(table_id) DO UPDATE SET config = excluded.config, "
            "state = excluded.state, updated_at = excluded.updated_at, snapshot_seq = excluded.snapshot_seq, "
            f"last_number = {self.dialect.greater('tables.last_number', 'excluded.last_number')}{updates}",
            (table_id, chat_id, config, state, self.now, seq, number, *begun),
        )
        if timers:
            self.compact_timers(table_id, seq)

    def load_snapshot(self, table_id: str) -> tuple[str, str, str | None, int, int] | None:
        """The table's chat, config and state as stored (JSON text), the number of the last action its snapshot
        includes and its last hand or round number, or None for an unknown table."""
        row = self.db.execute(
            "SELECT chat_id, config, state, snapshot_seq, last_number FROM tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        return (str(row[0]), str(row[1]), row[2], int(row[3]), int(row[4])) if row else None

    def snapshot_seq(self, table_id: str) -> int | None:
        """The number of the last action the table's stored snapshot includes (None for an unknown table)."""
        row = self.db.execute("SELECT snapshot_seq FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return int(row[0]) if row else None

    def create_table(self, table_id: str, chat_id: str) -> None:
        """Store a new table with no game yet (`{}`), unless another process has just stored it (then it is kept)."""
        self.ensure_chat(chat_id)
        self.db.execute(
            "INSERT INTO tables(table_id, chat_id, config, state, updated_at) VALUES (?, ?, '{}', '{}', ?) "
            "ON CONFLICT DO NOTHING", (table_id, chat_id, self.now))

    def table_chat(self, table_id: str) -> str | None:
        """The chat a table belongs to (None for an unknown table)."""
        row = self.db.execute("SELECT chat_id FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else str(row[0])

    def table_ids(self) -> list[str]:
        """Every table the store knows."""
        return [str(row[0]) for row in self.db.execute("SELECT table_id FROM tables ORDER BY table_id")]

