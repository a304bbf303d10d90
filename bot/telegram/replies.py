"""Showing the service's reply on Telegram: public texts, pictures and the table message queued for the table's chat,
private texts, pictures and files for the private chat of the player they are for, and the players it could not reach
there pointed to it."""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from typing import Any

from telegram.ext import Application

from bot.i18n import text
from bot.output import Actor, File, Place, Reply
from bot.service import Service
from bot.table_states import State, TableStates
from bot.telegram.hints import Dealt, Hints, start_link
from bot.telegram.memory import Memory
from bot.telegram.outbox import DocumentOp, Outbox, PhotoOp, TableOp, TextOp
from bot.telegram.render import chat_and_topic, has_private_button, telegram_user_id, user_key
from engine.text import inert


@dataclass(frozen=True)
class _Route:
    """Where a message goes: the chat and topic, and the player it is private to (set only for his private chat
    with the bot, so that a refusal there means he blocked the bot)."""

    chat_id: int
    topic: int | None
    private_to: int | None


class Replying:
    """How the Telegram adapter shows a reply (`TelegramAdapter` is one: it holds what this uses); this module imports
    nothing of the adapter. Everything is queued in the outbox, in the chat's order, and nothing waits for Telegram."""

    service: Service
    application: Application[Any, Any, Any, Any, Any, Any]
    memory: Memory
    hints: Hints
    dealt: Dealt
    states: TableStates
    outbox: Outbox
    _usernames: dict[str, str]

    async def _served(self, place: Place, work: Awaitable[Reply]) -> tuple[Reply, State | None]:
        """The service's reply, its table state numbered at once (so versions follow the service's order)."""
        reply = await work
        return reply, self._numbered(place, reply)

    def _numbered(self, place: Place, reply: Reply) -> State | None:
        return None if reply.table is None else self.states.number(place.table_id, reply.table,
                                                                    bool(reply.around_table()[0]))

    async def _deliver(self, place: Place, reply: Reply, state: State | None, *, actor: Actor | None = None,
                       answered: bool = False, repost: bool = False, viewed: bool = False,
                       typed: str | None = None) -> None:
        """Show a reply: public texts and the table message (`state`: its table state numbered) in the table's chat,
        private texts where only their player sees them. `answered`: the actor's error and private texts already
        went into a callback alert; `repost`: the table message is posted anew below (`TableOp.repost`); `viewed`:
        the reply is a player's look at his cards ("My cards"), which deals nobody in; `typed`: the command the actor
        typed (`/join`, quoted with its words when he gave some), which the pointer to a private chat he lacks tells
        him to send again. The lines read after a hand's pictures (what its end brought about: a tournament's end and
        settlement) come last, after the pointer to a private chat for what the hand told a player the bot could not
        reach."""
        # read before anything is queued: the table's state then joins the queue in the same step as the texts
        # and pictures, so it can go first (an await between them lets the dispatcher send a picture before it)
        language = await self.service.language(place, actor) if state is not None else None
        dealt: tuple[tuple[int, str], ...] = ()
        newly: set[int] = set()  # the Telegram ids of those this reply dealt in
        if state is not None:
            dealt, newly = await self._dealt_in(place, reply, () if viewed else reply.private)
        unreachable: list[str] = []  # player ids
        private = dict(reply.private)
        if actor is not None:
            own = private.pop(actor.user_id, [])
            if not answered:
                own = ([reply.error] if reply.error else []) + own
                if own and not self._tell(place, actor.user_id, own):
                    unreachable.append(actor.user_id)
        # lines after the table state: a hand over at its deal; after the pictures: what a hand's end brought about
        before, after, last = reply.around_table()
        if before:
            self._post(place, "\n\n".join(before))
        table = None
        if state is not None and language is not None:
            chat_id, topic = chat_and_topic(place.table_id)
            version, message = state
            table = TableOp(place.table_id, chat_id, topic, message, language, version, repost=repost, dealt=dealt,
                            announced=bool(before))
        if table is not None and after:
            self.outbox.show_table(table)
            table = None
        if after:
            self._post(place, "\n\n".join(after))
        self._send_pictures(place, reply)  # a picture takes the hand's lines just before it as its caption
        if table is not None:  # after the pictures: the table never shows a showdown before its picture
            self.outbox.show_table(table)
        for user_id, texts in private.items():
            # the table's buttons are made only when read: ask whether they explain only for a player not reached
            if not self._tell(place, user_id, texts) and not has_private_button(reply.table):
                unreachable.append(user_id)
        for file in reply.files:
            if not self._send_file(place, file):
                unreachable.append(file.to or "")
        if unreachable:  # (it points to what the reply told: the hand's cards are read before what its end brought)
            # what the actor was not told is his cards (dealt in now, or his look at them), which "My cards" shows
            cards = reply.error is None and actor is not None and (viewed or telegram_user_id(actor.user_id) in newly)
            await self._point_to_private(place, actor, language, unreachable, cards=cards, typed=typed)
        if last:
            self._post(place, "\n\n".join(last))

    async def _dealt_in(self, place: Place, reply: Reply, told: Iterable[str]) -> tuple[tuple[tuple[int, str], ...],
                                                                                     set[int]]:
        """The players dealt in the hand the reply's table message shows (`Dealt`), those the reply tells privately
        (their cards) added, named as the table reads them: a store read for each only when he is first told. With
        them, the Telegram ids of those this reply dealt in (told first now)."""
        assert reply.table is not None
        telegram_ids = [telegram_id for user_id in told if (telegram_id := telegram_user_id(user_id)) is not None]
        key = reply.table.key
        names = {telegram_id: inert(await self.service.player_name(place, user_key(telegram_id)))
                 for telegram_id in await self.dealt.unnamed(place.table_id, key, telegram_ids)}
        return await self.dealt.record(place.table_id, key, names), set(names)

    async def _point_to_private(self, place: Place, actor: Actor | None, language: str | None,
                                user_ids: list[str], *, cards: bool = False, typed: str | None = None) -> None:
        """Tell the players the bot could not reach privately, in the table's chat, where their private chat with
        it opens: the whole hint the first time, then a short pointer now and then (`Hints`). The hint names the
        table's "My cards" button only when what was not told is the player's `cards` (a refusal or an answer the
        button never shows is not) and while the table message has that button (a hand or round in play). When
        only the actor was not told the answer to the command he `typed`, both say what to do in one line: open the
        private chat, press Start, then send that command again (Start brings him his cards, not that answer)."""
        chat_id, _ = chat_and_topic(place.table_id)
        told = await self.hints.due(chat_id, user_ids, self.service.clock.now())
        shown = self.states.newest(place.table_id)  # this reply's table state, numbered already, or the latest
        with_button = cards and shown is not None and has_private_button(shown[1])
        keys = ("tg.open_private_or_cards" if with_button else "tg.open_private", "tg.private_pointer")
        if typed is not None and not with_button and actor is not None and user_ids == [actor.user_id]:
            keys = ("tg.open_private_again", "tg.private_pointer_again")
        for key, users in zip(keys, told, strict=True):
            if users:
                language = language or await self.service.language(place, actor)
                names = ", ".join([await self._mention(place, actor, user_id) for user_id in users])
                link = start_link(self.application.bot.username, place.table_id)
                self._post(place, text(language, key, name=names, link=link, command=typed))

    async def _mention(self, place: Place, actor: Actor | None, user_id: str) -> str:
        """A player as the chat is told about him (a hint, a pointer): by the name his table reads, his label too
        ("Ann (2)", read apart from another Ann); the actor with an @ when that name is his @username (Telegram then
        notifies him), or by his own name when the chat's tables never saw him."""
        shown = await self.service.player_name(place, user_id)
        if actor is None or user_id != actor.user_id:
            return inert(shown)
        name = actor.name if shown == user_id else shown
        username = self._usernames.get(user_id)
        return f"@{name}" if username and (name == username or name.startswith(f"{username} (")) else inert(name)

    def _route(self, place: Place, user_id: str | None) -> _Route | None:
        """Where output for a player goes (`None`: everyone, the table's chat): the table's chat when the table is his
        private chat, else his private chat with the bot; None when the bot cannot reach him privately."""
        chat_id, topic = chat_and_topic(place.table_id)
        if user_id is None:
            return _Route(chat_id, topic, None)
        telegram_id = telegram_user_id(user_id)
        if telegram_id is None:
            return None
        if chat_id == telegram_id:  # the table is the private chat itself
            return _Route(chat_id, topic, None)
        if not self.memory.has_private_chat(telegram_id):
            return None
        return _Route(telegram_id, None, telegram_id)

    def _tell(self, place: Place, user_id: str, texts: list[str]) -> bool:
        """Queue private texts for a player; False when the bot cannot reach him privately."""
        route = self._route(place, user_id)
        if route is None:
            return False
        self.outbox.send_text(TextOp(route.chat_id, route.topic, "\n\n".join(texts), route.private_to))
        return True

    def _send_pictures(self, place: Place, reply: Reply) -> None:
        """Public pictures to the table's chat; a private one to its player's private chat, only when the bot has
        one with him (a group cannot show a picture to one member alone); none to a group that refuses them."""
        for picture in reply.pictures:
            route = self._route(place, picture.to)
            if route is not None and (route.private_to is not None or route.chat_id not in self.memory.no_photos):
                op = PhotoOp(route.chat_id, route.topic, picture.png, picture.caption, route.private_to)
                self.outbox.send_photo(op)

    def _send_file(self, place: Place, file: File) -> bool:
        """Queue a document for the table's chat (public) or a player's private chat; False when unreachable."""
        route = self._route(place, file.to)
        if route is None:
            return False
        op = DocumentOp(route.chat_id, route.topic, file.name, file.content, route.private_to)
        self.outbox.send_document(op)
        return True

    def _post(self, place: Place, message_text: str) -> None:
        chat_id, topic = chat_and_topic(place.table_id)
        self.outbox.send_text(TextOp(chat_id, topic, message_text))
