"""Reads that never hold up the writer: `/stats`, `/top` and `/history` read on the store's read-only connection."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot import history
from bot.output import Place
from bot.service import Service
from bot.store import Tx
from tests.bot.conftest import ANN, BOB, PLACE

OTHER = Place("other-chat", "other-chat/table")


def slowed(real: Callable[..., Any], reading: threading.Event, release: threading.Event) -> Callable[..., Any]:
    """`real`, but once it has read it says so and waits (in whatever thread runs it) until released."""

    def slow(*args: Any) -> Any:
        result = real(*args)
        reading.set()
        release.wait(5)
        return result

    return slow


@pytest.mark.parametrize(
    ("command", "target", "name"),
    [("/stats", history, "chat_stats"), ("/top", Tx, "cash_results"), ("/history", Tx, "hand_records")],
)
async def test_a_slow_read_delays_no_commit_at_another_table(
    service: Service, monkeypatch: pytest.MonkeyPatch, command: str, target: object, name: str
) -> None:
    assert (await service.handle(PLACE, ANN, "/join 300")).error is None
    reading, release = threading.Event(), threading.Event()
    monkeypatch.setattr(target, name, slowed(getattr(target, name), reading, release))
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
