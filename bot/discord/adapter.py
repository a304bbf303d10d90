"""The Discord adapter: slash commands and button presses become service calls; replies become messages."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord import slash
from bot.discord.board import CONTENT_LIMIT, TableBoard, clip
from bot.discord.buttons import TableButton
from bot.i18n import languages, text
from bot.output import Actor, Picture, Place, Reply
from bot.service import Service

log = logging.getLogger(__name__)

PREFIX = "dc:"


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
    edit_interval: float = 1.0
    """At most one edit of a table message per this many seconds; newer states wait and replace older ones."""
    defer_after: float = 1.5
    """Acknowledge an interaction after this long if the service has not answered (Discord allows three seconds)."""


class PokerClient(discord.Client):
    """The discord.py client: a command tree, the table buttons, and the adapter it reports to."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        super().__init__(intents=intents(), **options)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(
            self, allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
        )
        self.tree.on_error = adapter.on_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        """Before connecting: register the persistent buttons and sync the commands."""
        await self.adapter.setup(self)


class DiscordAdapter:
    """Runs the bot on Discord. Holds no game state: only which message shows each table (see `TableBoard`)."""

    def __init__(self, service: Service, token: str, options: DiscordOptions | None = None,
                 **client_options: Any) -> None:
        self.service = service
        self.options = options or DiscordOptions()
        self._token = token
        self.client = PokerClient(self, **client_options)
        self.board = TableBoard(service.store, self.client, edit_interval=self.options.edit_interval)
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._connection: asyncio.Task[None] | None = None
        slash.register(self.client.tree, self)

    # --- life cycle -----------------------------------------------------------------------------------------

    async def setup(self, client: PokerClient) -> None:
        """Register the buttons (any old message's buttons are routed by their custom id) and sync the commands."""
        client.add_dynamic_items(TableButton)
        await self.board.load()
        if self.options.guild_id is not None:
            guild = discord.Object(self.options.guild_id)
            client.tree.copy_global_to(guild=guild)
            await client.tree.sync(guild=guild)
        else:
            await client.tree.sync()

    async def start(self) -> None:
        """Log in, sync, connect, and return once the gateway is ready."""
        await self.client.login(self._token)
        self._connection = asyncio.create_task(self.client.connect())
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._connection}, return_when=asyncio.FIRST_COMPLETED)
        if self._connection in done:
            ready.cancel()
            await self._connection  # raises why it could not connect
        # only now can it post: replies caused while it was connecting (a hand voided at start-up) arrive here now
        self.service.subscribe(PREFIX, self.on_timer)

    async def run(self) -> None:
        """Run until the connection ends (or the task is cancelled)."""
        await self.start()
        try:
            assert self._connection is not None
            await self._connection
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Send pending edits and close the connection."""
        with contextlib.suppress(Exception):
            await self.settled()
        await self.client.close()
        if self._connection is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._connection

    async def settled(self) -> None:
        """Wait until every interaction being answered is done and every pending edit is sent."""
        while True:
            await self._idle.wait()
            await self.board.settle()
            if self._busy == 0:
                return

    # --- who and where ---------------------------------------------------------------------------------------

    def place(self, interaction: discord.Interaction, channel_id: int | None = None) -> Place:
        """The chat is the guild (wallets), the table the channel or thread."""
        return Place(f"{PREFIX}{interaction.guild_id}", f"{PREFIX}{channel_id or interaction.channel_id}")

    def actor(self, interaction: discord.Interaction) -> Actor:
        """The member who acted, with his language and whether he may organize."""
        user = interaction.user
        is_admin = interaction.permissions.manage_channels
        role = self.options.organizer_role
        if role and isinstance(user, discord.Member):
            is_admin = is_admin or any(role in (r.name, str(r.id)) for r in user.roles)
        language = str(interaction.locale).split("-")[0]
        return Actor(f"{PREFIX}{user.id}", user.display_name, language if language in languages() else None, is_admin)

    # --- interactions --------------------------------------------------------------------------------------------

    async def run_command(self, interaction: discord.Interaction, line: str) -> None:
        """A slash command, written as the chat command it stands for."""
        place, actor = self.place(interaction), self.actor(interaction)
        await self._answer(interaction, place, actor, self.service.handle(place, actor, line), component=False)

    async def on_press(self, interaction: discord.Interaction, channel_id: int, private: bool, payload: str) -> None:
        """A table button: an action for the service, or the "my cards" kind answered privately."""
        place, actor = self.place(interaction, channel_id), self.actor(interaction)
        if private:
            await self._answer(interaction, place, actor, self._private_view(place, actor), component=True)
            return
        key = payload.partition("|")[0]
        pressed = (key, interaction.message.id) if interaction.message else None
        await self._answer(interaction, place, actor, self.service.press(place, actor, payload), component=True,
                           pressed=pressed)

    async def _private_view(self, place: Place, actor: Actor) -> Reply:
        reply = await self.service.view(place, actor)
        own = [picture for picture in reply.pictures if picture.to == actor.user_id]
        return Reply(private=reply.private, error=reply.error, pictures=own)

    async def refuse(self, interaction: discord.Interaction, key: str) -> None:
        """Answer a malformed command at the edge, privately."""
        language = await self.service.language(self.place(interaction), self.actor(interaction))
        await interaction.response.send_message(text(language, key), ephemeral=True)

    async def _answer(self, interaction: discord.Interaction, place: Place, actor: Actor, work: Awaitable[Reply], *,
                      component: bool, pressed: tuple[str, int] | None = None) -> None:
        self._busy += 1
        self._idle.clear()
        try:
            task = asyncio.ensure_future(work)
            done, _ = await asyncio.wait({task}, timeout=self.options.defer_after)
            if not done:  # the service is slow: acknowledge now, answer in a follow-up
                if component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
            reply = await task
            language = await self.service.language(place, actor)
            if reply.table is not None:
                self.board.want(place.table_id, _channel(place), reply.table, language=language, pressed=pressed)
            await self._deliver(interaction, place, actor, reply, language, component=component)
        except Exception:
            log.exception("answering %s failed", interaction.data)
            await self._apologise(interaction, place, actor)
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def _deliver(self, interaction: discord.Interaction, place: Place, actor: Actor, reply: Reply,
                       language: str, *, component: bool) -> None:
        """The private part to the actor alone, the public part to the channel, then the table message.

        Other players' private parts are not sent: Discord can show a private message only to the member who
        acted, so each player reads his own with the "my cards" button."""
        parts = _pack([reply.error] if reply.error else reply.private.get(actor.user_id, []))
        private = parts.pop(0) if parts else ""
        public = list(reply.public)
        own = _files(picture for picture in reply.pictures if picture.to == actor.user_id)
        response = interaction.response
        if response.is_done():  # deferred
            if component:
                if private or own:
                    if private:
                        await interaction.followup.send(clip(private), ephemeral=True, **_attach(own))
                    else:
                        await interaction.followup.send(ephemeral=True, files=own)
            else:
                content = clip(private or self._done(place, language))
                if own:
                    await interaction.edit_original_response(content=content, attachments=own)
                else:
                    await interaction.edit_original_response(content=content)
        elif private or own:
            await response.send_message(clip(private) or None, ephemeral=True, **_attach(own))
        elif component:
            await response.defer()
        elif public:
            await response.send_message(clip(public.pop(0)), allowed_mentions=discord.AllowedMentions.none())
        else:
            await response.send_message(self._done(place, language), ephemeral=True)
        for part in parts:  # what did not fit one message (a few hand histories)
            await interaction.followup.send(clip(part), ephemeral=True)
        await self._post(place, public, reply.pictures)
        channel = self.client.get_partial_messageable(_channel(place))
        for file in reply.files:
            upload = discord.File(io.BytesIO(file.content), filename=file.name)
            if file.to is None:
                await channel.send(file=upload)
            elif file.to == actor.user_id:  # Discord shows a private answer only to the member who acted
                await interaction.followup.send(file=upload, ephemeral=True)
        if reply.table is not None:
            await self.board.flush(place.table_id)

    async def _post(self, place: Place, public: list[str], pictures: list[Picture]) -> None:
        """Public texts to the channel, the table's pictures attached to the last of them (or on their own)."""
        channel = self.client.get_partial_messageable(_channel(place))
        files = _files(picture for picture in pictures if picture.to is None)
        for index, message in enumerate(public):
            attached = _attach(files) if index == len(public) - 1 else {}
            await channel.send(clip(message), allowed_mentions=discord.AllowedMentions.none(), **attached)
        if files and not public:
            await channel.send(files=files)

    def _done(self, place: Place, language: str) -> str:
        message_id = self.board.message_id(place.table_id)
        if message_id is None:
            return text(language, "discord.done")
        url = f"https://discord.com/channels/{place.chat_id.removeprefix(PREFIX)}/{_channel(place)}/{message_id}"
        return text(language, "discord.table_link", url=url)

    async def _apologise(self, interaction: discord.Interaction, place: Place, actor: Actor) -> None:
        with contextlib.suppress(Exception):
            message = text(await self.service.language(place, actor), "discord.failed")
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)

    async def on_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The one error handler of the command tree: log with the traceback, tell the member privately."""
        log.error("slash command failed", exc_info=error)
        if interaction.guild_id is None:
            return
        await self._apologise(interaction, self.place(interaction), self.actor(interaction))

    # --- what timers caused --------------------------------------------------------------------------------------

    async def on_timer(self, place: Place, reply: Reply) -> None:
        """Clock announcements, time-outs and next hands: public text to the channel, then the table message."""
        self._busy += 1
        self._idle.clear()
        try:
            await self._post(place, list(reply.public), reply.pictures)
            if reply.table is not None:
                language = await self.service.language(place, None)
                self.board.want(place.table_id, _channel(place), reply.table, language=language)
                await self.board.flush(place.table_id)
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()


def _channel(place: Place) -> int:
    return int(place.table_id.removeprefix(PREFIX))


def _files(pictures: Iterable[Picture]) -> list[discord.File]:
    """Pictures as attachments, each described by its caption (at most ten: Discord's limit per message)."""
    return [discord.File(io.BytesIO(picture.png), filename=f"table-{index}.png", description=picture.caption)
            for index, picture in enumerate(pictures) if index < 10]


def _attach(files: list[discord.File]) -> dict[str, Any]:
    """The `files` argument of a send, left out when there is nothing to attach (a plain JSON request then)."""
    return {"files": files} if files else {}


def _pack(messages: list[str], limit: int = CONTENT_LIMIT) -> list[str]:
    """Messages joined by blank lines into as few Discord messages as fit `limit` characters each."""
    packed: list[str] = []
    for message in messages:
        if packed and len(packed[-1]) + 2 + len(message) <= limit:
            packed[-1] += "\n\n" + message
        else:
            packed.append(message)
    return packed
