"""The rows a process keeps in memory between transactions (`Known`): accounts, names, settings, the hand in play at
each table and where it begins in its log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Begun = tuple[str, int, float]
"""A hand or round in play as its table's row holds it: its id, and the number and time of its first log row."""

Naming = tuple[str, str, str | None]
"""A player's display name as recorded, the name his chat reads for him (with his label: "Ann (2)"), and the platform
language his last command came with (None: none known)."""


@dataclass
class Known:
    """Rows read on every action and rarely changed, kept in memory by the store: accounts that exist, players'
    names (and their platforms' languages), chats' settings (as JSON text), and the events a hand's figures are read
    from while it is in play (`hands`). It mirrors committed rows only: a transaction records its own writes in
    `Tx.learned`, which the store adopts after the transaction's savepoint is released, and the store forgets
    everything if a batch fails to commit."""

    accounts: set[str] = field(default_factory=set, init=False)
    names: dict[tuple[str, str], Naming] = field(default_factory=dict, init=False)
    settings: dict[str, str] = field(default_factory=dict, init=False)
    hands: dict[str, HandSoFar | None] = field(default_factory=dict, init=False)
    """Per table, the Hold'em hand in play whose every event this process recorded since its `HandStarted`: its
    counted events (`bot.statistics.COUNTED_KINDS`), so that its figures are worked out without reading them back.
    None (in `Tx.learned`) forgets the table's hand."""
    spans: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False)
    """Per table, the last few hands, rounds and tournaments whose `hand_spans` row is stored: an action recording
    events of one of them writes no row for it."""
    open: dict[str, Begun | None] = field(default_factory=dict, init=False)
    """Per table, the hand or round its row says is in play (`tables.hand_id`, see `Tx.log_action`) and where it
    begins, as this process last wrote or read it."""

    # written out, not generated: see bot/compiled.py
    def __init__(self) -> None:
        self.accounts = set()
        self.names = {}
        self.settings = {}
        self.hands = {}
        self.spans = {}
        self.open = {}

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

    # written out, not generated: see bot/compiled.py
    def __init__(self, hand_id: str, events: tuple[dict[str, Any], ...]) -> None:
        object.__setattr__(self, "hand_id", hand_id)
        object.__setattr__(self, "events", events)


class AccountsOnly(Known):
    """What the store mirrors when other processes write the database too: only the accounts that exist (an account
    is never removed) and the hands' spans stored (one goes only when its hand, ended long ago, is pruned), not names,
    settings or the hand in play at a table, which another process may have changed since."""

    def adopt(self, other: Known) -> None:
        """Take the accounts and spans another transaction created."""
        self.accounts |= other.accounts
        self.spans.update(other.spans)

