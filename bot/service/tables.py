"""The service's tables in memory, as the parts outside the action path (start-up, pauses, chat moves, clock pages)
reach them: each table's lock, its live table, its chat, whether it is paused."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.games import Controller
from bot.games.context import Action
from bot.output import Actor, Place, Reply
from bot.service.action_log import LiveTable

Body = Callable[[Action, Controller], bool | None]
"""What an action does to a table (`Service._run`): False when it applied nothing."""
Run = Callable[[Place | None, Actor | None, str, Body, dict[str, Any] | None], Awaitable[Reply]]
"""`Service._run`: a body applied to a table and committed, with how to replay it."""
Publish = Callable[[str, Reply], Awaitable[None]]
"""`Service._publish`: a reply no player asked for handed to the table's adapter."""


@dataclass(frozen=True)
class Tables:
    """The service's own maps (the same objects its action path uses), not copies."""

    locks: defaultdict[str, asyncio.Lock]
    """Each table's lock: its actions, one at a time."""
    live: dict[str, LiveTable]
    """Tables in memory as their last committed action left them."""
    unreplayed: dict[str, LiveTable]
    """Tables start-up made live from their snapshots that have actions logged after them (after a crash): their
    first action or timer replays the log on top (`bot.service.stored_tables.load_table`) rather than reading and
    reviving the snapshot again. SQLite only, where no other process can move a snapshot on meanwhile."""
    chats: dict[str, str]
    """Each table's chat id (for replies no player asked for)."""
    paused: dict[str, float]
    """Paused tables (stored too) and since when: their timers wait until `Service.resume`. With several processes on
    one database, as the watch last read them (`watch_timers`): an action reads its table's pause under its lock."""
