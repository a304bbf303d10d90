"""Two services on one PostgreSQL database (as two bot processes would be): each sees what the other did."""

from __future__ import annotations

import random

from bot.clock import FakeClock
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, PLACE


async def test_a_service_reads_a_table_again_after_another_changed_it(postgres_url: str) -> None:
    clock = FakeClock()
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        one = Service(first, clock, rng=random.Random(1))
        two = Service(second, clock, rng=random.Random(2))
        assert (await one.handle(PLACE, ANN, "/join 200")).error is None  # `one` keeps the table in memory
        assert (await two.handle(PLACE, BOB, "/join 200")).error is None  # and `two` changes it
        view = (await one.handle(PLACE, ANN, "/table")).table
        assert view is not None and "Bob" in view.text  # `one` saw the version move and read the table again
        assert (await one.handle(PLACE, ANN, "/deal")).error is None  # so it deals to both, keeping Bob's seat
        assert "Bob" in ((await two.handle(PLACE, BOB, "/table")).table or view).text
        assert await first.read(lambda tx: tx.check_ledger()) == []
    finally:
        await first.close()
        await second.close()


async def test_the_telegram_adapters_rows_keep_64_bit_ids_on_postgresql(postgres_url: str) -> None:
    """A supergroup's id (-100…) and a message id do not fit PostgreSQL's 4-byte INTEGER: the adapter's tables are
    created with 8-byte ones, and its writes use the SQL both databases speak."""
    from bot.telegram.memory import Memory, Posted

    clock = FakeClock()
    store = await Store.open(postgres_url)
    try:
        memory = Memory(store, clock)
        await memory.load()
        group, user = -1001234567890, 7_000_000_000
        assert await memory.refuse_photos(group, True)
        assert await memory.hint_once(group, user)
        await memory.open_private_chat(user)
        await memory.remember_table("tg:1/t", Posted("h1", group, 2_500_000_000))
        again = Memory(store, clock)
        await again.load()
        assert group in again.no_photos and (group, user) in again.hinted and user in again.private_chats
        assert again.tables["tg:1/t"].message_id == 2_500_000_000
    finally:
        await store.close()
