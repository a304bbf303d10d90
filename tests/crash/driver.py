"""A bot process for the crash tests: plays random legal moves at a Hold'em table, a house table and a tournament,
forever, with its timers running and its wall clock stepping an hour back or forward now and then.

Run as `python -m tests.crash.driver DB SEED`; it prints `ready` once started, then `ok N` after each committed
action, `heard` for each reply a timer caused (`heard bank` when it started a player's time bank) and `asked` each time
it finds the no-limit Hold'em table waiting on the run-it-twice question (answered half the time, else left to its
timer, so kills land while it waits). The test kills it with SIGKILL at random moments and starts it again on the same
database (each run's wall clock an hour ahead of, behind or level with the last one's).
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
TOURNAMENT = Place("crash", "crash/tournament")
PLAYERS = {name: Actor(name, name.title()) for name in ("ann", "bob", "cat")}
HOUR = 3600.0


class SteppingClock:
    """The system clock, with a wall clock `offset` seconds off that the driver steps (NTP, a resumed VM). It holds a
    `SystemClock` rather than extends it: compiled (issue 17's build), `SystemClock` takes no interpreted subclass."""

    def __init__(self, offset: float) -> None:
        self.offset = offset
        self._system = SystemClock()

    def now(self) -> float:
        """The wall clock, stepped."""
        return self._system.now() + self.offset

    def monotonic(self) -> float:
        """The system's monotonic clock (never stepped)."""
        return self._system.monotonic()


async def step(service: Service, rng: random.Random, place: Place) -> Reply:
    """One move at a table: press a random button of the player to act, or start the next hand/round. At the
    tournament Cat often lets his time run (into his time bank, then a time-out)."""
    view = await service.handle(place, PLAYERS["ann"], "/table")
    table = view.table
    runs = [button for button in table.buttons if button.payload.rsplit("|", 1)[1].startswith("run ")] if table else []
    if runs:
        print("asked", flush=True)
        if rng.random() < 0.5:
            return await service.press(place, PLAYERS[rng.choice(sorted(PLAYERS))], rng.choice(runs).payload)
        return view
    if place is TOURNAMENT and table is not None and table.to_act == "cat" and rng.random() < 0.7:
        return view
    if table is not None and table.to_act is not None:
        buttons = [button for button in table.buttons if not button.private]
        return await service.press(place, PLAYERS[table.to_act], rng.choice(buttons).payload)
    if place is not HOUSE:
        return await service.handle(place, PLAYERS["ann"], "/deal")
    for name in rng.sample(sorted(PLAYERS), rng.randint(1, 3)):
        await service.handle(place, PLAYERS[name], f"/ante {rng.randint(1, 20)}")
    return await service.handle(place, PLAYERS["ann"], "/deal")


async def open_tournament(service: Service) -> None:
    """Start a tournament of one-minute levels at its table, unless one is running there."""
    ann = PLAYERS["ann"]
    if (await service.handle(TOURNAMENT, ann, "/tournament create 10/20 1m; 20/40 1m; 40/80")).error is not None:
        return
    for command in ("/set turn_seconds 1", "/set next_hand_seconds 1", "/set time_bank 1"):
        await service.handle(TOURNAMENT, ann, command)
    for actor in PLAYERS.values():
        await service.handle(TOURNAMENT, actor, "/join")
    await service.handle(TOURNAMENT, ann, "/tournament start")


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    clock = SteppingClock(rng.choice([-HOUR, 0.0, HOUR]))
    store = await Store.open(path)
    service = Service(store, clock, rng=random.Random(seed))

    async def heard(place: Place, reply: Reply) -> None:
        banked = reply.table is not None and "time bank" in reply.table.text
        print("heard bank" if banked else "heard", flush=True)  # a time bank started running

    service.subscribe("crash/", heard)
    await service.start()
    timers = asyncio.create_task(service.scheduler.run())
    await service.handle(HOLDEM, PLAYERS["ann"], "/set structure no-limit")  # all-ins, so run it twice is asked
    for actor in PLAYERS.values():
        await service.handle(HOLDEM, actor, "/join 200")
    await service.handle(HOUSE, PLAYERS["ann"], "/game " + rng.choice(["russian", "caribbean", "texas", "three-card"]))
    await open_tournament(service)
    print("ready", flush=True)
    count = 0
    while not timers.done():
        for place in (HOLDEM, HOUSE, TOURNAMENT):
            await step(service, rng, place)
            count += 1
            print(f"ok {count}", flush=True)
        if count % 15 == 0:  # the wall clock steps while hands and the tournament are in play
            clock.offset += rng.choice([-HOUR, HOUR])
        if count % 40 == 0:  # keep wallets topped up so play goes on
            for actor in PLAYERS.values():
                await service.handle(HOLDEM, PLAYERS["ann"], f"/grant {actor.user_id} 100")
                await service.handle(HOLDEM, actor, "/join 200")
            await service.handle(TOURNAMENT, PLAYERS["cat"], "/back")  # sat out by his time-outs
            await open_tournament(service)
    await timers  # the timer loop never ends: if it did, say why


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
