"""A Hold'em hand's moves between its table's stacks and pot reach the accounts' rows when it ends (migration 18):
until then `Tx.balance` adds them (`Tx.in_play`), and the ledger check tells a hand in play from one ended."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import Store, Tx
from bot.store.action_log import hands_settled_at_their_end
from bot.store.schema import MIGRATIONS
from tests.bot.conftest import PLACE
from tests.bot.helpers import timers_in_rows
from tests.bot.test_hand_numbers import Table

BUY_IN = 200
"""What each of the two players brings to the table (`Table.play`)."""
STACKS = f"stack:{PLACE.table_id}:"
POT = f"pot:{PLACE.table_id}"


def rows(tx: Tx) -> dict[str, int]:
    """The table's stacks and pot as their rows hold them."""
    found = tx.db.execute("SELECT name, balance FROM accounts WHERE name LIKE ? OR name = ?", (f"{STACKS}%", POT))
    return {str(name): int(balance) for name, balance in found}


def derived(tx: Tx) -> dict[str, int]:
    """The table's stacks and pot as `Tx.balance` gives them: the rows and the moves of the hand in play."""
    return {name: tx.balance(name) for name in rows(tx)}


async def dealt(database: Path | str) -> Table:
    """A table where Ann and Bob bought in and a hand was dealt (its blinds in the pot), left in play."""
    table = Table(database)
    await table.open()
    await table.play("holdem", ("check", "call"), leave_open=True)
    return table


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_hands_moves_reach_the_rows_when_it_ends(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """While the hand is in play the rows hold the buy-ins and an empty pot, the balances the blinds posted; at its
    end the rows are the balances, the pot empty, and the ledger proves both."""
    table = await dealt(request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "bot.db")
    assert table.store is not None
    during = await table.store.read(lambda tx: (rows(tx), derived(tx), tx.check_ledger()))
    stored, balances, problems = during
    assert problems == []
    assert {name: chips for name, chips in stored.items() if name != POT} == {
        f"{STACKS}ann": BUY_IN, f"{STACKS}bob": BUY_IN}
    assert stored.get(POT, 0) == 0
    assert balances[POT] > 0 and sum(balances.values()) == 2 * BUY_IN
    assert all(balances[name] < BUY_IN for name in (f"{STACKS}ann", f"{STACKS}bob"))  # each posted a blind

    await table.finish_hand(("check", "call"))
    stored, balances, problems = await table.store.read(lambda tx: (rows(tx), derived(tx), tx.check_ledger()))
    assert problems == [] and stored == balances
    assert stored[POT] == 0 and sum(stored.values()) == 2 * BUY_IN
    assert stored != {f"{STACKS}ann": BUY_IN, f"{STACKS}bob": BUY_IN, POT: 0}, "someone won the blinds"
    assert await table.store.read(lambda tx: tx.in_play()) == {}
    await table.store.close()


class Undone(Exception):
    """Raised to undo a transaction once what it found is read."""


async def checked_then_undone(table: Table, change: Callable[[Tx], None]) -> list[str]:
    """The ledger check's problems after `change`, in a transaction then undone."""
    assert table.store is not None
    found: list[str] = []

    def look(tx: Tx) -> None:
        change(tx)
        found.extend(tx.check_ledger())
        raise Undone

    with pytest.raises(Undone):
        await table.store.transact(look, now=table.clock.now())
    return found


def ended_unsettled(tx: Tx) -> None:
    """The hand in play marked ended, its moves never written into the rows."""
    tx.db.execute("INSERT INTO hand_spans(table_id, hand_id, first_seq, at, ended_seq) SELECT table_id, hand_id, "
                  "hand_seq, hand_at, 1000000 FROM tables WHERE table_id = ?", (PLACE.table_id,))


def settled_twice(tx: Tx) -> None:
    """The hand in play's moves written into the rows while it is still in play."""
    for name, chips in tx.in_play().items():
        tx.db.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (chips, name))


@pytest.mark.parametrize("wrong", [ended_unsettled, settled_twice])
async def test_the_ledger_check_tells_a_hand_in_play_from_one_ended(
        wrong: Callable[[Tx], None], tmp_path: Path) -> None:
    """A hand marked ended that was never settled, or settled while still in play, leaves its accounts off their
    recorded moves: the check names them. Undone, the table is sound."""
    table = await dealt(tmp_path / "bot.db")
    assert table.store is not None
    problems = await checked_then_undone(table, wrong)
    assert any(problem.startswith(POT) for problem in problems), problems
    assert await table.store.read(lambda tx: tx.check_ledger()) == []
    await table.store.close()


async def test_a_voided_hand_gives_every_chip_back_and_leaves_play(tmp_path: Path) -> None:
    """A hand voided at a restart (its snapshot unreadable) gives each stack back what it put in: its span stays
    open (a voided hand is not a finished one in `/history`), but what it moved adds up to nothing, and the rows
    hold the buy-ins again."""
    table = await dealt(tmp_path / "bot.db")
    await table.void()
    assert table.store is not None
    stored, in_play, problems = await table.store.read(lambda tx: (rows(tx), tx.in_play(), tx.check_ledger()))
    assert problems == [] and in_play == {}
    assert await table.store.read(lambda tx: tx.finished_hands(PLACE.table_id, 10)) == []
    assert stored == {f"{STACKS}ann": BUY_IN, f"{STACKS}bob": BUY_IN, POT: 0}
    await table.store.close()


async def test_the_migration_takes_a_hand_in_play_out_of_the_rows_the_old_way_moved(tmp_path: Path) -> None:
    """A database of schema 17 with a hand in play holds its moves so far in the rows (each move changed them at
    once): migration 18 takes them out again, so that the hand's end writes them once, and the ledger holds
    throughout."""
    database = tmp_path / "bot.db"
    table = await dealt(database)
    assert table.store is not None
    expected = await table.store.read(derived)

    def as_schema_17(tx: Tx) -> None:
        in_play = tx.in_play()
        timers_in_rows(tx)
        for name, chips in in_play.items():
            tx.db.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (chips, name))
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(hands_settled_at_their_end))

    await table.store.transact(as_schema_17, now=table.clock.now())
    assert await table.store.read(rows) == expected  # the old way: the rows are the balances
    await table.store.close()
    store = await Store.open(database)
    assert await store.read(lambda tx: (derived(tx), tx.check_ledger())) == (expected, [])
    assert await store.read(rows) != expected  # the blinds back in play, out of the rows
    await store.close()
    await table.open()
    await table.finish_hand(("check", "call"))
    stored, balances, problems = await table.store.read(lambda tx: (rows(tx), derived(tx), tx.check_ledger()))
    assert problems == [] and stored == balances and sum(stored.values()) == 2 * BUY_IN
    await table.store.close()
