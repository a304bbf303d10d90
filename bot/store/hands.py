"""A transaction's part for hand records: a hand's (round's, tournament's) events and moves read back from the action
log, and a Hold'em hand's figures written when it ends."""

from __future__ import annotations

from typing import Any

from bot.store import figures
from bot.store.timers import Timers
from bot.store.txbase import loads


class Hands(Timers):
    """The history of hands, rounds and tournaments as the log holds it."""

    def summarise_hand(self, chat_id: str, table_id: str, hand_id: str, tournament: bool = False) -> None:
        """Write the statistics of a Hold'em hand that has just ended, per player (`bot.store.figures`), marked as a
        tournament's hand or a cash game's: from its events kept in memory since it started, else from its log
        rows."""
        hand = self._hand_so_far(table_id)
        if hand is not None and hand.hand_id == hand_id:
            figures.summarise_events(self.db, chat_id, table_id, hand_id, self.now, hand.events, tournament)
            self.learned.hands[table_id] = None  # over: events recorded for it from now on are not counted
        else:  # a hand begun before a restart: its logged events and this action's
            pending = [event for key, events in self.recorded.get(table_id, ()) if key == hand_id for event in events]
            figures.summarise_events(self.db, chat_id, table_id, hand_id, self.now,
                                     [*self.history(table_id, hand_id), *pending], tournament)

    def history(self, table_id: str, hand_id: str) -> list[dict[str, Any]]:
        """A hand's, round's or tournament's events in order, as logged."""
        return [event for _, events in self.logged_events(table_id, hand_id) for event in events]

    def logged_events(self, table_id: str, hand_id: str) -> list[tuple[float, list[dict[str, Any]]]]:
        """The hand's (or round's, or tournament's) events as the log holds them: for each action that recorded
        some, in order, its time and those events."""
        logged = []
        for _, at, recorded, _ in self.hand_log(table_id, hand_id):
            events = [event for key, events in recorded if key == hand_id for event in events]
            if events:
                logged.append((at, events))
        return logged

    def hand_log(self, table_id: str, hand_id: str) -> list[tuple[int, float, list[list[Any]], list[list[Any]]]]:
        """The log rows that may hold the hand's (or round's, or tournament's) events or moves, in order: each
        one's number, time, every event it holds (`[[hand id, [events]], …]`, of this hand and others) and every
        move (`[[source, target, amount, reason, hand id], …]`). They lie from its span's first row up to the first
        of the next one of its kind (`h`, `r`, `t`): a hand's last events, a show after it ended or its chips given
        back when it is voided, come before the next hand's first."""
        span = self._span_in_log(table_id, hand_id)
        if span is None:
            return []
        first, bound = span
        rows = self.db.execute(
            "SELECT seq, at, events, moves FROM actions WHERE table_id = ? AND seq >= ? AND seq < ? "
            "AND (events IS NOT NULL OR moves IS NOT NULL) ORDER BY seq",
            (table_id, first, 2**62 if bound is None else int(bound))).fetchall()
        return [(int(seq), float(at), loads(events) if events else [], loads(moves) if moves else [])
                for seq, at, events, moves in rows]

    def _span_in_log(self, table_id: str, hand_id: str) -> tuple[int, int | None] | None:
        """Where the hand (or round, or tournament) lies in its table's log (see `hand_log`): the number of its first
        row and of the next one of its kind's first (None: none began after it), or None for one never recorded. Its
        first row from its span, or from the table's row while it is in play there (`IN_TABLE_ROW`)."""
        kind = hand_id[:1]
        named, named_first, _ = self.in_row(table_id) or ("", 0, 0.0)
        row = self.db.execute("SELECT first_seq FROM hand_spans WHERE table_id = ? AND hand_id = ?",
                              (table_id, hand_id)).fetchone()
        if row is None and named != hand_id:
            return None
        first = named_first if row is None else int(row[0])
        later = self.db.execute(
            "SELECT MIN(first_seq) FROM hand_spans WHERE table_id = ? AND first_seq > ? AND substr(hand_id, 1, 1) = ?",
            (table_id, first, kind)).fetchone()[0]
        starts = [int(later)] if later is not None else []
        if named[:1] == kind and named_first > first:
            starts.append(named_first)
        return first, min(starts, default=None)

    def _hand_moves(self, table_id: str, hand_id: str) -> list[list[Any]]:
        """The hand's moves its span's log rows hold (see `hand_log`), in order."""
        return [move for *_, moves in self.hand_log(table_id, hand_id) for move in moves if move[4] == hand_id]

    def every_event(self, table_id: str | None = None) -> list[tuple[str, str, float, dict[str, Any]]]:
        """Every event the log holds (of one table, or of all), each table's in order: its table, hand (or round,
        or tournament) id, time and the event itself. For audits and tests; `/history` reads one hand at a time."""
        where, parameters = ("", ()) if table_id is None else ("AND table_id = ? ", (table_id,))
        rows = self.db.execute(
            f"SELECT table_id, at, events FROM actions WHERE events IS NOT NULL {where}ORDER BY table_id, seq",
            parameters)
        return [(str(table), str(hand_id), float(at), event)
                for table, at, text in rows for hand_id, events in loads(text) for event in events]

    def finished_hands(self, table_id: str, limit: int, *, with_rounds: bool = False) -> list[str]:
        """The ids of the table's last `limit` Hold'em hands (and house rounds, `with_rounds`) that ended (not
        voided), oldest first."""
        rounds = "OR hand_id LIKE 'r%'" if with_rounds else ""
        rows = self.db.execute(  # the table's hands follow one another: the last to begin ended last
            f"SELECT hand_id FROM hand_spans WHERE table_id = ? AND (hand_id LIKE 'h%' {rounds}) "
            "AND ended_seq IS NOT NULL "
            "ORDER BY first_seq DESC LIMIT ?",
            (table_id, limit),
        ).fetchall()
        return [str(row[0]) for row in rows[::-1]]

    def hand_records(self, table_id: str, hand_ids: list[str]) -> list[tuple[str, float, list[dict[str, Any]]]]:
        """For each hand id: the id, when its first event was recorded, and its events in order."""
        records = []
        for hand_id in hand_ids:
            logged = self.logged_events(table_id, hand_id)
            if logged:
                records.append((hand_id, logged[0][0], [event for _, events in logged for event in events]))
        return records

