"""What the Telegram adapter sends, and one chat's queue of it, where table states coalesce and texts join."""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.output import TableMessage
from bot.pacing import Window
from bot.retiring import Waiting
from bot.telegram.render import MAX_CAPTION, MAX_TEXT, length, split


@dataclass
class TextOp:
    """Send a text to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    text: str
    private_to: int | None = None
    """Set for a private message: a refusal from Telegram means the user blocked the bot."""


@dataclass
class TableOp:
    """Post or edit a table's one message."""

    table_id: str
    chat_id: int
    topic: int | None
    message: TableMessage
    language: str
    version: int = 0
    """The state's version (`TableStates`): the order in which the service produced the table's states."""
    since: float = 0.0
    """When the oldest change this state carries was queued (a newer state replacing it keeps the time)."""
    fresh: bool = True
    """Just queued: it has not yet found its chat's budget spent (a state that has waits for a newer one)."""
    repost: bool = False
    """Posted anew below, its buttons moved there (`/table`: the message had scrolled out of sight), rather than
    edited in place."""
    dealt: tuple[tuple[int, str], ...] = ()
    """The players dealt in the hand (Telegram id, the name the table reads, `bot.telegram.hints.Dealt`): the hint
    under the table names those with no private chat with the bot when it is sent."""
    announced: bool = False
    """The state (or one it replaced) came with public texts ("Bob sits down"), queued just before it: it shows their
    effect, so it never goes ahead of a public text or picture for its place (`ChatQueue._choose`)."""


@dataclass
class PhotoOp:
    """Send a picture with its caption to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    png: bytes = field(repr=False)  # never in a log line
    caption: str
    private_to: int | None = None
    """Set for a private picture: a refusal from Telegram means the user blocked the bot."""
    text: str = ""
    """A text queued just before the picture for the same place, sent as its caption's first part."""


@dataclass
class DocumentOp:
    """Send a file (a hand-history export) to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    name: str
    content: bytes = field(repr=False)
    private_to: int | None = None


@dataclass
class RetireOp:
    """Take an old table message out of play: its buttons go (they no longer act). The least urgent request there
    is (`ChatQueue.retiring`): it waits until the chat has nothing else to send and room in its budget to spare.

    The table moved on to a new message: a new hand's or round's (`text` None: the old one keeps what it showed,
    the record of its hand in the chat's history), or the same hand's posted anew below by `/table` (`text`: what
    it showed, saying the table moved below)."""

    chat_id: int
    message_id: int
    text: str | None = None
    photo: bool = False
    """The message is a photo whose caption is the table's text (the `table_photos` option)."""


Op = TextOp | TableOp | PhotoOp | DocumentOp
"""What waits in a chat's queue (a `RetireOp` waits apart, in `ChatQueue.retiring`)."""


def public_texts(ops: Iterable[Op]) -> list[TextOp]:
    """The texts everyone in the chat would have read, of ops dropped: a public text, or the one that joined a
    public picture; never a private text, a file, or a table state (the table is shown again as it stands)."""
    texts: list[TextOp] = []
    for op in ops:
        if isinstance(op, TextOp) and op.private_to is None:
            texts.append(op)
        elif isinstance(op, PhotoOp) and op.private_to is None and op.text:
            texts.append(TextOp(op.chat_id, op.topic, op.text))
    return texts


@dataclass
class ChatQueue:
    """What waits to be sent to one chat, in order, with the chat's own budget and any 429 it is waiting out.

    One request per chat is in flight at a time, so the chat sees its messages in the order they were queued.
    """

    chat_id: int
    window: Window
    ops: deque[Op] = field(default_factory=deque)
    blocked_until: float = 0.0
    """Telegram asked this chat to wait (a 429's `retry_after`) until then."""
    busy: bool = False
    """A request to this chat is in flight."""
    hold: float = 0.0
    """Seconds a table state that found the budget spent may wait for a newer state (see `Limits.hold`)."""
    notice_wait: float = 0.0
    """Seconds a notice may be overtaken by edits of the table message (see `Limits.notice_wait`)."""
    is_edit: Callable[[TableOp], bool] = lambda op: False
    """Whether a table state edits the message already posted (True) or posts a new one (False)."""
    queued_at: dict[int, float] = field(default_factory=dict)
    """When each queued op (by `id`) was queued."""
    retiring: Waiting[RetireOp] = field(default_factory=Waiting)
    """Old table messages to take out of play, by message id, oldest first: sent only when nothing else waits for
    the chat and its budget has room to spare (see `Outbox`); one per message (a second for the same one replaces
    it, keeping its text if it had one)."""
    retire_busy: bool = False
    """A `RetireOp` is in flight (beside the chat's one other request: it edits an old message, in no order)."""
    playing: dict[str, bool] = field(default_factory=dict)
    """Each table's (by id: a forum's topics are tables of one chat) newest state queued: whether someone is to act
    in it (False: a hand or round over). See `settled`."""

    @property
    def settled(self) -> bool:
        """Every table of the chat had a state queued and nobody is to act in any (their hands or rounds over): no
        action is coming soon to share the budget with, so what waits goes as soon as the window's count allows,
        not spread over the minute. One forum topic's hand ending leaves the spacing while another topic plays."""
        return bool(self.playing) and not any(self.playing.values())

    def add_text(self, op: TextOp, now: float = 0.0) -> None:
        """Queue a text: it joins the last text queued for the same place when both fit in one message and no
        picture, file or new table message was queued after it (a picture shows a moment; text after it stays after
        it)."""
        for queued in reversed(self.ops):
            if isinstance(queued, (PhotoOp, DocumentOp)) or (isinstance(queued, TableOp) and not self.is_edit(queued)):
                break  # (an edit does not move its message: a text may pass it; a new message it may not)
            if isinstance(queued, TextOp) and (queued.topic, queued.private_to) == (op.topic, op.private_to):
                if length(queued.text) + length(op.text) + 2 <= MAX_TEXT:
                    queued.text = f"{queued.text}\n\n{op.text}"
                    return
                break
        for part in split(op.text):
            self._append(TextOp(op.chat_id, op.topic, part, op.private_to), now)

    def add_table(self, op: TableOp, now: float = 0.0) -> None:
        """Queue a table state: it replaces a queued state of the same hand (only the newest is worth sending), in
        its place, or last when it comes with an announcement (`TableOp.announced`: read first, its texts queued
        just now stay before it); or it is left out when the queued one is newer (the service produced it later,
        but it was queued first)."""
        op.since, op.fresh = now, True
        for index in range(len(self.ops) - 1, -1, -1):
            queued = self.ops[index]
            if isinstance(queued, TableOp) and queued.table_id == op.table_id:
                if queued.message.key == op.message.key:
                    if queued.version > op.version:
                        queued.repost = queued.repost or op.repost
                        return
                    op.repost = op.repost or queued.repost
                    self.playing[op.table_id] = op.message.to_act is not None
                    op.since = queued.since
                    self.queued_at[id(op)] = self.queued_at.pop(id(queued), now)
                    if op.announced:  # after the texts it shows the effect of, queued since the state it replaces
                        del self.ops[index]
                        self.ops.append(op)
                    else:
                        self.ops[index] = op
                    op.announced = op.announced or queued.announced
                    return
                break  # the previous hand's last state stays: it is that hand's summary
        self.playing[op.table_id] = op.message.to_act is not None
        self._append(op, now)

    def retire(self, op: RetireOp) -> list[int]:
        """Queue an old table message's retirement (a pending one for the same message keeps its text, if any);
        return the ids of the old messages given up on to make room (`Waiting.add`)."""
        pending = self.retiring.get(op.message_id)
        if pending is not None and op.text is None:
            op = pending
        return self.retiring.add(op.message_id, op, f"chat {self.chat_id}")

    def add(self, op: PhotoOp | DocumentOp, now: float = 0.0) -> None:
        """Queue a picture or a file. A picture takes the text queued just before it for the same place as the
        start of its caption when both fit one (the showdown's text and picture: one request, not two)."""
        last = self.ops[-1] if self.ops else None
        if (isinstance(op, PhotoOp) and isinstance(last, TextOp) and not op.text
                and (last.topic, last.private_to) == (op.topic, op.private_to)
                and length(last.text) + length(op.caption) + 2 <= MAX_CAPTION):
            self.ops.pop()
            now = self.queued_at.pop(id(last), now)
            op.text = last.text
        self._append(op, now)

    def _append(self, op: Op, now: float) -> None:
        self.queued_at[id(op)] = now
        self.ops.append(op)

    def ready_in(self, now: float) -> float:
        """Seconds until this chat may be sent its next op (infinite while a request is in flight or none waits)."""
        if self.busy or not self.ops:
            return float("inf")
        budget = max(self.blocked_until - now, self.window.wait(now, spread=not self.settled), 0.0)
        if budget > 0:
            for op in self.ops:
                if isinstance(op, TableOp):
                    op.fresh = False  # it missed its turn: when the budget frees, it may wait for a newer state
            return budget
        return self._choose(now)[1]

    def take(self, now: float) -> Op:
        """Remove and return the op to send now (`ready_in(now)` said 0)."""
        op = self._choose(now)[0]
        assert op is not None
        self.ops.remove(op)
        self.queued_at.pop(id(op), None)
        return op

    def _choose(self, now: float) -> tuple[Op | None, float]:
        """The op to send next and 0, or None and how long to wait for it.

        An edit of the table message goes before the notices queued ahead of it (an edit moves no message, and
        the table is what players watch), unless the oldest notice has waited `notice_wait`, or the edit shows
        an announcement's effect (`TableOp.announced`) and a text or picture for its place waits ahead of it: the
        group reads "Bob sits down" before the table shows his seat, and sees a showdown's picture before the table
        shows its end (they take the same turns of the budget as before, in that order). An edit that found the
        budget spent waits, up to `hold` after its oldest change, for a newer state to carry with it: sent the moment
        that state comes, the new action shows at once instead of a request going to an older one. Meanwhile the
        first edit of another table (a forum's other topic) that is ready goes in its place.
        """
        notice, edits = self._notice_and_edits()
        if not edits:
            return self.ops[0], 0.0
        at, edit = next(((at, op) for at, op in edits if self._ready(op, now)), edits[0])
        if notice is not None and notice[0] < at and (self._overdue(notice[1], now) or self._announced_ahead(edit)):
            return notice[1], 0.0
        if self._ready(edit, now):
            return edit, 0.0
        return None, min(op.since for _, op in edits) + self.hold - now

    def _notice_and_edits(self) -> tuple[tuple[int, Op] | None, list[tuple[int, TableOp]]]:
        """The oldest notice queued (anything but an edit of a table message), and the edits queued, in order, the
        first of each table only (a table's states go in their order): each with its place in the queue."""
        notice: tuple[int, Op] | None = None
        edits: dict[str, tuple[int, TableOp]] = {}
        for at, op in enumerate(self.ops):
            if isinstance(op, TableOp) and self.is_edit(op):
                edits.setdefault(op.table_id, (at, op))
            elif notice is None:
                notice = at, op
        return notice, list(edits.values())

    def _overdue(self, notice: Op, now: float) -> bool:
        """Whether a notice has waited `notice_wait` (one queued at an unknown time, a retry, has)."""
        return now - self.queued_at.get(id(notice), -math.inf) >= self.notice_wait

    def _ready(self, edit: TableOp, now: float) -> bool:
        """Whether an edit may go now rather than wait for a newer state (a state where nobody is to act has no
        newer one coming soon: no waiting)."""
        return edit.fresh or edit.message.to_act is None or now - edit.since >= self.hold

    def _announced_ahead(self, edit: TableOp) -> bool:
        """Whether `edit` shows an announcement's effect and a public text or picture for its place waits ahead of
        it: a showdown's picture too long to take its result as its caption goes after that text, and the table's
        edit after both."""
        if not edit.announced:
            return False
        ahead = itertools.takewhile(lambda op: op is not edit, self.ops)
        return any(isinstance(op, (TextOp, PhotoOp)) and op.private_to is None and op.topic == edit.topic
                   for op in ahead)
