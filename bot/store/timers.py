"""A transaction's part for timers: armed and disarmed in their rows, or (one process) in the action's log row."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.store.tournaments import Tournaments
from bot.store.txbase import dumps, loads


class Timers(Tournaments):
    """The named deadlines of the tables (`timers` rows, and on SQLite the changes logged after them)."""

    def set_timer(self, key: str, table_id: str, due_at: float, payload: dict[str, Any]) -> None:
        """Arm (or re-arm) a named deadline in its row, as this transaction's process's (`armed_by`: the one that fires
        it, unless it stops first); an action's timers go to its log row instead on SQLite (`log_timers`)."""
        self.db.execute(
            "INSERT INTO timers(key, table_id, due_at, payload, armed_by) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload, "
            "armed_by = excluded.armed_by",
            (key, table_id, due_at, dumps(payload), self.process_id),
        )

    def clear_timer(self, key: str) -> None:
        """Disarm a deadline: its row goes."""
        self.db.execute("DELETE FROM timers WHERE key = ?", (key,))

    def log_timers(self, table_id: str, changes: Iterable[tuple[str, float | None, dict[str, Any]]]) -> None:
        """An action's timer changes (key, due time, payload; no due time: disarmed), written with its log row
        (`log_action`: `[key, due time, payload]`, `[key, null]`) rather than into the `timers` rows, on a database of
        one process: a table's rows hold its timers as of its action `tables.timers_seq` (`compact_timers`), the log
        rows after it the changes since, and every reader here puts the two together (`timers`, `claim_timer`). With
        several processes (PostgreSQL) the rows are written at once instead (`set_timer`): a process claims a due
        timer by its row."""
        self.timed.setdefault(table_id, []).extend(
            [key, None] if due_at is None else [key, due_at, payload] for key, due_at, payload in changes)

    def timers(self, due_by: float | None = None) -> list[tuple[str, str, float, dict[str, Any]]]:
        """Every armed deadline (or those due by `due_by`), the soonest first: key, table, due time, payload."""
        bound = float("inf") if due_by is None else due_by
        armed = [(key, table, due, payload) for key, (table, due, payload) in self._armed(None).items() if due <= bound]
        return sorted(armed, key=lambda timer: timer[2])

    def _armed(self, table_id: str | None, key: str | None = None) -> dict[str, tuple[str, float, dict[str, Any]]]:
        """The timers armed (of one table, or of all; only `key` when given), by key: their rows, then on SQLite the
        changes the log rows after each table's `timers_seq` hold and those of this transaction, in order."""
        where, parameters = (("", ()) if table_id is None else
                             ("WHERE table_id = ?", (table_id,)) if key is None else ("WHERE key = ?", (key,)))
        armed = {str(name): (str(table), float(due), loads(payload)) for name, table, due, payload in self.db.execute(
            f"SELECT key, table_id, due_at, payload FROM timers {where}", parameters)}
        if self.dialect.is_shared:
            return armed
        where, parameters = ("", ()) if table_id is None else ("AND tables.table_id = ? ", (table_id,))
        logged = self.db.execute(
            "SELECT actions.table_id, actions.timers FROM tables JOIN actions ON actions.table_id = tables.table_id "
            f"AND actions.seq > tables.timers_seq WHERE actions.timers IS NOT NULL {where}"
            "ORDER BY actions.table_id, actions.seq", parameters)
        for table, changes in [*((str(table), loads(text)) for table, text in logged), *self.timed.items()]:
            if table_id is None or table == table_id:
                for name, due, *payload in changes:
                    if key is not None and name != key:
                        continue
                    if due is None:
                        armed.pop(name, None)
                    else:
                        armed[name] = (table, float(due), payload[0])
        return armed

    def compact_timers(self, table_id: str, seq: int | None = None) -> None:
        """Write the table's timers as they stand into its `timers` rows, as of its action `seq` (by default its last
        one): the log rows up to it are not read for its timers again. On SQLite, every so many snapshots, and before
        the rows are changed in place (a paused table's timers moved on); on PostgreSQL the rows are always current."""
        if self.dialect.is_shared:
            return
        armed = self._armed(table_id)
        self.db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
        self.db.executemany("INSERT INTO timers(key, table_id, due_at, payload) VALUES (?, ?, ?, ?)",
                            [(key, table, due, dumps(payload)) for key, (table, due, payload) in armed.items()])
        self.db.execute("UPDATE tables SET timers_seq = ? WHERE table_id = ?",
                        ((self._last_seq(table_id) or 0) if seq is None else seq, table_id))

    def compact_every_timer(self) -> int:
        """`compact_timers` for every table whose log holds timer changes after its rows (a clean stop: the next
        start reads the rows alone); how many. Nothing on PostgreSQL."""
        if self.dialect.is_shared:
            return 0
        tables = [str(table_id) for (table_id,) in self.db.execute(
            "SELECT DISTINCT tables.table_id FROM tables JOIN actions ON actions.table_id = tables.table_id "
            "AND actions.seq > tables.timers_seq WHERE actions.timers IS NOT NULL").fetchall()]
        for table_id in tables:
            self.compact_timers(table_id)
        return len(tables)

    def claim_timer(self, key: str, table_id: str) -> tuple[float, dict[str, Any]] | None:
        """The due time and payload of the timer `key` of `table_id`, claimed for this transaction; None when there is
        none to fire: it was cleared (fired by another process, or disarmed by an action), or another process is
        firing it right now (on PostgreSQL its row is then locked, and skipped rather than waited for)."""
        if not self.dialect.is_shared:
            found = self._armed(table_id, key).get(key)
            return None if found is None else (found[1], found[2])
        row = self.db.execute(f"SELECT due_at, payload FROM timers WHERE key = ?{self.dialect.claim_row}",
                              (key,)).fetchone()
        return (float(row[0]), loads(row[1])) if row else None

