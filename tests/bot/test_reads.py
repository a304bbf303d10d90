"""Reads that never hold up the writer: `/stats`, `/top` and `/history` read on the store's read-only connection."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from bot.output import Place
from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import statements_traced

OTHER = Place("other-chat", "other-chat/table")


def held_at_its_end(reading: threading.Event, release: threading.Event) -> Callable[[str], None]:
    """A statement tracer for the read-only connection: once a read there has run its queries, at its end (before
    its snapshot is let go) it says so and waits, in the reader's thread, until released."""
    queried = False

    def trace(statement: str) -> None:
        nonlocal queried
        if statement.startswith(("BEGIN", "ROLLBACK")):
            if statement == "ROLLBACK" and queried:
                reading.set()
                release.wait(5)
            queried = False
        else:
            queried = True

    return trace


@pytest.mark.parametrize("command", ["/stats", "/top", "/history"])
async def test_a_slow_read_delays_no_commit_at_another_table(service: Service, command: str) -> None:
    assert (await service.handle(PLACE, ANN, "/join 300")).error is None
    reading, release = threading.Event(), threading.Event()
    async with statements_traced(service.store, held_at_its_end(reading, release), reader=True):
        read = asyncio.create_task(service.handle(PLACE, ANN, command))
        try:
            assert await asyncio.to_thread(reading.wait, 5), "the read never started"
            joined = await service.handle(OTHER, BOB, "/join 200")  # a commit while the read is still reading
            read_still_running = not read.done()
        finally:
            release.set()
    reply = await read
    assert joined.error is None and read_still_running
    assert await service.store.query(lambda tx: tx.balance(f"stack:{OTHER.table_id}:bob")) == 200
    if command == "/history":
        assert reply.error == "No hand has been played to the end at this table yet."
    else:
        assert reply.error is None and "Ann" in reply.public[0]
