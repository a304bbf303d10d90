"""One of several bot processes on one PostgreSQL database, for `test_processes`: serves presses read from stdin.

Run as `python -m tests.crash.worker URL`; it imports the bot, then waits for a first line `go` on stdin before it opens
the store and starts (so the test can start a spare process ahead of time, ready to take over from a killed one at
once), and prints `ready` once started. Each further line on stdin is `<id> step <table>`
(the player to act presses a random button of the table, or `/deal` when nobody is to act) or `<id> grant <table>
<chips>` (the table's organizer grants Bob `chips`); the answer is printed as `<id> ok` or `<id> refused` once the
service has answered (committed). Its timers run as the bot's do (`Scheduler.run`, `Service.watch_timers`), and each
timer it fires is recorded in the `fired` table in the transaction that fires it, so the test can count them.
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Any

from bot.clock import SystemClock
from bot.games import default_controllers
from bot.games.context import Action
from bot.output import Actor, Place, Reply
from bot.replay import ReplayTx
from bot.service import Service
from bot.store import Store, Tx

ANN, BOB = Actor("ann", "Ann"), Actor("bob", "Bob")
PLAYERS = {"ann": ANN, "bob": BOB}


def place(table: str) -> Place:
    """Each table is a chat of its own."""
    return Place(table, f"{table}/t")


def record_fired_timers(controllers: dict[str, Any]) -> None:
    """Make each timer that fires write a `fired` row (its key and the instant it was due), in its transaction."""
    claim = Tx.claim_timer

    def claiming(tx: Tx, key: str, table_id: str) -> tuple[float, dict[str, Any]] | None:
        claimed = claim(tx, key, table_id)
        tx.claimed = (key, claimed[0] if claimed else None)  # type: ignore[attr-defined]
        return claimed

    Tx.claim_timer = claiming  # type: ignore[method-assign]
    for controller in controllers.values():
        def on_timer(act: Action, key: str, payload: dict[str, Any], original: Any = controller.on_timer) -> None:
            if isinstance(act.tx, ReplayTx):  # a logged firing replayed (its `fired` row is in the store already)
                original(act, key, payload)
                return
            claimed_key, due_at = act.tx.claimed  # type: ignore[attr-defined]
            assert claimed_key == key
            act.tx.db.execute("INSERT INTO fired(key, due_at) VALUES (?, ?)", (key, due_at))
            original(act, key, payload)

        controller.on_timer = on_timer


async def step(service: Service, rng: random.Random, table: str) -> Reply:
    """The player to act presses a random button, or Ann deals."""
    view = await service.handle(place(table), ANN, "/table")
    shown = view.table
    if shown is not None and shown.to_act is not None:
        buttons = [button for button in shown.buttons if not button.private]
        return await service.press(place(table), PLAYERS[shown.to_act], rng.choice(buttons).payload)
    return await service.handle(place(table), ANN, "/deal")


async def serve(service: Service, line: str, rng: random.Random) -> None:
    request, kind, table, *rest = line.split()
    if kind == "step":
        reply = await step(service, rng, table)
    else:
        reply = await service.handle(place(table), ANN, f"/grant bob {rest[0]}")
    sys.stdout.write(f"{request} {'refused' if reply.error else 'ok'}\n")
    sys.stdout.flush()


async def main(url: str) -> None:
    controllers = default_controllers()  # imports the games' modules
    record_fired_timers(controllers)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    if (await reader.readline()).decode().strip() != "go":
        return
    store = await Store.open(url)
    service = Service(store, SystemClock(), controllers=controllers)
    await service.start()
    tasks = {asyncio.create_task(service.scheduler.run()), asyncio.create_task(service.watch_timers(every=0.2))}
    print("ready", flush=True)
    rng = random.Random()
    while line := (await reader.readline()).decode().strip():
        task = asyncio.create_task(serve(service, line, rng))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
