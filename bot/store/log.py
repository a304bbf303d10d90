"""A transaction's part for the action log: each action's row (its entry, events, moves and timers), where each
hand, round and tournament lies in it (the table's row while one is in play, then its `hand_spans` row), and where a
table's log stands."""

from __future__ import annotations

from typing import Any

from bot.statistics import COUNTED_KINDS
from bot.store.accounts import settled_at_hand_end
from bot.store.chats import Chats
from bot.store.known import Begun, HandSoFar
from bot.store.txbase import dumps

IN_TABLE_ROW = frozenset({"h", "r"})
"""The kinds of span (by the id's first letter: hands and house rounds, one at a time at a table) whose beginning the
table's row holds while they are in play (`tables.hand_id`, `hand_seq`, `hand_at`), so that each gets its
`hand_spans` row once, when it ends; a tournament's is written when it begins, since the hands it holds are looked
up inside it."""
ENDING_KINDS = frozenset({"HandEnded", "RoundEnded", "TournamentFinished"})
"""Event kinds that end a hand, a house round or a tournament: the action recording one is its span's end
(`hand_spans.ended_seq`), which `/history` and the pruning look hands up by."""
HISTORY_ONLY = '{"k":"h"}'
"""The entry of a log row kept only for the events and moves in it (an action that changed no table state, or
history written outside an action): a replay passes over it."""


def hand_number(hand_id: str) -> int:
    """The number in a hand's or round's id (`h12`, `r3`: the table's counter), -1 for an id without one."""
    digits = hand_id[1:]
    return int(digits) if digits.isdigit() else -1


def _begun(row: Any) -> Begun | None:
    """A table row's `hand_id`, `hand_seq` and `hand_at` as a `Begun` (None: it names no hand)."""
    hand_id, seq, at = row
    return None if hand_id is None else (str(hand_id), int(seq), float(at))


class ActionLog(Chats):
    """The action log's rows and the spans of the hands in it; the events a transaction records and the hand in play
    it follows (`Known.hands`)."""

    def log_action(self, table_id: str, seq: int, entry: str) -> None:
        """Append action number `seq` to the table's log: what replaying it needs (JSON text; `HISTORY_ONLY` for an
        action a replay passes over), the events recorded for the table in this transaction (`record`), its share of
        the history, the moves of its hands (`move`), its share of the ledger, and its timer changes (`log_timers`).
        Where each hand, round or tournament the events belong to lies in the log is written as its first events are
        and when they end it (`ENDING_KINDS`): a hand's or round's beginning in the table's row while it is in play,
        its `hand_spans` row once it ends (`IN_TABLE_ROW`); a tournament's span row when it begins, its end there."""
        recorded = self.recorded.pop(table_id, None)
        moved = self.moved.pop(table_id, None)
        timed = self.timed.pop(table_id, None)
        self.db.execute("INSERT INTO actions(table_id, seq, at, entry, events, moves, timers) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (table_id, seq, self.now, entry, dumps(recorded) if recorded else None,
                         dumps(moved) if moved else None, dumps(timed) if timed else None))
        settled = [hand_id for table, hand_id in self.settled if table == table_id] if self.settled else []
        self.settled.difference_update((table_id, hand_id) for hand_id in settled)
        deferred = [move[4] for move in moved or () if settled_at_hand_end(move[0], move[1], move[4])]
        ended = {hand_id for hand_id, events in recorded or ()
                 if any(event.get("kind") in ENDING_KINDS for event in events)}
        ended.update(settled)
        # a span for every hand whose events are written, and for one whose moves settled at its end are (they are
        # found by its span until it ends, which its settlement ends)
        spanned = [hand_id for hand_id, _ in recorded or ()] + deferred + settled
        for hand_id in dict.fromkeys(spanned):
            if hand_id[:1] in IN_TABLE_ROW:
                named = self.in_row(table_id)
                if named is None or named[0] != hand_id:
                    self._begin_in_row(table_id, hand_id, seq, named)
                if hand_id in ended:
                    self._end_from_row(table_id, hand_id, seq)
            else:
                self._span(table_id, hand_id, seq, hand_id in ended)

    def _span(self, table_id: str, hand_id: str, seq: int, ends: bool) -> None:
        """A tournament's span (or one begun with no table row to hold it): its row when its first events are
        written, its end when they end it."""
        if hand_id not in self._stored_spans(table_id):
            self._insert_span(table_id, (hand_id, seq, self.now))
            self._note_spanned(table_id, hand_id)
        if ends:
            self.db.execute("UPDATE hand_spans SET ended_seq = ?, ended_at = ? WHERE table_id = ? AND hand_id = ? "
                            "AND ended_seq IS NULL", (seq, self.now, table_id, hand_id))

    def _stored_spans(self, table_id: str) -> tuple[str, ...]:
        return self.learned.spans.get(table_id, self.known.spans.get(table_id, ()))

    def _note_spanned(self, table_id: str, hand_id: str) -> None:
        """Remember that the hand's span row is stored (`Known.spans`: the table's last few)."""
        spans = self._stored_spans(table_id)
        if hand_id not in spans:
            self.learned.spans[table_id] = (*spans[-3:], hand_id)

    def _insert_span(self, table_id: str, begun: Begun) -> None:
        """A span row with no end yet, where the hand (or round, or tournament) begins in its table's log; one stored
        already stays as it is."""
        self.db.execute("INSERT INTO hand_spans(table_id, hand_id, first_seq, at) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT DO NOTHING", (table_id, *begun))

    def in_row(self, table_id: str) -> Begun | None:
        """The hand or round the table's row says is in play, or was last (`tables.hand_id`, see `log_action`), with
        the number and time of its first log row (what this transaction began there is in its row with its
        snapshot, `begun`)."""
        if table_id in self.learned.open:
            return self.learned.open[table_id]
        if table_id in self.known.open:
            return self.known.open[table_id]
        row = self.db.execute("SELECT hand_id, hand_seq, hand_at FROM tables WHERE table_id = ?",
                              (table_id,)).fetchone()
        self.learned.open[table_id] = named = None if row is None else _begun(row)
        return named

    def forget_in_row(self, table_id: str, hand_id: str) -> None:
        """The table's row no longer names the hand (`in_row`) if it did: a hand ended long ago whose span and history
        are pruned (its log rows kept for their moves must not count as a hand in play)."""
        if self.db.execute("UPDATE tables SET hand_id = NULL, hand_seq = NULL, hand_at = NULL WHERE table_id = ? "
                           "AND hand_id = ?", (table_id, hand_id)).rowcount:
            self.learned.open[table_id] = None

    def _begin_in_row(self, table_id: str, hand_id: str, seq: int, named: Begun | None) -> None:
        """A hand or round whose first events (or moves) this action writes: the table's row says where it begins
        (`tables.hand_id`, `hand_seq`, `hand_at`), written with the deal's snapshot, which writes the row anyway
        (`begun`), rather than a span row of its own, which it gets when it ends (`_end_from_row`). The one it
        replaces there, if it never ended (a hand voided), gets its span now, with no end. One already spanned (a
        hand shown after it ended, the events of an import) is left as it is. `named`: what the row says now."""
        spans = self._stored_spans(table_id)
        if hand_id in spans:
            return
        # a later number than the row's is a new one (a table's numbers only grow); another may be spanned already
        later = named is not None and hand_number(hand_id) > hand_number(named[0]) >= 0
        if not later and self.db.execute("SELECT 1 FROM hand_spans WHERE table_id = ? AND hand_id = ?",
                                         (table_id, hand_id)).fetchone() is not None:
            self._note_spanned(table_id, hand_id)
            return
        if named is not None and named[0] not in spans:
            self._insert_span(table_id, named)
        self.begun[table_id] = self.learned.open[table_id] = (hand_id, seq, self.now)

    def _end_from_row(self, table_id: str, hand_id: str, seq: int) -> None:
        """The span of a hand or round that ends with action `seq`, written once: where it began as the table's row
        says (`in_row`), or its end added to the span it has already."""
        named = self.in_row(table_id)
        if named is not None and named[0] == hand_id:
            self.db.execute("INSERT INTO hand_spans(table_id, hand_id, first_seq, at, ended_seq, ended_at) "
                            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, hand_id) DO UPDATE SET "
                            "ended_seq = excluded.ended_seq, ended_at = excluded.ended_at "
                            "WHERE hand_spans.ended_seq IS NULL", (table_id, *named, seq, self.now))
        else:
            self._span(table_id, hand_id, seq, True)
        self._note_spanned(table_id, hand_id)

    def logged_actions(self, table_id: str, after: int) -> list[tuple[int, str]]:
        """The table's logged actions after number `after`, in order: number and entry (rows that only hold history
        included: the number goes on through them)."""
        rows = self.db.execute(
            "SELECT seq, entry FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after)
        ).fetchall()
        return [(int(seq), str(entry)) for seq, entry in rows]

    def lock_table(self, table_id: str) -> int | None:
        """The number of the table's last action, logged or in its snapshot (None for a table never stored), its
        row held until this transaction ends.

        With several processes on one database, every action on a table starts here: a process that keeps the table
        in memory knows from the number whether another process has acted on it since (then it reads it again). On
        PostgreSQL the row is locked (`FOR UPDATE NOWAIT`): another process's action on the same table fails at once
        with a lock error, which the store answers by running it again after its batch commits; so two processes
        never apply actions to one table at the same time, in any order. On SQLite the writer already holds the whole
        file. The hand in play the row names is learned with it (`in_row`), where another process may have dealt, and
        whether the table is paused (`locked_paused`), where another process may have paused it or lifted its pause."""
        query = ("SELECT snapshot_seq, (SELECT MAX(seq) FROM actions WHERE actions.table_id = tables.table_id), "
                 "EXISTS (SELECT 1 FROM paused_tables WHERE paused_tables.table_id = tables.table_id), hand_id, "
                 "hand_seq, hand_at FROM tables WHERE table_id = ?")
        row = self.db.execute(query + self.dialect.lock_row, (table_id,)).fetchone()
        if row is None:
            return None
        if self.dialect.is_shared:
            # read again now that the row is held: the locking statement read the log as its snapshot had it, taken
            # before the lock was granted, so an action another process committed just then went unseen, and this
            # process would log its own under the same number (PostgreSQL's READ COMMITTED; a new statement sees it)
            row = self.db.execute(query, (table_id,)).fetchone()
        self.learned.open[table_id] = _begun(row[3:])  # read under the lock: current
        if row[2]:
            self.locked_paused.add(table_id)
        return max(int(row[0]), int(row[1] or 0))

    def _last_seq(self, table_id: str) -> int | None:
        """The number of the table's last action, logged or in its snapshot (None for a table never stored)."""
        row = self.db.execute(
            "SELECT snapshot_seq, (SELECT MAX(seq) FROM actions WHERE actions.table_id = tables.table_id) "
            "FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else max(int(row[0]), int(row[1] or 0))

    def finish_job(self) -> None:
        """What a job of the store leaves for its end: a hand or round begun with no snapshot after it (history
        written outside an action) written into its table's row (`begun`), then `check_logged`."""
        for table_id, begun in self.begun.items():
            cursor = self.db.execute("UPDATE tables SET hand_id = ?, hand_seq = ?, hand_at = ? WHERE table_id = ?",
                                     (*begun, table_id))
            if cursor.rowcount == 0:  # no table row to hold it (history written for a table never stored)
                self._insert_span(table_id, begun)
                self._note_spanned(table_id, begun[0])
                self.learned.open.pop(table_id, None)
        self.begun.clear()
        self.check_logged()

    def check_logged(self) -> None:
        """Fail the transaction when events or moves it recorded, or a hand it settled, were not written into a log
        row: the balances they changed would have no record, or a settled hand would count again as in play (the store
        calls this after each job, whose writes a failure undoes)."""
        if any(self.recorded.values()) or any(self.moved.values()) or self.settled or any(self.timed.values()):
            pending = [*self.recorded.items(), *self.moved.items(), *self.timed.items()]
            tables = sorted({table for table, written in pending if written} | {table for table, _ in self.settled})
            raise RuntimeError(f"events, chip moves, timers or settled hands of {', '.join(tables)} were left out of "
                               "the action log")

    def unlogged(self, table_id: str) -> bool:
        """Whether events, moves, timer changes or a hand's settlement (`settle_hand`) of the table wait for a log row
        in this transaction."""
        return bool(self.recorded.get(table_id) or self.moved.get(table_id) or self.timed.get(table_id)
                    or any(table == table_id for table, _ in self.settled))

    def record(self, table_id: str, hand_id: str, events: list[dict[str, Any]]) -> None:
        """Record events (already JSON-able) of a hand, round or tournament: written with the row of the action
        that recorded them (`log_action`), which the service writes before the transaction ends."""
        if events:
            self.recorded.setdefault(table_id, []).append([hand_id, events])
            self._follow_hand(table_id, hand_id, events)

    def add_history(self, table_id: str, hand_id: str, events: list[dict[str, Any]]) -> None:
        """Append events to a hand's history outside any action (an import, a test): a log row of their own after
        the table's last, which a replay passes over. Not for a table the service holds live, whose next action
        would take the same number."""
        self.record(table_id, hand_id, events)
        self.log_action(table_id, (self._last_seq(table_id) or 0) + 1, HISTORY_ONLY)

    def _follow_hand(self, table_id: str, hand_id: str, events: list[dict[str, Any]]) -> None:
        """Keep the counted events of the table's Hold'em hand in play (`Known.hands`): from its `HandStarted`, so
        that nothing written before is missed; events of another hand leave it as it is."""
        counted = tuple(event for event in events if event.get("kind") in COUNTED_KINDS)
        if events and events[0].get("kind") == "HandStarted":
            self.learned.hands[table_id] = HandSoFar(hand_id, counted)
            return
        hand = self._hand_so_far(table_id)
        if hand is not None and hand.hand_id == hand_id and counted:
            self.learned.hands[table_id] = HandSoFar(hand_id, hand.events + counted)

    def _hand_so_far(self, table_id: str) -> HandSoFar | None:
        if table_id in self.learned.hands:
            return self.learned.hands[table_id]
        return self.known.hands.get(table_id)

