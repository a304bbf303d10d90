"""A chat that gets a new id (a Telegram group upgraded to a supergroup): its tables, and everything of them in the
store and in memory, renamed with it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from bot.clock import Clock
from bot.scheduler import Scheduler
from bot.service.tables import Tables
from bot.store import Store, Tx
from bot.store.pauses import tables_of_chat
from bot.store.rekey import rekey_chat


async def tables_of(store: Store, chat_id: str) -> list[str]:
    """The ids of a chat's tables (a group's forum topics each have one)."""
    return await store.read(lambda tx: tables_of_chat(tx, chat_id))


async def move_chat(store: Store, clock: Clock, scheduler: Scheduler, tables: Tables, old: str, new: str,
                    also: Callable[[Tx], None] | None) -> bool:
    """Rename chat `old` to `new`: its tables, wallets, ledger accounts, history and timers in one transaction
    (`also` runs in it too: the adapter's own rows), under every one of its tables' locks; the tables are then read
    again from the store, their pauses and timers carried over to the new ids. False when there was nothing to move
    (unknown chat, or moved already)."""
    table_ids = await tables_of(store, old)
    locks = [tables.locks[table_id] for table_id in sorted(table_ids)]
    async with contextlib.AsyncExitStack() as stack:
        for lock in locks:
            await stack.enter_async_context(lock)

        def work(tx: Tx) -> list[tuple[str, str, float, dict[str, Any]]] | None:
            if not rekey_chat(tx, old, new):
                return None
            if also is not None:
                also(tx)
            return [timer for timer in tx.timers() if timer[1] in moved_ids.values()]

        moved_ids = {table_id: new + table_id.removeprefix(old) for table_id in table_ids}
        timers = await store.transact(work, now=clock.now())
        if timers is None:
            return False
        paused = tables.paused
        for table_id, new_id in moved_ids.items():
            tables.live.pop(table_id, None)
            tables.chats.pop(table_id, None)
            if table_id in paused:
                paused[new_id] = paused.pop(table_id)
        for timer in scheduler.armed:
            if timer.table_id in moved_ids:
                scheduler.disarm(timer.key)
        for key, table_id, due_at, payload in timers:
            if table_id not in paused:
                scheduler.arm(key, table_id, due_at, payload)
    return True
