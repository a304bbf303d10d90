"""The table messages in Discord: one per hand or round, posted once, then edited in place at a bounded rate."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

import discord

from bot.discord.buttons import table_view
from bot.output import TableMessage
from bot.store import Store

log = logging.getLogger(__name__)

PREFIX = "dc:"
CONTENT_LIMIT = 2000
"""Discord refuses longer message content."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS discord_table_messages (
    table_id    TEXT PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    key         TEXT NOT NULL,
    message_id  INTEGER NOT NULL
)
"""


@dataclass
class _Shown:
    """What one table's channel shows, and what it should show."""

    channel_id: int
    key: str | None = None
    message_id: int | None = None
    rendered: tuple[str, tuple[object, ...]] | None = None
    wanted: TableMessage | None = None
    language: str = "en"
    last_edit: float = float("-inf")
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    later: asyncio.Task[None] | None = None


def render(message: TableMessage) -> str:
    """The message text: the table, and a mention of whoever must act (a new message pings him; edits never do)."""
    content = message.text
    if message.to_act and message.to_act.startswith(PREFIX):
        content += f"\n<@{message.to_act.removeprefix(PREFIX)}>"
    return clip(content)


def clip(content: str) -> str:
    """Cut a message to Discord's limit, marking the cut."""
    return content if len(content) <= CONTENT_LIMIT else content[: CONTENT_LIMIT - 1] + "…"


class TableBoard:
    """Keeps each table's current message: posts a new one for a new hand or round (new key), edits it otherwise.

    Edits are coalesced: a message is edited at most once per `edit_interval` seconds, always to the newest state,
    so a burst of actions costs one edit (Discord limits edits per channel). The message id of each table's
    current message is kept in a small table of the store, so after a restart the bot edits the same message,
    whose buttons keep working because their ids carry the table and the hand.
    """

    def __init__(self, store: Store, client: discord.Client, *, edit_interval: float = 1.0) -> None:
        self._store = store
        self._client = client
        self._edit_interval = edit_interval
        self._shown: dict[str, _Shown] = {}

    async def load(self) -> None:
        """Create the adapter's table if needed and read which message each table shows."""

        def read(tx: object) -> list[tuple[str, int, str, int]]:
            db = tx.db  # type: ignore[attr-defined]
            db.execute(_SCHEMA)
            return [tuple(row) for row in db.execute(
                "SELECT table_id, channel_id, key, message_id FROM discord_table_messages")]

        for table_id, channel_id, key, message_id in await self._store.transact(read, now=time.time()):
            self._shown[table_id] = _Shown(channel_id, key, message_id)

    def want(self, table_id: str, channel_id: int, message: TableMessage, *, language: str = "en",
             pressed: tuple[str, int] | None = None) -> None:
        """Record the newest table message (synchronously, so replies are taken in the service's order).

        `pressed` is the (key, message id) of the message whose button caused it, adopted when the board does not
        know that hand's message (it was posted before the store kept it).
        """
        shown = self._shown.setdefault(table_id, _Shown(channel_id))
        shown.wanted = message
        shown.language = language
        if pressed is not None and pressed[0] == message.key and shown.key != message.key:
            shown.key, shown.message_id, shown.rendered = pressed[0], pressed[1], None

    def message_id(self, table_id: str) -> int | None:
        """The id of the table's current message, if known."""
        shown = self._shown.get(table_id)
        return shown.message_id if shown else None

    async def flush(self, table_id: str) -> None:
        """Bring the channel up to date: post a new hand's message now; edit the current one when allowed."""
        shown = self._shown.get(table_id)
        if shown is None:
            return
        async with shown.lock:
            message = shown.wanted
            if message is None:
                return
            rendered = (render(message), tuple((b.label, b.payload, b.private) for b in message.buttons))
            if shown.key == message.key and shown.message_id is not None:
                if rendered == shown.rendered:
                    return
                wait = shown.last_edit + self._edit_interval - time.monotonic()
                if wait > 0:
                    if shown.later is None or shown.later.done():
                        shown.later = asyncio.create_task(self._flush_later(table_id, wait))
                    return
                await self._edit(shown, message, rendered)
            else:
                await self._post(table_id, shown, message, rendered)

    async def _flush_later(self, table_id: str, wait: float) -> None:
        await asyncio.sleep(wait)
        try:
            await self.flush(table_id)
        except Exception:
            log.exception("delayed edit of table %s failed", table_id)

    async def _post(self, table_id: str, shown: _Shown, message: TableMessage,
                    rendered: tuple[str, tuple[object, ...]]) -> None:
        channel = self._client.get_partial_messageable(shown.channel_id)
        posted = await channel.send(rendered[0], view=table_view(shown.channel_id, message, shown.language),
                                    allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False))
        shown.key, shown.message_id, shown.rendered = message.key, posted.id, rendered
        shown.last_edit = time.monotonic()

        def save(tx: object) -> None:
            tx.db.execute(  # type: ignore[attr-defined]
                "INSERT INTO discord_table_messages(table_id, channel_id, key, message_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(table_id) DO UPDATE SET channel_id = excluded.channel_id, key = excluded.key, "
                "message_id = excluded.message_id",
                (table_id, shown.channel_id, message.key, posted.id),
            )

        await self._store.transact(save, now=time.time())

    async def _edit(self, shown: _Shown, message: TableMessage, rendered: tuple[str, tuple[object, ...]]) -> None:
        assert shown.message_id is not None
        partial = self._client.get_partial_messageable(shown.channel_id).get_partial_message(shown.message_id)
        shown.last_edit = time.monotonic()
        try:
            await partial.edit(content=rendered[0], view=table_view(shown.channel_id, message, shown.language))
        except discord.NotFound:  # somebody deleted it: the next flush posts a fresh one
            shown.key = shown.message_id = None
            return
        shown.rendered = rendered

    async def settle(self) -> None:
        """Wait for every pending edit (at shutdown, and in tests)."""
        while True:
            pending = [s.later for s in self._shown.values() if s.later is not None and not s.later.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)
