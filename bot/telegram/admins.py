"""Who administers each Telegram group, read from Telegram and kept for a few minutes."""

from __future__ import annotations

import asyncio
import logging
import time

from telegram import Bot, ChatMember
from telegram.error import TelegramError

log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 300.0


class Admins:
    """Each group's administrators, from a per-chat list read once and refreshed in the background every few
    minutes (so a handler never waits behind the group's rate limit for it)."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}
        self._reads: dict[int, asyncio.Task[tuple[float, frozenset[int]]]] = {}

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group (its current id); False when unknown."""
        cached = self._admins.get(chat_id)
        if cached is None:
            cached = await self._read(chat_id)
        elif time.monotonic() - cached[0] > ADMIN_CACHE_SECONDS and chat_id not in self._reads:
            self._reads[chat_id] = asyncio.create_task(self._read(chat_id))
        return user_id in cached[1]

    def forget(self, chat_id: int) -> None:
        """A group's list is no longer needed (it became a supergroup with a new id)."""
        self._admins.pop(chat_id, None)

    async def _read(self, chat_id: int) -> tuple[float, frozenset[int]]:
        try:
            members: tuple[ChatMember, ...] = await self._bot.get_chat_administrators(chat_id)
        except TelegramError:
            log.warning("could not read the administrators of %s", chat_id, exc_info=True)
            members = ()
        finally:
            self._reads.pop(chat_id, None)
        cached = (time.monotonic(), frozenset(member.user.id for member in members))
        self._admins[chat_id] = cached
        return cached
