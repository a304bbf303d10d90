"""Live tables and the action log: a restart resumes each table (its snapshot, then its logged actions replayed)
exactly as it stood in memory, and an action that is refused or fails leaves the live table as it was."""

import asyncio
import random

import pytest

import bot.service.action_log as action_log
import bot.store as store_module
from bot.clock import FakeClock
from bot.commands import Command
from bot.games.context import Action
from bot.output import Actor, Place
from bot.render import Narration
from bot.replay import RecordingRandom, RecordingTx, ReplayRandom, ReplayTx, state_json
from bot.service import Service
from bot.store import Store, Tx
from bot.store.tx import HISTORY_ONLY, loads
from tests.bot.helpers import Overriding, logged_actions, started_service

PLAYERS = [Actor("ann", "Ann"), Actor("bob", "Bob"), Actor("cat", "Cat", is_admin=True)]
PLACE = Place("chat", "chat/live")
GAMES = ["holdem", "tournament", "texas", "russian", "caribbean", "three-card"]


async def resumed(service: Service) -> str:
    stored = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    assert stored is not None
    return state_json(list(stored))


async def stored_timers(service: Service) -> list[tuple[str, float, dict]]:
    """The timers a restart would arm (`Tx.timers`: on SQLite their rows and the log's changes since)."""
    stored = await service.store.read(lambda tx: tx.timers())
    return sorted((key, due_at, payload) for key, _, due_at, payload in stored)


def armed_timers(service: Service) -> list[tuple[str, float, dict]]:
    """The timers the scheduler has armed."""
    return sorted((timer.key, timer.due_at, timer.payload) for timer in service.scheduler.armed)


async def heads_up(service: Service) -> Actor:
    """Two players seated and a hand dealt at PLACE: the player to act."""
    for actor in PLAYERS[:2]:
        assert (await service.handle(PLACE, actor, "/join")).error is None
    dealt = await service.handle(PLACE, PLAYERS[0], "/deal")
    assert dealt.error is None and dealt.table is not None
    return next(actor for actor in PLAYERS if actor.user_id == dealt.table.to_act)


async def set_up(service: Service, game: str, rng: random.Random) -> None:
    first = PLAYERS[0]
    await service.handle(PLACE, first, f"/game {game}" if game != "tournament" else "/game holdem")
    if game == "holdem":
        await service.handle(PLACE, first, "/set structure no-limit")
    for actor in PLAYERS:
        await service.handle(PLACE, first, f"/grant @{actor.name} 5000")
    if game == "tournament":
        await service.handle(PLACE, first, "/tournament create home-night")
    for actor in PLAYERS:
        if game in ("holdem", "tournament"):
            await service.handle(PLACE, actor, "/join")
        else:
            await service.handle(PLACE, actor, f"/ante {rng.choice([5, 10, 25])}")
    if game == "tournament":
        await service.handle(PLACE, first, "/tournament start")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", GAMES)
async def test_resuming_replays_the_log_to_the_live_state_byte_for_byte(store: Store, game: str, seed: int,
                                                                         monkeypatch) -> None:
    """Random presses, bets, time-outs and refusals; after every step the state a restart would resume equals the
    live one, and most steps were kept as log rows (not snapshots). Each replay asks for what its action read live,
    in the same order (what a replay skips, like the table message, reads nothing): with no store to fall back on,
    any other read would raise."""
    monkeypatch.setattr(action_log, "ReplayTx", lambda reads, store: ReplayTx(reads))
    rng = random.Random(f"{game}-{seed}")
    clock = FakeClock()
    service = await started_service(store, clock, seed=seed)
    await set_up(service, game, rng)
    by_id = {actor.user_id: actor for actor in PLAYERS}
    replayed = 0
    for step in range(120):
        if step % 25 == 24:
            clock.advance(rng.choice([9, 61, 301]))
            await service.scheduler.fire_due()
        view = await service.handle(PLACE, PLAYERS[0], "/table")
        buttons = [button for button in (view.table.buttons if view.table else ()) if not button.private]
        if buttons and rng.random() < 0.85:
            to_act = view.table.to_act if view.table else None
            actor = by_id.get(to_act or "", rng.choice(PLAYERS)) if rng.random() < 0.9 else rng.choice(PLAYERS)
            await service.press(PLACE, actor, rng.choice(buttons).payload)
        elif game in ("holdem", "tournament"):
            await service.handle(PLACE, rng.choice(PLAYERS), rng.choice(["/deal", "/call", "/raise 40", "/check"]))
        else:
            await service.handle(PLACE, rng.choice(PLAYERS), f"/ante {rng.choice([5, 10])} box {rng.randint(1, 2)}")
        if service.live_state(PLACE.table_id) is None:  # a refusal dropped it: the next action loads it again
            await service.handle(PLACE, PLAYERS[0], "/table")
        live = service.live_state(PLACE.table_id)
        assert live is not None
        assert await resumed(service) == live, f"step {step}: the resumed table differs from the live one"
        assert await stored_timers(service) == armed_timers(service), f"step {step}: a restart would arm others"
        replayed += await store.read(lambda tx: tx.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    assert replayed > 20, "the log was hardly used: every action took a snapshot"
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_a_refused_or_failing_action_leaves_the_live_table_unchanged(store: Store) -> None:
    clock = FakeClock()
    service = await started_service(store, clock, seed=3)
    to_act = await heads_up(service)
    other = next(actor for actor in PLAYERS[:2] if actor is not to_act)
    before = service.live_state(PLACE.table_id)
    assert before is not None

    refused = await service.handle(PLACE, other, "/call")
    assert refused.error == f"It's not your turn: waiting for {to_act.name}."
    assert service.live_state(PLACE.table_id) in (None, before)
    await service.handle(PLACE, to_act, "/table")
    assert service.live_state(PLACE.table_id) == before

    holdem = service.controllers["holdem"]

    def broken(act: Action, command: Command) -> None:
        holdem.handle(act, command)  # the hand has moved on, then something fails
        raise RuntimeError("the history cannot be written")

    service.controllers["holdem"] = Overriding(holdem, handle=broken)
    with pytest.raises(RuntimeError):
        await service.handle(PLACE, to_act, "/call")
    service.controllers["holdem"] = holdem
    await service.handle(PLACE, to_act, "/table")
    assert service.live_state(PLACE.table_id) == before, "the half-applied call was dropped with the live table"
    assert (await service.handle(PLACE, to_act, "/call")).error is None
    assert service.live_state(PLACE.table_id) != before
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_a_log_written_by_another_version_replays_with_the_store_answering_what_it_lacks(store: Store) -> None:
    """The log answers the reads it recorded; once the code asks for something else (here: a story line that names
    one more player), plain reads go to the store, so an upgrade between a crash and the restart still resumes."""
    import bot.render.holdem as render

    clock = FakeClock()
    service = Service(store, clock, rng=random.Random(3))
    to_act = await heads_up(service)
    narrate = render.narrate
    render.narrate = lambda voice, events, *rest, **more: Narration()  # the older version told nothing (no names)
    try:
        assert (await service.handle(PLACE, to_act, "/call")).error is None
    finally:
        render.narrate = narrate
    assert await logged_actions(store) == 1
    restarted = Service(store, clock, rng=random.Random(4))
    stored = await store.read(lambda tx: restarted.stored_table(tx, PLACE.table_id))
    assert stored is not None
    snapshot = await store.read(lambda tx: tx.load_table(PLACE.table_id))
    assert snapshot is not None and snapshot[1] is not None
    told = stored[1]["story"][len(snapshot[1]["story"]):]
    assert len(told) == 1 and to_act.name in told[0], f"the replay told the call as this version does: {told}"


def test_the_log_migrations_move_the_history_into_the_log_and_keep_old_snapshots(tmp_path, monkeypatch) -> None:
    """A database of schema 5: its history rows end up in the action log (below its snapshot: never replayed), with
    the hand's span, no JSON-expression index left, and its snapshots stand as they are, with no action to replay
    after them. A SQLite file only: no PostgreSQL database is older than the action log (the store spoke PostgreSQL
    from schema 12)."""
    import sqlite3

    from bot.store import schema

    path = tmp_path / "old.db"
    old = sqlite3.connect(path, isolation_level=None)
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:5])
    assert schema.migrate(old) == 5
    monkeypatch.undo()
    old.execute("INSERT INTO chats(chat_id) VALUES ('chat')")
    old.execute("INSERT INTO tables(table_id, chat_id, config, state, updated_at) "
                "VALUES ('chat/live', 'chat', '{\"game\": \"holdem\"}', '{\"seats\": [], \"number\": 4}', 0)")
    old.executemany("INSERT INTO history(table_id, hand_id, at, event) VALUES ('chat/live', 'h4', 0, ?)",
                    [('{"kind": "HandStarted", "number": 4}',), ('{"kind": "HandEnded", "net": {}}',)])
    assert schema.migrate(old) == len(schema.MIGRATIONS)
    assert old.execute("SELECT seq, entry, events FROM actions").fetchall() == [
        (-1, HISTORY_ONLY, '[["h4",[{"kind":"HandStarted","number":4},{"kind":"HandEnded","net":{}}]]]')]
    assert old.execute("SELECT hand_id, first_seq, ended_seq FROM hand_spans").fetchall() == [("h4", -1, -1)]
    assert old.execute("SELECT name FROM sqlite_master WHERE name = 'history'").fetchall() == []
    indexes = [row[0] for row in old.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")]
    assert not any("json_extract" in sql for sql in indexes)
    assert old.execute("SELECT snapshot_seq FROM tables").fetchall() == [(0,)]
    old.close()


async def test_a_table_message_is_written_only_when_read_and_shows_its_own_moment(store: Store) -> None:
    """The table's text is written when an adapter reads it, not in the action: a state nobody shows costs no text.
    Read late, after the table has moved on (and a player renamed), it still shows the hand as it was."""
    service = Service(store, FakeClock(), rng=random.Random(3))
    ann, bob = PLAYERS[0], PLAYERS[1]
    await service.handle(PLACE, ann, "/set pictures off")
    for actor in (ann, bob):
        await service.handle(PLACE, actor, "/join 1000")
    dealt = await service.handle(PLACE, ann, "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    first = dealt.table.to_act
    call = next(b.payload for b in dealt.table.buttons if b.payload.endswith(("|call", "|check")))
    acted = await service.press(PLACE, ann if first == "ann" else bob, call)
    assert acted.table is not None
    assert not dealt.table.is_written and not acted.table.is_written, "no hand's text written before one was read"
    await service.handle(PLACE, Actor(first, "Renamed"), "/balance")  # his name changes after the moment
    assert await service.player_name(PLACE, first) == "Renamed"
    early = dealt.table.text
    assert dealt.table.is_written and not acted.table.is_written
    assert f"▶ {'Ann' if first == 'ann' else 'Bob'} ·" in early, early
    assert acted.table.text != early  # the later state reads as itself
    assert dealt.table.text is early, "a message's text is written once"


async def test_a_recording_tx_records_every_read_in_order_and_looks_each_method_up_once(store: Store,
                                                                                        monkeypatch) -> None:
    await store.transact(lambda tx: tx.set_chat_settings("c", {"organizers": ["ann"]}), now=1.0)
    await store.transact(lambda tx: tx.ensure_player("c", "ann", "Ann"), now=1.0)
    looked_up: list[str] = []
    look_up = RecordingTx.__getattr__

    def counting(self: RecordingTx, name: str) -> object:  # patched, not a subclass: compiled, its methods take none
        looked_up.append(name)
        return look_up(self, name)

    monkeypatch.setattr(RecordingTx, "__getattr__", counting)

    def read_twice(tx: Tx) -> tuple[list[str], str]:
        recording = RecordingTx(tx)
        names = [recording.player_name("c", user) for user in ("ann", "bob", "ann")]
        recording.balance("wallet:c:ann")
        recording.log_timers("t", [("k", 5.0, {})])  # a write: not recorded
        for _ in range(2):
            settings = recording.chat_settings("c")
            settings["organizers"].append("bob")  # a later change to what was read is not what was read
        return names, recording.reads_json()

    names, reads = await store.read(read_twice)
    assert names == ["Ann", "bob", "Ann"]
    assert reads == ('[["player_name","Ann"],["player_name","bob"],["player_name","Ann"],["balance",0],'
                     '["chat_settings",{"organizers":["ann"]}],["chat_settings",{"organizers":["ann"]}]]')
    assert looked_up == ["chat_settings"]  # the reads and writes of every action need no lookup, others one


@pytest.mark.parametrize("game", GAMES)
async def test_a_clean_stop_snapshots_the_logged_tables_and_the_next_start_keeps_them_as_they_stood(
        store: Store, game: str, monkeypatch) -> None:
    rng = random.Random(game)
    service = await started_service(store, FakeClock(), seed=5)
    await set_up(service, game, rng)
    for _ in range(60):  # random presses until some are in the log after the last snapshot (a hand in play)
        await service.handle(PLACE, rng.choice(PLAYERS), rng.choice(["/deal", "/call", "/check", "/fold"]))
        if await logged_actions(store) > 1:
            break
    assert await logged_actions(store) > 1, "nothing was logged to snapshot"
    live = await resumed(service)  # a refusal left it out of memory: stopping reads it (snapshot + log) to write it
    await service.stop()
    assert await logged_actions(store) == 0
    assert await resumed(service) == live == service.live_state(PLACE.table_id)
    replayed: list[object] = []
    monkeypatch.setattr("bot.service.stored_tables.replay", lambda *args: replayed.append(args))
    restarted = await started_service(store, FakeClock(), seed=6)
    assert restarted.live_state(PLACE.table_id) == live  # in memory from the start, nothing replayed
    assert (await restarted.handle(PLACE, PLAYERS[0], "/table")).error is None
    assert replayed == []


@pytest.mark.parametrize("game", ["holdem", "caribbean"])
async def test_a_clean_stop_after_a_crash_and_a_restart_snapshots_the_tables_as_they_stood(store: Store,
                                                                                           game: str) -> None:
    """A crash leaves actions logged after the snapshot; the restart keeps that snapshot made live for the replay
    (`Service._unreplayed`), and stopping at once replays the log on it and writes the table as it stood before the
    crash, so the start after that has nothing to replay."""
    rng = random.Random(game)
    crashed = await started_service(store, FakeClock(), seed=5)
    await set_up(crashed, game, rng)
    for _ in range(60):
        await crashed.handle(PLACE, rng.choice(PLAYERS), rng.choice(["/deal", "/call", "/check", "/fold"]))
        if await logged_actions(store) > 1:
            break
    assert await logged_actions(store) > 1, "nothing was logged to replay"
    before = await resumed(crashed)
    restarted = await started_service(store, FakeClock(), seed=6)  # no stop: as after a crash
    assert restarted.live_state(PLACE.table_id) is None
    await restarted.stop()
    assert await logged_actions(store) == 0
    again = await started_service(store, FakeClock(), seed=7)
    assert again.live_state(PLACE.table_id) == before


async def test_snapshots_keep_the_log_rows_for_the_history_and_replay_none_of_them(store: Store) -> None:
    """A snapshot deletes no log row (their events are the history): the rows it includes are there, none of them
    replayed, and the table resumes as it is live; each hand dealt has its events in the log."""
    rng = random.Random(3)
    service = await started_service(store, FakeClock(), seed=3)
    await set_up(service, "holdem", rng)
    statements: list[str] = []
    traced = not store.dialect.is_shared  # the statements are counted where the driver can trace them (sqlite3)
    if traced:
        await store.outside_transaction(lambda db: db.set_trace_callback(statements.append))
    kept = "SELECT COUNT(*) FROM actions JOIN tables USING (table_id) WHERE seq <= snapshot_seq"
    for _ in range(60):
        await service.handle(PLACE, rng.choice(PLAYERS), rng.choice(["/deal", "/call", "/check", "/fold"]))
    assert await store.read(lambda tx: tx.db.execute(kept).fetchone()[0]) >= 10
    if traced:
        await store.outside_transaction(lambda db: db.set_trace_callback(None))
        assert sum(sql.startswith("INSERT INTO tables") for sql in statements) > 1
        assert not any(sql.startswith("DELETE FROM actions") for sql in statements)
    events = await store.read(lambda tx: tx.every_event(PLACE.table_id))
    dealt = [hand for _, hand, _, event in events if event["kind"] == "HandStarted"]
    assert dealt and dealt == sorted(set(dealt), key=lambda hand: int(hand[1:]))
    await service.handle(PLACE, PLAYERS[0], "/table")  # the live table, again in memory after a refusal
    assert await resumed(service) == service.live_state(PLACE.table_id)


async def test_a_change_of_config_mid_hand_takes_a_snapshot_and_an_unchanged_one_does_not(store: Store) -> None:
    """The live table finds a change of config by comparing it with the config its last snapshot stored: a setting
    changed mid-hand is snapshotted at once (the stored config holds it, no log row after it), and the next press,
    which leaves the config as it is, is a log row."""
    service = Service(store, FakeClock(), rng=random.Random(3))
    to_act = await heads_up(service)
    assert (await service.handle(PLACE, PLAYERS[0], "/set turn_seconds 45")).error is None

    def stored_config(tx: Tx) -> dict[str, object]:
        row = tx.db.execute("SELECT config FROM tables WHERE table_id = ?", (PLACE.table_id,)).fetchone()
        return dict(loads(row[0]))

    assert (await store.read(stored_config))["turn_seconds"] == 45
    assert await logged_actions(store) == 0
    assert (await service.handle(PLACE, to_act, "/call")).error is None
    assert await logged_actions(store) == 1
    assert await resumed(service) == service.live_state(PLACE.table_id)


async def test_an_action_reads_each_players_name_once_and_its_log_row_records_it_once(store: Store) -> None:
    service = Service(store, FakeClock(), rng=random.Random(3))
    to_act = await heads_up(service)
    called = await service.handle(PLACE, to_act, "/call")
    assert called.error is None and called.table is not None and to_act.name in called.table.text
    logged = await store.read(lambda tx: tx.db.execute(
        "SELECT entry FROM actions WHERE entry != ?", (HISTORY_ONLY,)).fetchall())  # the deal's holds its events
    assert len(logged) == 1
    names = [read[1] for read in loads(logged[0][0])["r"] if read[0] == "player_name"]
    assert sorted(names) == ["Ann", "Bob"], names  # the story and the table message both name them
    assert await resumed(service) == service.live_state(PLACE.table_id)


async def test_a_timer_that_deals_writes_the_new_hand_once_for_its_snapshot(store: Store, monkeypatch) -> None:
    from engine.holdem import Hand

    clock = FakeClock()
    service = Service(store, clock, rng=random.Random(3))
    to_act = await heads_up(service)
    assert (await service.handle(PLACE, to_act, "/fold")).error is None
    written: list[int] = []
    to_dict = Hand.to_dict
    monkeypatch.setattr(Hand, "to_dict", lambda hand: written.append(1) or to_dict(hand))
    clock.advance(60)
    await service.scheduler.fire_due()  # the next hand is dealt by its timer
    monkeypatch.undo()
    live = service.live_state(PLACE.table_id)
    assert live is not None and '"hand":{' in live
    assert written == [1]
    assert await logged_actions(store) == 0
    assert await resumed(service) == live


@pytest.mark.parametrize("seed", range(5))
def test_a_recorded_shuffle_deals_what_the_source_alone_deals_and_replays_it(seed: int) -> None:
    """Recording a shuffle changes no card of it (a seeded test source deals as without the log), and the replay
    gives the same order back."""
    from engine.cards import ALL_CARDS

    alone, recorded = list(ALL_CARDS), list(ALL_CARDS)
    random.Random(seed).shuffle(alone)
    recording = RecordingRandom(random.Random(seed))
    recording.shuffle(recorded)
    assert recorded == alone
    replayed = list(ALL_CARDS)
    ReplayRandom(loads(state_json(recording.draws))).shuffle(replayed)
    assert replayed == alone


async def test_a_press_at_a_table_whose_timer_waits_behind_other_presses_is_not_held_back(
        store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timer's job holds its table while it waits behind other tables' presses (`BACKGROUND_WAIT`, made an hour
    here); a player pressing at that table has it go in the next batch, so his press is answered at once instead of
    waiting for the timer's turn (his turn time ran out: his time bank started, and his fold still counts)."""
    monkeypatch.setattr(store_module, "BACKGROUND_WAIT", 3600.0)
    service = Service(store, clock, rng=random.Random(3))
    to_act = await heads_up(service)
    others = [Place(f"chat{index}", f"chat{index}/live") for index in range(2)]
    pressing = True

    async def keep_pressing(place: Place) -> None:  # the players' queue is never empty (each a job, refused or not)
        while pressing:
            await service.handle(place, PLAYERS[2], "/join")

    busy = [asyncio.ensure_future(keep_pressing(place)) for place in others]
    await asyncio.sleep(0.05)
    clock.advance(61)  # past the turn time: the time-out's job queues behind the presses, holding PLACE
    firing = asyncio.ensure_future(service.scheduler.fire_due())
    await asyncio.sleep(0.05)
    try:
        reply = await asyncio.wait_for(service.handle(PLACE, to_act, "/fold"), timeout=5)
    finally:
        pressing = False
        await asyncio.gather(*busy, firing)
    assert reply.error is None
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_timers_go_into_the_log_rows_and_a_restart_after_a_crash_arms_them_as_they_stood(tmp_path) -> None:
    """On SQLite an action's timer changes are in its log row, and a table's timers are written into their own rows
    only every `TIMER_ROWS_EVERY` of its actions: the rows lag behind the turn timer most of the time, while what the
    store reads back (rows, then the log's changes) is always what the scheduler has armed; a restart without a clean
    stop arms exactly those timers, and so does one after a clean stop, which writes the rows as they stand. (With
    several processes, on PostgreSQL, the
    rows are always current: `tests/bot/test_shared_database.py`.)"""
    store = await Store.open(tmp_path / "bot.db")
    clock = FakeClock()
    service = await started_service(store, clock, seed=5)
    await heads_up(service)
    rng = random.Random(6)
    rows_behind = rows_written = 0
    last_written = 0
    for _ in range(3 * action_log.TIMER_ROWS_EVERY):
        view = await service.handle(PLACE, PLAYERS[0], "/table")
        to_act = view.table.to_act if view.table else None
        if to_act is None and (await service.handle(PLACE, PLAYERS[0], "/deal")).error is not None:
            for actor in PLAYERS[:2]:  # someone went broke and stood up: both buy in again
                await service.handle(PLACE, PLAYERS[0], f"/grant {actor.user_id} 500")
                await service.handle(PLACE, actor, "/join 500")
        elif to_act is not None:
            actor = next(actor for actor in PLAYERS if actor.user_id == to_act)
            buttons = [button for button in view.table.buttons
                       if not button.private and "|pre " not in button.payload]
            await service.press(PLACE, actor, rng.choice(buttons).payload)
        clock.advance(1)
        rows = await store.read(lambda tx: sorted((key, due_at) for key, due_at in tx.db.execute(
            "SELECT key, due_at FROM timers")))
        written = await store.read(lambda tx: tx.db.execute(
            "SELECT timers_seq FROM tables WHERE table_id = ?", (PLACE.table_id,)).fetchone()[0])
        rows_written += written != last_written
        last_written = written
        rows_behind += rows != [(key, due_at) for key, due_at, _ in armed_timers(service)]
        assert await stored_timers(service) == armed_timers(service)
    assert rows_written in (2, 3, 4) and rows_behind > action_log.TIMER_ROWS_EVERY, (rows_written, rows_behind)
    armed = armed_timers(service)
    assert armed and await store.read(lambda tx: tx.db.execute(
        "SELECT COUNT(*) FROM actions WHERE timers IS NOT NULL").fetchone()[0]) > action_log.TIMER_ROWS_EVERY

    await store.close()  # a crash: no clean stop, the log rows hold the latest changes
    store = await Store.open(store.location)
    restarted = await started_service(store, clock, seed=7)
    assert armed_timers(restarted) == armed
    await restarted.stop()  # a clean stop: the rows written as the timers stand, nothing left to read in the log
    assert await store.read(lambda tx: sorted((key, due_at, loads(payload)) for key, due_at, payload in tx.db.execute(
        "SELECT key, due_at, payload FROM timers"))) == armed
    assert await store.read(lambda tx: tx.db.execute(
        "SELECT COUNT(*) FROM tables JOIN actions ON actions.table_id = tables.table_id "
        "AND actions.seq > tables.timers_seq WHERE actions.timers IS NOT NULL").fetchone()[0]) == 0
    await store.close()
    store = await Store.open(store.location)
    again = await started_service(store, clock, seed=8)
    assert armed_timers(again) == armed
    await store.close()
