"""Any input, in any state: the service answers without crashing, a refused command changes nothing, and a button
pressed again (twice, or a hundred times at once) does nothing more than its first press."""

import asyncio
import random
from datetime import UTC, datetime

import pytest

from bot import commands as cmd
from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import dump
from tests.bot.helpers import SIX_PM, started_service

WORDS = sorted({word for cls in cmd.COMMANDS for word in (cls.name, *cls.aliases)})
ARGS = ["", "0", "-5", "10", "40", "99999", "abc", "1.5", "box", "2", "4", "pp", "bonus", "5", "@ann", "ann", "bob",
        "remove", "create", "start", "register", "pause", "skip", "minutes", "+5", "close", "settle", "redeem", "1",
        "tier", "vip", "max_ante", "structure", "no-limit", "pictures", "off", "As", "Kd", "home-night", "ru", "en",
        "texas", "russian", "caribbean", "three-card", "holdem", "tournament", "10/20", "20m;", "break"]
PLAYERS = [Actor("ann", "Ann"), Actor("bob", "Bob"), Actor("cat", "Cat"), Actor("dan", "Dan", is_admin=True)]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_random_commands_never_crash_and_refusals_change_nothing(tmp_path, backend: str,
                                                                       request: pytest.FixtureRequest) -> None:
    rng = random.Random(20261129)
    clock = FakeClock()
    database = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "fuzz.db"
    store = await Store.open(database)
    service = await started_service(store, clock, seed=1)
    places = [Place("chat", "chat/a"), Place("chat", "chat/b")]
    refused = accepted = 0
    for step in range(1500):
        place, actor = rng.choice(places), rng.choice(PLAYERS)
        if step % 7 == 0:  # press one of the buttons on the table, or a made-up one
            view = await service.handle(place, actor, "/table")
            buttons = view.table.buttons if view.table else ()
            payload = rng.choice(buttons).payload if buttons and rng.random() < 0.8 else f"h{rng.randint(0, 9)}|fold"
            before = dump(database)
            reply = await service.press(place, rng.choice(PLAYERS), payload)
        else:
            words = [rng.choice(WORDS)] + [rng.choice(ARGS) for _ in range(rng.randint(0, 3))]
            before = dump(database) if step % 3 == 0 else None
            reply = await service.handle(place, actor, "/" + " ".join(word for word in words if word))
        if reply.error is not None:
            refused += 1
            assert reply.public == [] and reply.table is None and not reply.pictures
            if before is not None:
                assert dump(database) == before, f"refused {reply.error!r} but the database changed"
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
    clock = FakeClock(SIX_PM)
    store = await Store.open(tmp_path / "steps.db")
    service = await started_service(store, clock, seed=2)
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
            state = await store.read(lambda tx, table=table: service.stored_table(tx, table.table_id))
            if state is not None and (state[1] or {}).get("hand"):
                waits = [timer.deadline - clock.monotonic() for timer in service.scheduler.armed
                         if timer.key == f"holdem:{table.table_id}"]
                assert waits and waits[0] <= 60, f"{table.table_id}: the hand in play waits {waits} s"
    assert "failed" not in caplog.text, caplog.text
    assert steps > 20
    numbers = {table.table_id: (await store.read(
        lambda tx, table=table: service.stored_table(tx, table.table_id)))[1]["number"] for table in (CASH, TOURNAMENT)}
    assert min(numbers.values()) > 5, f"hands kept coming at both tables: {numbers}"
    assert await store.read(lambda tx: tx.check_ledger()) == []
    await store.close()


BUTTON_KINDS = {
    "holdem": {"deal", "cards", "fold", "check", "call", "bet", "raise", "allin", "straddle", "back"},
    "tournament": {"deal", "cards", "fold", "check", "call", "raise", "rebuy", "addon"},
    "texas": {"deal", "cards", "play", "fold", "buy", "select", "exchange"},
    "russian": {"deal", "cards", "play", "fold", "buy", "select", "exchange", "dealergame", "decline"},
    "caribbean": {"deal", "cards", "play", "fold", "select", "exchange"},
    "three-card": {"deal", "cards", "play", "fold"},
}
"""The buttons each game must have drawn (and the test pressed) for the run to count."""
VIEWS = ("cards", "select")
"""Buttons that only show something: pressing them again is answered again, and changes nothing either."""
TOURNAMENT_CLOCK = {100: datetime(2027, 1, 15, 19, 0, 1, tzinfo=UTC).timestamp(),
                    115: datetime(2027, 1, 15, 20, 0, 1, tzinfo=UTC).timestamp()}
"""The steps at which the home-night tournament's clock (the fake clock starts the same day at 08:00) is moved: into
its first break (the rebuys end, the add-ons are on offer), then to the play after it."""


async def _set_up(service: Service, place: Place, game: str, rng: random.Random) -> None:
    """Seat everyone (Hold'em) or place fresh ANTEs on one to three boxes each (house games)."""
    if game == "tournament":
        await service.handle(place, PLAYERS[0], "/tournament start")
        return
    for actor in PLAYERS:
        if game == "holdem":
            await service.handle(place, actor, "/join 200")  # refused for the seated, brings back one sitting out
            continue
        side = {"three-card": " pp 5", "caribbean": " bonus 10"}.get(game, "") if rng.random() < 0.3 else ""
        for box in range(1, rng.randint(1, 3) + 1):
            await service.handle(place, actor, f"/ante {rng.choice([5, 10, 25])} box {box}{side}")


@pytest.mark.parametrize("game", sorted(BUTTON_KINDS))
async def test_every_button_pressed_again_changes_nothing(tmp_path, game: str) -> None:
    """Press a random button of the table, then press it again (a hundred times at once the first time each kind of
    button comes up): after the first press nothing changes, neither the ledger nor the table; chips are conserved."""
    rng = random.Random(f"buttons-{game}")
    clock = FakeClock()
    path = tmp_path / "buttons.db"
    store = await Store.open(path)
    service = await started_service(store, clock, seed=5)
    place = Place("chat", "chat/buttons")
    by_id = {actor.user_id: actor for actor in PLAYERS}
    await service.handle(place, PLAYERS[0], f"/game {game}" if game != "tournament" else "/game holdem")
    if game == "holdem":
        await service.handle(place, PLAYERS[0], "/set structure no-limit")  # all-in buttons come often
        await service.handle(place, PLAYERS[0], "/set straddle on")
    if game == "tournament":
        await service.handle(place, PLAYERS[0], "/tournament create home-night rebuys 2 addon 2")
        for actor in PLAYERS:
            await service.handle(place, actor, "/join")
    for actor in PLAYERS:  # deep enough wallets for a few hundred presses
        await service.handle(place, PLAYERS[0], f"/grant @{actor.name} 5000")
    pressed: set[str] = set()
    latest = None
    accepted_count = 0
    away = PLAYERS[0]  # who last went away (Hold'em), to come back by "post" or "wait"
    for step in range(150):
        if step % 60 == 59:  # now and then a turn runs out or the bets close on their own
            clock.advance(61)
            await service.scheduler.fire_due()
            latest = None
        if game == "tournament" and step in TOURNAMENT_CLOCK:
            clock.current = TOURNAMENT_CLOCK[step]
            await service.scheduler.fire_due()
            latest = None
        if game == "holdem" and step % 30 == 10:  # someone goes away, to come back (post or wait) a hand or two later
            away = rng.choice(PLAYERS)
            await service.handle(place, away, "/away")
        if game == "holdem" and step % 30 == 25:
            await service.handle(place, away, "/back")
        view = latest if latest is not None and latest.table is not None and latest.table.buttons else None
        if view is None:
            view = await service.handle(place, PLAYERS[0], "/table")
        if view.table is None or not view.table.buttons:
            await _set_up(service, place, game, rng)
            latest = None
            continue
        words = sorted({button.payload.rsplit("|", 1)[1].split()[0] for button in view.table.buttons})
        fresh = [word for word in words if word not in pressed]
        word = rng.choice(fresh if fresh and rng.random() < 0.5 else words)
        button = rng.choice([b for b in view.table.buttons if b.payload.rsplit("|", 1)[1].split()[0] == word])
        meant = away if word == "back" else by_id.get(view.table.to_act or "")  # whom the button is for, if anyone
        actor = meant if meant is not None and rng.random() < 0.9 else rng.choice(PLAYERS)
        first = await service.press(place, actor, button.payload)
        before = dump(path)
        repeats = 1 if word in pressed else 100  # a storm the first time, then a double click
        pressed.add(word)
        for again in await asyncio.gather(*(service.press(place, actor, button.payload) for _ in range(repeats))):
            if first.error is None and word not in VIEWS:
                assert again.error is not None, f"{button.payload} acted twice"
                assert again.public == [] and again.table is None
        assert dump(path) == before, f"pressing {button.payload} again changed the database"
        latest = first if first.error is None else None
        accepted_count += first.error is None
        if step % 25 == 0:
            assert await store.read(lambda tx: tx.check_ledger()) == []
        if word == "deal" and first.error is not None:
            await _set_up(service, place, game, rng)  # busted players sit down again
    assert accepted_count > 100, "too few presses were accepted to prove anything"
    assert BUTTON_KINDS[game] <= pressed, f"never pressed: {BUTTON_KINDS[game] - pressed}"
    assert await store.read(lambda tx: tx.check_ledger()) == []
    await store.close()
