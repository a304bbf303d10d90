"""A small fake of Discord on 127.0.0.1: the REST routes and the gateway a discord.py bot uses, for end-to-end tests.

It plays the platform's side only: it sends HELLO, READY, GUILD_CREATE and INTERACTION_CREATE over a websocket and
answers the REST calls (log-in, command sync, interaction callbacks, follow-ups, channel messages and edits) the way
Discord does, keeping every message and every version of it so tests can check what each member could see.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import yarl
from aiohttp import WSMsgType, web

EPHEMERAL = 64
DEFAULT_LOCALE = "en-US"
"""The locale of a command's own name and description (the one every client falls back to)."""
TOKEN = "fake-token"
"""The bot token the tests give the client (the fake accepts any)."""
APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 910_000_000_000_000_001
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL, SEND_MESSAGES = 1 << 10, 1 << 11
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | (1 << 31)  # and use application commands
SEND_MESSAGES_IN_THREADS = 1 << 38
"""What posting in a thread takes (Send Messages is the parent channel's)."""
PUBLIC_THREAD = 11
ATTACH_FILES = 1 << 15
BOT_PERMISSIONS = MEMBER_PERMISSIONS | ATTACH_FILES
CHANNEL_LIMIT, CHANNEL_PERIOD = 5, 5.0
"""Discord's per-channel buckets: 5 message creates (and, in their own bucket, 5 edits) per 5 seconds."""
WEBHOOK_LIMIT, WEBHOOK_PERIOD = 5, 2.0
"""An interaction's follow-ups and edits of its responses: their own bucket per interaction token."""
GLOBAL_LIMIT = 50
"""The bot's requests per second, all routes but the interactions' together."""
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, UNKNOWN_INTERACTION = 50001, 50013, 10003, 10062
UNKNOWN_WEBHOOK = 10015
ACK_SECONDS = 3.0
"""An interaction's first callback must come within this long of its creation: later, Discord answers 404 Unknown
interaction (and the member's client shows "The application did not respond")."""
WAIT_LIMIT = 30.0
"""Seconds after which a test's wait for something the bot is sure to do is a failure rather than a hang: a guard,
no bound on the bot's pace (a loaded machine may take seconds; what a test asserts is what happened, in what order)."""
_USER_MENTION = re.compile(r"(?<!\\)<@!?([0-9]{17,20})>")
_ROLE_MENTION = re.compile(r"(?<!\\)<@&([0-9]{17,20})>")
_EVERYONE = re.compile(r"(?<!\\)@(?:everyone|here)")


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Bucket:
    """One rate-limit bucket as Discord keeps it: `limit` requests per window of `period` seconds from the first."""

    name: str
    limit: int
    period: float
    count: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> float | None:
        """Count a request; return None if allowed, else the seconds to wait (the request is not counted)."""
        if now >= self.reset_at:
            self.count, self.reset_at = 0, now + self.period
        if self.count >= self.limit:
            return self.reset_at - now
        self.count += 1
        return None

    def exhaust(self, seconds: float, now: float) -> None:
        """Answer 429 for the next `seconds` (as after a burst elsewhere, or an unexplained sub-limit)."""
        self.count, self.reset_at = self.limit, now + seconds

    def headers(self, now: float) -> dict[str, str]:
        """The headers discord.py reads to pace itself."""
        after = max(0.0, self.reset_at - now)
        return {"X-RateLimit-Limit": str(self.limit), "X-RateLimit-Remaining": str(max(0, self.limit - self.count)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}", "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": self.name}


@dataclass
class Member:
    """A member of the fake guild who can run commands and press buttons."""

    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    roles: list[int] = field(default_factory=list)
    locale: str = "en-US"
    """The member's Discord client language, sent with each interaction."""
    left: bool = False
    """He left the guild: a mention of him resolves to a user, no longer a member."""

    def user(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower(), "discriminator": "0", "global_name": self.name,
                "avatar": None}

    def member(self) -> dict[str, Any]:
        return {"user": self.user(), "roles": [str(role) for role in self.roles], "joined_at": _now(), "deaf": False,
                "mute": False, "flags": 0, "nick": None, "pending": False, "permissions": str(self.permissions)}


@dataclass
class Interaction:
    """One interaction the fake sent, and everything the bot answered to it (callback, follow-ups, edits)."""

    id: int
    token: str
    user: Member
    channel_id: int
    kind: int
    message_id: int | None = None
    """The message whose button was pressed (component interactions)."""
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    acked_after: float | None = None
    sent_at: float = 0.0
    """When it was sent, on the fake's clock (`FakeDiscord.clock`)."""

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    def texts(self, *, ephemeral: bool | None = None) -> list[str]:
        """The text of each message this interaction produced (its latest version)."""
        return [m["content"] for m in self.messages
                if ephemeral is None or bool(m["flags"] & EPHEMERAL) == ephemeral]

    def ephemeral_text(self) -> str:
        return "\n".join(self.texts(ephemeral=True))

    async def wait_acked(self, timeout: float = ACK_SECONDS) -> None:
        """Wait for the callback: Discord gives a bot three seconds."""
        await asyncio.wait_for(self.acked.wait(), timeout)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait until `condition` holds (the bot is sure to get there: `WAIT_LIMIT` only tells a failure from a hang)."""
    try:
        async with asyncio.timeout(WAIT_LIMIT):
            while not condition():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"still waiting, after {WAIT_LIMIT:.0f} s: {what}") from None


class FakeDiscord:
    """The platform: one guild with text channels, members, and a record of every message and version."""

    def __init__(self, channels: tuple[int, ...] = (920_000_000_000_000_001, 920_000_000_000_000_002)) -> None:
        self.channels = channels
        self.members: dict[int, Member] = {}
        self.roles: list[dict[str, Any]] = [
            {"id": str(GUILD_ID), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0,
             "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
        ]
        self.commands: dict[str, dict[str, Any]] = {}
        self._registered: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {}
        """The commands registered globally (None) and in each guild, by name and type: a sync (a bulk overwrite)
        keeps the id of a command it registers again, gives a new one to a new command and drops the rest."""
        self.synced: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.versions: list[dict[str, Any]] = []
        """Every version of every message: channel messages and interaction responses alike."""
        self.requests: list[tuple[str, str]] = []
        self.identified: list[dict[str, Any]] = []
        self.interactions: dict[str, Interaction] = {}
        self.failed: list[Interaction] = []
        """Interactions the bot did not acknowledge within `ACK_SECONDS` (the member read "This interaction failed")."""
        self.timeline: list[tuple[float, str, str, int]] = []
        """Every REST request as (loop time, method, path, status), in the order answered."""
        self.limited: list[tuple[str, str, float]] = []
        """Every 429 answered: method, path, retry-after."""
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.clock: Callable[[], float] = lambda: asyncio.get_running_loop().time()
        """The time the rate limits count by (the event loop's; a test of the limits alone sets it by hand)."""
        self.throttled: set[str] = set()
        """Channels told to answer 429 (`limit_channel`)."""
        self.denied_uploads: set[int] = set()
        """Channels where the bot lacks Attach Files: a channel message with files is refused (403, code 50013).
        An interaction's response, follow-ups and their edits may attach files all the same, as on Discord: Attach
        Files and Embed Links are not taken from the bot's permissions for them (only Mention Everyone, Send TTS
        Messages and Use External Emojis are; discord-api-docs change log, "Changes to Bot Permissions for
        Interactions and Webhooks", Jun 29, 2022), and discord.py counts them as always permitted there."""
        self.hide_denial = False
        """Interactions claim Attach Files even where a channel message's uploads are refused (the bot learns it
        from the 403)."""
        self.lost: set[int] = set()
        """Channels the bot can no longer see (View Channel taken away): every request there is refused (403, code
        50001), and interactions from them say so in their app_permissions."""
        self.losing: set[int] = set()
        """Channels the bot loses as it next sends a request there (View Channel taken away after the interaction that
        caused it was sent, with the permissions of before): that request is refused, and the channel is lost."""
        self.denied_sends: set[int] = set()
        """Channels the bot sees but may not send messages in (Send Messages taken away): a new message is refused
        (403, code 50013), and interactions from them say so in their app_permissions. For a thread: Send Messages
        in Threads taken away (Send Messages, the channel's, kept)."""
        self.held_followups: asyncio.Event | None = None
        """While set to an event not set yet, interactions' follow-ups wait for it (a slow network)."""
        self.held_callbacks: asyncio.Event | None = None
        """While set to an event not set yet, interactions' callbacks (their acknowledgements) wait for it."""
        self.failing_followups = 0
        """How many of the next follow-ups are refused (404 Unknown Webhook, as for a token Discord lost)."""
        self.threads: dict[int, int] = {}
        """Public threads (`add_thread`), each with its parent channel."""
        self.uploads: dict[int, bytes] = {}
        """Every uploaded attachment's bytes, by attachment id (multipart message creation)."""
        self.files: list[tuple[int, str, bytes, bool]] = []
        """Every file sent: channel, file name, content, whether ephemeral."""
        self.serving: int | None = None
        """The bot's connection (by the order they identified) that interactions go to, as Discord sends a guild's
        events to the one process that holds its shard; None: every connection (the tests of one bot)."""
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self._sockets: list[web.WebSocketResponse] = []
        self._sequence = itertools.count(1)
        self._connected = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- life cycle -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        # a request still open at stop (a long poll, a send cut off) is not waited for the default minute
        self._runner = web.AppRunner(app, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def rest_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    def add_member(self, name: str, *, permissions: int = MEMBER_PERMISSIONS, roles: list[int] | None = None) -> Member:
        member = Member(next(self._ids), name, permissions, roles or [])
        self.members[member.id] = member
        return member

    def add_thread(self, parent: int) -> int:
        """A public thread of the channel `parent` (before the bot connects: it is in the guild's active threads)."""
        thread_id = next(self._ids)
        self.threads[thread_id] = parent
        return thread_id

    def limit_channel(self, channel_id: int, seconds: float) -> None:
        """Answer 429 to the channel's message creates and edits for the next `seconds`."""
        now = self.clock()
        self.throttled.add(str(channel_id))
        for route in ("messages-create", "messages-edit"):
            self._bucket(route, str(channel_id)).exhaust(seconds, now)

    def add_role(self, name: str) -> int:
        role_id = next(self._ids)
        self.roles.append({"id": str(role_id), "name": name, "permissions": "0", "position": len(self.roles),
                           "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0})
        return role_id

    # --- what members see -----------------------------------------------------------------------------------

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        """Messages of a channel in posting order, latest versions, without the ephemeral ones."""
        return [m for m in self.messages.values()
                if int(m["channel_id"]) == channel_id and not m["flags"] & EPHEMERAL]

    def public_versions(self) -> list[str]:
        """The text of every version of every message anyone in the channel could see."""
        return [v["content"] for v in self.versions if not v["flags"] & EPHEMERAL]

    def files_of(self, message: dict[str, Any]) -> list[bytes]:
        """The bytes of each file attached to a message."""
        return [self.uploads[int(attachment["id"])] for attachment in message.get("attachments", [])]

    def edits_of(self, message_id: int) -> int:
        return sum(1 for v in self.versions if int(v["id"]) == message_id) - 1

    @staticmethod
    def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
        return [item for row in message.get("components", []) for item in row.get("components", [])]

    def button(self, message: dict[str, Any], label: str) -> str:
        for item in self.buttons(message):
            if item.get("label") == label:
                return str(item["custom_id"])
        raise AssertionError(f"no button {label!r} in {[b.get('label') for b in self.buttons(message)]}")

    # --- members act ---------------------------------------------------------------------------------------

    async def wait_connected(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def slash(self, member: Member, channel_id: int, name: str, /, *, subcommand: str | None = None,
                    **options: Any) -> Interaction:
        """A member runs a slash command; waits for the bot's callback."""
        values = [{"name": key, "type": _option_type(value), "value": _option_value(value)}
                  for key, value in options.items() if value is not None]
        if subcommand is not None:
            values = [{"name": subcommand, "type": 1, "options": values}]
        data: dict[str, Any] = {"id": self.commands[name]["id"], "name": name, "type": 1, "options": values}
        mentioned = [value for value in options.values() if isinstance(value, Member)]
        if mentioned:
            data["resolved"] = {
                "users": {str(m.id): m.user() for m in mentioned},
                "members": {str(m.id): {k: v for k, v in m.member().items() if k != "user"}
                            for m in mentioned if not m.left},
            }
        if self.commands[name].get("guild_id"):
            data["guild_id"] = str(GUILD_ID)
        return await self._interact(member, channel_id, 2, data)

    async def autocomplete(self, member: Member, channel_id: int, name: str, focused: str, value: str,
                           **options: Any) -> list[dict[str, Any]]:
        """A member types into an option that has autocompletion; returns the bot's choices."""
        values = [{"name": key, "type": _option_type(v), "value": v} for key, v in options.items()]
        values.append({"name": focused, "type": 3, "value": value, "focused": True})
        data = {"id": self.commands[name]["id"], "name": name, "type": 1, "options": values}
        if self.commands[name].get("guild_id"):
            data["guild_id"] = str(GUILD_ID)
        interaction = await self._interact(member, channel_id, 4, data)
        assert interaction.callback_type == 8
        return list(interaction.callbacks[0]["data"]["choices"])

    async def press(self, member: Member, message: dict[str, Any], custom_id: str) -> Interaction:
        """A member presses a button of a message as his client shows it (`message` may be an older version: a
        client's refresh lags). As Discord does, the interaction carries the message as it is now, the bot's later
        edits included: its components may no longer hold the button pressed."""
        data = {"custom_id": custom_id, "component_type": 2}
        now = self.messages.get(int(message["id"]), message)
        return await self._interact(member, int(message["channel_id"]), 3, data, message=now)

    async def _interact(self, member: Member, channel_id: int, kind: int, data: dict[str, Any],
                        message: dict[str, Any] | None = None) -> Interaction:
        interaction = Interaction(next(self._ids), f"token{next(self._ids)}", member, channel_id, kind,
                                  int(message["id"]) if message is not None else None)
        interaction.sent_at = self.clock()
        self.interactions[interaction.token] = interaction
        payload: dict[str, Any] = {
            "id": str(interaction.id), "application_id": str(APP_ID), "type": kind, "token": interaction.token,
            "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(channel_id),
            "channel": self._channel(channel_id), "member": member.member(), "locale": member.locale,
            "guild_locale": "en-US", "app_permissions": str(self._bot_permissions(channel_id)), "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024, "data": data,
        }
        if message is not None:
            payload["message"] = message
        await self.dispatch("INTERACTION_CREATE", payload, to=self.serving)
        try:
            await interaction.wait_acked()
        except TimeoutError:
            self.failed.append(interaction)
            raise TimeoutError(f"no answer within {ACK_SECONDS:.0f} s: the member's client shows "
                               f"'This interaction failed' ({data})") from None
        return interaction

    # --- gateway ---------------------------------------------------------------------------------------------

    async def dispatch(self, event: str, data: dict[str, Any], *, to: int | None = None) -> None:
        """Send an event to every connection of the bot, or only to the `to`th (by the order they identified)."""
        for socket in self._sockets if to is None else [self._sockets[to]]:
            await socket.send_str(json.dumps({"op": 0, "t": event, "s": next(self._sequence), "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            if message["op"] == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif message["op"] == 2:
                self.identified.append(message["d"])
                self._sockets.append(socket)
                await self._ready(socket)
        if socket in self._sockets:
            self._sockets.remove(socket)
            if not self._sockets:
                self._connected.clear()
        return socket

    async def _ready(self, socket: web.WebSocketResponse) -> None:
        ready = {"v": 10, "user": self._bot_user(), "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                 "session_id": "session", "resume_gateway_url": str(self.gateway_url), "shard": [0, 1],
                 "application": {"id": str(APP_ID), "flags": 0}}
        await socket.send_str(json.dumps({"op": 0, "t": "READY", "s": next(self._sequence), "d": ready}))
        guild = {
            "id": str(GUILD_ID), "name": "Poker night", "icon": None, "owner_id": str(next(iter(self.members), 1)),
            "roles": self.roles, "channels": [self._channel(c) for c in self.channels],
            "threads": [self._channel(thread) for thread in self.threads],
            "members": [{**Member(BOT_ID, "Pokerbot").member(), "user": self._bot_user()}], "member_count": 1,
            "large": False, "unavailable": False, "features": [], "emojis": [], "stickers": [], "voice_states": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "joined_at": _now(),
            "premium_tier": 0, "preferred_locale": "en-US", "system_channel_flags": 0, "verification_level": 0,
            "explicit_content_filter": 0, "default_message_notifications": 0, "mfa_level": 0, "nsfw_level": 0,
        }
        await socket.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": next(self._sequence), "d": guild}))
        self._connected.set()

    def _bot_user(self) -> dict[str, Any]:
        return {"id": str(BOT_ID), "username": "pokerbot", "discriminator": "0", "global_name": "Pokerbot",
                "avatar": None, "bot": True, "flags": 0}

    def _bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel, as an interaction from it carries them (`app_permissions`)."""
        told = channel_id in self.denied_uploads and not self.hide_denial
        permissions = BOT_PERMISSIONS & ~ATTACH_FILES if told else BOT_PERMISSIONS
        if channel_id in self.lost:
            permissions &= ~VIEW_CHANNEL
        if channel_id in self.threads:
            permissions |= SEND_MESSAGES_IN_THREADS
        if channel_id in self.denied_sends:
            permissions &= ~(SEND_MESSAGES_IN_THREADS if channel_id in self.threads else SEND_MESSAGES)
        return permissions

    def _channel(self, channel_id: int) -> dict[str, Any]:
        if channel_id in self.threads:
            metadata = {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": _now(), "locked": False}
            return {"id": str(channel_id), "type": PUBLIC_THREAD, "guild_id": str(GUILD_ID),
                    "parent_id": str(self.threads[channel_id]), "owner_id": str(BOT_ID), "name": "poker night",
                    "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0, "member_count": 1,
                    "flags": 0, "thread_metadata": metadata}
        return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": f"table-{channel_id % 100}",
                "position": self.channels.index(channel_id), "permission_overwrites": [], "nsfw": False,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None}

    # --- REST ------------------------------------------------------------------------------------------------

    def _bucket(self, route: str, key: str) -> Bucket:
        """The bucket of a route and its major parameter (the channel, or the interaction's token)."""
        limit, period = {"messages-create": (CHANNEL_LIMIT, CHANNEL_PERIOD),
                         "messages-edit": (CHANNEL_LIMIT, CHANNEL_PERIOD), "webhook": (WEBHOOK_LIMIT, WEBHOOK_PERIOD),
                         "callback": (5, 5.0)}.get(route, (50, 1.0))
        return self.buckets.setdefault((route, key), Bucket(route, limit, period))

    def _route_bucket(self, method: str, parts: list[str]) -> Bucket:
        match (method, *parts):
            case ("POST", "channels", channel, "messages"):
                return self._bucket("messages-create", channel)
            case ("PATCH", "channels", channel, "messages", _):
                return self._bucket("messages-edit", channel)
            case ("POST", "interactions", _, token, "callback"):
                return self._bucket("callback", token)
            case (_, "webhooks", _, token, *_):
                return self._bucket("webhook", token)
        return self._bucket(f"{method} {parts[0]}", "")

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        parts = path.strip("/").split("/")
        now = self.clock()
        if parts[0] not in ("interactions", "webhooks"):  # interaction endpoints are outside the global limit
            overall = self.buckets.setdefault(("global", ""), Bucket("global", GLOBAL_LIMIT, 1.0))
            wait = overall.take(now)
            if wait is not None:
                self.limited.append((request.method, path, wait))
                self.timeline.append((now, request.method, path, 429))
                headers = {"Retry-After": str(max(1, round(wait))), "X-RateLimit-Global": "true",
                           "X-RateLimit-Scope": "global", "Via": "1.1 google"}
                return _json({"message": "You are being rate limited.", "retry_after": wait, "global": True}, 429,
                             headers)
        bucket = self._route_bucket(request.method, parts)
        wait = bucket.take(now)
        if wait is not None:  # as Discord: the bucket's headers, the wait in the body, not global
            self.limited.append((request.method, path, wait))
            self.timeline.append((now, request.method, path, 429))
            headers = {**bucket.headers(now), "Retry-After": str(max(1, round(wait))), "Via": "1.1 google",
                       "X-RateLimit-Scope": "user"}
            return _json({"message": "You are being rate limited.", "retry_after": wait, "global": False}, 429,
                         headers)
        response = await self._answer(request, path, parts)
        self.timeline.append((now, request.method, path, response.status))
        response.headers.update(bucket.headers(now))
        return response

    async def _answer(self, request: web.Request, path: str, parts: list[str]) -> web.Response:
        body = await self._body(request, parts) if request.can_read_body else None
        if parts[0] == "channels" and int(parts[1]) in self.losing:
            self.losing.discard(int(parts[1]))
            self.lost.add(int(parts[1]))
        if parts[0] == "channels" and int(parts[1]) in self.lost:
            return _json({"message": "Missing Access", "code": MISSING_ACCESS}, 403)
        if parts[0] == "channels" and int(parts[1]) in self.denied_uploads and (body or {}).get("attachments"):
            return _json({"message": "Missing Permissions", "code": MISSING_PERMISSIONS}, 403)
        posting = request.method == "POST" and parts[0] == "channels" and parts[2:] == ["messages"]
        if posting and int(parts[1]) in self.denied_sends:
            return _json({"message": "Missing Permissions", "code": MISSING_PERMISSIONS}, 403)
        route = (request.method, *parts)
        posted = (body or {}).get("data") if parts[0] == "interactions" else body
        problem = invalid_message(posted) if isinstance(posted, dict) and request.method in ("POST", "PATCH") else None
        if problem is not None:
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": problem}, 400)
        result: Any
        match route:
            case ("GET", "users", "@me"):
                result = self._bot_user()
            case ("GET", "oauth2", "applications", "@me"):
                result = {"id": str(APP_ID), "name": "pokerbot", "description": "", "icon": None,
                          "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
                          "owner": Member(1, "Owner").user(), "team": None, "rpc_origins": []}
            case ("PUT", "applications", _, "commands"):
                result = self._sync(None, body)
                if isinstance(result, str):
                    return _refused(result)
            case ("PUT", "applications", _, "guilds", guild, "commands"):
                result = self._sync(int(guild), body)
                if isinstance(result, str):
                    return _refused(result)
            case ("POST", "interactions", _, token, "callback"):
                interaction = self.interactions[token]
                if not interaction.acked.is_set() and self.clock() - interaction.sent_at > ACK_SECONDS:
                    return _json({"message": "Unknown interaction", "code": UNKNOWN_INTERACTION}, 404)
                if self.held_callbacks is not None:
                    await self.held_callbacks.wait()
                result = self._callback(interaction, body)
            case ("POST", "webhooks", _, token):
                if self.failing_followups:
                    self.failing_followups -= 1
                    return _json({"message": "Unknown Webhook", "code": UNKNOWN_WEBHOOK}, 404)
                if self.held_followups is not None:
                    await self.held_followups.wait()
                result = self._followup(self.interactions[token], body)
            case ("PATCH", "webhooks", _, token, "messages", message_id):
                result = self._edit_response(self.interactions[token], message_id, body)
            case ("POST", "channels", channel_id, "messages"):
                result = self._create(int(channel_id), body)
            case ("PATCH", "channels", _, "messages", message_id):
                result = self._edit(int(message_id), body)
            case _:
                return _json({"message": f"fake Discord has no route {request.method} {path}", "code": 0}, 404)
        return _json(result)

    async def _body(self, request: web.Request, parts: list[str]) -> Any:
        """A JSON body, or a multipart one (`payload_json` and `files[n]`) whose files become attachments."""
        if not request.content_type.startswith("multipart/"):
            return await request.json()
        form = await request.post()
        body = json.loads(str(form["payload_json"]))
        target = body.get("data", body) if parts[-1] == "callback" else body
        described = {int(a["id"]): a for a in target.get("attachments", []) if str(a.get("id", "")).isdigit()}
        attachments = []
        for name, value in form.items():
            if not isinstance(value, web.FileField):
                continue
            index = int(name.removeprefix("files[").rstrip("]"))
            data = value.file.read()
            attachment_id = next(self._ids)
            self.uploads[attachment_id] = data
            attachments.append({
                "id": str(attachment_id), "filename": value.filename, "size": len(data),
                "url": f"https://cdn.example/{attachment_id}/{value.filename}", "proxy_url": "https://cdn.example/",
                "content_type": value.content_type, "description": described.get(index, {}).get("description"),
            })
        target["attachments"] = attachments
        return body

    def _sync(self, guild: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]] | str:
        problem = invalid_commands(commands)
        if problem:
            return problem
        before = self._registered.get(guild, {})
        registered = []
        for command in commands:
            key = (command["name"], command.get("type", 1))
            known = before.get(key)
            entry = {**command, "id": known["id"] if known else str(next(self._ids)), "application_id": str(APP_ID),
                     "version": str(next(self._ids)), "type": key[1],
                     "default_member_permissions": command.get("default_member_permissions")}
            if guild is not None:
                entry["guild_id"] = str(guild)
            self.commands[command["name"]] = entry
            registered.append(entry)
        self._registered[guild] = {(entry["name"], entry["type"]): entry for entry in registered}
        self.synced.append((guild, commands))
        return registered

    def mention(self, name: str) -> str:
        """A registered command's mention as Discord's clients read it (`fold`: `</fold:id>`; a subcommand,
        `tournament redeem`, by its group's id)."""
        return f"</{name}:{self.commands[name.split()[0]]['id']}>"

    def mentioned(self, template: str) -> str:
        """`template` with each `{name}` in it (`{fold}`, `{tournament start}`) as that command's mention."""
        return re.sub(r"\{([a-z]+(?: [a-z]+)?)\}", lambda found: self.mention(found[1]), template)

    def _message(self, channel_id: int, body: dict[str, Any], *, flags: int = 0) -> dict[str, Any]:
        message = {
            "id": str(next(self._ids)), "channel_id": str(channel_id), "guild_id": str(GUILD_ID),
            "author": self._bot_user(), "content": body.get("content") or "", "timestamp": _now(),
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": body.get("attachments") or [], "embeds": body.get("embeds") or [], "pinned": False,
            "type": 0,
            "flags": flags | int(body.get("flags") or 0), "components": body.get("components") or [],
        }
        if not flags & EPHEMERAL and not int(body.get("flags") or 0) & EPHEMERAL:  # edits and ephemerals ping none
            message["pinged"] = pings(message["content"], body.get("allowed_mentions"))
        for attachment in message["attachments"]:
            content = self.uploads.get(int(attachment["id"]), b"")
            self.files.append((channel_id, attachment["filename"], content, bool(message["flags"] & EPHEMERAL)))
        self.messages[int(message["id"])] = message
        self.versions.append(dict(message))
        return message

    def _create(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return self._message(channel_id, body)

    def _edit(self, message_id: int, body: dict[str, Any]) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "components", "embeds", "attachments"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        message["edited_timestamp"] = _now()
        self.versions.append(dict(message))
        return message

    def _callback(self, interaction: Interaction, body: dict[str, Any]) -> dict[str, Any]:
        kind, data = body["type"], body.get("data") or {}
        interaction.callbacks.append(body)
        if not interaction.acked.is_set():
            interaction.acked_after = self.clock() - interaction.sent_at
            interaction.acked.set()
        answer: dict[str, Any] = {"id": str(interaction.id), "type": kind}
        result: dict[str, Any] = {"interaction": answer}
        message = None
        if kind == 4:
            message = self._message(interaction.channel_id, data)
        elif kind == 5:
            message = self._message(interaction.channel_id, {"content": "", "flags": data.get("flags", 0)})
            message["loading"] = True
            answer["response_message_loading"] = True
        elif kind == 7:  # UPDATE_MESSAGE: the pressed message itself is edited
            assert interaction.message_id is not None, "only a component interaction may update its message"
            updated = self._edit(interaction.message_id, data)
            result["resource"] = {"type": kind, "message": updated}
        if message is not None:
            if kind in (4, 5):
                interaction.messages.append(message)
            answer["response_message_id"] = message["id"]
            answer["response_message_ephemeral"] = bool(message["flags"] & EPHEMERAL)
            result["resource"] = {"type": kind, "message": message}
        return result

    def _followup(self, interaction: Interaction, body: dict[str, Any]) -> dict[str, Any]:
        loading = [m for m in interaction.messages if m.get("loading")]
        if loading:  # the first follow-up after a "thinking" defer replaces the loading message
            return self._fill(loading[0], body)
        message = self._message(interaction.channel_id, body)
        interaction.messages.append(message)
        return message

    def _edit_response(self, interaction: Interaction, message_id: str, body: dict[str, Any]) -> dict[str, Any]:
        if message_id == "@original":
            if interaction.callback_type in (6, 7):  # after a (deferred) update: the pressed message, follow-ups or not
                assert interaction.message_id is not None
                return self._edit(interaction.message_id, body)
            message = interaction.messages[0]
            if message.get("loading"):
                return self._fill(message, body)
            return self._edit(int(message["id"]), body)
        return self._edit(int(message_id), body)

    def _fill(self, message: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """A "thinking" message's first content: Discord notifies its mentions as a new message's (it was posted
        empty), where a later edit notifies none."""
        message.pop("loading")
        if not message["flags"] & EPHEMERAL:
            message["pinged"] = pings(body.get("content") or "", body.get("allowed_mentions"))
        return self._edit(int(message["id"]), body)


def pings(content: str, allowed: dict[str, Any] | None) -> dict[str, Any]:
    """Whom a new message notifies (kept as its `pinged`, which the client never reads), as Discord decides it: the
    mentions written in `content` (`<@id>`, `<@&role>`,
    `@everyone`, `@here`; a backslash before one makes it plain text) that `allowed` (the message's
    `allowed_mentions`; without it every kind is parsed) lets through."""
    parse = set(allowed.get("parse", [])) if allowed is not None else {"users", "roles", "everyone"}
    listed = {int(user) for user in (allowed or {}).get("users", [])}
    users = [int(found) for found in _USER_MENTION.findall(content)]
    roles = [int(found) for found in _ROLE_MENTION.findall(content)]
    listed_roles = {int(role) for role in (allowed or {}).get("roles", [])}
    return {
        "users": [user for user in dict.fromkeys(users) if "users" in parse or user in listed],
        "roles": [role for role in dict.fromkeys(roles) if "roles" in parse or role in listed_roles],
        "everyone": "everyone" in parse and bool(_EVERYONE.search(content)),
    }


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_MARKUP = re.compile(r"(?<!\\)(?:[*_~|`<\[]|^\s*[#>-])", re.MULTILINE)


def shown(content: str) -> str:
    """What a member reads of plain text escaped for Discord: a backslash before punctuation shows the punctuation,
    a zero-width space or a word joiner is not seen."""
    return _ESCAPED.sub(r"\1", content).replace("\u200b", "").replace("\u2060", "")


def markup(content: str) -> list[str]:
    """The characters of `content` that Discord's markdown could read as formatting, a link or a mention (those
    without a backslash before them): the start of a bold, italic, strike-through, spoiler, code, masked link, `<…>`
    mention, heading, quote or list (a link is not looked into)."""
    bare = re.sub(r"https?://\S+", "", re.sub(r"\\\\", "", content))  # links, and escaped backslashes
    return [found.group().strip() for found in _MARKUP.finditer(bare)]


def _option_value(value: Any) -> Any:
    return str(value.id) if isinstance(value, Member) else value


def _option_type(value: Any) -> int:
    if isinstance(value, Member):
        return 6
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


LOCALES = frozenset({"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
                     "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
                     "ja", "zh-TW", "ko"})
"""The locales Discord accepts as keys of `name_localizations` and `description_localizations`."""
DEVANAGARI_AND_THAI = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))
"""The Unicode blocks of the two scripts Discord's name rule admits whole: their vowel signs are marks, not letters."""
COMMANDS_LIMIT, OPTIONS_LIMIT, CHOICES_LIMIT, CHOICE_LIMIT = 100, 25, 25, 100
"""At most 100 slash commands, 25 options a command, 25 choices an option; a choice's name and a string choice's
value 1-100 characters long."""


def is_name(name: str) -> bool:
    """Discord's rule for a slash command's or option's name, in every language: it matches
    `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` and is lowercase wherever a letter has a lowercase form."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(
        char in "-_" or unicodedata.category(char)[0] in "LN"
        or any(low <= ord(char) <= high for low, high in DEVANAGARI_AND_THAI) for char in name)


def _localizations(item: dict[str, Any], field: str, valid: Callable[[str], bool]) -> str | None:
    """Why an item's `<field>_localizations` would be refused (a locale Discord does not know, a text breaking the
    field's rule), or None."""
    for locale, value in (item.get(f"{field}_localizations") or {}).items():
        if locale not in LOCALES:
            return f"unknown locale {locale!r} in {field}_localizations of {item['name']!r}"
        if not isinstance(value, str) or not valid(value):
            return f"invalid {field} {value!r} ({locale}) of {item['name']!r}"
    return None


def _choices(option: dict[str, Any]) -> str | None:
    """Why Discord would refuse an option's choices, or None."""
    choices = option.get("choices") or []
    if len(choices) > CHOICES_LIMIT:
        return f"{len(choices)} choices for {option['name']!r}"
    for choice in choices:
        if not 1 <= len(choice["name"]) <= CHOICE_LIMIT:
            return f"invalid choice name {choice['name']!r}"
        if isinstance(choice["value"], str) and not 1 <= len(choice["value"]) <= CHOICE_LIMIT:
            return f"invalid choice value {choice['value']!r}"
        problem = _localizations(choice, "name", lambda name: 1 <= len(name) <= CHOICE_LIMIT)
        if problem:
            return problem
    return None


def invalid_commands(commands: list[dict[str, Any]], limit: int = COMMANDS_LIMIT) -> str | None:
    """Why Discord would refuse these commands or options (a name, description or choice breaking its rules, a
    locale it does not know, two of the same name in one language at one level), or None."""
    if len(commands) > limit:
        return f"{len(commands)} commands or options at one level, over {limit}"
    for locale in {DEFAULT_LOCALE} | {key for command in commands for key in (command.get("name_localizations") or {})}:
        names = [(command.get("name_localizations") or {}).get(locale, command["name"]) for command in commands]
        if len(names) != len(set(names)):
            return f"duplicate {locale} names {names}"
    for command in commands:
        if not is_name(command["name"]):
            return f"invalid name {command['name']!r}"
        if not 1 <= len(command.get("description", "")) <= 100:
            return f"invalid description {command.get('description')!r}"
        problem = (_localizations(command, "name", is_name)
                   or _localizations(command, "description", lambda text: 1 <= len(text) <= 100)
                   or _choices(command) or invalid_commands(command.get("options") or [], OPTIONS_LIMIT))
        if problem:
            return problem
    return None


CONTENT_LIMIT = 2000
"""A message's content: at most 2,000 characters."""
ROWS_LIMIT, ROW_LIMIT, CUSTOM_ID_LIMIT, LABEL_LIMIT = 5, 5, 100, 80
"""A message's components: at most 5 action rows of at most 5 each; a component's custom_id at most 100 characters,
a button's label at most 80."""


def invalid_message(body: dict[str, Any]) -> dict[str, Any] | None:
    """The `errors` of Discord's 400 Invalid Form Body for a message it refuses (content over 2,000 characters; more
    action rows or components in a row than Discord takes, a custom_id or a button's label over its length; an
    `allowed_mentions` that both parses a kind and lists some of it), or None."""
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_LIMIT:
        return _too_long("content", CONTENT_LIMIT)
    rows = body.get("components") or []
    if len(rows) > ROWS_LIMIT or any(len(row.get("components") or []) > ROW_LIMIT for row in rows):
        return {"components": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                            "message": f"Must be between 1 and {ROW_LIMIT} in length."}]}}
    for item in (item for row in rows for item in row.get("components") or []):
        if len(item.get("custom_id") or "") > CUSTOM_ID_LIMIT:
            return _too_long("custom_id", CUSTOM_ID_LIMIT)
        if item.get("type") == 2 and len(item.get("label") or "") > LABEL_LIMIT:
            return _too_long("label", LABEL_LIMIT)
    allowed = body.get("allowed_mentions") or {}
    for kind in ("users", "roles"):
        if kind in allowed.get("parse", []) and allowed.get(kind):
            return {"allowed_mentions": {"_errors": [{"code": "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                                                      "message": f"parse:[\"{kind}\"] and {kind}: [ids...] are "
                                                                 "mutually exclusive."}]}}
    return None


def _too_long(field: str, limit: int) -> dict[str, Any]:
    return {field: {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]}}


def _refused(problem: str) -> web.Response:
    """Discord's answer to a command sync it refuses: 400 Invalid Form Body, the reason under `errors`."""
    errors = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": problem}]}
    return _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # exactly `application/json`: discord.py compares the header, a charset suffix makes it read text
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})
