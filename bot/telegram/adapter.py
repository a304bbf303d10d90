"""The Telegram adapter: updates become service calls, the service's replies become messages, edits and alerts."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from telegram import Chat, ChatMember, MaybeInaccessibleMessage, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import commands as cmd
from bot.config import Settings
from bot.i18n import DEFAULT_LANGUAGE, languages, text
from bot.output import Actor, File, Place, Reply
from bot.service import Service
from bot.telegram.memory import Memory
from bot.telegram.outbox import DocumentOp, Outbox, PhotoOp, TableOp, TextOp
from bot.telegram.render import (
    MAX_ALERT,
    PREFIX,
    bot_commands,
    chat_and_topic,
    clip,
    has_private_button,
    place_of,
    telegram_user_id,
    user_key,
)

log = logging.getLogger(__name__)

ADMIN_CACHE_SECONDS = 300.0


@dataclass(frozen=True)
class _Route:
    """Where a message goes: the outbox lane (which keeps its order), the chat and topic, and the player it is private
    to (set only for his private chat with the bot, so that a refusal there means he blocked the bot)."""

    lane: str
    chat_id: int
    topic: int | None
    private_to: int | None


@dataclass(frozen=True)
class TelegramSettings:
    """How to reach Telegram, from `.env`: the token, an optional self-hosted Bot API server, polling or webhook."""

    token: str
    base_url: str | None = None
    """A self-hosted Bot API server, e.g. `http://localhost:8081/bot` (the token is appended)."""
    webhook_url: str | None = None
    """When set, receive updates by webhook at this public URL instead of long polling."""
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: str | None = None
    """The `X-Telegram-Bot-Api-Secret-Token` Telegram must send; derived from the token when not set."""
    poll_timeout: int = 10
    """Seconds each long-polling `getUpdates` may wait on the server."""
    group_rate: float = 20.0
    """Messages per minute the rate limiter allows into one group (Telegram's limit is about 20)."""
    max_retries: int = 5
    """How often a request answered 429 is retried after waiting the `retry_after` Telegram gives."""

    @classmethod
    def from_app(cls, settings: Settings) -> TelegramSettings:
        """The Telegram part of the application's settings (read from `.env` by `bot.config`)."""
        if not settings.telegram_token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        return cls(
            token=settings.telegram_token,
            base_url=settings.telegram_base_url,
            webhook_url=settings.telegram_webhook_url,
            webhook_port=settings.telegram_webhook_port,
            webhook_secret=settings.telegram_webhook_secret,
        )


class TelegramAdapter:
    """Runs one bot on python-telegram-bot: commands and button presses in, messages, edits and alerts out.

    It holds no game state and no rules: everything a player does goes to the `Service`, and the `Reply` decides
    what is shown. What it keeps is platform bookkeeping (`Memory`): the message id of each table's current
    message and who opened a private chat with the bot. The service's timer loop (`service.scheduler.run()`)
    belongs to the application; replies caused by timers arrive here through `service.subscribe`.
    """

    def __init__(
        self, service: Service, settings: TelegramSettings, *, rate_limiter: BaseRateLimiter[int] | None = None
    ) -> None:
        self.service = service
        self.settings = settings
        builder = Application.builder().token(settings.token).job_queue(None)
        if settings.base_url:
            builder = builder.base_url(settings.base_url)
        limiter = rate_limiter or AIORateLimiter(
            group_max_rate=settings.group_rate, group_time_period=60, max_retries=settings.max_retries
        )
        # PTB types the default builder as having no limiter; any limiter is accepted at run time
        builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
        self.application = builder.build()
        self.memory = Memory(service.store, service.clock)
        self.outbox = Outbox(self.application.bot, self.memory)
        self.outbox.on_blocked = self.memory.close_private_chat
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}
        self._mentions: dict[str, str] = {}
        self._admin_reads: dict[int, asyncio.Task[tuple[float, frozenset[int]]]] = {}
        self._register()

    # --- life cycle -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, publish the command menu, and start receiving updates (long polling unless a webhook is set)."""
        await self.memory.load()
        await self.application.initialize()
        await self._publish_commands()
        self.service.subscribe(PREFIX, self._on_timer_reply)
        await self.application.start()
        updater = self.application.updater
        assert updater is not None
        if self.settings.webhook_url:
            # the local path is the public URL's path (a reverse proxy forwards it as is); Telegram sends the
            # secret in a header with every update, so nobody else can post updates to us
            await updater.start_webhook(
                listen=self.settings.webhook_listen,
                port=self.settings.webhook_port,
                url_path=urlsplit(self.settings.webhook_url).path.lstrip("/"),
                webhook_url=self.settings.webhook_url,
                secret_token=self.settings.webhook_secret or _secret_from(self.settings.token),
                allowed_updates=Update.ALL_TYPES,
            )
        else:
            await updater.start_polling(
                timeout=self.settings.poll_timeout, allowed_updates=Update.ALL_TYPES, drop_pending_updates=False
            )
        log.info("Telegram bot @%s is running", self.application.bot.username)

    async def stop(self) -> None:
        """Stop receiving, send what is queued, and disconnect."""
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.outbox.flush()
        await self.application.shutdown()

    async def flush(self) -> None:
        """Wait until everything queued for Telegram was sent."""
        await self.outbox.flush()

    async def _publish_commands(self) -> None:
        bot = self.application.bot
        try:
            await bot.set_my_commands(bot_commands(DEFAULT_LANGUAGE))
            for language in languages():
                if language != DEFAULT_LANGUAGE:
                    await bot.set_my_commands(bot_commands(language), language_code=language)
        except TelegramError:
            log.exception("could not publish the command menu")

    def _register(self) -> None:
        app = self.application
        app.add_handler(TypeHandler(Update, self._note_private_chat), group=-1)
        app.add_handler(MessageHandler(filters.COMMAND & filters.UpdateType.MESSAGE, self._on_command))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_handler(ChatMemberHandler(self._on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_error_handler(self._on_error)

    # --- updates in -----------------------------------------------------------------------------------------

    async def _note_private_chat(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        if chat is not None and user is not None and chat.type == ChatType.PRIVATE and update.message is not None:
            await self.memory.open_private_chat(user.id)

    async def _on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        if change is None or change.chat.type != ChatType.PRIVATE:
            return
        if change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
            await self.memory.close_private_chat(change.chat.id)
        else:
            await self.memory.open_private_chat(change.chat.id)

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user, chat = update.message, update.effective_user, update.effective_chat
        if message is None or message.text is None or user is None or chat is None:
            return
        word, _, addressee = message.text.split(maxsplit=1)[0].partition("@")
        if addressee and addressee.lower() != (self.application.bot.username or "").lower():
            return  # meant for another bot in the group
        place = _place(message)
        actor = await self._actor(chat, user)
        if word.lower() == "/start":
            await self._on_start(place, actor, chat)
            return
        reply = await self.service.handle(place, actor, message.text)
        await self._deliver(place, reply, actor=actor)

    async def _on_start(self, place: Place, actor: Actor, chat: Chat) -> None:
        if chat.type != ChatType.PRIVATE:
            await self._deliver(place, await self.service.handle(place, actor, "/help"), actor=actor)
            return
        language = await self.service.language(place, actor)
        self._post(place, text(language, "tg.started", name=actor.name))

    async def _on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        message = query.message
        if message is None or not query.data:
            await query.answer()
            return
        place = _place(message)
        actor = await self._actor(message.chat, user)
        try:
            pressed = cmd.parse_payload(query.data)
        except cmd.CommandError:
            pressed = None
        if pressed is not None and isinstance(pressed.command, cmd.Cards):
            reply = await self.service.view(place, actor)
        else:
            reply = await self.service.press(place, actor, query.data)
        own = reply.error or "\n".join(reply.private.get(actor.user_id, []))
        alert = clip(own, MAX_ALERT)
        await query.answer(alert or None, show_alert=bool(alert))
        if own and alert != own and not reply.error:
            self._tell(place, actor.user_id, [own])  # the whole text, which the alert had to cut
        await self._deliver(place, reply, actor=actor, answered=True)

    async def _on_timer_reply(self, place: Place, reply: Reply) -> None:
        await self._deliver(place, reply)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling %r", update, exc_info=context.error)
        if not isinstance(update, Update):
            return
        user = update.effective_user
        language = (user.language_code or DEFAULT_LANGUAGE)[:2] if user else DEFAULT_LANGUAGE
        sorry = text(language if language in languages() else DEFAULT_LANGUAGE, "tg.sorry")
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(sorry, show_alert=True)
            elif update.message is not None:
                await update.message.reply_text(sorry)
        except TelegramError:
            log.info("could not apologise for the error (the query may be answered already)")

    # --- replies out ----------------------------------------------------------------------------------------

    async def _deliver(self, place: Place, reply: Reply, *, actor: Actor | None = None, answered: bool = False) -> None:
        """Show a reply: public texts and the table message in the table's chat, private texts where only their
        player sees them. `answered`: the actor's error and private texts already went into a callback alert."""
        language: str | None = None
        unreachable: list[str] = []
        private = dict(reply.private)
        if actor is not None:
            own = private.pop(actor.user_id, [])
            if not answered:
                own = ([reply.error] if reply.error else []) + own
                if own and not self._tell(place, actor.user_id, own):
                    unreachable.append(self._mentions.get(actor.user_id, actor.name))
        if reply.public:
            self._post(place, "\n\n".join(reply.public))
        self._send_pictures(place, reply)
        if reply.table is not None:
            language = await self.service.language(place, actor)
            chat_id, topic = chat_and_topic(place.table_id)
            self.outbox.show_table(place.table_id, TableOp(place.table_id, chat_id, topic, reply.table, language))
        table_explains = has_private_button(reply.table)
        for user_id, texts in private.items():
            if not self._tell(place, user_id, texts) and not table_explains:
                unreachable.append(await self._name(place, user_id))
        for file in reply.files:
            if not self._send_file(place, file):
                unreachable.append(await self._name(place, file.to or ""))
        if unreachable:
            language = language or await self.service.language(place, actor)
            self._post(place, text(language, "tg.open_private", name=", ".join(dict.fromkeys(unreachable))))

    def _route(self, place: Place, user_id: str | None) -> _Route | None:
        """Where output for a player goes (`None`: everyone, the table's chat): the table's chat when the table is his
        private chat, else his private chat with the bot; None when the bot cannot reach him privately."""
        chat_id, topic = chat_and_topic(place.table_id)
        if user_id is None:
            return _Route(place.table_id, chat_id, topic, None)
        telegram_id = telegram_user_id(user_id)
        if telegram_id is None:
            return None
        if chat_id == telegram_id:  # the table is the private chat itself
            return _Route(place.table_id, chat_id, topic, None)
        if not self.memory.has_private_chat(telegram_id):
            return None
        return _Route(f"dm:{telegram_id}", telegram_id, None, telegram_id)

    def _tell(self, place: Place, user_id: str, texts: list[str]) -> bool:
        """Queue private texts for a player; False when the bot cannot reach him privately."""
        route = self._route(place, user_id)
        if route is None:
            return False
        self.outbox.send_text(route.lane, TextOp(route.chat_id, route.topic, "\n\n".join(texts), route.private_to))
        return True

    def _send_pictures(self, place: Place, reply: Reply) -> None:
        """Public pictures to the table's chat; a private one to its player's private chat, only when the bot has
        one with him (a group cannot show a picture to one member alone)."""
        for picture in reply.pictures:
            route = self._route(place, picture.to)
            if route is not None:
                op = PhotoOp(route.chat_id, route.topic, picture.png, picture.caption, route.private_to)
                self.outbox.send_photo(route.lane, op)

    def _send_file(self, place: Place, file: File) -> bool:
        """Queue a document for the table's chat (public) or a player's private chat; False when unreachable."""
        route = self._route(place, file.to)
        if route is None:
            return False
        op = DocumentOp(route.chat_id, route.topic, file.name, file.content, route.private_to)
        self.outbox.send_document(route.lane, op)
        return True

    def _post(self, place: Place, message_text: str) -> None:
        chat_id, topic = chat_and_topic(place.table_id)
        self.outbox.send_text(place.table_id, TextOp(chat_id, topic, message_text))

    # --- who and where --------------------------------------------------------------------------------------

    async def _actor(self, chat: Chat, user: User) -> Actor:
        language = (user.language_code or "")[:2] or None
        name = user.username or user.full_name
        self._mentions[user_key(user.id)] = f"@{user.username}" if user.username else user.full_name
        return Actor(user_key(user.id), name, language, await self._is_admin(chat, user))

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        """Whether the user administers the group, from a per-chat list read once and refreshed in the background
        every few minutes (so a handler never waits behind the group's rate limit for it); False when unknown."""
        if chat.type == ChatType.PRIVATE:
            return False
        cached = self._admins.get(chat.id)
        if cached is None:
            cached = await self._read_admins(chat.id)
        elif time.monotonic() - cached[0] > ADMIN_CACHE_SECONDS and chat.id not in self._admin_reads:
            self._admin_reads[chat.id] = asyncio.create_task(self._read_admins(chat.id))
        return user.id in cached[1]

    async def _read_admins(self, chat_id: int) -> tuple[float, frozenset[int]]:
        try:
            members: tuple[ChatMember, ...] = await self.application.bot.get_chat_administrators(chat_id)
        except TelegramError:
            log.warning("could not read the administrators of %s", chat_id, exc_info=True)
            members = ()
        finally:
            self._admin_reads.pop(chat_id, None)
        cached = (time.monotonic(), frozenset(member.user.id for member in members))
        self._admins[chat_id] = cached
        return cached

    async def _name(self, place: Place, user_id: str) -> str:
        return await self.service.store.read(lambda tx: tx.player_name(place.chat_id, user_id))


def _secret_from(token: str) -> str:
    """A webhook secret derived from the bot token: stable across restarts, unknown to anyone without the token."""
    return hashlib.sha256(f"pokerbot-webhook:{token}".encode()).hexdigest()


def _place(message: MaybeInaccessibleMessage) -> Place:
    topic = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
    return place_of(message.chat.id, topic)


async def run_telegram(service: Service, settings: Settings | TelegramSettings) -> None:
    """Run the Telegram bot until cancelled (the application runs `service.scheduler.run()` beside it)."""
    if not isinstance(settings, TelegramSettings):
        settings = TelegramSettings.from_app(settings)
    adapter = TelegramAdapter(service, settings)
    await adapter.start()
    try:
        await asyncio.Event().wait()
    finally:
        await adapter.stop()
