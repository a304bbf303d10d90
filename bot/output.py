"""What the service tells an adapter to show: public text, private text per player, and the table message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

TELEGRAM_PREFIX = "tg:"
"""What Telegram's chat, table and player ids start with (`tg:-100123`, `tg:-100123:0`, `tg:42`)."""


@dataclass(frozen=True, slots=True)
class Button:
    """One button: its label (already in the chat's language) and the payload it sends back when pressed.

    `payload` is `<key>|<command>` (see `bot.command_parser.button_payload`), at most 64 bytes; `private` marks the
    "my cards" kind of button whose answer only the presser may see. Not a named tuple: compiled (mypyc), a named
    tuple is made through the Python `__new__` its class is given, some six times an action.
    """

    label: str
    payload: str
    private: bool = False

    # written out, not generated: see bot/compiled.py
    def __init__(self, label: str, payload: str, private: bool = False) -> None:
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "payload", payload)
        object.__setattr__(self, "private", private)


class TableMessage:
    """The one message per hand or round that adapters post once and then edit in place.

    `key` names the hand or round (`h12`, `r7`): a new key means a new message; button payloads carry it so a
    press on an older message is recognised as stale. `text` and `buttons` may each be given as a function of no
    arguments that makes them: it is then called the first time they are read, so a state that no adapter shows
    (Telegram keeps only the newest state of a busy table's message) costs no text and no buttons. Such a function
    must draw from values captured when the state was made, never from a live table.
    """

    __slots__ = ("_buttons", "_text", "key", "retired", "to_act")

    def __init__(self, key: str, text: str | Callable[[], str],
                 buttons: tuple[Button, ...] | Callable[[], tuple[Button, ...]] = (),
                 to_act: str | None = None, retired: str | None = None) -> None:
        self.key = key
        self._text = text
        self._buttons = buttons
        self.to_act = to_act
        """The player id whose turn it is (adapters may mention him), None when nobody must act."""
        self.retired = retired
        """What the message is left reading once the table moved on to a new one and its buttons went, when that is
        not what it shows: the seats between hands, without what the next hand waited for (a Deal button no longer
        there). None: what it shows (a hand's or round's message stays the record of its hand)."""

    @property
    def text(self) -> str:
        """The message's text, written now if it was given as a function."""
        if not isinstance(self._text, str):
            self._text = self._text()
        return self._text

    @property
    def is_written(self) -> bool:
        """Whether the text is written (given as text, or read once): a state no adapter read has cost none."""
        return isinstance(self._text, str)

    @property
    def buttons(self) -> tuple[Button, ...]:
        """The message's buttons, made now if they were given as a function."""
        if callable(self._buttons):
            self._buttons = self._buttons()
        return self._buttons

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableMessage):
            return NotImplemented
        return (self.key, self.text, self.buttons, self.to_act) == (other.key, other.text, other.buttons,
                                                                   other.to_act)

    __hash__ = None  # type: ignore[assignment]  # equal messages compare by their text, which may be written late

    def __repr__(self) -> str:
        return f"TableMessage(key={self.key!r}, text={self.text!r}, buttons={self.buttons!r}, to_act={self.to_act!r})"


@dataclass(frozen=True, slots=True)
class PostedMessage:
    """Where a table's current message is on a platform, kept across restarts: the chat (or channel) it is in, the
    key of the hand or round it shows, its message id, and what it is left reading once retired
    (`TableMessage.retired`; None: what it shows)."""

    chat_id: int
    key: str
    message_id: int
    retired: str | None = None


@dataclass(frozen=True, slots=True)
class OldMessage:
    """A table message the table moved on from, waiting to lose its buttons (the adapter "retires" it as its least
    urgent request), kept across restarts until it has: the place of its table, its message id, and the text it is
    left showing (None: what it shows; `photo`: as the caption of a photo)."""

    place: Place
    message_id: int
    text: str | None = None
    photo: bool = False


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent a command: the platform's user id (prefixed, e.g. `tg:123`), display name and language hint."""

    user_id: str
    name: str
    language: str | None = None
    is_admin: bool = False
    """The platform says he may manage the channel (Discord permission, Telegram group admin)."""

    # written out, not generated: see bot/compiled.py
    def __init__(self, user_id: str, name: str, language: str | None = None, is_admin: bool = False) -> None:
        object.__setattr__(self, "user_id", user_id)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "language", language)
        object.__setattr__(self, "is_admin", is_admin)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a command was sent: the chat (wallet scope: a server or group) and the table (a channel or topic)."""

    chat_id: str
    table_id: str

    # written out, not generated: see bot/compiled.py
    def __init__(self, chat_id: str, table_id: str) -> None:
        object.__setattr__(self, "chat_id", chat_id)
        object.__setattr__(self, "table_id", table_id)

    @property
    def private(self) -> bool:
        """A private chat with the bot, where nobody else can sit down at its table: Telegram's, whose id is its
        user's, positive (a group's is negative). Read from the chat's id, so a place built from a table's ids (a
        timer's, a start-up's, another table of the chat drawn again) knows it as a command's does."""
        return self.chat_id.startswith(TELEGRAM_PREFIX) and self.chat_id[len(TELEGRAM_PREFIX):].isdigit()


@dataclass(frozen=True, slots=True)
class Picture:
    """A rendered image to post: PNG bytes, a caption, and who may see it (`to` None = the table, else one player)."""

    png: bytes
    caption: str
    to: str | None = None


@dataclass(frozen=True, slots=True)
class File:
    """A document to send (a hand-history export): its file name, its bytes, and to whom.

    `to` None posts it in the table's channel; a player id sends it to that player alone.
    """

    name: str
    content: bytes
    to: str | None = None


@dataclass
class Reply:
    """The answer to one command or timer, to show only after its transaction committed.

    - `public`: new messages for the table's channel, in order.
    - `private`: per player id, messages only that player may see (hole cards, boxes, refusals).
    - `table`: the table message's current state, or None when it did not change.
    - `files`: documents to send, each public or for one player (see `File`).
    - `error`: set when the command was refused: a short reason for the actor alone; nothing changed.
    - `pictures`: images of the table (public) or of one player's cards (`Picture.to`), after the texts.
    - `before_table`: how many of `public` are read before `table` (the rest follow it); None: all of them, the
      usual order (a line is read before the table shows what it tells). A hand over the moment it is dealt sets it,
      as a card room records it: the deal (its table), then what happened in it and after it.
    - `hand_lines`: how many of `public` are read before the pictures (the hand's own lines: its pictures follow
      them, then what its end brought about, such as a tournament's end and settlement); None: all of them.
    """

    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    table: TableMessage | None = None
    files: list[File] = field(default_factory=list)
    error: str | None = None
    pictures: list[Picture] = field(default_factory=list)
    before_table: int | None = None
    hand_lines: int | None = None

    # written out, not generated: see bot/compiled.py
    def __init__(self, public: list[str] | None = None, private: dict[str, list[str]] | None = None,
                 table: TableMessage | None = None, files: list[File] | None = None, error: str | None = None,
                 pictures: list[Picture] | None = None, before_table: int | None = None,
                 hand_lines: int | None = None) -> None:
        self.public = [] if public is None else public
        self.private = {} if private is None else private
        self.table = table
        self.files = [] if files is None else files
        self.error = error
        self.pictures = [] if pictures is None else pictures
        self.before_table = before_table
        self.hand_lines = hand_lines

    def tell(self, user_id: str, message: str) -> None:
        """Add a private message for one player."""
        self.private.setdefault(user_id, []).append(message)

    def around_table(self) -> tuple[list[str], list[str], list[str]]:
        """`public` as read around the table state and the pictures: the lines before the table state, those after
        it and before the pictures (`before_table`; none when there is no table state), and those after the pictures
        (`hand_lines`). When the pictures come first, the table state is read before them too: right after the
        hand's lines."""
        count = len(self.public)
        table = count if self.before_table is None or self.table is None else self.before_table
        pictures = count if self.hand_lines is None else self.hand_lines
        if pictures < table:
            return self.public[:pictures], [], self.public[pictures:]
        return self.public[:table], self.public[table:pictures], self.public[pictures:]

    @property
    def refused(self) -> bool:
        """Whether the command was refused (and so changed nothing)."""
        return self.error is not None


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One line of the season's standings on the clock page: a player and his result so far, already written."""

    player: str
    result: str
