"""The Telegram adapter: updates become service calls, the service's replies become messages, edits and alerts."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Iterable
from typing import Any
from urllib.parse import urlsplit

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.config import Settings, webhook_secret_from
from bot.i18n import DEFAULT_LANGUAGE, languages, text
from bot.output import Actor, OldMessage, Place, Reply
from bot.retiring import first_look, queue_kept
from bot.service import Service
from bot.table_states import TableStates
from bot.telegram.admins import Admins
from bot.telegram.answers import Answering
from bot.telegram.hints import Dealt, Hints
from bot.telegram.memory import PLATFORM, Memory
from bot.telegram.outbox import Outbox
from bot.telegram.reach import SHOWN_AGAIN_PER_SECOND, Reach
from bot.telegram.render import PREFIX, bot_commands, chat_and_topic, place_of, rekey_table_id, user_key
from bot.telegram.settings import TelegramSettings

log = logging.getLogger(__name__)

STOP_SECONDS = 10.0
"""How long stopping waits for queued messages to go out before dropping them."""


class TelegramAdapter(Answering):
    """Runs one bot on python-telegram-bot: commands and button presses in, messages, edits and alerts out.

    It holds no game state and no rules: everything a player does goes to the `Service`, and the `Reply` decides
    what is shown. What it keeps is platform bookkeeping (`Memory`): the message id of each table's current
    message and who opened a private chat with the bot. The service's timer loop (`service.scheduler.run()`)
    belongs to the application; replies caused by timers arrive here through `service.subscribe`.
    """

    def __init__(self, service: Service, settings: TelegramSettings) -> None:
        self.service = service
        self.settings = settings
        self._chat_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        builder = Application.builder().token(settings.token).job_queue(None)
        if settings.base_url:
            builder = builder.base_url(settings.base_url)
        # no rate limiter in PTB: the outbox owns the budget (PTB's would hold every chat while one waits out a 429)
        builder = builder.concurrent_updates(_InChatOrder(self._chat_lock))
        self.application = builder.build()
        self.memory = Memory(service.memory)
        self.hints = Hints(self.memory)
        self.dealt = Dealt(service.memory, service.clock)
        self.admins = Admins(self.application.bot)
        self.states = TableStates()
        """Each table state numbered as the service produced it (`_served`), so the outbox never shows an older one."""
        self.outbox = Outbox(self.application.bot, self.memory, settings.limits(), self.states)
        self.outbox.on_blocked = self.memory.close_private_chat
        self.outbox.on_photos_refused = self._on_photos_refused
        self.outbox.on_migrated = self._migrate
        self.reach = Reach(service, self.memory, self.outbox, settings.time_scale)
        self.outbox.on_lost_group = self.reach.pause_group
        self.outbox.on_lost_topic = self.reach.pause_topic
        self._background: set[asyncio.Task[None]] = set()
        """Deliveries of timer replies, each waiting for its chat's turn."""
        self._showing: asyncio.Task[None] | None = None
        """After a start: the tables in play being shown again (then, on PostgreSQL, the claims on old table messages
        renewed forever, `bot.retiring.queue_kept`)."""
        self._shown = asyncio.Event()
        """Set once the tables in play were shown again and the old table messages claimed were queued."""
        self._usernames: dict[str, str] = {}
        """The @username (without the @) of each player who acted and has one, by player id."""
        self._register()

    # --- life cycle -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, publish the command menu, and start receiving updates (long polling unless a webhook is set)."""
        await self.memory.load()
        await self.dealt.load()
        await self.application.initialize()
        await self._publish_commands()
        self.service.subscribe(PREFIX, self._on_timer_reply)
        self.service.on_paused_elsewhere(self.reach.paused_elsewhere)
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
                secret_token=self.settings.webhook_secret or webhook_secret_from(self.settings.token),
                allowed_updates=Update.ALL_TYPES,
            )
        else:
            await updater.start_polling(
                timeout=self.settings.poll_timeout, allowed_updates=Update.ALL_TYPES, drop_pending_updates=False
            )
        log.info("Telegram bot @%s is running", self.application.bot.username)
        self._showing = asyncio.create_task(self._show_again())

    async def _show_again(self) -> None:
        """What the bot had queued before it stopped, shown and retired again (`bot.retiring.queue_kept`)."""
        shown = self.service.show_tables_in_play(PREFIX, per_second=SHOWN_AGAIN_PER_SECOND * self.settings.time_scale)

        async def retire_again(messages: Iterable[OldMessage]) -> None:
            await self.outbox.retire_again(messages)
            self._shown.set()

        await queue_kept(shown, self.service.memory, PLATFORM, retire_again)

    async def stop(self) -> None:
        """Stop receiving, send what is queued, and disconnect."""
        if self._showing is not None:
            self._showing.cancel()
            await asyncio.gather(self._showing, return_exceptions=True)
            self._showing = None
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self._settle()
        await self.reach.stop()
        await self.outbox.close(STOP_SECONDS)
        await self.application.shutdown()

    async def flush(self, *, retired: bool = False) -> None:
        """Wait until everything queued for Telegram was sent (the tables a start shows again too); with `retired`,
        also until the old table messages lost their buttons (the least urgent requests, `Outbox.retire`)."""
        if self._showing is not None:  # on PostgreSQL it never ends: its first look is what a start queues
            await first_look(self._showing, self._shown)
        await self._settle()
        await self.outbox.flush(retired=retired)

    async def _settle(self) -> None:
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def _chat_lock(self, chat_id: int) -> asyncio.Lock:
        """The lock that keeps one chat's updates and timer replies in order."""
        chat_id = self.memory.current_chat(chat_id)
        lock = self._chat_locks.get(chat_id)
        if lock is None:
            lock = self._chat_locks[chat_id] = asyncio.Lock()
        return lock

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
        app.add_handler(TypeHandler(Update, self.reach.note_chat), group=-1)
        app.add_handler(MessageHandler(filters.COMMAND & filters.UpdateType.MESSAGE, self._on_command))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate_message))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_handler(ChatMemberHandler(self.reach.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(ChatMemberHandler(self._on_added, ChatMemberHandler.MY_CHAT_MEMBER), group=1)
        app.add_error_handler(self._on_error)

    # --- updates in -----------------------------------------------------------------------------------------

    async def _on_migrate_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None:
            return
        if message.migrate_to_chat_id:  # said in the old group
            await self._migrate(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:  # said in the new supergroup
            await self._migrate(message.migrate_from_chat_id, message.chat.id)

    async def _migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: its table, wallets and history move to the new id (once)."""
        moved = await self.service.move_chat(place_of(old, None).chat_id, place_of(new, None).chat_id,
                                             also=self.service.memory.telegram_chat_moved(old, new))
        if moved:
            log.info("chat %s moved to supergroup %s", old, new)
            self.memory.rekey(old, new, lambda table_id: rekey_table_id(table_id, old, new))
            self.states.rekey(lambda table_id: rekey_table_id(table_id, old, new))
            self.dealt.rekey(lambda table_id: rekey_table_id(table_id, old, new))
            self.admins.forget(old)
        self.outbox.rekey(old, new)

    async def _on_photos_refused(self, chat_id: int, topic: int | None) -> None:
        """A group refused a picture: pictures stay off there, and the group is told once, in the forum topic whose
        table the picture was for (where its players read on)."""
        if await self.memory.refuse_photos(chat_id, True):
            place = place_of(chat_id, topic)
            self._post(place, text(await self.service.language(place, None), "tg.no_photos"))

    async def _on_timer_reply(self, place: Place, reply: Reply) -> None:
        """Replies caused by timers: queued in the chat's order (their table state numbered now, in the service's
        order: a press handled meanwhile may queue a newer state first); the scheduler never waits for Telegram."""
        chat_id, _ = chat_and_topic(place.table_id)
        state = self._numbered(place, reply)
        task = asyncio.create_task(self._in_chat_order(chat_id, self._deliver(place, reply, state)))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _in_chat_order(self, chat_id: int, work: Awaitable[None]) -> None:
        try:
            async with self._chat_lock(chat_id):
                await work
        except Exception:
            log.exception("could not deliver a timer's reply in chat %s", chat_id)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling %r", update, exc_info=context.error)
        if not isinstance(update, Update):
            return
        user = update.effective_user
        message = update.callback_query.message if update.callback_query is not None else update.message
        language = DEFAULT_LANGUAGE
        if user is not None:  # his own (`/lang ru me`) as remembered: the database, perhaps what failed, is not asked
            actor = Actor(user_key(user.id), user.full_name, (user.language_code or "")[:2] or None)
            language = self.service.remembered_language(None if message is None else self._place(message), actor)
        sorry = text(language, "tg.sorry")
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(sorry, show_alert=True)
            elif update.message is not None:
                await update.message.reply_text(sorry)
        except TelegramError:
            log.info("could not apologise for the error (the query may be answered already)")


class _InChatOrder(BaseUpdateProcessor):
    """Updates of different chats are handled at once; those of one chat one after another, in the order they
    came (each takes its chat's lock, which asyncio hands over first come, first served)."""

    def __init__(self, lock_of: Any) -> None:
        super().__init__(max_concurrent_updates=256)
        self._lock_of = lock_of

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Handle the update once its chat's earlier updates are done."""
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        async with self._lock_of(chat.id):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""


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
