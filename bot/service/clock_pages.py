"""What a clock page shows (the web server asks): its token's target read with the table's tournament as its last
committed action left it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from bot.clock import Clock
from bot.games.clock_page import ClockPageReading, read_clock_page
from bot.service.tables import Tables
from bot.store import Store, Tx
from bot.store.clock_pages import clock_page_target
from bot.store.tx import dumps, loads

StoredTable = Callable[[Tx, str], tuple[dict[str, Any], dict[str, Any]] | None]
"""`Service.stored_table`: a table's config and state as a restart would resume them."""


async def clock_page(store: Store, clock: Clock, tables: Tables, stored_table: StoredTable,
                     token: str) -> ClockPageReading | None:
    """What a clock page's token opens now, None for a token that opens nothing."""
    now = datetime.fromtimestamp(clock.now(), tz=UTC)
    target = await store.query(lambda tx: clock_page_target(tx, token))
    if target is None:
        return None
    record = await tournament_record(store, tables, stored_table, target.table_id)
    return await store.query(lambda tx: read_clock_page(tx, target, record, now))


async def tournament_record(store: Store, tables: Tables, stored_table: StoredTable,
                            table_id: str) -> dict[str, Any] | None:
    """A copy of the table's `state["tournament"]` as its last committed action left it: from the live table
    (under its lock, so no action is half-way through it), else as a restart would resume it."""
    async with tables.locks[table_id]:
        live = tables.live.get(table_id)
        if live is not None:
            data = live.state.get("tournament")
            return cast(dict[str, Any], loads(dumps(data))) if data else None
    stored = await store.query(lambda tx: stored_table(tx, table_id))
    return stored[1].get("tournament") if stored is not None else None
