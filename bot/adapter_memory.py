"""What the service keeps for the adapters across restarts (`service.memory`): each table's current message per
platform, and Telegram's marks. The adapters read and write it here and never open the store themselves."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.clock import Clock
from bot.output import PostedMessage
from bot.store import Store, Tx, platform

log = logging.getLogger(__name__)


class AdapterMemory:
    """The adapters' rows in the store (`bot.store.platform`), each read or written in a transaction of its own.

    A write the database refuses is logged and otherwise ignored: the adapter's copy in memory still serves this
    run, and only a restart would find the row missing (it then posts a new table message instead of editing).
    """

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def table_messages(self, platform_name: str) -> dict[str, PostedMessage]:
        """Every table's current message on a platform ("discord", "telegram"), by table id."""
        return await self._store.read(lambda tx: platform.table_messages(tx, platform_name))

    async def remember_table_message(self, platform_name: str, table_id: str, posted: PostedMessage) -> None:
        """The table's current message on a platform is now `posted`."""
        await self._write(lambda tx: platform.remember_table_message(tx, platform_name, table_id, posted))

    async def forget_table_message(self, platform_name: str, table_id: str) -> None:
        """The table's message on a platform is gone (somebody deleted it)."""
        await self._write(lambda tx: platform.forget_table_message(tx, platform_name, table_id))

    async def marks(self, kind: str) -> set[tuple[int, ...]]:
        """Every Telegram mark of one kind: `private_chat` (user), `no_photos` (group), `hinted` (group, user)."""
        return await self._store.read(lambda tx: platform.marks(tx, kind))

    async def set_mark(self, kind: str, ids: tuple[int, ...], on: bool) -> None:
        """Add (`on`) or remove a Telegram mark."""
        await self._write(lambda tx: platform.set_mark(tx, kind, ids, on))

    @staticmethod
    def telegram_chat_moved(old: int, new: int) -> Callable[[Tx], None]:
        """The adapter's rows of a Telegram group renamed to its supergroup's id: hand it to `Service.move_chat`
        (as `also`), which runs it in the transaction that moves the chat."""
        return lambda tx: platform.rekey_telegram_chat(tx, old, new)

    async def _write(self, work: Callable[[Tx], None]) -> None:
        try:
            await self._store.transact(work, now=self._clock.now())
        except self._store.dialect.errors:  # SQLite's or PostgreSQL's refusal, or `CannotSave`
            log.exception("could not keep an adapter's row")
