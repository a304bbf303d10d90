"""Any input, in any state: the service answers without crashing, and a refused command changes nothing."""

import random
from datetime import UTC, datetime

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
            if step % 150 == 0:  # the wall clock steps an hour back or forward (NTP, a resumed VM)
                clock.step(rng.choice([-3600, 3600]))
            await service.scheduler.fire_due()
    assert await store.read(lambda tx: tx.check_ledger()) == []
    assert refused > 100 and accepted > 100
    await store.close()


TOURNAMENT, CASH = Place("chat", "chat/tournament"), Place("chat", "chat/cash")


async def test_wall_clock_steps_during_hands_and_tournaments_never_stop_a_table(tmp_path, caplog) -> None:
    """Random play at a cash table and a tournament while the wall clock steps back and forward by an hour: every
    hand in play always has its timer due within its turn time, timers never fail, hands keep coming, no chip lost."""
    rng = random.Random(20261130)
    clock = FakeClock(datetime(2026, 11, 29, 18, 0, tzinfo=UTC).timestamp())
    store = await Store.open(tmp_path / "steps.db")
    service = Service(store, clock, rng=random.Random(2))
    await service.start()
    ann, *others = PLAYERS[:3]
    for actor in (ann, *others):
        assert (await service.handle(CASH, actor, "/join 200")).error is None
    assert (await service.handle(TOURNAMENT, ann, "/tournament create 10/20 20m; 20/40 20m; 40/80")).error is None
    for actor in (ann, *others):
        assert (await service.handle(TOURNAMENT, actor, "/join")).error is None
    assert (await service.handle(TOURNAMENT, ann, "/tournament start")).error is None
    assert (await service.handle(CASH, ann, "/deal")).error is None
    steps = 0
    for _ in range(400):
        place = rng.choice([CASH, TOURNAMENT])
        roll = rng.random()
        if roll < 0.1:
            clock.step(rng.choice([-3600, 3600]))
            steps += 1
        elif roll < 0.2:
            for command in ("/clock", "/tournament status", "/deal", "/table"):
                reply = await service.handle(place, rng.choice(PLAYERS), command)
                assert reply.error is None or reply.public == []
            for actor in (ann, *others):  # players who timed out (or went broke) come back to the cash table
                await service.handle(CASH, actor, "/join 200")
        elif roll < 0.6:
            view = await service.handle(place, ann, "/table")
            if view.table is not None and view.table.to_act is not None:
                buttons = [button for button in view.table.buttons if not button.private]
                actor = next(actor for actor in PLAYERS if actor.user_id == view.table.to_act)
                await service.press(place, actor, rng.choice(buttons).payload)
        else:
            clock.advance(rng.choice([1, 2, 9, 61, 300]))
            await service.scheduler.fire_due()
        for table in (CASH, TOURNAMENT):
            state = await store.read(lambda tx, table=table: tx.load_table(table.table_id))
            if state is not None and (state[1] or {}).get("hand"):
                waits = [timer.deadline - clock.monotonic() for timer in service.scheduler.armed
                         if timer.key == f"holdem:{table.table_id}"]
                assert waits and waits[0] <= 60, f"{table.table_id}: the hand in play waits {waits} s"
    assert "failed" not in caplog.text, caplog.text
    assert steps > 20
    numbers = {table.table_id: (await store.read(lambda tx, table=table: tx.load_table(table.table_id)))[1]["number"]
               for table in (CASH, TOURNAMENT)}
    assert min(numbers.values()) > 5, f"hands kept coming at both tables: {numbers}"
    assert await store.read(lambda tx: tx.check_ledger()) == []
    await store.close()
