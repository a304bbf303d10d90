"""The table messages in Discord: one per hand or round, posted once, then edited in place to the newest state."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field

import discord

from bot.adapter_memory import AdapterMemory
from bot.discord.buttons import release, table_view
from bot.discord.markup import plain
from bot.discord.pages import CONTENT_LIMIT, clip
from bot.discord.typed import NO_MENTIONS, as_slash, with_command_mentions
from bot.i18n import DEFAULT_LANGUAGE, text
from bot.output import OldMessage, Place, PostedMessage, TableMessage
from bot.table_states import State, TableStates

log = logging.getLogger(__name__)

PREFIX = "dc:"
UNKNOWN_MESSAGE = 10008
PLATFORM = "discord"
"""The platform name the service keeps this adapter's table messages under."""

Rendered = tuple[str, tuple[object, ...], str | None]


@dataclass(eq=False)
class Unread:
    """An announcement not sent yet (each is its own: `TableBoard.heard` names it)."""

    version: int
    """The version of the state it came with; for a text without one (a clock line), that of the table's newest
    state when it was queued (it is read before any state numbered after that, not before that one)."""
    before: State | None
    """The newest state numbered before it: the furthest a press may show the table while it waits."""
    alone: bool = False
    """It came without a table state: read once the delivery queue sent it, or showed a state numbered after it."""


@dataclass
class _Shown:
    """What one table's channel shows, and the newest state it should show."""

    channel_id: int
    key: str | None = None
    message_id: int | None = None
    version: int = 0
    """The version of the state the message shows: that of the last request to complete."""
    high: State | None = None
    """The newest state any completed request showed (an older one may complete after it and hide it)."""
    rendered: Rendered | None = None
    language: str | None = None
    """The language of the table's own labels (the "my cards" button); None: not known yet, as after a restart
    (`TableBoard.show` asks the chat's before it shows the table)."""
    buttons: bool | None = None
    """Whether the message shows buttons (None: unknown, as after a restart)."""
    retired: str | None = None
    """What the message is left reading once retired, when not what it shows (`TableMessage.retired`: the seats
    between hands); kept with its id across restarts, so a restarted bot retires it as this one would have."""
    unread: list[Unread] = field(default_factory=list)
    """The announcements not sent yet, oldest first: those that came with a state (`want`) and the texts that came
    without one (`said`). The board's one record of announcements: `show` asks it too whether a newer state's texts
    are still to be read, where the Telegram adapter asks `TableStates.announced_after` (it keeps no such record: its
    queue orders a group's texts and table edits by itself)."""


def render(message: TableMessage, language: str, commands: Mapping[str, str]) -> str:
    """The message text: the table as plain text, the commands it names as Discord shows them in the chat's
    `language` (`as_slash`), each a mention of the command where `commands` has it (`with_command_mentions`), and a
    mention of whoever must act (a new message pings him; edits never do), kept when the table is cut to Discord's
    length."""
    to_act = _to_act(message)
    mention = "" if to_act is None else f"\n<@{to_act}>"
    return _fitted(plain(as_slash(message.text, language)), CONTENT_LIMIT - len(mention), commands) + mention


def _fitted(content: str, limit: int, commands: Mapping[str, str]) -> str:
    """`content` cut to `limit` characters with the commands it names as their mentions (`with_command_mentions`): cut
    before they go in, so no cut splits one; when they make it longer than `limit` (a mention is longer than the
    command it names), cut at the longest length whose mentions still fit, searched for (a table this long is rare)."""
    mentioned = with_command_mentions(clip(content, limit), commands)
    if len(mentioned) <= limit:
        return mentioned
    fitted, low, high = clip(content, 1), 2, limit - 1
    while low <= high:
        cut = (low + high) // 2
        candidate = with_command_mentions(clip(content, cut), commands)
        if len(candidate) <= limit:
            fitted, low = candidate, cut + 1
        else:
            high = cut - 1
    return fitted


def _mentions(message: TableMessage) -> discord.AllowedMentions:
    """Whom a new table message may ping: the player to act, and nobody else (a display name may hold a mention)."""
    to_act = _to_act(message)
    users = False if to_act is None else [discord.Object(to_act)]
    return discord.AllowedMentions(everyone=False, users=users, roles=False, replied_user=False)


def _to_act(message: TableMessage) -> int | None:
    """The Discord user id of the player to act, None when nobody (or another platform's player) is to act."""
    if message.to_act and message.to_act.startswith(PREFIX):
        return int(message.to_act.removeprefix(PREFIX))
    return None


def _left_showing(left: str, language: str, commands: Mapping[str, str]) -> str:
    """What a table message the table moved on from is left showing, then that the table moved below (its seats and
    stacks are no longer the table's): `left`, the last state it showed (a hand's or round's record), or for the
    seats between hands who sat and who won the last hand, without what the next hand waited for
    (`TableMessage.retired`: a Deal button no longer there); the commands it names as their mentions (`render`)."""
    note = text(language, "discord.table_moved")
    return _fitted(plain(as_slash(left, language)), CONTENT_LIMIT - len(note) - 2, commands) + "\n\n" + note


def _has_buttons(message: TableMessage) -> bool:
    """Whether the message is shown with buttons (`table_view` adds "my cards" to any that has some or a turn)."""
    return bool(message.buttons or message.to_act)


class TableBoard:
    """Keeps each table's current message: posts a new one for a new hand or round (new key), edits it otherwise.

    Every state the service produces gets a version (`want`, see `TableStates`); the message is brought to a state
    by the channel's delivery queue (`show`) or by the press that caused it (the interaction updates its own
    message, then reports it with `shown`). A state older than the one the message shows is never sent. The message
    id of each table's current message is kept by the service (`service.memory`), so after a restart the bot edits
    the same message, whose buttons keep working because their ids carry the table and the hand; so is each old
    message waiting to lose its buttons (the delivery queue retires it), until it has, so a restart retires it too.
    """

    def __init__(self, kept: AdapterMemory, client: discord.Client, *,
                 language: Callable[[Place], Awaitable[str]]) -> None:
        self._kept = kept
        self._client = client
        self._language = language
        """The chat's language at a place, for a table whose language no interaction told yet."""
        self._shown: dict[str, _Shown] = {}
        self._states = TableStates()
        self.command_mentions: Mapping[str, str] = NO_MENTIONS
        """Discord's mention of each slash command (`DiscordAdapter.command_mentions`, given once the start's sync
        returned their ids): the commands a table message names are its mentions."""

    async def load(self) -> None:
        """Read which message each table shows."""
        for table_id, posted in (await self._kept.table_messages(PLATFORM)).items():
            self._shown[table_id] = _Shown(posted.chat_id, posted.key, posted.message_id, retired=posted.retired)

    async def retired(self, place: Place, message_ids: Iterable[int]) -> None:
        """Old table messages of the place no longer wait to lose their buttons: they did, or were given up on."""
        await self._kept.forget_retiring(PLATFORM, place.chat_id, message_ids)

    def want(self, table_id: str, channel_id: int, message: TableMessage, *,
             pressed: tuple[str, int] | None = None, announced: bool = False) -> int:
        """Record the newest table state and return its version (call it as soon as the service answered, so
        versions follow the service's order).

        `pressed` is the (key, message id) of the message whose button caused it, adopted when the board does not
        know that hand's message (it was posted before the store kept it). `announced`: it came with public texts,
        queued before it (`show` never shows it ahead of them, nor `current` while they are not sent: `read`).
        """
        shown = self._shown.setdefault(table_id, _Shown(channel_id))
        before = self._states.newest(table_id) if announced else None
        version, _ = self._states.number(table_id, message)  # its announcement is kept in `unread` alone
        if announced:  # read once its texts are sent: by the queue (`show`), or by the press itself
            shown.unread.append(Unread(version, before))
        if pressed is not None and pressed[0] == message.key and shown.key != message.key:
            shown.key, shown.message_id, shown.rendered, shown.version = pressed[0], pressed[1], None, 0
            shown.buttons = shown.retired = None
        return version

    def set_language(self, table_id: str, language: str) -> None:
        """The language of the table's own labels (the "my cards" button)."""
        if table_id in self._shown:
            self._shown[table_id].language = language

    def message_id(self, table_id: str) -> int | None:
        """The id of the table's current message, if known."""
        shown = self._shown.get(table_id)
        return shown.message_id if shown else None

    def current(self, table_id: str, message_id: int) -> State | None:
        """The state a press on the message `message_id` may show in it: the newest, or while an announcement waits
        to be sent (`unread`), the newest numbered before it, if newer than what the message shows ("Bob ran out of
        time." is read before the table shows him folded: the queue's entry after it shows the rest). None when
        that state belongs to another message (a new hand), or there is none to show."""
        shown = self._shown.get(table_id)
        if shown is None or shown.message_id != message_id:
            return None
        if shown.unread:
            latest = shown.unread[0].before
            if latest is not None and latest[0] <= shown.version:
                return None
        else:
            latest = self._states.newest(table_id)
        return latest if latest is not None and latest[1].key == shown.key else None

    def said(self, table_id: str, channel_id: int) -> Unread:
        """A public text that came without a table state (a clock line) is queued: an announcement like the others,
        read before any state numbered after it is shown or a later press's line posted (`heard` once sent)."""
        shown = self._shown.setdefault(table_id, _Shown(channel_id))
        before = self._states.newest(table_id)
        unread = Unread(0 if before is None else before[0], before, alone=True)
        shown.unread.append(unread)
        return unread

    def waiting(self, table_id: str, version: int | None) -> bool:
        """Whether an announcement numbered before the state `version` (any, for None) is not sent yet."""
        shown = self._shown.get(table_id)
        return shown is not None and bool(shown.unread) and (version is None or shown.unread[0].version < version)

    def read(self, table_id: str, version: int) -> None:
        """The announcements that came with the states up to `version` are sent (and the texts without a state
        queued before it was numbered, so ahead of it): the table may show what they tell."""
        shown = self._shown.get(table_id)
        if shown is not None and shown.unread:
            shown.unread = [entry for entry in shown.unread
                            if entry.version > version or (entry.alone and entry.version == version)]

    def heard(self, table_id: str, said: Iterable[Unread]) -> None:
        """The delivery queue sent these texts that came without a table state (`said`)."""
        shown = self._shown.get(table_id)
        if shown is not None:
            sent = tuple(said)  # (each is its own: compared by identity)
            shown.unread = [entry for entry in shown.unread if entry not in sent]

    def forget(self, table_id: str) -> None:
        """The table's channel is lost and what waited for it dropped (`Delivery.forget`): its announcements are
        no longer waited for (the texts kept for when it is back are queued anew then), so none holds back a state
        or a line once the channel is usable again."""
        shown = self._shown.get(table_id)
        if shown is not None:
            shown.unread.clear()

    def is_edit(self, table_id: str, state: State) -> bool:
        """Whether showing `state` edits the table's current message (rather than posting a new one)."""
        shown = self._shown.get(table_id)
        return shown is not None and shown.message_id is not None and shown.key == state[1].key

    def content(self, table_id: str, message: TableMessage) -> tuple[str, discord.ui.View]:
        """What a send or edit showing `message` carries: its text and its buttons."""
        shown = self._shown[table_id]
        # known by then: an interaction tells it before it answers (`set_language`), `show` asks it
        language = shown.language or DEFAULT_LANGUAGE
        return render(message, language, self.command_mentions), table_view(shown.channel_id, message, language)

    async def shown(self, table_id: str, state: State) -> State | None:
        """A request showing `state` completed (an interaction updated its own message). Returns the newer state
        to show again when an older request completed last and hid it, else None. What the message is now left
        reading once retired is recorded when that changed (the hand's message turned into the seats between hands,
        or they changed): one comparison at every edit, a write only between hands."""
        shown = self._shown[table_id]
        shown.version = state[0]
        shown.rendered = self._rendered(state[1], shown.language)
        shown.buttons = _has_buttons(state[1])
        if shown.retired != state[1].retired and shown.message_id is not None and shown.key is not None:
            shown.retired = state[1].retired
            await self._kept.remember_table_message(PLATFORM, table_id, PostedMessage(
                shown.channel_id, shown.key, shown.message_id, shown.retired))
        if shown.high is None or shown.high[1].key != state[1].key or shown.high[0] <= state[0]:
            shown.high = state
            return None
        return shown.high

    def _rendered(self, message: TableMessage, language: str | None) -> Rendered:
        """What a message showing `message` looks like: its text, the game's buttons and the language of the labels
        the adapter adds (a game may write the same text in every language: `/lang` must still redraw its "my
        cards")."""
        buttons = tuple((b.label, b.payload, b.private) for b in message.buttons)
        return render(message, language or DEFAULT_LANGUAGE, self.command_mentions), buttons, language

    async def show(self, place: Place, state: State) -> OldMessage | None:
        """Bring the table's channel to `state` (the delivery queue calls it, in the channel's order): post a new
        hand's message, edit the current one, or nothing when the message already shows this state or a newer one
        (or a newer one of its hand came with an announcement: "Bob sits down" is read before his seat is shown).
        Returns the message the table moved on from when a new one was posted and the old one may still show buttons
        (kept with the new one as waiting to lose them: the delivery queue retires it, `_left_showing`), else None."""
        table_id = place.table_id
        shown = self._shown[table_id]
        if shown.language is None:  # first awaited: all below reads the table's states as they are now
            shown.language = await self._language(place)
        self.read(table_id, state[0])  # its entry is queued after its texts: they are sent
        newest = self._states.newest_of_hand(table_id, state)  # a newer state of the same hand came meanwhile
        if newest[0] > state[0] and shown.unread:  # (all after `state`, once read)
            return None  # with texts not read yet: its own entry, queued after them, shows it
        state = newest
        moved_from = None
        while True:
            version, message = state
            if shown.key == message.key and shown.message_id is not None:
                if version <= shown.version or self._rendered(message, shown.language) == shown.rendered:
                    return moved_from
                if not await self._edit(table_id, shown, message):
                    continue  # somebody deleted it: post a fresh one
            else:
                old = _moved_from(place, shown, self.command_mentions)
                await self._post(table_id, shown, message, old)
                moved_from = old or moved_from
            newer = await self.shown(table_id, state)
            if newer is None:
                return moved_from
            state = newer

    async def _post(self, table_id: str, shown: _Shown, message: TableMessage, retiring: OldMessage | None) -> None:
        channel = self._client.get_partial_messageable(shown.channel_id)
        content, view = self.content(table_id, message)
        mentions = _mentions(message)
        try:
            posted = await channel.send(content, view=view, allowed_mentions=mentions)
        finally:
            release(view)
        shown.key, shown.message_id, shown.high, shown.retired = message.key, posted.id, None, message.retired
        kept = PostedMessage(shown.channel_id, message.key, posted.id, message.retired)
        await self._kept.remember_table_message(PLATFORM, table_id, kept, retiring=retiring)

    async def _edit(self, table_id: str, shown: _Shown, message: TableMessage) -> bool:
        """Edit the current message; False (and the message forgotten) when it no longer exists."""
        assert shown.message_id is not None
        partial = self._client.get_partial_messageable(shown.channel_id).get_partial_message(shown.message_id)
        try:
            content, view = self.content(table_id, message)
            try:
                await partial.edit(content=content, view=view)
            finally:
                release(view)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            shown.key = shown.message_id = shown.retired = None  # (nothing left to retire)
            await self._kept.forget_table_message(PLATFORM, table_id)
            return False
        return True


def _moved_from(place: Place, shown: _Shown, commands: Mapping[str, str]) -> OldMessage | None:
    """The table's current message, about to be left for a new one, as it is to be retired: None when it shows no
    buttons; else with the newest state it showed (`_left_showing`); when that is not known (a restart), with what it
    was kept as left reading (`_Shown.retired`), or as it is."""
    if shown.message_id is None or shown.buttons is False:
        return None
    last = shown.high
    if last is not None and last[1].key == shown.key:
        left = last[1].text if last[1].retired is None else last[1].retired
    elif shown.retired is not None:
        left = shown.retired
    else:
        return OldMessage(place, shown.message_id)
    return OldMessage(place, shown.message_id, _left_showing(left, shown.language or DEFAULT_LANGUAGE, commands))
