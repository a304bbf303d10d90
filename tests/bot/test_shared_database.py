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
