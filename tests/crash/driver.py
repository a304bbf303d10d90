"""A bot process for the crash tests: plays random legal moves at a Hold'em table and a house table, forever.

Run as `python -m tests.crash.driver DB SEED`; it prints `ready` once started, then `ok N` after each committed
action. The test kills it with SIGKILL at random moments and starts it again on the same database.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.clock import SystemClock
from bot.output import Actor, Place, Reply
from bot.service import Service
from bot.store import Store

HOLDEM = Place("crash", "crash/holdem")
HOUSE = Place("crash", "crash/house")
PLAYERS = {name: Actor(name, name.title()) for name in ("ann", "bob", "cat")}


async def step(service: Service, rng: random.Random, place: Place) -> Reply:
    """One move at a table: press a random button of the player to act, or start the next hand/round."""
    view = await service.handle(place, PLAYERS["ann"], "/table")
    table = view.table
    if table is not None and table.to_act is not None:
        buttons = [button for button in table.buttons if not button.private]
        return await service.press(place, PLAYERS[table.to_act], rng.choice(buttons).payload)
    if place is HOLDEM:
        return await service.handle(place, PLAYERS["ann"], "/deal")
    for name in rng.sample(sorted(PLAYERS), rng.randint(1, 3)):
        await service.handle(place, PLAYERS[name], f"/ante {rng.randint(1, 20)}")
    return await service.handle(place, PLAYERS["ann"], "/deal")


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    service = Service(store, SystemClock(), rng=random.Random(seed))
    await service.start()
    rng = random.Random(seed)
    for actor in PLAYERS.values():
        await service.handle(HOLDEM, actor, "/join 200")
    await service.handle(HOUSE, PLAYERS["ann"], "/game " + rng.choice(["russian", "caribbean", "texas", "three-card"]))
    print("ready", flush=True)
    count = 0
    while True:
        for place in (HOLDEM, HOUSE):
            await step(service, rng, place)
            count += 1
            print(f"ok {count}", flush=True)
        if count % 40 == 0:  # keep wallets topped up so play goes on
            for actor in PLAYERS.values():
                await service.handle(HOLDEM, PLAYERS["ann"], f"/grant {actor.user_id} 100")
                await service.handle(HOLDEM, actor, "/join 200")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
