"""Shared fixtures for application tests: a real SQLite file, a fake clock, a seeded shuffle."""

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.service import Service
from bot.store import Store
from engine.cards import Deck


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


BOTH_BACKENDS = ("test_store", "test_service_core", "test_service_games", "test_service_short_all_ins",
                 "test_service_tournament", "test_history", "test_pruning", "test_live_tables", "test_seasons",
                 "test_statistics", "test_clock_page", "test_exports", "test_adapter_memory", "test_omaha",
                 "test_table_options", "test_away", "test_service_tournament_options", "test_start_up", "test_reads",
                 "test_top", "test_house_wallet", "test_shared_names")
"""The modules whose tests run on SQLite and on PostgreSQL (the store, the service, what reads the history); the
others are about rules and texts, the same on either."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The store of a module of `BOTH_BACKENDS` is a SQLite file, then a PostgreSQL database."""
    if "store" in metafunc.fixturenames and metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_BACKENDS:
        metafunc.parametrize("store", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    """The store on a SQLite file in `tmp_path` (`tmp_path / "bot.db"`), or (parametrized so) on a PostgreSQL
    database of its own, skipped without a server; `store.location` opens the same database again."""
    backend = getattr(request, "param", "sqlite")
    database = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "bot.db"
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> Service:
    svc = Service(store, clock, rng=random.Random(42))
    await svc.start()
    return svc


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The tops of the decks the next Hold'em hands are dealt from, in order (each dealt as `Deck.stacked`; then
    shuffled): append one before a hand is dealt. Without one left, a hand is dealt from a shuffled deck."""
    tops: list[str] = []
    monkeypatch.setattr("bot.games.holdem.new_deck", lambda rng: Deck.stacked(tops.pop(0) if tops else "", rng))
    yield tops


PLACE = Place("chat", "chat/table")
ANN = Actor("ann", "Ann")
BOB = Actor("bob", "Bob")
CAT = Actor("cat", "Cat")
DAN = Actor("dan", "Dan")


def dump(location: Path | str) -> list[str]:
    """The whole database (a SQLite file, or a PostgreSQL URL) as text, to prove a refused command changed nothing."""
    if isinstance(location, str):
        import psycopg

        with psycopg.connect(location) as connection:
            tables = [row[0] for row in connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                "ORDER BY table_name")]
            return [f"{table}: {row!r}" for table in tables
                    for row in sorted(map(repr, connection.execute(f'SELECT * FROM "{table}"')))]
    with sqlite3.connect(location) as connection:
        return list(connection.iterdump())
