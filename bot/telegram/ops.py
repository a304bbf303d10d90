"""What the Telegram adapter sends, and one chat's queue of it, where table states coalesce and texts join."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from bot.output import TableMessage
from bot.telegram.budget import Window
from bot.telegram.render import MAX_TEXT, split


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


@dataclass
class PhotoOp:
    """Send a picture with its caption to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    png: bytes = field(repr=False)  # never in a log line
    caption: str
    private_to: int | None = None
    """Set for a private picture: a refusal from Telegram means the user blocked the bot."""


@dataclass
class DocumentOp:
    """Send a file (a hand-history export) to a chat (or a forum topic)."""

    chat_id: int
    topic: int | None
    name: str
    content: bytes = field(repr=False)
    private_to: int | None = None


Op = TextOp | TableOp | PhotoOp | DocumentOp


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

    def add_text(self, op: TextOp) -> None:
        """Queue a text: it joins the last text queued for the same place when both fit in one message and no
        picture or file was queued after it (a picture shows a moment; text after it stays after it)."""
        for queued in reversed(self.ops):
            if isinstance(queued, (PhotoOp, DocumentOp)):
                break
            if isinstance(queued, TextOp) and (queued.topic, queued.private_to) == (op.topic, op.private_to):
                if len(queued.text) + len(op.text) + 2 <= MAX_TEXT:
                    queued.text = f"{queued.text}\n\n{op.text}"
                    return
                break
        self.ops.extend(TextOp(op.chat_id, op.topic, part, op.private_to) for part in split(op.text))

    def add_table(self, op: TableOp) -> None:
        """Queue a table state: it replaces a queued state of the same hand (only the newest is worth sending)."""
        for index in range(len(self.ops) - 1, -1, -1):
            queued = self.ops[index]
            if isinstance(queued, TableOp) and queued.table_id == op.table_id:
                if queued.message.key == op.message.key:
                    self.ops[index] = op
                    return
                break  # the previous hand's last state stays: it is that hand's summary
        self.ops.append(op)

    def add(self, op: PhotoOp | DocumentOp) -> None:
        """Queue a picture or a file (never joined or replaced)."""
        self.ops.append(op)

    def ready_in(self, now: float) -> float:
        """Seconds until this chat may be sent its next op (infinite while a request is in flight or none waits)."""
        if self.busy or not self.ops:
            return float("inf")
        return max(self.blocked_until - now, self.window.wait(now), 0.0)
