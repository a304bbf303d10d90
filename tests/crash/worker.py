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
from bot.store import Store

ANN, BOB = Actor("ann", "Ann"), Actor("bob", "Bob")
PLAYERS = {"ann": ANN, "bob": BOB}


def place(table: str) -> Place:
    """Each table is a chat of its own."""
    return Place(table, f"{table}/t")


class RecordingFired:
    """A game's controller that writes a `fired` row (the timer's key and the instant it was due) for each timer it
    fires, in the transaction that fires it; the game's own in all else. It wraps the controller, since compiled
    (`bot.compiled`) neither can a test's class subclass it nor its methods be replaced."""

    def __init__(self, controller: Any) -> None:
        self.controller = controller

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        """Record the firing, then fire it as the game does."""
        if not isinstance(act.tx, ReplayTx):  # a logged firing replayed has its `fired` row in the store already
            # the row the service claimed, read again under the lock its claim holds for this transaction
            claimed = act.tx.claim_timer(key, act.place.table_id)
            assert claimed is not None, key
            act.tx.db.execute("INSERT INTO fired(key, due_at) VALUES (?, ?)", (key, claimed[0]))
        fired: bool = self.controller.on_timer(act, key, payload)
        return fired

    def __getattr__(self, name: str) -> Any:
        return getattr(self.controller, name)


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
    controllers: dict[str, Any] = {game: RecordingFired(controller)  # imports the games' modules
                                   for game, controller in default_controllers().items()}
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
