"""Migration 34: the chips of tournament hands pruned before migration 25 taken out of the pruned statistics.

A bot before migration 25 did not know a tournament's hand from a cash game's, and its pruning added every hand's
chips (net, biggest pot) to `pruned_stats`; migration 25 marked only the hands still in the log, so /stats went on
counting the pruned tournament hands' chips as the cash games'. Their figures are gone, but the ledger never is: a
pruned hand's moves stay in its log rows (`actions.moves`; before migration 17, `ledger` rows), and its tournament
still has its span, which says where in the table's log it ran. So the net and biggest pot of each player who played
a pruned tournament hand are worked out again from the moves of his chat's pruned cash hands. Worked out, not
corrected: a database already at 25 or later may hold hands pruned either way, and it reads the same after.

Run again after migration 35 (a database set back to an older version, as the tests of the migrations do), it finds
`pruned_stats` kept by day: the rows of a day were pruned by a bot that knew tournament hands, and are right; only the
row of the unknown day can hold a tournament's chips. That row gets the rest: the pruned cash hands' net less the
days' rows', and their biggest pot (which the days' pots are within), so the statistics of every period read the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.store.accounts import net_of_moves
from bot.store.dialect import SQLITE, Connection, Dialect
from bot.store.played import UNKNOWN_DAY
from engine.reasons import Reason

_Span = tuple[int, int | None, float, float | None]
"""Where a tournament ran in its table's log: its first row, the row that finished it (None while it runs), and their
times."""


@dataclass
class _PrunedHand:
    """A pruned Hold'em hand as its moves tell it: where it ended (its last log row, else its last ledger row's
    time) and its moves."""

    last_seq: int | None = None
    last_at: float | None = None
    moves: list[list[Any]] = field(default_factory=list)


def tournament_chips_out_of_pruned_stats(connection: Connection, dialect: Dialect = SQLITE) -> None:
    """Migration 34 (see the module): in each chat with a tournament, the pruned net and biggest pot of every player
    of a pruned tournament hand are those of his pruned cash hands."""
    chats = [str(chat_id) for (chat_id,) in connection.execute("SELECT DISTINCT chat_id FROM tournaments")]
    by_day = "day" in dialect.columns(connection, "pruned_stats")  # run again after migration 35
    for chat_id in chats:
        in_tournaments: set[str] = set()
        cash_net: dict[str, int] = {}
        cash_pot: dict[str, int] = {}
        for table_id, hand_in_play in connection.execute(
                "SELECT table_id, hand_id FROM tables WHERE chat_id = ?", (chat_id,)).fetchall():
            spans = _tournament_spans(connection, str(table_id))
            for hand in _pruned_hands(connection, str(table_id), hand_in_play).values():
                net, collected = _chips(str(table_id), hand.moves)
                if any(_ran_in(hand, span) for span in spans):
                    in_tournaments |= net.keys()
                    continue
                for player, chips in net.items():
                    cash_net[player] = cash_net.get(player, 0) + chips
                for player, chips in collected.items():
                    cash_pot[player] = max(cash_pot.get(player, 0), chips)
        if not by_day:
            connection.executemany(
                "UPDATE pruned_stats SET net = ?, biggest_pot = ? WHERE chat_id = ? AND user_id = ?",
                [(cash_net.get(player, 0), cash_pot.get(player, 0), chat_id, player)
                 for player in sorted(in_tournaments)])
            continue
        dated = {str(player): int(net) for player, net in connection.execute(
            "SELECT user_id, SUM(net) FROM pruned_stats WHERE chat_id = ? AND day <> ? GROUP BY user_id",
            (chat_id, UNKNOWN_DAY)).fetchall()}
        connection.executemany(
            "UPDATE pruned_stats SET net = ?, biggest_pot = ? WHERE chat_id = ? AND user_id = ? AND day = ?",
            [(cash_net.get(player, 0) - dated.get(player, 0), cash_pot.get(player, 0), chat_id, player, UNKNOWN_DAY)
             for player in sorted(in_tournaments)])


def _tournament_spans(connection: Connection, table_id: str) -> list[_Span]:
    """Where each tournament at the table ran (see `_Span`)."""
    return [(int(first), None if ended is None else int(ended), float(at), None if ended is None else float(ended_at))
            for first, ended, at, ended_at in connection.execute(
                "SELECT first_seq, ended_seq, at, ended_at FROM hand_spans WHERE table_id = ? AND hand_id LIKE 't%'",
                (table_id,)).fetchall()]


def _pruned_hands(connection: Connection, table_id: str, hand_in_play: str | None) -> dict[str, _PrunedHand]:
    """The table's Hold'em hands that have moves but no span (pruned), the hand in its row (in play) left out; the
    moves of the others are passed over as they are read."""
    kept = {str(hand_id) for (hand_id,) in connection.execute(
        "SELECT hand_id FROM hand_spans WHERE table_id = ? AND hand_id LIKE 'h%'", (table_id,))} | {hand_in_play}
    hands: dict[str, _PrunedHand] = {}
    for source, target, amount, reason, hand_id, at in connection.execute(
            "SELECT source, target, amount, reason, hand_id, at FROM ledger WHERE table_id = ? AND hand_id LIKE 'h%' "
            "ORDER BY id", (table_id,)).fetchall():
        if hand_id not in kept:
            hand = hands.setdefault(str(hand_id), _PrunedHand())
            hand.last_at = float(at)
            hand.moves.append([source, target, amount, reason, hand_id])
    for seq, text in connection.execute(
            "SELECT seq, moves FROM actions WHERE table_id = ? AND moves IS NOT NULL ORDER BY seq", (table_id,)):
        for move in orjson.loads(text):
            if str(move[4]).startswith("h") and move[4] not in kept:
                hand = hands.setdefault(str(move[4]), _PrunedHand())
                hand.last_seq = int(seq)
                hand.moves.append(move)
    return hands


def _ran_in(hand: _PrunedHand, span: _Span) -> bool:
    """Whether the hand ended while the tournament ran (after its first row, by the one that finished it), as
    `bot.store.tournaments.tournament_hand_ids` counts a tournament's hands: by the log's numbers, or for a hand
    whose moves are all ledger rows, by their times (from its first row's instant on: a ledger row knows when it was
    written, not where in the log, and a table plays no cash hand once it has a tournament)."""
    first, ended, at, ended_at = span
    if hand.last_seq is not None:
        return first < hand.last_seq and (ended is None or hand.last_seq <= ended)
    assert hand.last_at is not None
    return at <= hand.last_at and (ended_at is None or hand.last_at <= ended_at)


def _chips(table_id: str, moves: list[list[Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's net over a hand's moves between his stack and the pot, and what he collected from its pots."""
    stack = f"stack:{table_id}:"
    net = {account.removeprefix(stack): chips for account, chips in net_of_moves(moves).items()
           if account.startswith(stack)}
    collected: dict[str, int] = {}
    for _, target, amount, reason, _ in moves:
        if reason == Reason.POT_WON and str(target).startswith(stack):
            player = str(target).removeprefix(stack)
            collected[player] = collected.get(player, 0) + int(amount)
    return net, collected
