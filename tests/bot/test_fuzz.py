"""Any input, in any state: the service answers without crashing, and a refused command changes nothing."""

import random

from bot import commands as cmd
from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import dump

WORDS = sorted({word for cls in cmd.COMMANDS for word in (cls.name, *cls.aliases)})
ARGS = ["", "0", "-5", "10", "40", "99999", "abc", "1.5", "box", "2", "4", "pp", "bonus", "5", "@ann", "ann", "bob",
        "remove", "create", "start", "register", "pause", "skip", "minutes", "+5", "close", "settle", "redeem", "1",
        "tier", "vip", "max_ante", "structure", "no-limit", "pictures", "off", "As", "Kd", "home-night", "ru", "en",
        "texas", "russian", "caribbean", "three-card", "holdem", "tournament", "10/20", "20m;", "break"]
PLAYERS = [Actor("ann", "Ann"), Actor("bob", "Bob"), Actor("cat", "Cat"), Actor("dan", "Dan", is_admin=True)]


async def test_random_commands_never_crash_and_refusals_change_nothing(tmp_path) -> None:
    rng = random.Random(20261129)
    clock = FakeClock()
    store = await Store.open(tmp_path / "fuzz.db")
    service = Service(store, clock, rng=random.Random(1))
    await service.start()
    places = [Place("chat", "chat/a"), Place("chat", "chat/b")]
    refused = accepted = 0
    for step in range(1500):
        place, actor = rng.choice(places), rng.choice(PLAYERS)
        if step % 7 == 0:  # press one of the buttons on the table, or a made-up one
            view = await service.handle(place, actor, "/table")
            buttons = view.table.buttons if view.table else ()
            payload = rng.choice(buttons).payload if buttons and rng.random() < 0.8 else f"h{rng.randint(0, 9)}|fold"
            before = dump(tmp_path / "fuzz.db")
            reply = await service.press(place, rng.choice(PLAYERS), payload)
        else:
            words = [rng.choice(WORDS)] + [rng.choice(ARGS) for _ in range(rng.randint(0, 3))]
            before = dump(tmp_path / "fuzz.db") if step % 3 == 0 else None
            reply = await service.handle(place, actor, "/" + " ".join(word for word in words if word))
        if reply.error is not None:
            refused += 1
            assert reply.public == [] and reply.table is None and not reply.pictures
            if before is not None:
                assert dump(tmp_path / "fuzz.db") == before, f"refused {reply.error!r} but the database changed"
        else:
            accepted += 1
        if step % 50 == 0:
            clock.advance(rng.choice([1, 10, 61, 600]))
            await service.scheduler.fire_due()
    assert await store.read(lambda tx: tx.check_ledger()) == []
    assert refused > 100 and accepted > 100
    await store.close()
