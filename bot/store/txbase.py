"""What every part of a transaction (`Tx`) stands on: its connection, clock and memory (`TxState`), and the JSON text
of the rows (`dumps`, `loads`)."""

from __future__ import annotations

from typing import Any

import orjson

from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.known import Begun, Known


def dumps(value: Any) -> str:
    """JSON text for the database. orjson, because a snapshot or a log row is written after every action and
    the standard library's encoder was a tenth of an action's cost; keys that are not text are written as text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes) -> Any:
    """A value from JSON text written by `dumps` (or by hand)."""
    return orjson.loads(text)


class TxState:
    """The state of one open transaction that each part of `Tx` reads and writes: its connection and dialect, its
    time, the rows the store mirrors in memory (`known`), what it learned of them itself (`learned`), and what it
    recorded that waits for an action's log row."""

    def __init__(self, connection: Connection, now: float, known: Known | None = None,
                 dialect: Dialect = SQLITE, process_id: str | None = None) -> None:
        self.db = connection
        self.dialect = dialect
        self.now = now
        self.process_id = process_id
        """The process writing (`Store.process_id`; None in a read): the one that fires the timers it arms, in their
        rows (`Timers.set_timer`)."""
        self.known = known if known is not None else Known()
        self.learned = Known()
        """What this transaction wrote to the rows `known` mirrors; `Known.adopt` takes it once it is kept."""
        self.held_chats: set[str] = set()
        """The chats whose rows this transaction has made sure of and, with several processes, locked, their settings
        read under the lock (`Chats._hold_chat`)."""
        self.locked_paused: set[str] = set()
        """The tables whose rows this transaction locked (`ActionLog.lock_table`) that were paused then
        (`bot.store.pauses`): with several processes, whichever paused them, the service plays nothing there."""
        self.recorded: dict[str, list[list[Any]]] = {}
        """Per table, the events recorded in this transaction and not yet in a log row: `[hand id, [events]]` in
        order, written into the row of the action that recorded them (`log_action`)."""
        self.moved: dict[str, list[list[Any]]] = {}
        """Per table, the chip moves of a hand, round or tournament made in this transaction and not yet in a log
        row: `[source, target, amount, reason, hand id]` in order, the ledger's record of them (`move`)."""
        self.settled: set[tuple[str, str]] = set()
        """The hands (table, hand id) whose balances this transaction settled (`settle_hand`)."""
        self.timed: dict[str, list[list[Any]]] = {}
        """Per table, the timer changes made in this transaction and not yet in a log row (`log_timers`)."""
        self.begun: dict[str, Begun] = {}
        """Per table, the hand or round whose first events a log row of this transaction holds, with that row's
        number and time, not yet in the table's row: written with its snapshot (`save_snapshot`), else when the job
        ends (`finish_job`)."""

