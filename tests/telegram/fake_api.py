"""A small fake of the Telegram Bot API on 127.0.0.1, for end-to-end tests with the real python-telegram-bot.

It answers the methods the adapter uses (getMe, deleteWebhook, getUpdates with queued updates, sendMessage,
sendPhoto (a multipart upload), editMessageText, editMessageReplyMarkup, answerCallbackQuery, setMyCommands,
getChatAdministrators…), keeps every message it was asked to send so tests can read the group as the players would,
records every request, and can be told to answer a method with an error (e.g. 429 with `retry_after`; once, or until
told otherwise), or to hold its calls unanswered until the test says, to test how the bot copes.

It applies Telegram's flood limits as Telegram does, so every end-to-end test also proves the bot stays inside them:
a group accepts 20 sends and edits per rolling minute, a private chat 1 per second, the bot 30 per second in all;
beyond that the call is answered 429 with `retry_after` in `parameters` (and counted in `rejected`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TOKEN = "123456:TEST-token"
BOT = {"id": 999, "is_bot": True, "first_name": "Poker", "username": "pokerbot", "can_join_groups": True,
       "can_read_all_group_messages": False, "supports_inline_queries": False}
GROUP = {"id": -100500, "type": "supergroup", "title": "Poker night"}
LIMITED = {"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageCaption", "editMessageMedia",
           "editMessageReplyMarkup"}
"""The methods that count toward a chat's flood limit (answerCallbackQuery does not)."""
Matching = Callable[[dict[str, Any]], bool]
"""Which calls of a method a test's `hold`, `refuse` or `fail` is for, by their parameters."""
JSON_FIELDS = {"reply_markup", "media", "commands", "allowed_updates", "scope", "entities", "reply_parameters",
               "link_preview_options"}


@dataclass
class Request:
    """One call the bot made, and when it arrived (`time.monotonic()`)."""

    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


_DETECTED = re.compile(
    r"(?P<mention>(?<![\w@])@[A-Za-z0-9_]{3,32}(?![\w@]))"
    r"|(?P<bot_command>(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/]))",
    re.ASCII,
)
"""What Telegram finds in a plain text (no `parse_mode`): a mention, `@username` (it notifies that user in a group),
and a command, `/word` or `/word@bot` (tappable: it sends the command). A character between `@` or `/` and the word
(a word joiner) breaks either."""


def units(part: str) -> int:
    """A text's length as Telegram counts it: in UTF-16 code units (an emoji beyond the Basic Multilingual Plane counts
    two), for its entities' offsets and for its limits alike."""
    return len(part.encode("utf-16-le")) // 2


def detected(text: str) -> list[dict[str, Any]]:
    """The entities Telegram finds in a plain text, as it reports them (offsets and lengths in UTF-16 units)."""
    return [{"type": found.lastgroup, "offset": units(text[:found.start()]), "length": units(found.group())}
            for found in _DETECTED.finditer(text)]


@dataclass
class Sent:
    """A message as the chat shows it now (after any edits)."""

    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None = None
    topic: int | None = None
    edits: int = 0
    history: list[str] = field(default_factory=list)
    """Every text the message has shown, first to last."""
    photo: bytes | None = None
    """A photo message's uploaded image (its `text` is the caption)."""

    @property
    def entities(self) -> list[dict[str, Any]]:
        """The mentions and commands Telegram finds in what the message shows (see `detected`)."""
        return detected(self.text)

    def found(self, kind: str) -> list[str]:
        """The text of each mention (`kind` "mention") or command ("bot_command") the message shows."""
        encoded = self.text.encode("utf-16-le")
        return [encoded[2 * e["offset"]:2 * (e["offset"] + e["length"])].decode("utf-16-le")
                for e in self.entities if e["type"] == kind]

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button, row by row."""
        if not self.reply_markup:
            return []
        return [button for row in self.reply_markup["inline_keyboard"] for button in row]

    def button(self, label_part: str) -> dict[str, Any]:
        """The button whose label contains `label_part` (case-insensitive)."""
        found = [b for b in self.buttons() if label_part.lower() in b["text"].lower()]
        assert found, f"no button {label_part!r} in {[b['text'] for b in self.buttons()]}"
        return found[0]

    def to_api(self) -> dict[str, Any]:
        """The Message object as the Bot API returns it."""
        if self.chat_id == GROUP["id"]:
            chat: dict[str, Any] = GROUP
        elif self.chat_id < 0:  # another group: a supergroup's id starts with -100
            chat = {"id": self.chat_id, "type": "supergroup" if str(self.chat_id).startswith("-100") else "group",
                    "title": "Group"}
        else:
            chat = {"id": self.chat_id, "type": "private", "first_name": "U"}
        message: dict[str, Any] = {"message_id": self.message_id, "date": int(time.time()), "chat": chat,
                                   "from": BOT}
        if self.photo is None:
            message["text"] = self.text
            if self.entities:
                message["entities"] = self.entities
        else:
            message["photo"] = [{"file_id": f"photo{self.message_id}", "file_unique_id": f"p{self.message_id}",
                                 "width": 720, "height": 400}]
            if self.text:
                message["caption"] = self.text
            if self.entities:
                message["caption_entities"] = self.entities
        if self.reply_markup:
            message["reply_markup"] = self.reply_markup
        if self.topic:
            message["message_thread_id"] = self.topic
            message["is_topic_message"] = True
        return message


@dataclass
class Limits:
    """Telegram's flood limits: at most `count` requests in any `seconds` (a rolling window)."""

    group: tuple[int, float] = (20, 60.0)
    private: tuple[int, float] = (1, 1.0)
    bot: tuple[int, float] = (30, 1.0)


class FloodControl:
    """Counts the limited requests per chat and for the bot, and says how long a request over a limit must wait.

    `time_scale` shortens every window by that factor (a test or benchmark on a fast clock); the bot's budget must
    then use the same scale."""

    def __init__(self, limits: Limits | None = None, time_scale: float = 1.0) -> None:
        self.limits = limits or Limits()
        self.time_scale = time_scale
        self._chats: dict[int, deque[float]] = {}
        self._bot: deque[float] = deque()

    def admit(self, chat_id: int, now: float) -> float:
        """Record a request to `chat_id` at `now` and return 0, or the seconds it must wait (it is not recorded)."""
        count, seconds = self.limits.group if chat_id < 0 else self.limits.private
        chat = self._chats.setdefault(chat_id, deque())
        waits = [_over(chat, count, seconds / self.time_scale, now),
                 _over(self._bot, self.limits.bot[0], self.limits.bot[1] / self.time_scale, now)]
        if max(waits) > 0:
            return max(waits)
        chat.append(now)
        self._bot.append(now)
        return 0.0


def _over(stamps: deque[float], count: int, window: float, now: float) -> float:
    """How long until a window holding `stamps` admits one more (0: now)."""
    while stamps and stamps[0] <= now - window:
        stamps.popleft()
    return 0.0 if len(stamps) < count else stamps[-count] + window - now


class FakeBotApi:
    """The fake server: start() it, point the bot's base_url at `base_url`, push updates, read what was sent."""

    def __init__(self, *, limits: Limits | None = None, time_scale: float = 1.0) -> None:
        self.flood = FloodControl(limits, time_scale)
        self.rejected: list[Request] = []
        """Every call answered 429 by the flood limits (not the ones a test asked `fail` for)."""
        self.requests: list[Request] = []
        self.messages: dict[tuple[int, int], Sent] = {}
        self.admins: dict[int, list[dict[str, Any]]] = {}
        self.webhook: dict[str, Any] | None = None
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._new_update = asyncio.Condition()
        self._failures: dict[str, list[tuple[int, str, dict[str, Any], Matching]]] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._closing = False
        self.documents: list[tuple[int, str, bytes]] = []
        """Every file sent: chat, file name, content."""
        self.pressed_by: dict[str, int] = {}
        """Who pressed each button (callback query id → user id): the one user its answer is shown to."""
        self.no_photos: set[int] = set()
        """Chats where the bot may not send photos (sendPhoto is refused as Telegram does)."""
        self.migrated: dict[int, int] = {}
        """Groups upgraded to supergroups: a call to the old id is refused with the new one (`ChatMigrated`)."""
        self.closed_topics: set[tuple[int, int]] = set()
        """Forum topics (chat, topic) an administrator closed: a send there is refused as Telegram does (an edit of a
        message already there is not)."""
        self.delays: dict[str, float] = {}
        """Seconds to hold each call of a method before answering (a slow or rate-limited Telegram)."""
        self._held: dict[str, tuple[asyncio.Event, Matching]] = {}
        """Methods whose calls wait unanswered (`hold`), each until the test lets them be answered."""
        self._refused: dict[str, tuple[int, str, dict[str, Any], Matching]] = {}
        """Methods whose every call is answered with an error (`refuse`) until `release`."""

    # --- server -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        # a request still open at stop (a long poll, a send cut off) is not waited for the default minute
        # no access log: the fake's requests are not the program's log (each line would name the token)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Stop listening (a pending long poll is answered at once)."""
        self._closing = True
        for method in list(self._held):
            self._answer_held(method)
        async with self._new_update:
            self._new_update.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """What to give the bot as `base_url` (the token is appended)."""
        return f"http://127.0.0.1:{self.port}/bot"

    def fail(self, method: str, code: int, description: str, matching: Matching | None = None,
             **parameters: Any) -> None:
        """Answer the next call of `method` (of those `matching` accepts, when given) with an error (then behave
        normally again)."""
        self._failures.setdefault(method, []).append((code, description, parameters, matching or _every))

    def hold(self, method: str, matching: Matching | None = None) -> None:
        """Leave the calls of `method` (those `matching` accepts, when given; the others are answered as usual)
        unanswered until `refuse` or `release` (a Telegram slow to answer them): the test, not a timing window,
        decides what the bot hears and when. A call the bot gives up waiting for (its read timeout) and sends again
        is held again."""
        self._held.setdefault(method, (asyncio.Event(), matching or _every))

    def refuse(self, method: str, code: int, description: str, matching: Matching | None = None,
               **parameters: Any) -> None:
        """Answer every call of `method` (of those `matching` accepts, when given) with an error, the held ones
        first, until `release` (`fail` answers one)."""
        self._refused[method] = (code, description, parameters, matching or _every)
        self._answer_held(method)

    def release(self, method: str) -> None:
        """Answer the calls of `method` as usual again (the held ones now), ending a `hold` or a `refuse`."""
        self._refused.pop(method, None)
        self._answer_held(method)

    def _answer_held(self, method: str) -> None:
        held = self._held.pop(method, None)
        if held is not None:
            held[0].set()

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params = await _params(request)
        call = Request(method, params)
        self.requests.append(call)
        if method in self.delays:
            await asyncio.sleep(self.delays[method])
        if (held := self._held.get(method)) is not None and held[1](params):
            await held[0].wait()
        if "chat_id" in params and int(params["chat_id"]) in self.migrated:
            return _error(400, "Bad Request: group chat was upgraded to a supergroup chat",
                          {"migrate_to_chat_id": self.migrated[int(params["chat_id"])]})
        if method in LIMITED and "chat_id" in params:
            wait = self.flood.admit(int(params["chat_id"]), time.monotonic())
            if wait > 0:
                self.rejected.append(call)
                retry_after = max(1, math.ceil(wait))
                return _error(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})
        problem = too_long(method, params)
        if problem is not None:
            return _error(400, problem)
        if method.startswith("send") and (int(params.get("chat_id") or 0),
                                          int(params.get("message_thread_id") or 0)) in self.closed_topics:
            return _error(400, "Bad Request: TOPIC_CLOSED")
        failures = self._failures.get(method, [])
        if (failure := next((failure for failure in failures if failure[3](params)), None)) is not None:
            failures.remove(failure)
            return _error(*failure[:3])
        if method in self._refused and self._refused[method][3](params):
            return _error(*self._refused[method][:3])
        handler = getattr(self, f"api_{method}", None)
        if handler is None:
            return _error(404, f"Not Found: method {method}")
        try:
            result = await handler(params)
        except ApiError as error:
            return _error(400, error.description)
        return web.json_response({"ok": True, "result": result})

    # --- the Bot API methods ---------------------------------------------------------------------------------

    async def api_getMe(self, params: dict[str, Any]) -> Any:
        return BOT

    async def api_deleteWebhook(self, params: dict[str, Any]) -> Any:
        return True

    async def api_setWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = params
        return True

    async def api_setMyCommands(self, params: dict[str, Any]) -> Any:
        return True

    async def api_getChatAdministrators(self, params: dict[str, Any]) -> Any:
        return [{"status": "creator", "user": user, "is_anonymous": False}
                for user in self.admins.get(int(params["chat_id"]), [])]

    async def api_getUpdates(self, params: dict[str, Any]) -> Any:
        offset = int(params.get("offset") or 0)
        self._updates = [update for update in self._updates if update["update_id"] >= offset]
        if not self._updates and not self._closing:
            timeout = min(float(params.get("timeout") or 0), 2.0)
            async with self._new_update:
                try:
                    await asyncio.wait_for(self._new_update.wait(), timeout)
                except TimeoutError:
                    return []
        return list(self._updates)

    async def api_sendMessage(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        topic = int(params["message_thread_id"]) if params.get("message_thread_id") else None
        sent = Sent(chat_id, next(self._message_ids), params["text"], params.get("reply_markup"), topic)
        sent.history.append(sent.text)
        self.messages[chat_id, sent.message_id] = sent
        return sent.to_api()

    async def api_sendPhoto(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        photo = params.get("photo")
        if chat_id in self.no_photos:
            raise ApiError("Bad Request: not enough rights to send photos to the chat")
        if not isinstance(photo, bytes):
            raise ApiError("Bad Request: there is no photo in the request")
        topic = int(params["message_thread_id"]) if params.get("message_thread_id") else None
        sent = Sent(chat_id, next(self._message_ids), params.get("caption") or "", params.get("reply_markup"), topic,
                    photo=photo)
        sent.history.append(sent.text)
        self.messages[chat_id, sent.message_id] = sent
        return sent.to_api()

    def photos(self, chat_id: int) -> list[Sent]:
        """Every photo the bot sent to a chat, oldest first."""
        return [sent for sent in self.chat(chat_id) if sent.photo is not None]

    async def api_sendDocument(self, params: dict[str, Any]) -> Any:
        chat_id = int(params["chat_id"])
        content, name = params["document"], params.get("document.filename", "")
        self.documents.append((chat_id, name, content))
        sent = Sent(chat_id, next(self._message_ids), "")
        self.messages[chat_id, sent.message_id] = sent
        return {**sent.to_api(), "document": {"file_id": f"f{sent.message_id}", "file_unique_id": f"u{sent.message_id}",
                                               "file_name": name}}

    async def api_editMessageText(self, params: dict[str, Any]) -> Any:
        key = (int(params["chat_id"]), int(params["message_id"]))
        sent = self.messages.get(key)
        if sent is None:
            raise ApiError("Bad Request: message to edit not found")
        markup = params.get("reply_markup")
        if sent.text == params["text"] and sent.reply_markup == markup:
            raise ApiError("Bad Request: message is not modified: specified new message content and reply markup "
                           "are exactly the same as a current content and reply markup of the message")
        sent.text, sent.reply_markup = params["text"], markup
        sent.edits += 1
        sent.history.append(sent.text)
        return sent.to_api()

    async def api_editMessageReplyMarkup(self, params: dict[str, Any]) -> Any:
        """Replace a message's inline keyboard (none given: the keyboard goes); its text stays."""
        sent = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if sent is None:
            raise ApiError("Bad Request: message to edit not found")
        markup = params.get("reply_markup") or None
        if sent.reply_markup == markup or (not sent.buttons() and not markup):
            raise ApiError("Bad Request: message is not modified: specified new message content and reply markup "
                           "are exactly the same as a current content and reply markup of the message")
        sent.reply_markup = markup
        sent.edits += 1
        return sent.to_api()

    async def api_editMessageCaption(self, params: dict[str, Any]) -> Any:
        sent = self._photo_message(params)
        markup = params.get("reply_markup")
        caption = params.get("caption") or ""
        if sent.text == caption and sent.reply_markup == markup:
            raise ApiError("Bad Request: message is not modified")
        sent.text, sent.reply_markup = caption, markup
        sent.edits += 1
        sent.history.append(sent.text)
        return sent.to_api()

    async def api_editMessageMedia(self, params: dict[str, Any]) -> Any:
        """Replace a photo message's picture (uploaded with the request as `attach://name`) and caption."""
        sent = self._photo_message(params)
        media = params["media"]
        attached = str(media.get("media", "")).removeprefix("attach://")
        photo = params.get(attached)
        if media.get("type") != "photo" or not isinstance(photo, bytes):
            raise ApiError("Bad Request: there is no photo in the request")
        sent.photo, sent.text, sent.reply_markup = photo, media.get("caption") or "", params.get("reply_markup")
        sent.edits += 1
        sent.history.append(sent.text)
        return sent.to_api()

    def _photo_message(self, params: dict[str, Any]) -> Sent:
        sent = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if sent is None:
            raise ApiError("Bad Request: message to edit not found")
        if sent.photo is None:
            raise ApiError("Bad Request: there is no caption in the message to edit")
        return sent

    async def api_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        return True

    # --- driving the bot ---------------------------------------------------------------------------------

    async def push(self, update: dict[str, Any]) -> int:
        """Queue an update for the bot's next getUpdates; returns its update_id."""
        numbered = self.numbered(update)
        self._updates.append(numbered)
        async with self._new_update:
            self._new_update.notify_all()
        return int(numbered["update_id"])

    def numbered(self, update: dict[str, Any]) -> dict[str, Any]:
        """The update with the next update_id, as Telegram sends it (by getUpdates or to a webhook)."""
        return {"update_id": next(self._update_ids), **update}

    def command_update(self, user: dict[str, Any], text: str, chat: dict[str, Any] | None = None,
                       topic: int | None = None, mentioned: dict[str, Any] | None = None) -> dict[str, Any]:
        """A message update carrying a command (with the `bot_command` entity Telegram adds); `mentioned`: a user
        without a username picked from the mention list, whose full name the text then has (the `text_mention`
        entity over its last occurrence, carrying the user)."""
        chat = chat or GROUP
        word = text.split()[0]
        entities: list[dict[str, Any]] = [{"type": "bot_command", "offset": 0, "length": len(word)}]
        if mentioned is not None:
            name = " ".join(filter(None, (mentioned["first_name"], mentioned.get("last_name"))))
            at = text.rindex(name)
            entities.append({"type": "text_mention", "offset": units(text[:at]), "length": units(name),
                             "user": mentioned})
        message: dict[str, Any] = {
            "message_id": next(self._message_ids), "date": int(time.time()), "chat": chat, "from": user,
            "text": text, "entities": entities,
        }
        if topic:
            message["message_thread_id"] = topic
            message["is_topic_message"] = True
        return {"message": message}

    def member_update(self, chat: dict[str, Any], status: str, by: dict[str, Any],
                      was: str = "member") -> dict[str, Any]:
        """The bot's own membership in a chat changed (`left`, `kicked`, `member`, `administrator`) from `was` (the
        bot added to a group: from `left`)."""
        def member(status: str) -> dict[str, Any]:
            return {"status": status, "user": BOT, **({"until_date": 0} if status == "kicked" else {})}

        return {"my_chat_member": {"chat": chat, "from": by, "date": int(time.time()),
                                   "old_chat_member": member(was), "new_chat_member": member(status)}}

    def service_update(self, chat: dict[str, Any], by: dict[str, Any], **fields: Any) -> dict[str, Any]:
        """A service message in a chat (e.g. `migrate_to_chat_id=…`)."""
        return {"message": {"message_id": next(self._message_ids), "date": int(time.time()), "chat": chat,
                            "from": by, **fields}}

    def press_update(self, user: dict[str, Any], sent: Sent, data: str) -> tuple[dict[str, Any], str]:
        """A callback query update for a button on a message the bot sent; returns it and its query id."""
        query_id = str(next(self._query_ids))
        self.pressed_by[query_id] = user["id"]
        return {"callback_query": {"id": query_id, "from": user, "chat_instance": "ci", "data": data,
                                   "message": sent.to_api()}}, query_id

    # --- reading what happened -------------------------------------------------------------------------------

    def calls(self, method: str) -> list[dict[str, Any]]:
        """The parameters of every call of `method`, in order."""
        return [request.params for request in self.requests if request.method == method]

    def answer(self, query_id: str) -> dict[str, Any] | None:
        """How the bot answered a callback query."""
        for params in self.calls("answerCallbackQuery"):
            if params["callback_query_id"] == query_id:
                return params
        return None

    def chat(self, chat_id: int) -> list[Sent]:
        """Every message the bot has in a chat, oldest first."""
        return [sent for (chat, _), sent in sorted(self.messages.items()) if chat == chat_id]

    def texts_ever_shown(self, chat_id: int) -> list[str]:
        """Every text the chat ever showed, including each edit's."""
        return [text for sent in self.chat(chat_id) for text in sent.history]


TEXT_LIMIT, CAPTION_LIMIT, ALERT_LIMIT, CALLBACK_DATA_LIMIT = 4096, 1024, 200, 64
"""Telegram's limits: a message's text, a caption, a callback answer's text (in UTF-16 units, `units`: the Bot API's
"characters after entities parsing", and a plain text has no markup to parse), a button's data (bytes)."""


def too_long(method: str, params: dict[str, Any]) -> str | None:
    """Telegram's refusal of a text, caption, callback answer or button data over its limit, or None."""
    if method in ("sendMessage", "editMessageText") and units(params.get("text") or "") > TEXT_LIMIT:
        return "Bad Request: message is too long"
    if units(params.get("caption") or "") > CAPTION_LIMIT:
        return "Bad Request: message caption is too long"
    if method == "answerCallbackQuery" and units(params.get("text") or "") > ALERT_LIMIT:
        return "Bad Request: MESSAGE_TOO_LONG"
    markup = params.get("reply_markup")
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    if any(len(str(button.get("callback_data", "")).encode()) > CALLBACK_DATA_LIMIT for row in rows for button in row):
        return "Bad Request: BUTTON_DATA_INVALID"
    return None


class ApiError(Exception):
    """A Bot API error answer (400)."""

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description


def _every(params: dict[str, Any]) -> bool:
    """Every call of a method (`Matching`)."""
    return True


def _error(code: int, description: str, parameters: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=code)


async def _params(request: web.Request) -> dict[str, Any]:
    """The call's parameters: PTB posts form fields (or JSON), with nested objects as JSON strings."""
    if request.content_type == "application/json":
        raw: dict[str, Any] = await request.json()
    else:
        raw = dict(await request.post())
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if isinstance(value, web.FileField):  # an uploaded file (multipart): its bytes, and its name aside
            params[f"{name}.filename"] = value.filename
            value = value.file.read()
        elif isinstance(value, str) and name in JSON_FIELDS:
            value = json.loads(value)
        elif value in ("true", "false"):
            value = value == "true"
        params[name] = value
    return params
