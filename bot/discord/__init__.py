"""The Discord adapter (discord.py 2.x): translates interactions into service calls and replies into messages."""

from __future__ import annotations

from typing import Protocol

from bot.discord.adapter import DiscordAdapter
from bot.discord.client import DiscordOptions, intents
from bot.service import Service

__all__ = ["DiscordAdapter", "DiscordOptions", "intents", "run_discord"]


class DiscordSettings(Protocol):
    """The settings the adapter reads (`bot.config.Settings` has them, from `.env`)."""

    @property
    def discord_token(self) -> str | None:
        """The bot token."""

    @property
    def discord_guild(self) -> int | None:
        """The guild to sync commands to (None: globally)."""

    @property
    def discord_organizer_role(self) -> str | None:
        """The role whose members organize."""

    @property
    def discord_shard_count(self) -> int:
        """The bot's gateway shards."""

    @property
    def discord_shard_ids(self) -> tuple[int, ...] | None:
        """The shards this process opens (None: all)."""


async def run_discord(service: Service, settings: DiscordSettings) -> None:
    """Run the bot on Discord until cancelled. The caller runs `service.scheduler.run()` alongside."""
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    options = DiscordOptions(guild_id=settings.discord_guild, organizer_role=settings.discord_organizer_role,
                             shard_count=settings.discord_shard_count, shard_ids=settings.discord_shard_ids)
    await DiscordAdapter(service, settings.discord_token, options).run()
