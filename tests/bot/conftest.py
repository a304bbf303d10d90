"""Shared fixtures for application tests: a real SQLite file, a fake clock, a seeded shuffle."""

import random
import sqlite3
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path):
    opened = await Store.open(tmp_path / "bot.db")
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> Service:
    svc = Service(store, clock, rng=random.Random(42))
    await svc.start()
    return svc


PLACE = Place("chat", "chat/table")
ANN = Actor("ann", "Ann")
BOB = Actor("bob", "Bob")
CAT = Actor("cat", "Cat")


def dump(path: Path) -> list[str]:
    """The whole database as SQL text, to prove a refused command changed nothing."""
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())
