"""A lost PostgreSQL connection (the server restarted, the session ended by an administrator): the batch that was on
it fails with `CannotSave`, nothing of it kept, and the store opens a new connection for what comes next."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.store import CannotSave, Store, Tx
from tests import pg_cluster
from tests.bot.conftest import ANN, BOB, PLACE

NAME = "pokerbot_reconnect"
"""The `application_name` of the store's connections, to end them and only them."""


def end_sessions(url: str) -> int:
    """End the store's sessions from another connection, as an administrator (or a failover) would, and wait until
    they are gone (their goodbye sent): the next action comes after the cut, not during it."""
    with psycopg.connect(url, autocommit=True) as connection:
        ended = len(connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE application_name = %s", (NAME,)).fetchall())
        deadline = time.monotonic() + 10
        while connection.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = %s",
                                 (NAME,)).fetchone()[0] and time.monotonic() < deadline:
            time.sleep(0.01)
    return ended


async def seated(store: Store) -> list[str]:
    return await store.read(lambda tx: [row[0] for row in tx.db.execute(
        "SELECT user_id FROM players ORDER BY user_id")])


async def test_the_action_after_the_sessions_were_ended_succeeds_on_a_new_connection(postgres_url: str) -> None:
    url = f"{postgres_url}&application_name={NAME}"
    store = await Store.open(url)
    try:
        service = Service(store, FakeClock(), rng=random.Random(1))
        assert (await service.handle(PLACE, ANN, "/join 200")).error is None
        assert end_sessions(postgres_url) == 2  # the writer's and the reader's
        assert (await service.handle(PLACE, BOB, "/join 200")).error is None
        assert (await service.handle(PLACE, ANN, "/deal")).error is None
        assert await seated(store) == ["ann", "bob"]
        assert await store.query(lambda tx: tx.check_ledger()) == []  # the reader opened a new connection too
        assert await store.read(lambda tx: tx.check_ledger()) == []
    finally:
        await store.close()


async def test_a_batch_whose_connection_is_lost_fails_whole_and_the_next_batch_is_kept(postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    try:
        def cut_midway(tx: Tx) -> None:
            tx.ensure_chat("lost")
            tx.db.execute("SELECT pg_terminate_backend(pg_backend_pid())")

        with pytest.raises(CannotSave, match="terminating connection"):
            await store.transact(cut_midway, now=1.0)
        await store.transact(lambda tx: tx.ensure_chat("kept"), now=2.0)
        chats = await store.read(lambda tx: [row[0] for row in tx.db.execute("SELECT chat_id FROM chats")])
        assert chats == ["kept"]
    finally:
        await store.close()


async def test_play_goes_on_after_the_server_restarts() -> None:
    """A server of its own (`pg_ctl restart` cuts every session), so no other test's sessions are touched."""
    if pg_cluster.bin_dir() is None:
        pytest.skip("PostgreSQL tests skipped: no initdb (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="pokerbot-pg-"))
    try:
        url = pg_cluster.start(folder)
        store = await Store.open(url)
        try:
            service = Service(store, FakeClock(), rng=random.Random(1))
            for actor in (ANN, BOB):
                assert (await service.handle(PLACE, actor, "/join 200")).error is None
            assert (await service.handle(PLACE, ANN, "/deal")).error is None
            pg_cluster.restart(folder)
            assert (await service.handle(PLACE, ANN, "/call")).error is None
            assert await store.read(lambda tx: tx.check_ledger()) == []
            assert await store.query(lambda tx: tx.check_ledger()) == []
        finally:
            await store.close()
    finally:
        pg_cluster.stop(folder)
