"""A full disk or a read-only file during play: the player is told, the log names the cause, nothing is kept, and
play goes on once the condition clears."""

import asyncio
import contextlib
import gc
import resource
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.commands import Command, Join
from bot.games.context import Action
from bot.games.holdem import HoldemController
from bot.i18n import text
from bot.output import Actor
from bot.service import Service
from bot.service.timers import SAVE_RETRY_SECONDS
from bot.store import CannotSave, Store, Tx
from engine.reasons import Reason
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import Overriding, ledger_ok, logged_actions, press_label, started_service

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
MISLEADING = ("cannot rollback", "no such savepoint", "never retrieved")
"""What the log said instead of the real cause, before."""


def pragma(statement: str):
    """A store read that sets a PRAGMA on the bot's own connection."""
    return lambda tx: tx.db.execute(statement).fetchall()


async def fill_the_disk(store: Store) -> None:
    """The database may not grow by a single page any more (SQLite's own "disk is full")."""
    pages = (await store.read(pragma("PRAGMA page_count")))[0][0]
    await store.read(pragma(f"PRAGMA max_page_count = {pages}"))


async def make_read_only(store: Store) -> None:
    """SQLite refuses every write on the bot's connection, as it does when the file is read-only."""
    await store.read(pragma("PRAGMA query_only = ON"))


@contextlib.contextmanager
def failing_disk(directory: Path) -> Iterator[None]:
    """No file of this process may grow 64 KiB past the biggest file in `directory`: a write beyond fails as a failing
    disk's does (`EFBIG`, which SQLite reports as "disk I/O error")."""
    biggest = max(path.stat().st_size for path in directory.iterdir())
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of the process being stopped
    resource.setrlimit(resource.RLIMIT_FSIZE, (biggest + 65_536, limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, handler)


def log_text(caplog: pytest.LogCaptureFixture) -> str:
    gc.collect()  # an abandoned task's unretrieved exception is reported when it is collected
    return caplog.text


def grow(tx: Tx) -> None:
    """A transaction that moves chips and then needs many new pages (a big hand history, say)."""
    tx.move("c", "mint:c", "wallet:c:ann", 10, "grant")
    tx.db.execute("CREATE TABLE IF NOT EXISTS ballast (data BLOB)")
    tx.db.execute("INSERT INTO ballast VALUES (zeroblob(1000000))")


async def test_a_full_disk_fails_the_batch_with_its_cause_and_the_next_commits(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:bob", 100, "grant"), now=1.0)
    await fill_the_disk(store)
    small = [store.transact(lambda tx: tx.move("c", "wallet:c:bob", "pot:t", 1, "bet"), now=2.0) for _ in range(3)]
    results = await asyncio.gather(store.transact(grow, now=2.0), *small, return_exceptions=True)
    assert all(isinstance(result, CannotSave) for result in results), results
    assert "database or disk is full" in str(results[0])
    assert await store.read(lambda tx: tx.balances("wallet:c:")) == {"wallet:c:bob": 100}
    assert await store.read(lambda tx: tx.balance("pot:t")) == 0

    await store.read(pragma("PRAGMA max_page_count = 1073741823"))  # room again
    await store.transact(grow, now=3.0)
    assert await store.read(lambda tx: tx.balances("wallet:c:")) == {"wallet:c:bob": 100, "wallet:c:ann": 10}
    assert await store.read(lambda tx: tx.check_ledger()) == []
    assert not any(words in log_text(caplog) for words in MISLEADING), caplog.text


async def test_a_read_only_file_fails_with_its_cause_and_recovers(store: Store,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    await make_read_only(store)
    with pytest.raises(CannotSave, match="readonly database"):
        await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 10, "grant"), now=1.0)
    await store.read(pragma("PRAGMA query_only = OFF"))
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:ann", 10, "grant"), now=2.0)
    assert await store.read(lambda tx: tx.balance("wallet:c:ann")) == 10
    assert not any(words in log_text(caplog) for words in MISLEADING), caplog.text


async def test_a_disk_io_error_fails_with_its_cause_and_recovers(store: Store, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    await store.transact(lambda tx: tx.move("c", "mint:c", "wallet:c:bob", 100, "grant"), now=1.0)
    with failing_disk(tmp_path), pytest.raises(CannotSave, match="disk I/O error"):
        await store.transact(grow, now=2.0)
    assert await store.read(lambda tx: tx.balances("wallet:c:")) == {"wallet:c:bob": 100}
    await store.transact(grow, now=3.0)
    assert await store.read(lambda tx: tx.balances("wallet:c:")) == {"wallet:c:bob": 100, "wallet:c:ann": 10}
    assert await store.read(lambda tx: tx.check_ledger()) == []
    assert not any(words in log_text(caplog) for words in MISLEADING), caplog.text


async def hand_in_progress(service: Service):
    for actor in PLAYERS.values():
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    start = await service.handle(PLACE, ANN, "/deal")
    assert start.table is not None and start.table.to_act is not None
    return start


async def test_a_player_is_told_the_bot_cannot_save_and_nothing_changes(
        tmp_path: Path, service: Service, caplog: pytest.LogCaptureFixture) -> None:
    start = await hand_in_progress(service)
    actor = PLAYERS[start.table.to_act]
    payload = press_label(start, "check", "call")
    before = dump(tmp_path / "bot.db")
    await make_read_only(service.store)

    refused = await service.press(PLACE, actor, payload)
    assert refused.error == text("en", "cannot_save")
    russian = Actor(actor.user_id, actor.name, "ru")
    assert (await service.press(PLACE, russian, payload)).error == text("ru", "cannot_save")
    assert dump(tmp_path / "bot.db") == before  # no ledger row, no snapshot, no history
    logged = log_text(caplog)
    assert "attempt to write a readonly database" in logged
    assert not any(words in logged for words in MISLEADING), logged

    await service.store.read(pragma("PRAGMA query_only = OFF"))
    played = await service.press(PLACE, actor, payload)
    assert played.error is None and played.table is not None and played.table.to_act != actor.user_id
    assert dump(tmp_path / "bot.db") != before
    await ledger_ok(service)


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
async def test_a_table_another_process_holds_too_long_is_answered_cannot_save_and_changes_nothing(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the table's row (its batch stuck between its lock and its commit) while the store runs
    a press again for it `RETRY_LIMIT` times: the player is told the bot cannot save, nothing changed, the store
    goes on, and the press goes through once the row is free."""
    import psycopg

    monkeypatch.setattr("bot.store.RETRY_LIMIT", 3)
    start = await hand_in_progress(service)
    actor = PLAYERS[start.table.to_act]
    payload = press_label(start, "check", "call")
    location = str(service.store.location)
    before = dump(location)
    with psycopg.connect(location) as other:  # a transaction, open until the block ends
        other.execute("SELECT 1 FROM tables WHERE table_id = %s FOR UPDATE", (PLACE.table_id,))
        refused = await service.press(PLACE, actor, payload)
    assert refused.error == text("en", "cannot_save")
    assert dump(location) == before

    played = await service.press(PLACE, actor, payload)
    assert played.error is None and played.table is not None and played.table.to_act != actor.user_id
    await ledger_ok(service)


async def test_a_timer_that_cannot_save_fires_again_once_it_can(store: Store, clock: FakeClock,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    service = await started_service(store, clock, seed=7)
    heard = []

    async def listener(place, reply):
        heard.append(reply)

    service.subscribe("chat/", listener)
    start = await hand_in_progress(service)
    slow = start.table.to_act
    assert (await service.handle(PLACE, ANN, "/set time_bank 0")).error is None  # the turn's time-out comes at once
    await make_read_only(store)
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # the time-out could not be saved...
    assert heard == []
    assert "readonly database" in log_text(caplog)
    assert [timer.due_at for timer in service.scheduler.armed] == [clock.now() + SAVE_RETRY_SECONDS]

    await store.read(pragma("PRAGMA query_only = OFF"))
    clock.advance(SAVE_RETRY_SECONDS)
    assert await service.scheduler.fire_due() == 1  # ...and is acted on once it can
    assert slow == "ann" and [(reply.public, reply.table.text) for reply in heard] == [([], (
        "Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "Board: — · Pot: 30\n"
        "  Ann · 200 Ⓓ folded\n"
        "▶ Bob · 190 bet 10\n"
        "  Cat · 180 bet 20\n"
        "\n"
        "Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
        "Bob posts the small blind 10.\n"
        "Cat posts the big blind 20.\n"
        "Ann ran out of time.\n"
        "Ann folds.\n"
        "▶ Bob to act: 10 to call (⏱ 60\xa0s)."))]
    assert heard[-1].table.to_act != slow
    await ledger_ok(service)
    assert "Traceback" not in caplog.text


async def test_a_shutdown_that_cannot_save_says_so_once_and_the_tables_keep_their_logs(
        tmp_path: Path, service: Service, caplog: pytest.LogCaptureFixture) -> None:
    start = await hand_in_progress(service)
    played = await service.press(PLACE, PLAYERS[start.table.to_act], press_label(start, "check", "call"))
    assert played.error is None
    live = service.live_state(PLACE.table_id)
    assert await logged_actions(service.store) == 1
    await make_read_only(service.store)
    await service.stop()  # no traceback per table, nothing raised: the bot goes on closing
    assert caplog.text.count("no snapshot at shutdown for 1 of 1 tables") == 1
    await service.store.read(pragma("PRAGMA query_only = OFF"))
    assert await logged_actions(service.store) == 1  # the log is kept
    restarted = await started_service(service.store, FakeClock(), seed=9)
    assert (await restarted.handle(PLACE, ANN, "/table")).error is None
    assert restarted.live_state(PLACE.table_id) == live  # the log replayed


async def test_a_move_the_wallet_cannot_pay_is_refused_in_the_players_language_and_changes_nothing(
        service: Service) -> None:
    """The ledger is the last guard of a wallet (`InsufficientFunds`): a game that let a buy-in past its own check (as
    if the wallet held more) is answered "not enough chips" in the player's language, and nothing is kept."""

    holdem = service.controllers["holdem"]
    assert isinstance(holdem, HoldemController)

    def unchecked_buy_in(act: Action, command: Command) -> None:
        assert isinstance(command, Join) and command.chips is not None
        act.move(act.wallet(act.user), holdem.stack_account(act, act.user), command.chips, Reason.BUY_IN)

    assert (await service.handle(PLACE, ANN, "/lang ru me")).error is None
    before = dump(service.store.location)
    service.controllers["holdem"] = Overriding(holdem, handle=unchecked_buy_in)
    refused = await service.handle(PLACE, ANN, "/join 1500")  # within the table's buy-in, over the 1,000 wallet
    assert refused.error == text("ru", "not_enough_chips") and refused.public == [] and refused.private == {}
    assert dump(service.store.location) == before
    await ledger_ok(service)
