"""What the service keeps for the adapters across restarts (`service.memory`): each table's current message per
platform, the old ones waiting to lose their buttons, Telegram's marks and who was dealt in each Telegram table's
hand in play. The adapters read and write it here and
never open the store themselves."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from mypy_extensions import mypyc_attr

from bot.clock import Clock
from bot.output import OldMessage, PostedMessage
from bot.store import Store, Tx, platform

log = logging.getLogger(__name__)


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's subclass counts its reads (compiled: `bot.compiled`)
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

    async def remember_table_message(self, platform_name: str, table_id: str, posted: PostedMessage, *,
                                     retiring: OldMessage | None = None) -> None:
        """The table's current message on a platform is now `posted`; with `retiring`, the one it moved on from
        waits to lose its buttons (one transaction: a table message's change costs one write)."""
        def write(tx: Tx) -> None:
            platform.remember_table_message(tx, platform_name, table_id, posted)
            if retiring is not None:
                platform.add_retiring(tx, platform_name, retiring, self._store.process_id)

        await self._write(write)

    async def claim_retiring(self, platform_name: str, lease: float) -> list[OldMessage]:
        """The old table messages on a platform waiting to lose their buttons that this process now holds, to queue:
        those no process held (`bot.store.platform.claim_retiring`), with several processes on one database those
        whose claim was not renewed for `lease` seconds too; on a database of one process, every one (after a
        start: queued before the last stop). Oldest first in each chat."""
        now = self._clock.now()
        stale_before = now - lease if self._store.dialect.is_shared else None
        return await self._store.transact(
            lambda tx: platform.claim_retiring(tx, platform_name, self._store.process_id, stale_before), now=now)

    async def renew_retiring(self) -> None:
        """This process still holds the old table messages it claimed (`claim_retiring`)."""
        await self._store.transact(lambda tx: platform.renew_retiring(tx, self._store.process_id),
                                   now=self._clock.now())

    async def release_retiring(self) -> None:
        """At a clean stop, once the adapters are stopped: the old table messages this process claimed are left to
        whichever process looks next (`bot.store.platform.release_retiring`), which takes them at once."""
        await self._write(lambda tx: platform.release_retiring(tx, self._store.process_id))

    @property
    def is_shared(self) -> bool:
        """Whether other processes use the database too (PostgreSQL)."""
        return self._store.dialect.is_shared

    async def forget_retiring(self, platform_name: str, chat_id: str, message_ids: Iterable[int]) -> None:
        """Old table messages of a chat (its place's `chat_id`) no longer wait to lose their buttons: they did, or
        they were given up on."""
        ids = list(message_ids)
        if ids:
            await self._write(lambda tx: platform.forget_retiring(tx, platform_name, chat_id, ids))

    async def forget_table_message(self, platform_name: str, table_id: str) -> None:
        """The table's message on a platform is gone (somebody deleted it)."""
        await self._write(lambda tx: platform.forget_table_message(tx, platform_name, table_id))

    async def marks(self, kind: str) -> set[tuple[int, ...]]:
        """Every Telegram mark of one kind: `private_chat` (user), `no_photos` (group), `hinted` (group, user),
        `migrated` (old group, supergroup), `closed_topic` (group, topic)."""
        return await self._store.read(lambda tx: platform.marks(tx, kind))

    async def set_mark(self, kind: str, ids: tuple[int, ...], on: bool) -> None:
        """Add (`on`) or remove a Telegram mark."""
        await self._write(lambda tx: platform.set_mark(tx, kind, ids, on))

    async def dealt_in(self) -> dict[str, tuple[str, dict[int, str]]]:
        """Who was dealt in each Telegram table's hand in play, by table id: the hand's key, and Telegram id: name."""
        return await self._store.read(platform.dealt_in)

    async def dealt_in_hand(self, table_id: str, key: str) -> dict[int, str] | None:
        """Who was dealt in a Telegram table's hand `key` (Telegram id: name), as another process on the same database
        recorded it (none on a database of one process, where the adapter's memory holds all there is); None when
        the record is of an earlier hand (or there is none): the process that dealt `key` has not written it yet."""
        if not self._store.dialect.is_shared:
            return {}
        return await self._store.read(lambda tx: platform.dealt_in_hand(tx, table_id, key))

    async def add_dealt_in(self, table_id: str, key: str, names: dict[int, str]) -> None:
        """Players (Telegram id: name) were dealt in a Telegram table's hand `key` (an earlier hand's are forgotten)."""
        await self._write(lambda tx: platform.add_dealt_in(tx, table_id, key, names))

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
