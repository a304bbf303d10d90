"""A prototype of what is left of the storage half of issue 17's design, patched into the bot when imported, to size
it alone: `python benchmarks/instructions.py --patch lean_storage` counts the bot's action with it, against the code
as it is. Since the twelfth round the bot keeps each action's events and its hand's chip moves in its log row (the
history and the ledger's record: no history rows, no ledger rows for a hand's moves), and its timer changes in that
row too (no timer rows but every `TIMER_ROWS_EVERY` actions of a table); what this adds is the rest: the balances kept
in memory (no balance updates at a hand's end) and no timer changes written at all. Run alone (`python
benchmarks/lean_storage.py [--actions 200]`), it plays `service.py`'s players at a few tables with the patch and prints
what the store holds after their presses, so that a test can see the patch still takes effect.

It is a measuring tool, not a store: the balances it keeps are not the ledger's, so the ledger check only checks
that they add up to nothing while it is patched in, and a replay after a restart would not see them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.clock import SystemClock
from bot.games import context
from bot.output import Place
from bot.service import Service
from bot.store import Store
from bot.store import tx as store_tx

BALANCES: dict[str, int] = {}
"""Each account's chips, as the moves left them since the patch (what the log rows' moves add up to)."""


def _apply_moves(self: context.Action, moves: Any, account: Any, hand_id: str) -> None:
    if self.replaying:
        return
    for move in moves:
        if move.amount:
            source, target = account(move.source), account(move.target)
            BALANCES[source] = BALANCES.get(source, 0) - move.amount
            BALANCES[target] = BALANCES.get(target, 0) + move.amount


def _store_timers(self: context.Action) -> None:
    """No timer rows: the scheduler still arms what the action armed, once it commits."""


def _settle_hand(self: store_tx.Tx, table_id: str, hand_id: str, net: Any) -> None:
    """No balance rows for a hand's end either: its stacks' chips are in `BALANCES` already."""
    self.settled.add((table_id, hand_id))


def _check_ledger(self: store_tx.Tx) -> list[str]:
    """The ledger check while the patch is in: the moves kept in memory must add up to nothing (the ledger's rows
    and balances no longer hold a hand's chips, so the real check would find every stack off)."""
    total = sum(BALANCES.values())
    return [] if total == 0 else [f"the balances kept in memory add up to {total}, not 0"]


context.Action.apply_moves = _apply_moves  # type: ignore[method-assign]
context.Action.store_timers = _store_timers  # type: ignore[method-assign]
store_tx.Tx.settle_hand = _settle_hand  # type: ignore[method-assign]
store_tx.Tx.check_ledger = _check_ledger  # type: ignore[method-assign]


async def played(actions: int, tables: int = 8) -> dict[str, int]:
    """Seat `tables` tables, then deal them and press `actions` buttons with the patch in place: the presses made,
    the rows the store holds for them (ledger and timer rows written meanwhile, log rows holding events) and what
    the balances kept in memory add up to (zero: every chip moved came from somewhere)."""
    from ceiling import in_parallel  # beside this file
    from service import Load  # beside this file: the service benchmark's players

    folder = Path(tempfile.mkdtemp())
    store = await Store.open(folder / "lean.db")
    try:
        load = Load(Service(store, SystemClock(), rng=random.Random(1)),
                    [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)])
        await in_parallel(load.places, load.seat)

        def counts(tx: store_tx.Tx) -> tuple[int, int, int]:
            return (tx.db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0],
                    tx.db.execute("SELECT COUNT(*) FROM timers").fetchone()[0],
                    tx.db.execute("SELECT COUNT(*) FROM actions WHERE events IS NOT NULL").fetchone()[0])

        ledger_before, timers_before, logged_before = await store.read(counts)  # the buy-ins: wallet moves
        await in_parallel(load.places, load.deal)
        rng = random.Random(2)
        while load.actions < actions:
            await load.act_once(rng.choice(load.places), rng)
        ledger, timers, logged = await store.read(counts)
        return {"presses": load.actions, "ledger rows": ledger - ledger_before, "timer rows": timers - timers_before,
                "log rows with events": logged - logged_before, "balances' sum": sum(BALANCES.values())}
    finally:
        await store.close()


def main() -> None:
    """Play the workload with the patch and print what the store holds."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=200)
    for name, value in asyncio.run(played(parser.parse_args().actions)).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
