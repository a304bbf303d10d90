"""A prototype of the storage half of issue 17's design, patched into the bot when imported, to size that half
alone: `python benchmarks/instructions.py --patch lean_storage` counts the bot's action with it, against the code as
it is (the tenth round: 966,000 instructions an action against 1,156,000; benchmarks/NOTES.md). Run alone
(`python benchmarks/lean_storage.py [--actions 200]`), it plays `service.py`'s players at a few tables with the patch
and prints what the store holds after their presses, so that a test can see the patch still takes effect.

With it, a hand's chip moves change balances kept in memory (no ledger rows, no balance updates), its events go into
the action's one log row, written at every action whether it takes a snapshot or not and kept (the history), and no
history or timer rows are written; the hand's figures are still written from the events followed in memory. Nothing
else of the action changes: the service's wrapping, the controller and the text run as they do. It is a measuring
tool, not a store: the balances it keeps are not the ledger's, so the ledger check only checks that they add up to
nothing while it is patched in, and a replay after a restart would not see them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.clock import SystemClock
from bot.games import context
from bot.output import Place
from bot.replay import state_json
from bot.service import Service, log_entry, snapshot_due
from bot.store import Store
from bot.store import tx as store_tx

BALANCES: dict[str, int] = {}
"""Each account's chips, as the moves left them since the patch (what the log rows' moves add up to)."""
_EVENTS: dict[int, tuple[context.Action, list[list[Any]]]] = {}
"""The events each action recorded, by the action's id (the action kept beside them, so that its id is not reused by
a later one while they wait: a refused action's are never taken), for its log row."""


def _apply_moves(self: context.Action, moves: Any, account: Any, hand_id: str) -> None:
    if self.replaying:
        return
    for move in moves:
        if move.amount:
            source, target = account(move.source), account(move.target)
            BALANCES[source] = BALANCES.get(source, 0) - move.amount
            BALANCES[target] = BALANCES.get(target, 0) + move.amount


def _record(self: context.Action, hand_id: str, events: Any) -> None:
    if self.replaying:
        return
    plain = [event.to_dict() for event in events]
    _EVENTS.setdefault(id(self), (self, []))[1].append([hand_id, plain])
    self.tx._tx._follow_hand(self.place.table_id, hand_id, plain)  # type: ignore[attr-defined]  # the recording's Tx


def _arm(self: context.Action, key: str, seconds: float, **payload: Any) -> None:
    if not self.replaying:
        self.timers.append(context.TimerChange(key, self.now + seconds, payload))


def _disarm(self: context.Action, key: str) -> None:
    if not self.replaying:
        self.timers.append(context.TimerChange(key, None))


def _keep(self: Service, tx: Any, table_id: str, live: Any, act: context.Action, controller: Any,
          entry: dict[str, Any], inputs: tuple[Any, ...], key: str | None) -> None:
    """`Service._keep` with the log row written at every action, holding its events, and kept at a snapshot."""
    live.seq += 1
    config_json = state_json(act.config)
    if snapshot_due(live, config_json, key, controller.current_key(act)):
        tx.save_snapshot(table_id, live.chat_id, config_json, state_json(act.state), live.seq, logged=False)
        live.config_json, live.snapshot_seq = config_json, live.seq
        row: dict[str, Any] = {"e": entry, "n": inputs[0]}  # the snapshot has the rest: never replayed
    else:
        row = log_entry(act, entry, inputs)  # type: ignore[arg-type]
    row["v"] = _EVENTS.pop(id(act), (act, []))[1]
    tx.log_action(table_id, live.seq, orjson.dumps(row, option=orjson.OPT_NON_STR_KEYS).decode())


def _check_ledger(self: store_tx.Tx) -> list[str]:
    """The ledger check while the patch is in: the moves kept in memory must add up to nothing (the ledger's rows
    and balances no longer hold a hand's chips, so the real check would find every stack off)."""
    total = sum(BALANCES.values())
    return [] if total == 0 else [f"the balances kept in memory add up to {total}, not 0"]


context.Action.apply_moves = _apply_moves  # type: ignore[method-assign]
context.Action.record = _record  # type: ignore[method-assign]
context.Action.arm = _arm  # type: ignore[method-assign]
context.Action.disarm = _disarm  # type: ignore[method-assign]
Service._keep = _keep  # type: ignore[method-assign]
store_tx.Tx.check_ledger = _check_ledger  # type: ignore[method-assign]


async def played(actions: int, tables: int = 8) -> dict[str, int]:
    """Seat and deal `tables` tables, then press `actions` buttons with the patch in place: the presses made, and the
    rows the store holds for them (history and ledger rows written while pressing, log rows holding events) and
    what the balances kept in memory add up to (zero: every chip moved came from somewhere)."""
    from service import Load, in_parallel  # beside this file: the service benchmark's players

    folder = Path(tempfile.mkdtemp())
    store = await Store.open(folder / "lean.db")
    try:
        load = Load(Service(store, SystemClock(), rng=random.Random(1)),
                    [Place(f"chat{index}", f"chat{index}/poker") for index in range(tables)])
        await in_parallel(load.places, load.seat)

        def counts(tx: store_tx.Tx) -> tuple[int, int]:
            return (tx.db.execute("SELECT COUNT(*) FROM history").fetchone()[0],
                    tx.db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])

        history_before, ledger_before = await store.read(counts)  # the seats' buy-ins are wallet moves, as before
        await in_parallel(load.places, load.deal)
        rng = random.Random(2)
        while load.actions < actions:
            await load.act_once(rng.choice(load.places), rng)
        history, ledger = await store.read(counts)
        logged = await store.read(lambda tx: tx.db.execute(
            "SELECT COUNT(*) FROM actions WHERE entry LIKE '%\"v\":[[%'").fetchone()[0])
        return {"presses": load.actions, "history rows": history - history_before,
                "ledger rows": ledger - ledger_before, "log rows with events": logged,
                "balances' sum": sum(BALANCES.values())}
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
