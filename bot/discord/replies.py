"""What answering an interaction needs that holds no state: where the bot may not post, the parts of a reply that
are the actor's own, attachments, and letting go of an answered interaction."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import re
from collections.abc import Collection, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import commands as cmd
from bot.command_parser import parse
from bot.discord.markup import plain
from bot.discord.typed import NO_MENTIONS, as_slash, usage, with_command_mentions
from bot.i18n import catalogue, languages, text
from bot.output import Actor, Picture, Place, Reply
from bot.output import File as OutFile
from engine.text import quote_input

PREFIX = "dc:"
_PLAYER_ID = re.compile(rf"(?<![\w:]){re.escape(PREFIX)}[0-9]+")
"""A Discord player id within a text (`dc:42`)."""
FILES_PER_MESSAGE = 10
"""Discord's limit of attachments per message."""
THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                     discord.ChannelType.news_thread})
"""Where the bot needs Send Messages in Threads rather than Send Messages."""


@dataclass
class Turn:
    """One interaction being answered: the loop time by which it must be acknowledged, whether acknowledging it
    failed (Discord takes no answer to it any more; its work still runs and the channel still gets its part), when
    its answer is given, and the public line it owes the channel."""

    deadline: float
    deferred: bool = False
    """Its acknowledgement (a defer) was sent, whether or not Discord has answered it yet: a command deferred for
    the member alone has no public answer left to post its line."""
    unacknowledged: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the interaction's own answer is given: what it queued for the channel waits for it."""
    line: str | None = None
    """The public line the interaction is to post itself (a command's public answer, a press's follow-up), until it
    is posted or handed to the channel's queue (`DiscordAdapter._answer` hands it on whatever happens)."""
    pictures: tuple[Picture, ...] = ()
    """The reply's public pictures, attached to `line` (a hand's picture is read with its lines), when nothing of
    the reply comes between them (Discord lets an interaction attach files whether or not the bot may in the
    channel)."""
    posting: asyncio.Future[bool] | None = None
    """A press's line on its way as its follow-up (`DiscordAdapter._announce`): it runs to its end even when the
    answer is abandoned, and what the interaction queued for the channel waits for it."""


def channel_of(place: Place) -> int:
    """The Discord id of the channel (or thread) a place's table is."""
    return int(place.table_id.removeprefix(PREFIX))


def cannot_post(interaction: discord.Interaction) -> str | None:
    """Why the bot may not post in the channel or thread the interaction came from (the catalogue's key naming what
    an admin must grant), as the interaction's `app_permissions` tell it; None when it may."""
    permissions = interaction.app_permissions
    channel = interaction.channel
    if channel is not None and channel.type in THREADS:
        may_send, key = permissions.send_messages_in_threads, "discord.cannot_post_thread"
    else:
        may_send, key = permissions.send_messages, "discord.cannot_post"
    return None if permissions.view_channel and may_send else key


def chooses_chat_language(line: str) -> bool:
    """Whether a `/lang` line chooses the chat's language (`/lang ru`), rather than asking it or choosing one's own."""
    command = parse(line)
    return isinstance(command, cmd.Lang) and command.chooses_chat_language


async def with_mentions_shown(work: Coroutine[Any, Any, Reply], shown: Mapping[str, str]) -> Reply:
    """A reply to a command that names members by mention (a slash command's member option, which the command line
    carries as his player id) with each of their ids its refusal quotes back (a member the chat never saw is refused
    as unknown, and the service knows him by no name) put as Discord shows him: `shown`, his name by his id."""
    reply = await work
    if reply.error is None:
        return reply
    error = _PLAYER_ID.sub(lambda found: quote_input(shown[found[0]]) if found[0] in shown else found[0], reply.error)
    return replace(reply, error=error)


async def as_slash_commands(work: Coroutine[Any, Any, Reply], registered: Collection[str]) -> Reply:
    """A `/help` reply as Discord's command list reads: no entry for a command without a slash command (`/select`:
    the exchange's card buttons mark the cards), and each command whose options Discord names otherwise than the
    words typed in a chat with its description as Discord shows it (`discord.about.<name>`); its arguments are
    rewritten with every private line's typed forms (`bot.discord.typed.as_slash`: `/ante`'s `pairplus`,
    `/tournament`'s subcommands)."""
    reply = await work
    entries = _slash_entries(frozenset(registered))
    private = {user: [_slash_help(message, entries) for message in messages]
               for user, messages in reply.private.items()}
    return replace(reply, private=private)


def _slash_help(message: str, entries: Mapping[str, str | None]) -> str:
    """A `/help` message (`help.all`: one entry a line; `help.one`: the entry's two lines) with its entries replaced
    (`_slash_entries`)."""
    if message in entries:
        return entries[message] or message  # `/help select` still explains what the buttons do
    return "\n".join(shown for line in message.split("\n")
                     if (shown := entries.get(line, line)) is not None)


@functools.cache
def _slash_entries(registered: frozenset[str]) -> dict[str, str | None]:
    """Each command's `/help` entry in every language, in both its forms (`help.all`'s "usage — about" line and
    `help.one`'s two lines), by the entry Discord shows instead (None: the command has no slash command)."""
    entries: dict[str, str | None] = {}
    for language in languages():
        for command in cmd.COMMANDS:
            typed = _help_entry(language, command.name, usage(language, command), f"about.{command.name}")
            slash = None
            if command.name in registered:  # its usage as Discord names it: `as_slash`, as for every private line
                about = f"discord.about.{command.name}"
                slash = _help_entry(language, command.name, usage(language, command),
                                    about if about in catalogue(language) else f"about.{command.name}")
            for joint in (" — ", "\n"):
                entries[joint.join(typed)] = None if slash is None else joint.join(slash)
    return entries


def _help_entry(language: str, name: str, arguments: str, about: str) -> tuple[str, str]:
    """A command's `/help` entry: its word with its arguments, and its description (the catalogue's `about`)."""
    return f"/{name} {arguments}".rstrip(), text(language, about)


def private_part(reply: Reply, actor: Actor) -> list[str]:
    """What only the actor may read: the refusal, else his private messages."""
    return [reply.error] if reply.error else reply.private.get(actor.user_id, [])


def public_parts(reply: Reply, mentions: Mapping[str, str] = NO_MENTIONS) -> tuple[list[str], list[str], list[str]]:
    """A reply's public lines as the channel reads them (`Reply.around_table`): those before its table state, those
    after it (a hand over at its deal) and before its pictures, and those after its pictures (what a hand's end
    brought about: a tournament's end and settlement). The commands they name are as Discord shows them, where
    that needs no language (`as_slash`: the chat's is not known here without waiting for it), each as its mention
    where `mentions` has it (`with_command_mentions`)."""
    before, after, last = reply.around_table()
    return _public(before, mentions), _public(after, mentions), _public(last, mentions)


def _public(lines: list[str], mentions: Mapping[str, str]) -> list[str]:
    return [with_command_mentions(plain(as_slash(line, None)), mentions) for line in lines]


def files(pictures: Iterable[Picture]) -> list[discord.File]:
    """Pictures as attachments, each described by its caption (at most ten: Discord's limit per message)."""
    return [discord.File(io.BytesIO(picture.png), filename=f"table-{index}.png", description=picture.caption)
            for index, picture in enumerate(pictures) if index < FILES_PER_MESSAGE]


def upload(file: OutFile) -> discord.File:
    """A file of the service's reply as an attachment."""
    return discord.File(io.BytesIO(file.content), filename=file.name)


def ephemeral(content: str | None, files: list[discord.File]) -> dict[str, Any]:
    """The arguments of a private answer: its text and attachments, each left out when there is none."""
    arguments: dict[str, Any] = {"ephemeral": True}
    if content:
        arguments["content"] = content
    if files:
        arguments["files"] = files
    return arguments


def let_go(interaction: discord.Interaction) -> None:
    """Break the cycles discord.py leaves between an answered interaction and its response objects (the response it
    caches and the original message it fetched each refer back to it), so that they and all they hold (the member, the
    pressed message and its components) are freed at once rather than by a full collection (`bot.collector`: half a
    second at 10,000 tables). These are discord.py's private slots: were a release to rename them, nothing would
    break, and the collector would free the pair as before (`tests/discord/test_garbage.py` would say so)."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # made again if anything asks for `interaction.response` later
    with contextlib.suppress(AttributeError):
        interaction._original_response = None
