"""The discord.py client the adapter runs on: its intents, its options, and the events it hands to the adapter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.discord.buttons import PressHandler, pressed


class ClientOwner(PressHandler, Protocol):
    """What the client reports to (the adapter), presses too: the client needs nothing else of it, so it does not
    import it."""

    options: DiscordOptions

    async def setup(self, client: PokerClient) -> None:
        """Read what it keeps and sync the commands, before connecting."""

    async def on_command_error(self, interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
        """A slash command failed."""

    def on_channel_gone(self, guild_id: int, channel_id: int | None) -> None:
        """A channel (or every channel of a guild, with None) can no longer be reached."""


def intents() -> discord.Intents:
    """Only what the bot needs: guild and channel events. Interactions arrive without any intent; the member who
    acts comes with each interaction, so no privileged intent (members, presences, message content) is asked."""
    return discord.Intents(guilds=True)


@dataclass(frozen=True)
class DiscordOptions:
    """How the adapter behaves (the defaults suit production; tests shorten the timings)."""

    guild_id: int | None = None
    """Sync the slash commands to this guild only (instant; for development). None syncs them globally."""
    organizer_role: str | None = None
    """Members with this role (name or id) may run organizer commands, besides those who may manage the channel."""
    defer_after: float = 1.5
    """Acknowledge an interaction after this long if the service has not answered (Discord allows three seconds)."""
    stop_after: float = 10.0
    """At shutdown, wait at most this long for the channels' queues to be sent."""
    shown_again_per_second: float = 10.0
    """How many tables in play a start shows again a second (`Service.show_tables_in_play`): a fifth of the 50
    requests a second Discord allows a bot, the rest left to the players (each channel's queue sends at once)."""
    shard_count: int = 1
    """Gateway shards of the whole bot (`DISCORD_SHARD_COUNT`; Discord requires more than one past 2,500 guilds)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process opens (`DISCORD_SHARD_IDS`); None opens them all. Several processes on one PostgreSQL
    database each open their own."""


class PokerClient(discord.Client):
    """The discord.py client: a command tree, the table buttons, and the adapter it reports to."""

    def __init__(self, adapter: ClientOwner, **options: Any) -> None:
        super().__init__(intents=intents(), **options)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(
            self, allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
        )
        self.tree.on_error = adapter.on_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        """Before connecting: the adapter reads what it keeps and syncs the commands."""
        await self.adapter.setup(self)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press of a table button goes to the adapter, routed by its custom id (`buttons.pressed`), whichever
        message carries it now: discord.py dispatches none of them (`buttons.TableButton`), so none is handled
        twice. This event is discord.py's for every interaction, raised once its own dispatch is done."""
        table_press = pressed(interaction)
        if table_press is not None:
            await self.adapter.on_press(interaction, *table_press)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its table can no longer be reached."""
        self.adapter.on_channel_gone(channel.guild.id, channel.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        """A thread was deleted: its table can no longer be reached."""
        self.adapter.on_channel_gone(thread.guild.id, thread.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a guild: none of its tables can be reached."""
        self.adapter.on_channel_gone(guild.id, None)


class ShardedPokerClient(PokerClient, discord.AutoShardedClient):
    """The same client on the gateway shards the options name (`DISCORD_SHARD_COUNT`, `DISCORD_SHARD_IDS`), for a bot
    run as several processes."""

    def __init__(self, adapter: ClientOwner, **options: Any) -> None:
        shard_ids = adapter.options.shard_ids
        super().__init__(adapter, shard_count=adapter.options.shard_count,
                         shard_ids=list(shard_ids) if shard_ids is not None else None, **options)


def make_client(adapter: ClientOwner, **options: Any) -> PokerClient:
    """The plain client for a bot of one shard (the default), the sharded one when the options name shards."""
    sharded = adapter.options.shard_count > 1 or adapter.options.shard_ids is not None
    return (ShardedPokerClient if sharded else PokerClient)(adapter, **options)
