"""Answering a player's update on Telegram: a typed command (`/start` and its private chat's link among them) or a
button press becomes a service call, its reply shown; who the player is and which table he is at."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Chat, MaybeInaccessibleMessage, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import commands as cmd
from bot.command_parser import parse, parse_payload
from bot.i18n import text
from bot.output import Actor, Place, Reply
from bot.telegram.admins import Admins
from bot.telegram.hints import start_link, table_of_payload
from bot.telegram.render import (
    MAX_ALERT,
    chat_and_topic,
    clip,
    place_of,
    telegram_user_id,
    topic_of,
    user_key,
    with_mentioned_ids,
    with_mentions_shown,
)
from bot.telegram.replies import Replying
from engine.text import inert, quote_input

log = logging.getLogger(__name__)

OUT = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
"""The bot's membership statuses outside a group (removed, or never added)."""


class Answering(Replying):
    """How the Telegram adapter answers a command or a press (`TelegramAdapter` is one: it holds what this uses and
    registers these handlers); this module imports nothing of the adapter."""

    admins: Admins

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user, chat = update.message, update.effective_user, update.effective_chat
        if message is None or message.text is None or user is None or chat is None:
            return
        word, _, addressee = message.text.split(maxsplit=1)[0].partition("@")
        if addressee and addressee.lower() != (self.application.bot.username or "").lower():
            return  # meant for another bot in the group
        place = self._place(message)
        actor = await self._actor(chat, user)
        if word.lower() == "/start":
            await self._on_start(place, actor, chat, message.text.split(maxsplit=1)[1:])
            return
        line, mentioned = with_mentioned_ids(message.text, message.entities)
        reply, state = await self._served(place, self.service.handle(place, actor, line))
        if reply.error is not None and mentioned:
            reply.error = with_mentions_shown(reply.error, mentioned)
        # `/table` (or `/status`): in a busy group the table message has scrolled out of sight, so the table is
        # posted anew at the bottom with its buttons, the old message saying it moved below
        command = _parsed(line)
        await self._deliver(place, reply, state, actor=actor, repost=isinstance(command, cmd.Table),
                            viewed=isinstance(command, cmd.Cards), typed=_to_send_again(message.text, command))
        if isinstance(command, cmd.Lang) and command.chooses_chat_language and reply.error is None:
            # the chat's language chosen: its other topics' tables read in it too
            await self._redraw(place, actor)

    async def _redraw(self, place: Place, actor: Actor) -> None:
        """Show every other table of the chat (a forum's other topics) with players seated or a hand or round in play
        again, in the chat's language: its table message edited, text (the story retold, see `/table`) and buttons,
        through the chat's queue (its rate limits). A table paused because the bot lost its topic is left as it is."""
        for table_id in await self.service.tables_of(place.chat_id):
            if table_id == place.table_id or self.service.is_paused(table_id):
                continue  # where it was typed the command showed its table
            other = Place(place.chat_id, table_id)
            try:
                reply, state = await self._served(other, self.service.execute(other, actor, cmd.Table()))
            except Exception:  # one unreadable table must not keep the others in the old language
                log.exception("table %s could not be read to be shown in the new language", table_id)
                continue
            if state is not None:  # only its table message: what `/table` tells the organizer is not for this
                await self._deliver(other, Reply(table=reply.table), state)

    async def _on_start(self, place: Place, actor: Actor, chat: Chat, payload: list[str]) -> None:
        """`/start` in private opens the private chat (and, from a link given at a table, sends the player his cards
        there); in a group it answers with the private chat's link (the hint says to send it) as often as the
        pointers go (`Hints.point`: a `/start` repeated sooner is not answered again), or, to a player who has a
        private chat with the bot, sends him `/help` there."""
        telegram_id = telegram_user_id(actor.user_id)
        if chat.type != ChatType.PRIVATE and telegram_id is not None and self.memory.has_private_chat(telegram_id):
            reply, state = await self._served(place, self.service.handle(place, actor, "/help"))
            await self._deliver(place, reply, state, actor=actor)
            return
        if chat.type != ChatType.PRIVATE:
            chat_id, _ = chat_and_topic(place.table_id)
            if telegram_id is None or self.hints.point(chat_id, telegram_id, self.service.clock.now()):
                language = await self.service.language(place, actor)
                self._post(place, text(language, "tg.start_in_group",
                                       name=await self._mention(place, actor, actor.user_id),
                                       link=start_link(self.application.bot.username, place.table_id)))
            return
        language = await self.service.language(place, actor)
        self._post(place, text(language, "tg.started", name=inert(actor.name)))
        table = table_of_payload(payload[0]) if payload else None
        if table is not None:
            await self._send_cards(place_of(self.memory.current_chat(table[0]), table[1]), actor)

    async def _on_added(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot added to a group that has no table yet: it says what it is for, how to sit down and where the
        cards come, in the language of the one who added it (the chat has none yet). Added back to a group that has
        played (its tables play on, `Reach`), or its rights changed, it says nothing."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE or change.from_user is None:
            return
        if change.old_chat_member.status not in OUT or change.new_chat_member.status in OUT:
            return
        place = place_of(self.memory.current_chat(change.chat.id), None)
        if await self.service.tables_of(place.chat_id):
            return
        user = change.from_user
        actor = Actor(user_key(user.id), user.username or user.full_name, (user.language_code or "")[:2] or None)
        language = await self.service.language(place, actor)
        self._post(place, text(language, "tg.hello_group", link=start_link(self.application.bot.username)))

    async def _send_cards(self, table: Place, actor: Actor) -> None:
        """The player's own private view of the table his link named (his cards of the hand in play, or that he
        has none), to his private chat alone: the table message and anything public stay in the group. A table
        that is not there, or has never seen him, is not asked: asking would open it and welcome him to a chat he
        may not be in (a link can be typed)."""
        known = (table.table_id in await self.service.tables_of(table.chat_id)
                 and await self.service.player_name(table, actor.user_id) != actor.user_id)
        if not known:
            language = await self.service.private_language_of(table, actor)
            self._tell(table, actor.user_id, [text(language, "no_cards")])
            return
        reply = await self.service.view(table, actor)
        own = Reply(private={actor.user_id: reply.private.get(actor.user_id, [])}, error=reply.error,
                    pictures=[picture for picture in reply.pictures if picture.to == actor.user_id])
        await self._deliver(table, own, None, actor=actor)

    async def _on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        message = query.message
        if message is None or not query.data:
            await self._answer(query, None)
            return
        place = self._place(message)  # a press on a message of a group since upgraded: the supergroup's table
        actor = await self._actor(message.chat, user)
        try:
            pressed = parse_payload(query.data)
        except cmd.CommandError:
            pressed = None
        viewed = pressed is not None and isinstance(pressed.command, cmd.Cards)
        if viewed:
            reply, state = await self._served(place, self.service.view(place, actor))
        else:
            reply, state = await self._served(place, self.service.press(place, actor, query.data))
        own = reply.error or "\n".join(reply.private.get(actor.user_id, []))
        alert = clip(own, MAX_ALERT)
        answered = await self._answer(query, alert or None)  # first: the press stops spinning at once
        if answered and own and alert != own and not reply.error and not self._tell(place, actor.user_id, [own]):
            # the whole text, which the alert had to cut, has nowhere to go: he is shown where his private chat opens
            await self._point_to_private(place, actor, None, [actor.user_id])
        await self._deliver(place, reply, state, actor=actor, answered=answered, viewed=viewed)

    async def _answer(self, query: Any, alert: str | None) -> bool:
        """Answer a callback query; False (logged) when Telegram refused, e.g. "query is too old": what the press
        did is still shown, and what the alert would have said goes privately instead."""
        try:
            await query.answer(alert, show_alert=bool(alert))
        except TelegramError as error:
            log.warning("could not answer callback query %s: %s", query.id, error)
            return False
        return True

    # --- who and where --------------------------------------------------------------------------------------

    async def _actor(self, chat: Chat, user: User) -> Actor:
        language = (user.language_code or "")[:2] or None
        name = user.username or user.full_name
        if user.username:  # the bot's own mention of him (`_mention`); a full name is only shown
            self._usernames[user_key(user.id)] = user.username
        else:
            self._usernames.pop(user_key(user.id), None)
        return Actor(user_key(user.id), name, language, await self._is_admin(chat, user))

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        """Whether the user administers the group (`Admins`); never in a private chat."""
        return chat.type != ChatType.PRIVATE and await self.admins.is_admin(self.memory.current_chat(chat.id), user.id)

    def _place(self, message: MaybeInaccessibleMessage) -> Place:
        return place_of(self.memory.current_chat(message.chat.id), topic_of(message))


def _to_send_again(line: str, command: cmd.Command | None) -> str | None:
    """The command a player is told to send again when its answer could not reach him (`Replying._deliver`'s
    `typed`; None for a line that says none): its name alone (`/join`, which a tap in the group sends), or with the
    words he typed after it, quoted (`quote_input`: bounded, and inert, since a tap on the name would send it alone
    and bring another answer: `/help tournament`, `/history tournament`)."""
    if command is None:
        return None
    words = line.split(maxsplit=1)
    return f"/{command.name}" if len(words) < 2 else quote_input(f"/{command.name} {words[1]}")


def _parsed(line: str) -> cmd.Command | None:
    """The command a line says, None when it says none the parser knows (the service answers it as it can)."""
    try:
        return parse(line)
    except cmd.CommandError:
        return None
