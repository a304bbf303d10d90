"""Telegram shapes for the service's output: places from chats, inline keyboards, command lists, split texts."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterable, Sequence

from telegram import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MaybeInaccessibleMessage,
    Message,
    MessageEntity,
)

from bot import commands as cmd
from bot.i18n import text
from bot.output import TELEGRAM_PREFIX, Button, Place, TableMessage
from engine.text import quote_input

log = logging.getLogger(__name__)

PREFIX = TELEGRAM_PREFIX
MAX_TEXT = 4096
"""Telegram's limit on one message's text (as every limit here, counted by `length`)."""
MAX_ALERT = 200
"""Telegram's limit on a callback answer's text."""
MAX_CAPTION = 1024
"""Telegram refuses longer photo captions."""
MAX_CALLBACK_DATA = 64
ROW_WIDTH = 3


def place_of(chat_id: int, topic_id: int | None) -> Place:
    """The service's place for a Telegram chat (the wallet scope) and forum topic (the table; 0 without one); a
    private chat's id is its user's, positive (a group's is negative: `Place.private`)."""
    return Place(f"{PREFIX}{chat_id}", f"{PREFIX}{chat_id}:{topic_id or 0}")


def chat_and_topic(table_id: str) -> tuple[int, int | None]:
    """Where a table's messages go: the chat id and the forum topic (None for the chat itself)."""
    chat, _, topic = table_id.removeprefix(PREFIX).rpartition(":")
    return int(chat), (int(topic) or None)


def topic_of(message: MaybeInaccessibleMessage) -> int | None:
    """The forum topic a message was said in, None outside one (the group itself)."""
    return message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None


def user_key(user_id: int) -> str:
    """The service's player id for a Telegram user."""
    return f"{PREFIX}{user_id}"


def telegram_user_id(player_id: str) -> int | None:
    """The Telegram user id behind a player id, None for another platform's player."""
    if not player_id.startswith(PREFIX):
        return None
    try:
        return int(player_id.removeprefix(PREFIX))
    except ValueError:
        return None


_PLAYER_ID = re.compile(rf"(?<![\w:]){re.escape(PREFIX)}[0-9]+")
"""A Telegram player id within a text (`tg:105`)."""


def with_mentioned_ids(line: str, entities: Sequence[MessageEntity]) -> tuple[str, dict[str, str]]:
    """A command line with each mention of a user without a username (a `text_mention`: Telegram shows his full
    name, which other players may share, and carries his id) put as his player id (`tg:<id>`), which the service
    finds him by; the rest as typed. With it, the text of each mention (the name as the message shows it) by the
    player id put in its place, for `with_mentions_shown`."""
    mentions = [entity for entity in entities if entity.type == MessageEntity.TEXT_MENTION and entity.user]
    if not mentions:
        return line, {}
    encoded = line.encode("utf-16-le")  # entities count UTF-16 units
    shown: dict[str, str] = {}
    for entity in sorted(mentions, key=lambda entity: entity.offset, reverse=True):
        assert entity.user is not None
        start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
        shown[user_key(entity.user.id)] = encoded[start:end].decode("utf-16-le")
        encoded = encoded[:start] + user_key(entity.user.id).encode("utf-16-le") + encoded[end:]
    return encoded.decode("utf-16-le"), shown


def with_mentions_shown(answer: str, shown: dict[str, str]) -> str:
    """An answer to a line of `with_mentioned_ids` with each mentioned player id it quotes back as typed (a user the
    chat never saw is refused as unknown, and the service knows him by no name) put as the mention showed him."""
    return _PLAYER_ID.sub(lambda found: quote_input(shown[found[0]]) if found[0] in shown else found[0], answer)


def keyboard(buttons: Iterable[Button]) -> InlineKeyboardMarkup | None:
    """The inline keyboard for a table message: action buttons in rows of three, the private ones on a last row."""
    actions: list[InlineKeyboardButton] = []
    private: list[InlineKeyboardButton] = []
    for button in buttons:
        if len(button.payload.encode()) > MAX_CALLBACK_DATA:
            log.error("button payload over %d bytes dropped: %r", MAX_CALLBACK_DATA, button.payload)
            continue
        (private if button.private else actions).append(
            InlineKeyboardButton(button.label, callback_data=button.payload)
        )
    rows = [actions[i : i + ROW_WIDTH] for i in range(0, len(actions), ROW_WIDTH)]
    if private:
        rows.append(private)
    return InlineKeyboardMarkup(rows) if rows else None


def has_private_button(message: TableMessage | None) -> bool:
    """Whether the table message offers a "my cards" kind of button."""
    return message is not None and any(button.private for button in message.buttons)


def fingerprint(message_text: str, markup: InlineKeyboardMarkup | None) -> str:
    """A digest of what a table message shows, to skip edits that would change nothing."""
    body = json.dumps([message_text, markup.to_dict() if markup else None], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def table_text(message: TableMessage, language: str, unreached: Sequence[str] = ()) -> str:
    """The table message's text; when it has a "my cards" button and players dealt in have no private chat with
    the bot (`unreached`: their names), a line telling them how to get their cards there."""
    body = message.text
    if unreached and has_private_button(message):
        body = f"{body}\n\n{text(language, 'tg.cards_hint', names=', '.join(unreached))}"
    return clip(body)


def length(message_text: str) -> int:
    """A text's length as Telegram counts it against its limits: in UTF-16 code units, as its entities' offsets
    (a character beyond the Basic Multilingual Plane, most emoji, counts two)."""
    return len(message_text.encode("utf-16-le")) // 2


def _fitting(message_text: str, limit: int) -> int:
    """How many characters of the text fit in `limit` UTF-16 units (never half of a character)."""
    units = 0
    for index, char in enumerate(message_text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return index
    return len(message_text)


def clip(message_text: str, limit: int = MAX_TEXT) -> str:
    """Cut a text to Telegram's limit, marking the cut."""
    if length(message_text) <= limit:
        return message_text
    return message_text[: _fitting(message_text, limit - 1)] + "…"


def split(message_text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split a long text into messages at line breaks (hard cuts only for a single over-long line)."""
    parts: list[str] = []
    current = ""
    for line in message_text.split("\n"):
        while length(line) > limit:
            if current:
                parts.append(current)
                current = ""
            cut = _fitting(line, limit)
            parts.append(line[:cut])
            line = line[cut:]
        candidate = f"{current}\n{line}" if current else line
        if length(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    if current or not parts:
        parts.append(current)
    return parts


def bot_commands(language: str) -> list[BotCommand]:
    """The command menu for `setMyCommands`: every command with its one-line description."""
    listed: list[BotCommand] = []
    for command in cmd.COMMANDS:
        about = text(language, f"about.{command.name}")
        listed.append(BotCommand(command.name, clip(about, 256)))
    return listed


def rekey_table_id(table_id: str, old: int, new: int) -> str:
    """A table id of chat `old` renamed to chat `new` (a group upgraded to a supergroup); other ids unchanged."""
    if not table_id.startswith(PREFIX):
        return table_id
    chat_id, topic = chat_and_topic(table_id)
    return place_of(new, topic).table_id if chat_id == old else table_id
