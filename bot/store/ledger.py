"""A transaction's part for the ledger: chips moved between accounts and recorded, the balances, the moves read back,
the chats' cash results and `check_ledger`."""

from __future__ import annotations

from collections.abc import Mapping

from bot.store.accounts import (
    NEGATIVE_KINDS,
    TABLE_CHIPS,
    InsufficientFunds,
    LedgerRow,
    account_kind,
    net_of_moves,
    settled_at_hand_end,
)
from bot.store.tables import Tables
from bot.store.txbase import loads
from engine.reasons import LedgerReason


class Ledger(Tables):
    """The double-entry ledger: the `accounts` rows' balances, the `ledger` rows and the moves in the log's rows."""

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
        reason: LedgerReason,
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

