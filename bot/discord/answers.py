"""Answering an interaction: the service's work run in time, its reply's public part queued for the channel in the
service's order, and the interaction's own answer (a command's reply; a press's line, its pressed message)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from functools import partial
from typing import Any, TypeVar

import discord

from bot.discord import replies
from bot.discord.board import TableBoard
from bot.discord.buttons import release
from bot.discord.client import DiscordOptions
from bot.discord.delivery import Delivery
from bot.discord.markup import plain
from bot.discord.pages import pack
from bot.discord.typed import as_slash, names_typed, with_command_mentions
from bot.i18n import text
from bot.output import Actor, Picture, Place, Reply
from bot.output import File as OutFile
from bot.service import Service
from bot.table_states import State

log = logging.getLogger(__name__)
T = TypeVar("T")

PREFIX = "dc:"
MAX_PAGES = 4
"""A private answer longer than this many messages is sent as a file instead."""


class Answering:
    """How the Discord adapter answers an interaction (`DiscordAdapter` is one: it holds what this uses, and gets a
    lost channel's table back, `_found` and `_play_on`); this module imports nothing of the adapter."""

    service: Service
    options: DiscordOptions
    board: TableBoard
    delivery: Delivery
    _stopping: bool
    _busy: int
    _idle: asyncio.Event
    _handlers: set[asyncio.Task[Any]]
    _work: set[asyncio.Future[Any]]
    command_mentions: Mapping[str, str]

    def _found(self, place: Place, interaction: discord.Interaction) -> None:
        """An interaction came from a channel the bot may post in (the adapter's: a lost channel is back)."""
        raise NotImplementedError

    async def _play_on(self, place: Place) -> None:
        """A table paused because the bot had lost its channel plays on (the adapter's)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def _answering(self) -> Iterator[None]:
        """Count an interaction being answered, for `settled`, and keep its task, for `stop`."""
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()
            self._handlers.discard(handler)

    async def _answer(self, interaction: discord.Interaction, place: Place, actor: Actor,
                      work: Coroutine[Any, Any, Reply], *,
                      component: bool, pressed: tuple[str, int] | None = None,
                      name: str = "answer") -> Reply | None:
        """Run the service's work and answer the interaction; what the channel should see goes to its queue. Returns
        the service's reply (None when the work was not run, or failed).

        The interaction's own answer goes first (a press updates its message with the table's new state, after its
        public line if it has one: `_announce`): the channel's queued messages wait for it, and the rest of the
        private part follows as ephemeral follow-ups.
        Whatever is awaited before that answer (a lost channel's table played on, the service's work, the chat's
        language) is awaited `_in_time`. Where the bot may not post (`replies.cannot_post`), the work is not run: the
        member alone is told what an admin must grant, and a table paused there stays paused."""
        turn = self._turn()
        with self._answering():
            try:
                refused = "discord.stopping" if self._stopping else replies.cannot_post(interaction)
                if refused is not None:  # a table that cannot post waits: played on, it would lose the channel again
                    work.close()
                    await self._tell(interaction, place, actor, refused, turn)
                    return None
                self._found(place, interaction)
                queue = partial(self._queue_answered, place, actor, turn, component=component)
                served = self._keep_going(self._served(place, work, pressed, queue))
                try:
                    reply, state, texts_queued = await self._in_time(interaction, served, turn)
                except asyncio.CancelledError:  # abandoned (`stop`): the work goes on, and the channel gets its part
                    turn.unacknowledged = True  # (`_queue_answered` queues all of it, the line too)
                    served.add_done_callback(partial(self._abandoned_work_done, place))
                    raise
                language = await self._in_time(interaction, self.service.language(place, actor), turn,
                                               public=turn.line is not None)
                self.board.set_language(place.table_id, language)
                if turn.unacknowledged:  # Discord takes no answer to it any more: the channel has its part
                    return reply
                shown_by_press = state if not (component and texts_queued) else None  # else after them, by the queue
                later = await self._respond(interaction, place, actor, reply, turn, shown_by_press, name=name)
                turn.answered.set()
                for send in later:
                    await send()
                return reply
            except Exception:
                log.exception("answering %s failed", interaction.data)
                await self._apologise(interaction, place, actor, turn)
                return None
            finally:
                if turn.line is not None:  # not posted by the interaction: the channel's queue posts it, in its place
                    self.delivery.queue_first(place, turn.line, turn.answered, turn.pictures)
                if turn.posting is not None and not turn.posting.done():  # abandoned while its line is on its way
                    turn.posting.add_done_callback(lambda _: turn.answered.set())
                else:
                    turn.answered.set()
                replies.let_go(interaction)

    def _behind(self, place: Place, state: State | None) -> bool:
        """Whether an earlier announcement still waits in the channel's queue (a timer's, held by a rate limit): a
        press's or a command's line then waits behind it too, read after it (a command is answered privately with
        where the table is: its public answer would be posted at once, above the held one)."""
        return self.board.waiting(place.table_id, None if state is None else state[0])

    def _abandoned_work_done(self, place: Place, served: asyncio.Future[Any]) -> None:
        """The service's work for an interaction whose answer was abandoned is done (what the channel should see of
        it was queued as it ended, `_served`): its failure, if it failed, is logged."""
        if not served.cancelled() and (error := served.exception()) is not None:
            log.error("table %s: the work of an abandoned interaction failed", place.table_id, exc_info=error)

    def _keep_going(self, work: Awaitable[T]) -> asyncio.Future[T]:
        """`work` as a task that runs to its end whether or not its awaiter is cancelled (`_in_time` shields it),
        kept for `settled` and `stop` until then, its outcome marked seen (its awaiter, if any is left, has it)."""
        task = asyncio.ensure_future(work)
        if task not in self._work:
            self._work.add(task)
            task.add_done_callback(self._work_done)
        return task

    def _work_done(self, task: asyncio.Future[Any]) -> None:
        self._work.discard(task)
        if not task.cancelled():
            task.exception()

    def _queue_public(self, place: Place, reply: Reply, state: State | None, *, texts: list[str] | None = None,
                      gate: asyncio.Event | None = None, pictured: bool = False) -> None:
        """Queue for the channel what it should see of a reply: its public texts (`texts`, when the interaction's own
        answer took the first), its table state, the texts read after it, its public pictures (unless the
        interaction's line took them: `pictured`), the texts read after them, and its public files."""
        before, after, last = replies.public_parts(reply, self.command_mentions)
        self.delivery.queue(place, texts=before if texts is None else texts, table=state, later=after, gate=gate,
                            pictures=() if pictured else public_pictures(reply), last=last,
                            files=[file for file in reply.files if file.to is None])

    def _turn(self) -> replies.Turn:
        """An interaction's answer starts: it must be acknowledged within `defer_after` from now."""
        return replies.Turn(asyncio.get_running_loop().time() + self.options.defer_after)

    async def _in_time(self, interaction: discord.Interaction, work: Awaitable[T], turn: replies.Turn, *,
                       public: bool = False) -> T:
        """`work`'s result, the interaction acknowledged first if it is not done by the turn's deadline: Discord
        refuses an interaction not acknowledged within three seconds ("Unknown interaction"), so nothing awaited
        before its first response may hold that up. A deferred press is answered later in the pressed message (or a
        follow-up), a deferred command in its "thinking" message: the channel's if `public`, else the member's.
        If the acknowledgement fails, that is logged and the turn marked `unacknowledged`; the work goes on. It goes
        on too if this is cancelled (`_keep_going`)."""
        task = self._keep_going(work)
        if interaction.response.is_done() or turn.unacknowledged:
            return await asyncio.shield(task)
        done, _ = await asyncio.wait({task}, timeout=max(0.0, turn.deadline - asyncio.get_running_loop().time()))
        if not done:
            turn.deferred = True
            try:
                if interaction.type == discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=not public, thinking=True)
            except Exception:
                log.exception("acknowledging %s failed; its work goes on", interaction.data)
                turn.unacknowledged = True
        return await asyncio.shield(task)

    async def _served(self, place: Place, work: Coroutine[Any, Any, Reply], pressed: tuple[str, int] | None,
                      queue: Callable[[Reply, State | None], bool]) -> tuple[Reply, State | None, bool]:
        """The service's reply, its table state numbered and its public part queued at once (`queue`, which says
        whether texts of it were queued), with no await between: versions and the channel's queue follow the
        service's order (a timer's announcement that comes meanwhile is read after it). A table paused because the
        bot had lost its channel plays on first (`_play_on`): if that fails, the work is closed unstarted (the caller
        logs the failure)."""
        try:
            await self._play_on(place)
        except BaseException:
            work.close()
            raise
        reply = await work
        state = None
        if reply.table is not None:
            version = self.board.want(place.table_id, replies.channel_of(place), reply.table, pressed=pressed,
                                      announced=bool(replies.public_parts(reply)[0]))
            state = (version, reply.table)
        return reply, state, queue(reply, state)

    def _queue_answered(self, place: Place, actor: Actor, turn: replies.Turn, reply: Reply, state: State | None, *,
                        component: bool) -> bool:
        """Queue what the channel should see of an interaction's reply, waiting for its answer (`Turn.answered`),
        but for the public line the interaction posts itself (`Turn.line`: a command's public answer, a press's whole
        line if it fits one message), when nothing held makes it wait (`_behind`). Returns whether texts were queued.

        A press's line without a table state is queued too (an announcement of its own, `TableBoard.said`): nothing
        queued would wait for it as its follow-up, and a timer's line queued after it could be posted first. A
        command's line without one (a `/set` or `/lang` announcement) stays its public answer, and holds its place in
        the channel's queue until it is given (`Delivery.hold`). A command already deferred (`Turn.deferred`, even
        while Discord has not answered the defer yet) queues its line: its "thinking" message is the member's alone."""
        public = replies.public_parts(reply, self.command_mentions)[0]  # (those after its table state follow it)
        if public and not turn.unacknowledged and not self._behind(place, state) and (
                (component and state is not None)
                or (not component and not turn.deferred and not replies.private_part(reply, actor))):
            turn.line, *public = pack(public) if component else public
            if state is None and not component:  # its answer posts it: what is queued after it waits for that
                self.delivery.hold(place, turn.answered)
            if not public and not replies.public_parts(reply)[1]:  # nothing between the line and them; Discord
                turn.pictures = tuple(public_pictures(reply))  # lets an interaction attach them without Attach Files
        self._queue_public(place, reply, state, texts=public, gate=turn.answered, pictured=bool(turn.pictures))
        return bool(public)

    async def _respond(self, interaction: discord.Interaction, place: Place, actor: Actor, reply: Reply,
                       turn: replies.Turn, state: State | None, *, name: str) -> list[Callable[[], Awaitable[Any]]]:
        """The interaction's own answer; returns the follow-ups to send once it is given (the rest of a long
        private answer, the actor's files). The bot's own words in it ("The table: <link>", "the answer is long")
        are in the actor's language, read only when they are said.

        Other players' private parts are not sent: Discord can show a private message only to the member who
        acted, so each player reads his own with the "my cards" button."""
        response = interaction.response
        lines = replies.private_part(reply, actor)
        language, first = "", turn.line
        if any(names_typed(line) for line in lines):  # (rare: waiting for his language costs a read)
            language = await self._in_time(interaction, self.service.private_language_of(place, actor), turn)
            if turn.unacknowledged:
                return []
            lines = [as_slash(line, language) for line in lines]
        pages = pack([with_command_mentions(plain(line), self.command_mentions) for line in lines])
        files = [replies.upload(file) for file in reply.files if file.to == actor.user_id]
        own = replies.files(picture for picture in reply.pictures if picture.to == actor.user_id)
        long = len(pages) > MAX_PAGES
        component = interaction.type == discord.InteractionType.component
        if not language and (long or not (component or pages or own or first is not None)):
            language = await self._in_time(interaction, self.service.private_language_of(place, actor), turn)
            if turn.unacknowledged:  # Discord takes no answer to it any more
                return []
        if long:  # too long to read as messages: one file
            whole = "\n\n".join(lines)
            files.insert(0, replies.upload(OutFile(f"{name}.txt", whole.encode())))
            pages = [text(language, "discord.long_answer")]
        private = pages.pop(0) if pages else None
        later: list[Callable[[], Awaitable[Any]]] = [
            partial(interaction.followup.send, page, ephemeral=True) for page in pages]
        later += [partial(interaction.followup.send, file=file, ephemeral=True) for file in files]
        if component:
            if first is not None:  # the channel reads the line before the table shows what it says
                await self._announce(interaction, place, turn, state)
            if first is not None or (state is not None and await self._update(interaction, place)):
                if private or own:
                    later.insert(0, partial(interaction.followup.send, **replies.ephemeral(private, own)))
            elif response.is_done():
                if private or own:
                    await interaction.followup.send(**replies.ephemeral(private, own))
            elif private or own:
                await response.send_message(**replies.ephemeral(private, own))
            else:
                await response.defer()
        elif response.is_done():  # a deferred slash command: its "thinking" message becomes the answer
            content = private or first or self._done(place, language, state)
            pictured = turn.pictures if first is not None and not private else ()
            await interaction.edit_original_response(content=content, attachments=[*own, *replies.files(pictured)],
                                                     allowed_mentions=discord.AllowedMentions.none())
            if not private:  # (a command with a private part has no line of its own: `_queue_answered`)
                turn.line = None
        elif private or own:
            await response.send_message(**replies.ephemeral(private, own))
        elif first is not None:
            await response.send_message(first, files=replies.files(turn.pictures),
                                        allowed_mentions=discord.AllowedMentions.none())
            turn.line = None
        else:
            await response.send_message(self._done(place, language, state), ephemeral=True)
        return later

    async def _announce(self, interaction: discord.Interaction, place: Place, turn: replies.Turn,
                        state: State | None) -> None:
        """A press whose reply has a public line: acknowledged (deferred), the line posted as its follow-up, then the
        pressed message shows the table's new state (`_update`, through the interaction too). Three requests where
        an update alone is one, all on the interaction's own bucket: none waits for the channel's queue or spends its
        buckets, and the line is read before the seat, the fold or the hand's end it tells of is shown.
        Should Discord refuse it, the channel's queue posts the line ahead of the rest of the reply, which waits for
        the answer (`Delivery.queue_first`), and shows the table after it."""
        assert turn.line is not None
        turn.posting = self._keep_going(self._follow_up(interaction, place, turn.line, turn.pictures, turn.answered))
        turn.line = None  # the follow-up's now, whatever becomes of this answer
        if not await asyncio.shield(turn.posting):
            return
        if state is not None:
            self.board.read(place.table_id, state[0])  # (none before it waits: `_behind`)
            await self._update(interaction, place)

    async def _follow_up(self, interaction: discord.Interaction, place: Place, line: str,
                         pictures: tuple[Picture, ...], answered: asyncio.Event) -> bool:
        """Post a press's line as its follow-up, with the pictures read with it (`Turn.pictures`), acknowledging the
        press first if it is not yet; should Discord refuse either, the channel's queue posts the line and its
        pictures ahead of the rest of the reply (`Delivery.queue_first`). Run to its end even when the answer is
        abandoned (Discord may have the line already: it is not posted twice). Returns whether the line was the
        follow-up."""
        try:
            if not interaction.response.is_done():
                await interaction.response.defer()
            await interaction.followup.send(line, files=replies.files(pictures),
                                            allowed_mentions=discord.AllowedMentions.none())
        except Exception:
            log.exception("the line of %s was not posted as its follow-up; the channel's queue posts it",
                          interaction.data)
            self.delivery.queue_first(place, line, answered, pictures)
            return False
        return True

    async def _update(self, interaction: discord.Interaction, place: Place) -> bool:
        """Show the table's newest state in the pressed message itself, if it is the table's current message:
        the interaction's own answer (UPDATE_MESSAGE), which spends nothing of the channel's bucket."""
        if interaction.message is None:
            return False
        state = self.board.current(place.table_id, interaction.message.id)
        if state is None:
            return False
        content, view = self.board.content(place.table_id, state[1])
        try:
            if interaction.response.is_done():  # deferred: edit the pressed message through the interaction
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.response.edit_message(content=content, view=view)
        finally:
            release(view)
        newer = await self.board.shown(place.table_id, state)
        if newer is not None:  # an older state completed last and hid this one: show the newest again
            self.delivery.queue(place, table=newer)
        return True

    def _done(self, place: Place, language: str, state: State | None) -> str:
        """A command's answer when it has nothing else to say: a link to the table's message, or "Done." when there
        is none yet or the reply's state opens a new one (a round's first ANTE), still to be posted below the old."""
        message_id = self.board.message_id(place.table_id)
        if message_id is None or (state is not None and not self.board.is_edit(place.table_id, state)):
            return text(language, "discord.done")
        url = f"https://discord.com/channels/{place.chat_id.removeprefix(PREFIX)}/{replies.channel_of(place)}/{message_id}"
        return text(language, "discord.table_link", url=url)

    async def _apologise(self, interaction: discord.Interaction, place: Place, actor: Actor,
                         turn: replies.Turn) -> None:
        with contextlib.suppress(Exception):
            await self._tell(interaction, place, actor, "discord.failed", turn)

    async def _tell(self, interaction: discord.Interaction, place: Place, actor: Actor, key: str,
                    turn: replies.Turn) -> None:
        """Tell the member alone the catalogue's `key`, in his language: as the interaction's answer, or in a
        follow-up once it was answered or deferred (nothing once its acknowledgement failed)."""
        language = await self._in_time(interaction, self.service.private_language_of(place, actor), turn)
        if turn.unacknowledged:
            return
        message = text(language, key)
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)


def public_pictures(reply: Reply) -> list[Picture]:
    """The reply's pictures for the channel (not a player's own)."""
    return [picture for picture in reply.pictures if picture.to is None]
