"""The queries of one transaction: synchronous, run inside the database thread, all SQL of the bot lives here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.statistics import COUNTED_KINDS
from bot.store import figures
from bot.store.dialect import SQLITE, Connection, Dialect

NEGATIVE_KINDS = frozenset({"house", "mint", "bank"})
"""Account kinds that may go below zero: the counterparties that create or absorb chips (the house, grants, a
tournament's bank). Every other account (wallets, stacks, pots, boxes) never goes negative."""
TABLE_CHIPS = frozenset({"stack", "pot"})
"""Account kinds of a table's own chips: its players' stacks and its pot. A Hold'em hand's moves between them are
recorded as they are made but settled into the accounts' balances once, when the hand ends (`Tx.settle_hand`): until
then the rows hold what the accounts held at its start, and `Tx.balance` adds the hand's moves (`Tx.in_play`)."""
_TABLE_CHIP_PREFIXES = tuple(f"{kind}:" for kind in sorted(TABLE_CHIPS))
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


def dumps(value: Any) -> str:
    """JSON text for the database. orjson, because a snapshot or a log row is written after every action and
    the standard library's encoder was a tenth of an action's cost; keys that are not text are written as text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes) -> Any:
    """A value from JSON text written by `dumps` (or by hand)."""
    return orjson.loads(text)


class InsufficientFunds(ValueError):
    """A debit that would take an account below zero: the transaction is rolled back."""

    def __init__(self, account: str, amount: int, balance: int) -> None:
        super().__init__(f"{account} holds {balance}, cannot pay {amount}")
        self.account = account
        self.amount = amount
        self.balance = balance


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One recorded chip movement."""

    source: str
    target: str
    amount: int
    reason: str
    table_id: str | None
    hand_id: str | None


def settled_at_hand_end(source: str, target: str, hand_id: str | None) -> bool:
    """Whether a recorded move is a Hold'em hand's between a table's own chips (`TABLE_CHIPS`), whose balances are
    written when the hand ends rather than at once."""
    return (hand_id is not None and hand_id[:1] == "h" and source.startswith(_TABLE_CHIP_PREFIXES)
            and target.startswith(_TABLE_CHIP_PREFIXES))


def net_of_moves(moves: Iterable[list[Any]]) -> dict[str, int]:
    """What the moves (`[source, target, amount, reason, hand id]`) settled at a hand's end (`settled_at_hand_end`)
    among them add to each account (the others left out)."""
    owed: dict[str, int] = {}
    for source, target, amount, _, hand_id in moves:
        if settled_at_hand_end(source, target, hand_id):
            owed[source] = owed.get(source, 0) - amount
            owed[target] = owed.get(target, 0) + amount
    return owed


def _number(hand_id: str) -> int:
    """The number in a hand's or round's id (`h12`, `r3`: the table's counter), -1 for an id without one."""
    digits = hand_id[1:]
    return int(digits) if digits.isdigit() else -1


Begun = tuple[str, int, float]
"""A hand or round in play as its table's row holds it: its id, and the number and time of its first log row."""


def _begun(row: Any) -> Begun | None:
    """A table row's `hand_id`, `hand_seq` and `hand_at` as a `Begun` (None: it names no hand)."""
    hand_id, seq, at = row
    return None if hand_id is None else (str(hand_id), int(seq), float(at))


def account_kind(name: str) -> str:
    """An account's kind is its name's first part: `wallet:<chat>:<user>` is a wallet."""
    return name.split(":", 1)[0]


@dataclass
class Known:
    """Rows read on every action and rarely changed, kept in memory by the store: accounts that exist, players'
    names, chats' settings (as JSON text), and the events a hand's figures are read from while it is in play
    (`hands`). It mirrors committed rows only: a transaction records its own writes in
    `Tx.learned`, which the store adopts after the transaction's savepoint is released, and the store forgets
    everything if a batch fails to commit."""

    accounts: set[str] = field(default_factory=set)
    names: dict[tuple[str, str], str] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    hands: dict[str, HandSoFar | None] = field(default_factory=dict)
    """Per table, the Hold'em hand in play whose every event this process recorded since its `HandStarted`: its
    counted events (`bot.statistics.COUNTED_KINDS`), so that its figures are worked out without reading them back.
    None (in `Tx.learned`) forgets the table's hand."""
    spans: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per table, the last few hands, rounds and tournaments whose `hand_spans` row is stored: an action recording
    events of one of them writes no row for it."""
    open: dict[str, Begun | None] = field(default_factory=dict)
    """Per table, the hand or round its row says is in play (`tables.hand_id`, see `Tx.log_action`) and where it
    begins, as this process last wrote or read it."""

    def adopt(self, other: Known) -> None:
        """Take what another transaction learned."""
        self.accounts |= other.accounts
        self.names.update(other.names)
        self.settings.update(other.settings)
        self.spans.update(other.spans)
        self.open.update(other.open)
        for table_id, hand in other.hands.items():
            if hand is None:
                self.hands.pop(table_id, None)
            else:
                self.hands[table_id] = hand

    def clear(self) -> None:
        """Forget everything (the database is the truth; it is read again on demand)."""
        self.accounts.clear()
        self.names.clear()
        self.settings.clear()
        self.hands.clear()
        self.spans.clear()
        self.open.clear()


@dataclass(frozen=True, slots=True)
class HandSoFar:
    """A hand's counted events as its log rows hold them, in order (see `Known.hands`)."""

    hand_id: str
    events: tuple[dict[str, Any], ...]


class AccountsOnly(Known):
    """What the store mirrors when other processes write the database too: only the accounts that exist (an account
    is never removed) and the hands' spans stored (one goes only when its hand, ended long ago, is pruned), not names,
    settings or the hand in play at a table, which another process may have changed since."""

    def adopt(self, other: Known) -> None:
        """Take the accounts and spans another transaction created."""
        self.accounts |= other.accounts
        self.spans.update(other.spans)


class Tx:
    """One open transaction: ledger moves, snapshots, the action log and the history in it, timers and settings.
    Used only inside `Store`."""

    def __init__(self, connection: Connection, now: float, known: Known | None = None,
                 dialect: Dialect = SQLITE) -> None:
        self.db = connection
        self.dialect = dialect
        self.now = now
        self.known = known if known is not None else Known()
        self.learned = Known()
        """What this transaction wrote to the rows `known` mirrors; `Known.adopt` takes it once it is kept."""
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

    # --- chats, players, settings -------------------------------------------------------------------------

    def ensure_chat(self, chat_id: str) -> bool:
        """Create the chat if new; return whether it was created."""
        cursor = self.db.execute("INSERT INTO chats(chat_id) VALUES (?) ON CONFLICT DO NOTHING", (chat_id,))
        return cursor.rowcount == 1

    def chat_settings(self, chat_id: str) -> dict[str, Any]:
        """The chat's settings (language, organizer ids, grant size…), `{}` when none; a fresh dict each time."""
        stored = self.learned.settings.get(chat_id, self.known.settings.get(chat_id))
        if stored is None:
            row = self.db.execute("SELECT settings FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
            if row is None:
                return {}
            stored = self.learned.settings[chat_id] = str(row[0])  # remembered once this transaction is kept
        settings: dict[str, Any] = loads(stored)
        return settings

    def set_chat_settings(self, chat_id: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings."""
        self.ensure_chat(chat_id)
        stored = dumps(settings)
        self.db.execute("UPDATE chats SET settings = ? WHERE chat_id = ?", (stored, chat_id))
        self.learned.settings[chat_id] = stored

    def ensure_player(self, chat_id: str, user_id: str, name: str) -> bool:
        """Record the player (and refresh his display name); return whether he is new to the chat."""
        self.ensure_chat(chat_id)
        key = (chat_id, user_id)
        added = self.db.execute(
            "INSERT INTO players(chat_id, user_id, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (chat_id, user_id, name),
        ).rowcount == 1
        if not added:
            self.db.execute("UPDATE players SET name = ? WHERE chat_id = ? AND user_id = ?", (name, *key))
        self.learned.names[key] = name
        return added

    def stored_name(self, chat_id: str, user_id: str) -> str | None:
        """The player's display name as recorded, None when he has never played in the chat."""
        key = (chat_id, user_id)
        name = self.learned.names.get(key, self.known.names.get(key))
        if name is None:
            row = self.db.execute(
                "SELECT name FROM players WHERE chat_id = ? AND user_id = ?", key
            ).fetchone()
            if row is None:
                return None
            # remembered once this transaction is kept: the row may be one it wrote itself
            name = self.learned.names[key] = str(row[0])
        return name

    def player_name(self, chat_id: str, user_id: str) -> str:
        """The player's display name (his id when unknown)."""
        name = self.stored_name(chat_id, user_id)
        return user_id if name is None else name

    def find_players(self, chat_id: str, name: str) -> list[str]:
        """The ids of the players a name means (case-insensitive in any alphabet, a leading @ ignored): the player
        with that id, else every player with that display name (two players may share one: the caller asks which)."""
        wanted = name.lstrip("@").casefold()
        # compared here, not by the database's lower(): SQLite's folds only ASCII, so "Боря" never matched "@Боря"
        rows = [(str(user_id), str(shown)) for user_id, shown in self.db.execute(
            "SELECT user_id, name FROM players WHERE chat_id = ? ORDER BY user_id", (chat_id,))]
        return ([user_id for user_id, _ in rows if user_id.casefold() == wanted]
                or [user_id for user_id, shown in rows if shown.casefold() == wanted])

    def learn_table_chats(self) -> None:
        """Learn the names, settings and accounts of every chat with a table, in a read of each: after downtime
        thousands of timers fire at once, and each read its chat's names and settings alone (7.5% of the
        catch-up's time at 10,000 tables). On a shared database only the accounts are kept (see `AccountsOnly`)."""
        with_table = "WHERE chat_id IN (SELECT chat_id FROM tables)"
        accounts = self.db.execute(f"SELECT name FROM accounts {with_table}")
        self.learned.accounts.update(str(name) for name, in accounts)
        if self.dialect.is_shared:
            return
        players = self.db.execute(f"SELECT chat_id, user_id, name FROM players {with_table}")
        self.learned.names.update(((str(chat), str(user)), str(name)) for chat, user, name in players)
        chats = self.db.execute(f"SELECT chat_id, settings FROM chats {with_table}")
        self.learned.settings.update((str(chat), str(settings)) for chat, settings in chats)

    # --- the ledger -----------------------------------------------------------------------------------------

    def _ensure_account(self, name: str, chat_id: str) -> None:
        if name in self.known.accounts or name in self.learned.accounts:
            return
        kind = account_kind(name)
        self.db.execute(
            "INSERT INTO accounts(name, chat_id, kind, may_go_negative) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (name, chat_id, kind, int(kind in NEGATIVE_KINDS)),
        )
        self.learned.accounts.add(name)

    def move(
        self,
        chat_id: str,
        source: str,
        target: str,
        amount: int,
        reason: str,
        *,
        table_id: str | None = None,
        hand_id: str | None = None,
        logged: bool = False,
    ) -> None:
        """Move chips between two accounts and record it; a debit below zero raises InsufficientFunds.

        The balances change at once, but for a Hold'em hand's moves between the table's stacks and pot
        (`settled_at_hand_end`, recorded with `logged`), which the hand's end writes (`settle_hand`; a move made after
        it in the same transaction changes them at once): the engine has checked those, and a hand makes some twelve
        of them. The record is a `ledger` row, or with `logged` (a move of a hand, round or tournament at a table,
        inside the action the service logs) a part of the action's log row (`log_action`): either way written in this
        transaction, and `check_ledger` adds both up."""
        if not isinstance(amount, int) or amount <= 0:
            raise ValueError(f"a move needs a positive whole amount, got {amount!r}")
        if source == target:
            raise ValueError(f"a move from {source} to itself")
        self._ensure_account(source, chat_id)
        self._ensure_account(target, chat_id)
        if not (logged and table_id is not None and settled_at_hand_end(source, target, hand_id)
                and (table_id, hand_id) not in self.settled):
            debited = self.db.execute(
                "UPDATE accounts SET balance = balance - ? WHERE name = ? AND (may_go_negative = 1 OR balance >= ?)",
                (amount, source, amount),
            )
            if debited.rowcount != 1:
                raise InsufficientFunds(source, amount, self.balance(source))
            self.db.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (amount, target))
        if logged and table_id is not None and hand_id is not None:
            self.moved.setdefault(table_id, []).append([source, target, amount, reason, hand_id])
            return
        self.db.execute(
            "INSERT INTO ledger(at, chat_id, source, target, amount, reason, table_id, hand_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (self.now, chat_id, source, target, amount, reason, table_id, hand_id),
        )

    def balance(self, account: str) -> int:
        """An account's balance (0 when it has never been used): its row's, and for a table's stack or pot the moves
        of the hands in play there too (`in_play`)."""
        row = self.db.execute("SELECT balance, chat_id FROM accounts WHERE name = ?", (account,)).fetchone()
        if row is None:
            return 0
        if account_kind(account) not in TABLE_CHIPS:
            return int(row[0])
        return int(row[0]) + self.in_play(str(row[1])).get(account, 0)

    def balances(self, prefix: str) -> dict[str, int]:
        """Every account whose name starts with `prefix`, with its balance (as `balance` gives it)."""
        rows = self.db.execute(
            "SELECT name, balance, chat_id FROM accounts WHERE substr(name, 1, CAST(? AS INTEGER)) = ?",
            (len(prefix), prefix)).fetchall()
        in_play: dict[str, int] = {}
        for chat_id in {str(chat_id) for name, _, chat_id in rows if account_kind(str(name)) in TABLE_CHIPS}:
            in_play.update(self.in_play(chat_id))
        return {str(name): int(balance) + in_play.get(str(name), 0) for name, balance, _ in rows}

    def in_play(self, chat_id: str | None = None) -> dict[str, int]:
        """What the Hold'em hands in play (of one chat's tables, or of all) have moved between their tables' stacks
        and pots so far, per account: moves recorded, not yet in the accounts' rows (`settle_hand` writes them when
        the hand ends). A hand is in play from its table's row (`tables.hand_id`, see `log_action`) until its span
        ends (`hand_spans.ended_seq`, written with the action that settles it), or until the next hand if it was
        voided (its moves then add up to nothing, and an account whose moves add up to nothing is left out)."""
        where, parameters = ("", ()) if chat_id is None else ("AND chat_id = ? ", (chat_id,))
        hands = [(str(table_id), str(hand_id)) for table_id, hand_id in self.db.execute(
            f"SELECT table_id, hand_id FROM tables WHERE hand_id LIKE 'h%' {where}AND NOT EXISTS (SELECT 1 FROM "
            "hand_spans WHERE hand_spans.table_id = tables.table_id AND hand_spans.hand_id = tables.hand_id "
            "AND hand_spans.ended_seq IS NOT NULL)", parameters)]
        hands += [(table_id, begun[0]) for table_id, begun in self.begun.items()  # not in their rows yet
                  if begun[0][:1] == "h" and (chat_id is None or self.table_chat(table_id) == chat_id)]
        moves = [(table_id, move) for table_id, hand_id in hands for move in self._hand_moves(table_id, hand_id)]
        moves += [(table_id, move) for table_id, pending in self.moved.items()
                  if chat_id is None or self.table_chat(table_id) == chat_id for move in pending]
        owed = net_of_moves(move for table_id, move in moves if (table_id, move[4]) not in self.settled)
        return {account: chips for account, chips in owed.items() if chips}

    def settle_hand(self, table_id: str, hand_id: str, net: Mapping[str, int]) -> None:
        """Write into the accounts' rows what a Hold'em hand that has just ended moved between the table's stacks and
        its pot (`settled_at_hand_end`): `net`, each account's gain or loss over the hand's moves between them (its
        stacks', from the engine's result; the pot's is nothing once the hand is over), one update an account. A
        balance this would take below zero fails the transaction (the accounts' `CHECK`); the ledger check proves
        the sum of the moves recorded the same. The action's log row (`log_action`) ends the hand's span, which takes
        it out of play."""
        for account, chips in net.items():
            if chips:
                self.db.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (chips, account))
        self.settled.add((table_id, hand_id))

    def ledger_rows(self, table_id: str, hand_id: str) -> list[LedgerRow]:
        """The moves recorded for one hand or round, in order: its ledger rows (a hand played before migration 17),
        then the moves its actions' log rows hold."""
        rows = self.db.execute(
            "SELECT source, target, amount, reason, table_id, hand_id FROM ledger "
            "WHERE table_id = ? AND hand_id = ? ORDER BY id",
            (table_id, hand_id),
        ).fetchall()
        logged = [LedgerRow(source, target, amount, reason, table_id, key)
                  for _, _, _, moves in self.hand_log(table_id, hand_id)
                  for source, target, amount, reason, key in moves if key == hand_id]
        return [LedgerRow(*row) for row in rows] + logged

    def every_move(self) -> list[tuple[float, str, LedgerRow]]:
        """Every chip move recorded, for audits and tests: its time, its chat and the move; the ledger's rows in
        their order, then the log's, table by table in their order."""
        return self.ledger_moves() + self.logged_moves()

    def ledger_moves(self, chat_id: str | None = None) -> list[tuple[float, str, LedgerRow]]:
        """The moves recorded as ledger rows (of one chat, or of all), in the order written: time, chat, move."""
        where, parameters = ("", ()) if chat_id is None else ("WHERE chat_id = ? ", (chat_id,))
        return [(float(at), str(chat), LedgerRow(*row)) for at, chat, *row in self.db.execute(
            f"SELECT at, chat_id, source, target, amount, reason, table_id, hand_id FROM ledger {where}ORDER BY id",
            parameters)]

    def logged_moves(self, chat_id: str | None = None) -> list[tuple[float, str, LedgerRow]]:
        """The hands' moves the action log's rows hold (of one chat's tables, or of all), table by table in the
        order made: time, chat, move."""
        where, parameters = ("", ()) if chat_id is None else ("AND tables.chat_id = ? ", (chat_id,))
        rows = self.db.execute(
            "SELECT actions.table_id, tables.chat_id, at, moves FROM actions JOIN tables "
            f"ON tables.table_id = actions.table_id WHERE moves IS NOT NULL {where}ORDER BY actions.table_id, seq",
            parameters)
        return [(float(at), str(chat), LedgerRow(source, target, amount, reason, str(table_id), key))
                for table_id, chat, at, text in rows for source, target, amount, reason, key in loads(text)]

    # --- tables, history, timers, tournaments ---------------------------------------------------------------

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
        later = named is not None and _number(hand_id) > _number(named[0]) >= 0
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

    def create_table(self, table_id: str, chat_id: str) -> None:
        """Store a new table with no game yet (`{}`), unless another process has just stored it (then it is kept)."""
        self.ensure_chat(chat_id)
        self.db.execute(
            "INSERT INTO tables(table_id, chat_id, config, state, updated_at) VALUES (?, ?, '{}', '{}', ?) "
            "ON CONFLICT DO NOTHING", (table_id, chat_id, self.now))

    def lock_table(self, table_id: str) -> int | None:
        """The number of the table's last action, logged or in its snapshot (None for a table never stored), its
        row held until this transaction ends.

        With several processes on one database, every action on a table starts here: a process that keeps the table
        in memory knows from the number whether another process has acted on it since (then it reads it again). On
        PostgreSQL the row is locked (`FOR UPDATE NOWAIT`): another process's action on the same table fails at once
        with a lock error, which the store answers by running it again after its batch commits; so two processes
        never apply actions to one table at the same time, in any order. On SQLite the writer already holds the whole
        file. The hand in play the row names is learned with it (`in_row`), where another process may have dealt."""
        row = self.db.execute(
            "SELECT snapshot_seq, (SELECT MAX(seq) FROM actions WHERE actions.table_id = tables.table_id), hand_id, "
            f"hand_seq, hand_at FROM tables WHERE table_id = ?{self.dialect.lock_row}", (table_id,)).fetchone()
        if row is None:
            return None
        self.learned.open[table_id] = _begun(row[2:])  # read under the lock: current
        return max(int(row[0]), int(row[1] or 0))

    def _last_seq(self, table_id: str) -> int | None:
        """The number of the table's last action, logged or in its snapshot (None for a table never stored)."""
        row = self.db.execute(
            "SELECT snapshot_seq, (SELECT MAX(seq) FROM actions WHERE actions.table_id = tables.table_id) "
            "FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else max(int(row[0]), int(row[1] or 0))

    def table_chat(self, table_id: str) -> str | None:
        """The chat a table belongs to (None for an unknown table)."""
        row = self.db.execute("SELECT chat_id FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else str(row[0])

    def table_ids(self) -> list[str]:
        """Every table the store knows."""
        return [str(row[0]) for row in self.db.execute("SELECT table_id FROM tables ORDER BY table_id")]

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

    def finished_hands(self, table_id: str, limit: int) -> list[str]:
        """The ids of the table's last `limit` Hold'em hands that ended (not voided), oldest first."""
        rows = self.db.execute(  # the table's hands follow one another: the last to begin ended last
            "SELECT hand_id FROM hand_spans WHERE table_id = ? AND hand_id LIKE 'h%' AND ended_seq IS NOT NULL "
            "ORDER BY first_seq DESC LIMIT ?",
            (table_id, limit),
        ).fetchall()
        return [str(row[0]) for row in reversed(rows)]

    def hand_records(self, table_id: str, hand_ids: list[str]) -> list[tuple[str, float, list[dict[str, Any]]]]:
        """For each hand id: the id, when its first event was recorded, and its events in order."""
        records = []
        for hand_id in hand_ids:
            logged = self.logged_events(table_id, hand_id)
            if logged:
                records.append((hand_id, logged[0][0], [event for _, events in logged for event in events]))
        return records

    def last_tournament(self, table_id: str) -> int | None:
        """The id of the table's current or last tournament."""
        row = self.db.execute(
            "SELECT id FROM tournaments WHERE table_id = ? ORDER BY id DESC LIMIT 1", (table_id,)
        ).fetchone()
        return int(row[0]) if row else None

    def tournament_hands(self, table_id: str, tournament_id: int) -> list[str]:
        """The Hold'em hands that ended at the table while the tournament ran, oldest first (`tournament_hand_ids`)."""
        return tournament_hand_ids(self.db, table_id, tournament_id)

    def hands_tournaments(self, table_id: str, hand_ids: Iterable[str]) -> dict[str, tuple[int, dict[str, Any]]]:
        """Of these hands of the table, those a tournament played, each with its tournament's number and engine state:
        the table's tournaments looked at newest first, up to one whose last hand is older than the oldest asked."""
        wanted = set(hand_ids)
        oldest = min(map(_number, wanted), default=0)
        found: dict[str, tuple[int, dict[str, Any]]] = {}
        rows = self.db.execute("SELECT id FROM tournaments WHERE table_id = ? ORDER BY id DESC", (table_id,))
        for (number,) in rows.fetchall():
            if not wanted:
                break
            hands = tournament_hand_ids(self.db, table_id, int(number))
            if hands and _number(hands[-1]) < oldest:
                break
            if played := wanted.intersection(hands):
                (state,) = self.db.execute("SELECT state FROM tournaments WHERE id = ?", (number,)).fetchone()
                found.update(dict.fromkeys(played, (int(number), loads(state))))
                wanted -= played
        return found

    def cash_results(self, chat_id: str) -> dict[str, int]:
        """Per player of the chat who played its cash games: his net result in them, in chips — his wallet, his
        stacks at its tables outside a tournament in play and his house-game boxes, less the grants he received (the
        welcome grant and `/grant`s). He played when his wallet paid for a seat at a cash table (a `ledger` row from
        it; the ledger is never pruned) or he has a house-game box (its bets, moves of a round, are in the action
        log's rows instead; an account is never deleted). A stack alone does not count: a finished tournament's
        table keeps its players' empty stacks. A player who only played tournaments, or only asked for his balance,
        has no result here. A hand in play counts as it stood when dealt: its chips reach the stacks' balances when
        it ends (`settle_hand`)."""
        wallet = f"wallet:{chat_id}:"
        tournament_tables = {str(table_id) for (table_id,) in self.db.execute(
            "SELECT table_id FROM tournaments WHERE chat_id = ? AND status != 'finished'", (chat_id,))}
        tables = sorted((str(table_id) for (table_id,) in self.db.execute(
            "SELECT table_id FROM tables WHERE chat_id = ?", (chat_id,)) if table_id not in tournament_tables),
            key=len, reverse=True)  # the longest first: `stack:a:b:<player>` is at table `a:b`, not `a`
        played = {str(source).removeprefix(wallet) for (source,) in self.db.execute(
            "SELECT DISTINCT source FROM ledger WHERE chat_id = ? AND substr(source, 1, CAST(? AS INTEGER)) = ?",
            (chat_id, len(wallet), wallet))}
        wallets: dict[str, int] = {}
        chips: list[tuple[str, int]] = []  # (owner, chips) at the tables outside a tournament in play
        rows = self.db.execute(
            "SELECT name, kind, balance FROM accounts WHERE chat_id = ? AND kind IN ('wallet', 'stack', 'box', 'held')",
            (chat_id,)).fetchall()
        for name, kind, balance in rows:
            if kind == "wallet":
                wallets[str(name).removeprefix(wallet)] = int(balance)
                continue
            for table_id in tables:
                owner = str(name).removeprefix(f"{kind}:{table_id}:")
                if owner != name:
                    owner = owner.rsplit(":", 1)[0] if kind == "box" else owner  # `box:<table>:<player>:<n>`
                    chips.append((owner, int(balance)))
                    if kind != "stack":  # a house game's box or held bet: he played a round
                        played.add(owner)
                    break
        results = {player: balance for player, balance in wallets.items() if player in played}
        for owner, balance in chips:
            if owner in results:  # a computer player has no wallet: the house's chips are no one's result
                results[owner] += balance
        for target, granted in self.db.execute(
                "SELECT target, SUM(amount) FROM ledger WHERE chat_id = ? AND source = ? GROUP BY target",
                (chat_id, f"mint:{chat_id}")):
            player = str(target).removeprefix(wallet)
            if player in results:
                results[player] -= int(granted)
        return results

    def finished_tournaments(self, chat_id: str) -> list[dict[str, Any]]:
        """The engine states of the chat's finished tournaments, oldest first (each settles its money)."""
        rows = self.db.execute(
            "SELECT state FROM tournaments WHERE chat_id = ? AND status = 'finished' ORDER BY id", (chat_id,))
        return [loads(state) for (state,) in rows]

    def set_timer(self, key: str, table_id: str, due_at: float, payload: dict[str, Any]) -> None:
        """Arm (or re-arm) a named deadline in its row (an action's timers go to its log row instead on SQLite:
        `log_timers`)."""
        self.db.execute(
            "INSERT INTO timers(key, table_id, due_at, payload) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload",
            (key, table_id, due_at, dumps(payload)),
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

    def save_tournament(
        self, tournament_id: int | None, chat_id: str, table_id: str, status: str, state: dict[str, Any]
    ) -> int:
        """Insert or update a tournament's state; return its id."""
        if tournament_id is None:
            row = self.db.execute(
                "INSERT INTO tournaments(chat_id, table_id, status, state, created_at) VALUES (?, ?, ?, ?, ?) "
                "RETURNING id", (chat_id, table_id, status, dumps(state), self.now),
            ).fetchone()
            return int(row[0])
        self.db.execute(
            "UPDATE tournaments SET status = ?, state = ? WHERE id = ?", (status, dumps(state), tournament_id)
        )
        return tournament_id

    # --- checks --------------------------------------------------------------------------------------------

    def check_ledger(self) -> list[str]:
        """Problems with the ledger (empty when sound): every balance (its row's, with the moves of the hands in play,
        `in_play`) equals its recorded moves (the ledger's rows and the moves in the action log's rows), the sum of
        all the rows' balances is zero (chips are only moved, never made), and no account that may not go negative
        is."""
        problems = []
        total = self.db.execute("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0]
        if total != 0:
            problems.append(f"the balances sum to {total}, not 0")
        recorded: dict[str, int] = {str(name): int(chips) for name, chips in self.db.execute(
            # one pass over the ledger, however long it has grown
            "SELECT name, SUM(amount) FROM (SELECT target AS name, amount FROM ledger "
            "UNION ALL SELECT source, -amount FROM ledger) AS moves GROUP BY name")}
        for _, _, move in self.logged_moves():
            recorded[move.source] = recorded.get(move.source, 0) - move.amount
            recorded[move.target] = recorded.get(move.target, 0) + move.amount
        balances = {str(name): int(chips) for name, chips in self.db.execute("SELECT name, balance FROM accounts")}
        for name, chips in self.in_play().items():  # the hands in play: recorded, not yet in the rows
            balances[name] = balances.get(name, 0) + chips
        problems += [f"{name} holds {balances.get(name, 0)} but its recorded moves say {recorded.get(name, 0)}"
                     for name in sorted(balances.keys() | recorded.keys())
                     if balances.get(name, 0) != recorded.get(name, 0)]
        negative = self.db.execute("SELECT name FROM accounts WHERE may_go_negative = 0")
        problems += [f"{name} is negative ({balances[name]})" for name, in negative if balances.get(name, 0) < 0]
        return problems


def tournament_hand_ids(db: Connection, table_id: str, tournament_id: int) -> list[str]:
    """The Hold'em hands that ended at the table while the tournament ran (from its first recorded event to its
    `TournamentFinished`, or to now), oldest first. A table plays no cash hand while it has a tournament."""
    span = db.execute("SELECT first_seq, ended_seq FROM hand_spans WHERE table_id = ? AND hand_id = ?",
                      (table_id, f"t{tournament_id}")).fetchone()
    if span is None:
        return []
    first, finished = span
    last = finished if finished is not None else 2**62  # the last hand ends in the action that finishes it
    # the table's hands follow one another: those that ended after its first row began after it, but for the one
    # in play then, the last to begin by then (looked up in the order hands begin, as the rest)
    begun = db.execute(
        "SELECT first_seq FROM hand_spans WHERE table_id = ? AND first_seq <= ? AND hand_id LIKE 'h%' "
        "ORDER BY first_seq DESC LIMIT 1", (table_id, first)).fetchone()
    rows = db.execute(
        "SELECT hand_id FROM hand_spans WHERE table_id = ? AND first_seq >= ? AND first_seq <= ? "
        "AND hand_id LIKE 'h%' AND ended_seq > ? AND ended_seq <= ? ORDER BY first_seq",
        (table_id, first if begun is None else begun[0], last, first, last),
    ).fetchall()
    return [str(row[0]) for row in rows]


def wallet_account(chat_id: str, user_id: str) -> str:
    """The ledger account of a player's wallet in a chat."""
    return f"wallet:{chat_id}:{user_id}"


def held_account(table_id: str, user_id: str) -> str:
    """The ledger account keeping, for the house round at a table, the chips a player's boxes may still bet (their
    BETs and PLAYs to follow), so that no other table spends them."""
    return f"held:{table_id}:{user_id}"
