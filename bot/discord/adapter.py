"""The Discord adapter: slash commands and button presses become service calls; replies become messages."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot import commands as cmd
from bot.background import start_kept
from bot.discord import replies, slash
from bot.discord.answers import Answering
from bot.discord.board import PLATFORM, TableBoard
from bot.discord.client import DiscordOptions, PokerClient, make_client
from bot.discord.delivery import Delivery
from bot.discord.translator import CatalogueTranslator
from bot.i18n import languages
from bot.output import Actor, OldMessage, Place, Reply
from bot.retiring import first_look, queue_kept
from bot.service import Service

log = logging.getLogger(__name__)

PREFIX = "dc:"


class DiscordAdapter(Answering):
    """Runs the bot on Discord. Holds no game state: only which message shows each table (see `TableBoard`)."""

    def __init__(self, service: Service, token: str, options: DiscordOptions | None = None,
                 **client_options: Any) -> None:
        self.service = service
        self.options = options or DiscordOptions()
        self._token = token
        self.client = make_client(self, **client_options)
        chat_language = partial(service.language, actor=None)
        self.board = TableBoard(service.memory, self.client, language=chat_language)
        self.delivery = Delivery(self.client, self.board, language=chat_language,
                                 lost=self._lost_channel)
        self._lost: set[str] = set()
        self._pausing: set[asyncio.Task[None]] = set()
        self._heard_at: dict[str, tuple[float, Place]] = {}
        """When each table's channel (or thread) was last heard from since the start, and its place: a table another
        process paused before that plays on once this process learns the pause (`_paused_elsewhere`)."""
        self._resuming: set[asyncio.Task[None]] = set()
        """The resumes `_paused_elsewhere` started, kept until done (`stop` waits for them)."""
        self._handlers: set[asyncio.Task[Any]] = set()
        """The tasks answering interactions (discord.py's): `stop` abandons those still running after `stop_after`."""
        self._work: set[asyncio.Future[Any]] = set()
        """What interactions awaited (the service's work, reads), running on whether or not their answer is
        abandoned: a cancellation must not cut an action short between its commit and its timers."""
        self._stopping = False
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._connection: asyncio.Task[None] | None = None
        self._showing: asyncio.Task[None] | None = None
        """After a start: the tables in play being shown again (then, on PostgreSQL, the claims on old table messages
        renewed forever, `bot.retiring.queue_kept`)."""
        self._shown = asyncio.Event()
        """Set once the tables in play were shown again and the old table messages claimed were queued."""
        self.command_mentions: dict[str, str] = {}
        """Discord's mention of each slash command, from the ids the start's sync returned (`slash.command_mentions`);
        none before it, and the texts then name the commands as they are written."""
        slash.register(self.client.tree, self)

    # --- life cycle -----------------------------------------------------------------------------------------

    async def setup(self, client: PokerClient) -> None:
        """Read which message shows each table and sync the commands (any message's buttons are routed by their
        custom id: `PokerClient.on_interaction`). The sync, at every start, also gives the commands' ids, which the
        texts' mentions of them need: Discord keeps a command's id while one of its name is registered again, so
        they need no keeping between starts."""
        await self.board.load()
        await client.tree.set_translator(CatalogueTranslator())
        if self.options.guild_id is not None:
            guild = discord.Object(self.options.guild_id)
            client.tree.copy_global_to(guild=guild)
            synced = await client.tree.sync(guild=guild)
        else:
            synced = await client.tree.sync()
        self.command_mentions = slash.command_mentions(synced)
        self.board.command_mentions = self.command_mentions  # (the table messages name commands too)

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
        self.service.on_paused_elsewhere(self._paused_elsewhere)
        self._showing = asyncio.create_task(self._show_again())

    async def _show_again(self) -> None:
        """What the bot had queued before it stopped, shown and retired again (`bot.retiring.queue_kept`)."""
        shown = self.service.show_tables_in_play(PREFIX, per_second=self.options.shown_again_per_second)
        await queue_kept(shown, self.service.memory, PLATFORM, self._retire_again)

    async def _retire_again(self, messages: Iterable[OldMessage]) -> None:
        """Queue the old table messages claimed (`Delivery.retire_again`): the start's first look is done."""
        await self.delivery.retire_again(messages)
        self._shown.set()

    async def run(self) -> None:
        """Run until the connection ends (or the task is cancelled)."""
        await self.start()
        try:
            assert self._connection is not None
            await self._connection
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Answer what is being answered and send what is queued (waiting at most `stop_after` seconds), then
        abandon the interactions still being answered (`_abandon`) and close the connection. An interaction that
        comes meanwhile is told the bot is restarting, its work not started."""
        self._stopping = True
        if self._showing is not None:
            self._showing.cancel()
            await asyncio.gather(self._showing, return_exceptions=True)
            self._showing = None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.settled(), self.options.stop_after)
        await self._abandon()
        await self.delivery.close()
        await self.client.close()
        if self._connection is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._connection

    async def settled(self) -> None:
        """Wait until every interaction being answered is done (its work too, were its answer abandoned) and
        everything queued for the channels is sent (the tables a start shows again too, and those the watch let
        play on, `_paused_elsewhere`)."""
        if self._showing is not None:  # on PostgreSQL it never ends: its first look is what a start queues
            await first_look(self._showing, self._shown)
        if self._resuming:
            await asyncio.wait(set(self._resuming))
        while True:
            await self._idle.wait()
            if self._work:  # waited for, never cancelled with this wait (`asyncio.wait`, not `gather`)
                await asyncio.wait(set(self._work))
            await self.delivery.settled()
            if self._busy == 0 and not self._work:
                return

    async def _abandon(self) -> None:
        """At shutdown: the interactions still being answered are cancelled (Discord gets no answer to them), and
        waited for with the work they started, which runs to its end: an action is kept whole or not at all, and
        what the channel should see of it is queued (sent if the queues get to it before they close; a table in
        play is shown again at the next start anyway). Nothing they did goes unobserved."""
        handlers = list(self._handlers)
        for handler in handlers:
            handler.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)
        if self._work or self._pausing or self._resuming:
            await asyncio.wait({*self._work, *self._pausing, *self._resuming})

    # --- who and where ---------------------------------------------------------------------------------------

    def place(self, interaction: discord.Interaction) -> Place:
        """The chat is the guild (wallets), the table the channel or thread the interaction came from."""
        return Place(f"{PREFIX}{interaction.guild_id}", f"{PREFIX}{interaction.channel_id}")

    def actor(self, interaction: discord.Interaction) -> Actor:
        """The member who acted, with his language and whether he may organize."""
        user = interaction.user
        is_admin = interaction.permissions.manage_channels
        role = self.options.organizer_role
        if role and isinstance(user, discord.Member):
            is_admin = is_admin or any(role in (r.name, str(r.id)) for r in user.roles)
        language = str(interaction.locale).split("-")[0]
        return Actor(f"{PREFIX}{user.id}", user.display_name, language if language in languages() else None, is_admin)

    def exchange_positions(self, interaction: discord.Interaction) -> tuple[int, ...]:
        """The card positions `/exchange` may name at the table the member types in (`Service.exchange_positions`)."""
        return self.service.exchange_positions(self.place(interaction).table_id)

    # --- interactions --------------------------------------------------------------------------------------------

    async def run_command(self, interaction: discord.Interaction, line: str,
                          mentioned: Mapping[str, str] | None = None) -> None:
        """A slash command, written as the chat command it stands for (`mentioned`: the display name of each member
        it names by his player id, for its refusal; `quote_input` writes it inert there, as it writes what the member
        typed, so only the bot's own words name a command as its mention). The chat is the guild: once `/lang ru`
        chose its language, its other tables are shown again in it (`_redraw`)."""
        place, actor = self.place(interaction), self.actor(interaction)
        name = line.split()[0].lstrip("/")
        work = self.service.handle(place, actor, line)
        if mentioned:
            work = replies.with_mentions_shown(work, mentioned)
        if name == "help":
            work = replies.as_slash_commands(work, [command.name for command in self.client.tree.get_commands()])
        reply = await self._answer(interaction, place, actor, work, component=False, name=name)
        if name == "lang" and reply is not None and not reply.error and replies.chooses_chat_language(line):
            self._keep_going(self._redraw(place, actor))

    async def _redraw(self, place: Place, actor: Actor) -> None:
        """Show every other table of the guild with players seated (or a hand in play) again, in the chat's language:
        its text and its buttons, each through its channel's queue (its rate limits), as `/table` would. A table
        paused because the bot lost its channel is left as it is."""
        language = await self.service.language(place, actor)
        for table_id in await self.service.tables_of(place.chat_id):
            if table_id == place.table_id or self.service.is_paused(table_id):
                continue  # where it was typed the command showed its table
            other = Place(place.chat_id, table_id)
            try:
                reply = await self.service.execute(other, actor, cmd.Table())
            except Exception:  # one unreadable table must not keep the others in the old language
                log.exception("table %s could not be read to be shown in the new language", table_id)
                continue
            if reply.table is not None:
                state = (self.board.want(table_id, replies.channel_of(other), reply.table), reply.table)
                self.board.set_language(table_id, language)
                self.delivery.queue(other, table=state)

    async def on_press(self, interaction: discord.Interaction, channel_id: int, private: bool, payload: str) -> None:
        """A table button: an action for the service, or the "my cards" kind answered privately.

        The table is always the channel the press came from: a custom id naming another channel (forged, or
        copied from elsewhere) is refused, since its table may belong to another guild and its wallets."""
        if channel_id != interaction.channel_id:
            await self.refuse(interaction, "discord.other_table")
            return
        place, actor = self.place(interaction), self.actor(interaction)
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
        turn = self._turn()
        try:
            with self._answering():
                await self._tell(interaction, self.place(interaction), self.actor(interaction), key, turn)
        finally:
            replies.let_go(interaction)

    async def on_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The one error handler of the command tree: log with the traceback, tell the member privately."""
        log.error("slash command failed", exc_info=error)
        if interaction.guild_id is None:
            return
        await self._apologise(interaction, self.place(interaction), self.actor(interaction), self._turn())

    # --- what timers caused --------------------------------------------------------------------------------------

    async def on_timer(self, place: Place, reply: Reply) -> None:
        """Clock announcements, time-outs and next hands: queued for the channel, never waiting on the network, so
        the scheduler goes on to the next timer at once."""
        state = None
        if reply.table is not None:
            version = self.board.want(place.table_id, replies.channel_of(place), reply.table,
                                      announced=bool(replies.public_parts(reply)[0]))
            state = (version, reply.table)
        self._queue_public(place, reply, state)

    # --- a channel the bot can no longer reach -----------------------------------------------------------------

    def on_channel_gone(self, guild_id: int, channel_id: int | None) -> None:
        """A channel (or, with None, every channel of the guild) was deleted or the bot removed from the guild."""
        for place in self.delivery.places():
            if place.chat_id == f"{PREFIX}{guild_id}" and channel_id in (None, replies.channel_of(place)):
                self._lost_channel(place)

    def _lost_channel(self, place: Place, refused: Sequence[str] = ()) -> None:
        """The bot can no longer reach this table's channel (403 Missing Access, or Missing Permissions on a text: it
        may not send there, `refused`; the channel deleted, the bot removed from the guild): what waits for it is
        dropped (`Delivery.forget`), the table is paused (no time-out fires, no hand is dealt, a hand in play waits as
        it is) with those texts kept by the service for whichever process lets it play on (`_resume`), and it is
        logged once until the bot is back."""
        missed = {place.table_id: [*refused, *self.delivery.forget(place)]}
        if place.table_id in self._lost:
            if not missed[place.table_id]:
                return
        else:
            self._lost.add(place.table_id)
            log.warning("table %s: the bot can no longer reach its channel; the table is paused", place.table_id)
        start_kept(self._pausing, self.service.pause([place.table_id], missed),
                   "a table whose channel was lost could not be paused")

    def _found(self, place: Place, interaction: discord.Interaction) -> None:
        """An interaction came from a channel the bot may post in: the bot is there, with these permissions (the
        texts the channel missed while the bot could not reach it are posted first as its table plays on,
        `_play_on`)."""
        self._lost.discard(place.table_id)
        self.delivery.permissions(place, attach_files=interaction.app_permissions.attach_files)

    async def _play_on(self, place: Place) -> None:
        """A table paused because the bot had lost its channel plays on, shown again as it stands if in play (its
        table messages that waited for the channel when it was lost were dropped: a new hand's message, the last
        turn). With several processes on one database, the first interaction from a channel since the start lifts
        the pause the database holds, whichever process made it (this one may not know yet); a later one, taken for
        nothing new (no read of the database at every interaction), lifts it once the watch learns it
        (`_paused_elsewhere`)."""
        first = place.table_id not in self._heard_at
        self._heard_at[place.table_id] = (self.service.clock.now(), place)
        if self._pausing:
            await asyncio.gather(*self._pausing, return_exceptions=True)
        if first or self.service.is_paused(place.table_id):
            await self._resume(place)

    async def _resume(self, place: Place) -> None:
        """Lift the table's pause, if it has one: the texts its channel missed meanwhile (`Service.resume`, which
        gives them to one process only) are posted, then the table shown again as it stands if in play."""
        resumed = await self.service.resume([place.table_id])
        if resumed:
            self.delivery.queue(place, texts=resumed[place.table_id])
            await self.service.show_tables_in_play(place.table_id, per_second=self.options.shown_again_per_second,
                                                   exact=True)

    def _paused_elsewhere(self, paused: dict[str, float]) -> None:
        """With several processes on one database: tables another process paused (since when), which this process
        has just learned (`Service.on_paused_elsewhere`). Those whose channel was heard from here since their pause
        began play on: the channel was reachable then, and that interaction, come before this process knew of the
        pause, resumed nothing. A channel this process found lost waits for an interaction from it."""
        for table_id, since in paused.items():
            heard_at, place = self._heard_at.get(table_id, (-math.inf, None))
            if place is not None and heard_at >= since and table_id not in self._lost:
                start_kept(self._resuming, self._resume(place), "a table paused elsewhere could not be resumed")

