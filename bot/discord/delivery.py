"""Outgoing channel messages: one ordered queue per channel, sent in the background, so no channel waits on another."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import discord

from bot.clock import Clock, SystemClock
from bot.discord import replies
from bot.discord.board import TableBoard, Unread
from bot.discord.pages import CONTENT_LIMIT, pack
from bot.i18n import text
from bot.output import File, OldMessage, Picture, Place
from bot.pacing import Window
from bot.retiring import Waiting
from bot.table_states import State

log = logging.getLogger(__name__)

PREFIX = "dc:"
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL = 50001, 50013, 10003
EDITS, EDIT_SECONDS = 5, 5.0
"""Discord's bucket for message edits in a channel: 5 in 5 seconds."""
SPARE_EDITS = 2
"""Edits of a channel that may still go at once after an old table message's retirement."""
RETIRE_AFTER = 1.0
"""Seconds an old table message waits before its buttons go: a press on it answered just before the new message
was posted (its interaction edits the message itself) lands first and is not undone."""


@dataclass
class _Entry:
    """One thing to send: a text (with the pictures read with it, `Delivery._join`), the table's state, pictures or
    a file; or nothing, the place of a line its interaction posts itself (`Delivery.hold`). It waits for `gate` (the
    interaction that caused it must answer first)."""

    gate: asyncio.Event | None
    text: str | None = None
    table: tuple[str, State] | None = None
    pictures: tuple[Picture, ...] = ()
    file: File | None = None
    said: tuple[Unread, ...] = ()
    """The announcements without a table state this text ends (`TableBoard.said`), read once it is sent."""
    worded: bool = False
    """Pictures read under the lines their reply queued just before them (`Delivery._join` attaches them there)."""

    @property
    def ready(self) -> bool:
        return self.gate is None or self.gate.is_set()


@dataclass
class _Channel:
    """One channel's queue, its sender, and what the bot may not do there."""

    place: Place
    entries: deque[_Entry] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None
    attach_denied: bool = False
    noticed: bool = False
    """The missing Attach Files permission was named in the channel."""
    retiring: Waiting[tuple[float, str | None]] = field(default_factory=Waiting)
    """Old table messages to take out of play (their buttons go), by message id, with when each may go and the text
    it is left showing (None: what it shows)."""
    retirer: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the retirer may have work it could not do before: the channel's sender finished, or retirements
    changed."""
    edits: Window = field(default_factory=lambda: Window(EDITS, EDIT_SECONDS))
    """The bot's edits of the channel's messages through its bucket (table states, retirements), each counted from
    when it started."""


class Delivery:
    """Sends what the service asks to show in a channel, in the order asked, without the caller waiting.

    Each channel has its own queue and sender, so a slow or rate-limited channel (discord.py waits out the
    channel's bucket inside the request) delays nobody else. Waiting table states of one hand are coalesced (only
    the newest is sent) and waiting texts are joined where they fit one message. A reply's pictures go under the
    lines it queued before them (a hand's lines, then its picture under them, as a card room reads it; the table
    message's edit between them waits), else in messages of their own: when the bot may not attach files, the texts
    and the table message still go, and the missing permission is named once.

    When a table moves on to a new message (a new hand's or round's), the old one's buttons go, and it is left showing
    the last state it showed (the seats between hands without what the next hand waited for) and that the table moved
    below (`TableBoard.show`; the channel's record of that moment, never read as the table's now), in one edit of its
    text and its buttons together: the least urgent request, sent by a task of its own beside the channel's
    sender (so it never holds a reply), only when nothing waits for the channel, nothing is being sent to it, and
    the channel's edit bucket keeps room for two more edits after it. The store keeps each old message from when the
    new one is recorded (`TableBoard.show`) until it is retired or given up on, so those still waiting when the bot
    stops (a crash, or any stop: `close` drops them) are queued again after its next start (`retire_again`).

    `clock` is what an old message's wait (`RETIRE_AFTER`) and the channel's edit bucket are counted by (its monotonic
    time): a test may drive a fake one, and a loaded machine then stretches nothing it asserts.
    """

    def __init__(self, client: discord.Client, board: TableBoard, *, language: Callable[[Place], Awaitable[str]],
                 lost: Callable[[Place, list[str]], None], clock: Clock | None = None) -> None:
        self._client = client
        self._clock = clock or SystemClock()
        self._board = board
        self._language = language
        self._lost = lost
        self._channels: dict[int, _Channel] = {}
        self.retirer_wakes = 0
        """How often a retirer looked whether it may retire (it waits for its turn, it does not poll)."""

    def queue(self, place: Place, *, texts: Iterable[str] = (), table: State | None = None,
              later: Iterable[str] = (), pictures: Iterable[Picture] = (), last: Iterable[str] = (),
              files: Iterable[File] = (), gate: asyncio.Event | None = None) -> None:
        """Queue a reply's public part: its texts, then the table's state, then the texts read after it (`later`: a
        hand over at its deal, `Reply.before_table`), then its pictures, the texts read after them (`last`: what a
        hand's end brought about, `Reply.hand_lines`) and its files. Texts without a table state after them are an
        announcement of their own (`TableBoard.said`); with one, showing the state reads them."""
        channel = self._channel(place)
        worded = self._texts(place, channel, texts, gate, alone=table is None)
        if table is not None:
            channel.entries.append(_Entry(gate, table=(place.table_id, table)))
            worded = self._texts(place, channel, later, gate, alone=True) or worded
        shown = tuple(pictures)
        if shown:
            channel.entries.append(_Entry(gate, pictures=shown, worded=worded))
        self._texts(place, channel, last, gate, alone=True)
        channel.entries.extend(_Entry(gate, file=file) for file in files)
        self._start(channel)

    def _texts(self, place: Place, channel: _Channel, texts: Iterable[str], gate: asyncio.Event | None, *,
               alone: bool) -> bool:
        """Queue texts as messages (whether there were any); `alone`: no table state follows them, they are an
        announcement of their own."""
        pages = pack(list(texts))
        channel.entries.extend(_Entry(gate, text=page) for page in pages)
        if pages and alone:
            channel.entries[-1].said = (self._board.said(place.table_id, _channel_id(place)),)
        return bool(pages)

    def queue_first(self, place: Place, line: str, gate: asyncio.Event, pictures: Iterable[Picture] = ()) -> None:
        """A line its interaction could not post (Discord refused its follow-up), with the pictures it was to carry:
        queued ahead of the rest of its reply, which waits for `gate` and so is still read after it. When that rest
        holds no table state (whose showing reads the line), the line is an announcement of its own until sent
        (`TableBoard.said`)."""
        channel = self._channel(place)
        rest = [index for index, entry in enumerate(channel.entries) if entry.gate is gate]
        entry = _Entry(gate, text=line)
        if not any(channel.entries[index].table is not None for index in rest):
            entry.said = (self._board.said(place.table_id, _channel_id(place)),)
        at = rest[0] if rest else len(channel.entries)
        shown = tuple(pictures)
        if shown:
            channel.entries.insert(at, _Entry(gate, pictures=shown, worded=True))
        channel.entries.insert(at, entry)
        self._start(channel)

    def hold(self, place: Place, gate: asyncio.Event) -> None:
        """A public line its interaction posts itself with no table state after it (a command's public answer) holds
        its place: what is queued after it waits for that answer (`gate`), and until then it is an announcement of
        its own (`TableBoard.said`), which a press's line waits behind too. Should the answer not post it, the line
        is queued ahead of this place (`queue_first`)."""
        channel = self._channel(place)
        channel.entries.append(_Entry(gate, said=(self._board.said(place.table_id, _channel_id(place)),)))
        self._start(channel)

    def permissions(self, place: Place, *, attach_files: bool) -> None:
        """What an interaction told of the bot's permissions in its channel."""
        channel = self._channel(place)
        if attach_files:  # try pictures again; the permission stays named once (an upload may still be refused)
            channel.attach_denied = False
        else:
            channel.attach_denied = True

    def places(self) -> list[Place]:
        """Every channel the bot has sent to (or been asked to)."""
        return [channel.place for channel in self._channels.values()]

    def forget(self, place: Place) -> list[str]:
        """Drop what waits for a channel the bot can no longer reach; return its texts, oldest first (for the service
        to keep, `Service.pause`; table states and pictures are not kept: the table is shown again as it stands when
        the channel is back). The board forgets their announcements: none is read in this channel any more."""
        channel = self._channels.get(_channel_id(place))
        texts: list[str] = []
        if channel is not None:
            texts = [entry.text for entry in channel.entries if entry.text is not None]
            channel.entries.clear()
            channel.retiring.clear()
            channel.wake.set()
        self._board.forget(place.table_id)
        return texts

    async def settled(self) -> None:
        """Wait until everything queued has been sent (or has failed and been logged)."""
        while True:
            running = [c.task for c in self._channels.values() if c.task is not None and not c.task.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def retired(self) -> None:
        """Wait until every old table message waiting to lose its buttons has (or its request failed, logged)."""
        while True:
            running = [c.retirer for c in self._channels.values() if c.retirer is not None and not c.retirer.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def close(self) -> None:
        """Stop sending (at shutdown, after `settled` had its chance); old messages not yet retired keep their
        buttons (answered as stale) until the next start retires them."""
        tasks = [task for c in self._channels.values() for task in (c.task, c.retirer) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- the sender of one channel ------------------------------------------------------------------------------

    def _channel(self, place: Place) -> _Channel:
        return self._channels.setdefault(_channel_id(place), _Channel(place))

    def _start(self, channel: _Channel) -> None:
        """Start the channel's sender if it has something to send and is not running."""
        if channel.entries and (channel.task is None or channel.task.done()):
            channel.task = asyncio.create_task(self._run(channel))
            channel.task.add_done_callback(lambda _: channel.wake.set())  # the retirer's turn

    async def _run(self, channel: _Channel) -> None:
        # no await after the loop: a reply queued while this task runs is always seen by it
        while channel.entries:
            _drop_superseded(channel.entries)
            first = channel.entries[0]
            if first.gate is not None and not first.gate.is_set():
                await first.gate.wait()
                continue
            entry = channel.entries.popleft()
            try:
                await self._send(channel, entry)
            except (discord.Forbidden, discord.NotFound) as error:
                # Missing Permissions on a text or a table message: the bot may not send there (a refused upload, the
                # other meaning of it, is dealt with in `_send`; a link's preview left out is no error)
                if error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL):
                    log.exception("sending to channel %s failed", channel.place.table_id)
                    continue
                refused = [entry.text] if entry.text is not None else []  # (joined with those after it)
                self._lost(channel.place, refused + self.forget(channel.place))
            except Exception:
                log.exception("sending to channel %s failed", channel.place.table_id)

    async def _send(self, channel: _Channel, entry: _Entry) -> None:
        target = self._client.get_partial_messageable(_channel_id(channel.place))
        if entry.text is None and entry.table is None and not entry.pictures and entry.file is None:
            self._board.heard(channel.place.table_id, entry.said)  # (`hold`: its interaction posted the line)
        elif entry.text is not None:
            self._join(channel, entry)
            await self._send_text(channel, target, entry)
            if entry.said:
                self._board.heard(channel.place.table_id, entry.said)
        elif entry.table is not None:
            if self._board.is_edit(*entry.table):
                channel.edits.stamp(self._clock.monotonic())
            moved_from = await self._board.show(channel.place, entry.table[1])
            if moved_from is not None:
                await self._retire(channel, moved_from)
        elif channel.attach_denied:
            await self._notice(channel, target)
        else:
            files = replies.files(entry.pictures) if entry.pictures else [
                discord.File(io.BytesIO(entry.file.content), filename=entry.file.name)] if entry.file else []
            try:
                await target.send(files=files)
            except discord.Forbidden as error:
                if error.code != MISSING_PERMISSIONS:
                    raise
                channel.attach_denied = True
                await self._notice(channel, target)

    async def _send_text(self, channel: _Channel, target: discord.PartialMessageable, entry: _Entry) -> None:
        """Post a text with the pictures joined to it; an upload refused (Missing Permissions: no Attach Files) posts
        the text alone and names the missing permission, as for a picture alone."""
        assert entry.text is not None
        mentions = discord.AllowedMentions.none()
        if not entry.pictures:
            await target.send(entry.text, allowed_mentions=mentions)
            return
        try:
            await target.send(entry.text, files=replies.files(entry.pictures), allowed_mentions=mentions)
        except discord.Forbidden as error:
            if error.code != MISSING_PERMISSIONS:
                raise
            channel.attach_denied = True
            await target.send(entry.text, allowed_mentions=mentions)
            await self._notice(channel, target)

    async def retire_again(self, waiting: Iterable[OldMessage]) -> None:
        """Queue the old table messages that still waited to lose their buttons when the bot stopped."""
        for old in waiting:
            await self._retire(self._channel(old.place), old)

    async def _retire(self, channel: _Channel, old: OldMessage) -> None:
        """Queue an old table message to lose its buttons (see the class's docstring); one queued already keeps the
        text it is to be left showing when `old` has none (as the store does)."""
        due = self._clock.monotonic() + RETIRE_AFTER
        queued = channel.retiring.get(old.message_id)
        left = old.text if old.text is not None or queued is None else queued[1]
        given_up = channel.retiring.add(old.message_id, (due, left), f"channel {channel.place.table_id}")
        channel.wake.set()
        if channel.retirer is None or channel.retirer.done():
            channel.retirer = asyncio.create_task(self._retire_all(channel))
        await self._board.retired(channel.place, given_up)

    async def _retire_all(self, channel: _Channel) -> None:
        """Retire the channel's old messages one by one, each when its time and the edit bucket allow and nothing else
        is sent to the channel; between them it sleeps until then, or until the sender is done (`_Channel.wake`)."""
        while channel.retiring:
            self.retirer_wakes += 1
            channel.wake.clear()
            message_id, (due, left) = next(iter(channel.retiring.items()))
            now = self._clock.monotonic()
            wait = max(due - now, channel.edits.wait(now, spread=False, spare=SPARE_EDITS))
            if channel.entries or (channel.task is not None and not channel.task.done()):
                wait = math.inf  # something else is being sent: the sender wakes this when it is done
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(None if wait == math.inf else wait):
                        await channel.wake.wait()
                continue
            del channel.retiring[message_id]
            channel.edits.stamp(now)
            partial = self._client.get_partial_messageable(_channel_id(channel.place)).get_partial_message(message_id)
            try:
                if left is None:
                    await partial.edit(view=None)
                else:
                    await partial.edit(content=left, view=None)
            except discord.HTTPException as error:  # deleted, or the bot may no longer see the channel
                log.info("old table message %s of %s left as it is (%s)", message_id, channel.place.table_id, error)
            except Exception:
                log.exception("could not retire table message %s of %s", message_id, channel.place.table_id)
            await self._board.retired(channel.place, [message_id])  # done with it (a cancelled edit is not)

    def _join(self, channel: _Channel, first: _Entry) -> None:
        """Join to the text (and its announcements) the waiting texts after it that fit one message. Edits of the
        table message between them are passed over (an edit does not move the message, so it may come after them); a
        new message ends the text, and so do pictures, which it carries when they are its reply's (`_Entry.worded`) and
        the bot may attach files."""
        assert first.text is not None
        index = 0
        while index < len(channel.entries):
            entry = channel.entries[index]
            if not entry.ready:
                break
            if entry.text is not None:
                if len(first.text) + 2 + len(entry.text) > CONTENT_LIMIT:
                    break
                first.text += "\n\n" + entry.text
                first.said += entry.said
                del channel.entries[index]
            elif entry.table is not None and self._board.is_edit(*entry.table):
                index += 1
            else:
                if entry.pictures and entry.worded and not channel.attach_denied:
                    first.pictures = entry.pictures
                    del channel.entries[index]
                break

    async def _notice(self, channel: _Channel, target: discord.PartialMessageable) -> None:
        """Name the missing Attach Files permission in the channel, once."""
        if channel.noticed:
            return
        language = await self._language(channel.place)
        await target.send(text(language, "discord.need_attach_files"), allowed_mentions=discord.AllowedMentions.none())
        channel.noticed = True  # only once posted: refused (the bot may not send there either), it is named when back


def _drop_superseded(entries: deque[_Entry]) -> None:
    """Leave out each waiting table state whose hand has a newer waiting state, and each waiting picture of the
    table followed by a newer one (it shows the same board with more cards): only the newest is shown. An entry still
    waiting for its interaction's answer stays (its gate holds what comes after it: a press's line is read first)."""
    newest: dict[tuple[str, str], int] = {}
    last_picture = -1
    for index, entry in enumerate(entries):
        if entry.table is not None:
            newest[(entry.table[0], entry.table[1][1].key)] = index
        elif entry.pictures:
            last_picture = index
    kept = [entry for index, entry in enumerate(entries)
            if not entry.ready or ((entry.table is None or newest[(entry.table[0], entry.table[1][1].key)] == index)
                                   and (not entry.pictures or index == last_picture))]
    if len(kept) < len(entries):
        entries.clear()
        entries.extend(kept)


def _channel_id(place: Place) -> int:
    return int(place.table_id.removeprefix(PREFIX))
