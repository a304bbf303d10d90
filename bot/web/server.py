"""The clock pages' web server: one read-only page per tournament behind its token, kept live by server-sent events.

Served by the aiohttp the bot already has (through discord.py). `GET /clock/<token>` is the page and
`GET /clock/<token>/events` its stream; any other address, and any token that opens no tournament, is 404. The stream
sends the page's view (`bot.web.view`) at once, then again within a second of any change: the service wakes it after
each commit of the tournament's table (a pause, added minutes, a bust-out, a level announced), and it looks every
second anyway, so a level that ends by the clock alone shows too. Between changes the page counts down by itself;
the view goes again every `RESYNC_SECONDS` so a browser's clock that drifts is put right (and the connection kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import defaultdict
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import web

from bot.i18n import chat_language
from bot.service import Service
from bot.web.page import page_html
from bot.web.view import clock_view

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
"""How often a stream looks at its tournament without being woken (a level that ends by the clock alone shows
within a second)."""
RESYNC_SECONDS = 15.0
"""How often a stream sends its view even unchanged: the page's countdown is put right, and the connection kept."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class PageState:
    """A page's view at one reading, with the table whose changes wake its stream."""

    table_id: str
    language: str
    view: dict[str, Any]


class ClockPages:
    """The clock pages of every tournament the service runs (start with `start`, stop with `stop`)."""

    def __init__(self, service: Service, *, tick: float = TICK_SECONDS, resync: float = RESYNC_SECONDS) -> None:
        self.service = service
        self.tick = tick
        self.resync = resync
        self._waiting: defaultdict[str, set[asyncio.Event]] = defaultdict(set)
        self._closing = False
        self._runner: web.AppRunner | None = None
        service.watch(self._changed)

    def app(self) -> web.Application:
        """The web application: the page and its stream, nothing else."""
        app = web.Application()
        app.router.add_get("/clock/{token}", self._page)
        app.router.add_get("/clock/{token}/events", self._events)
        return app

    async def start(self, host: str, port: int) -> int:
        """Serve on `host`:`port` (0: any free port); returns the port bound."""
        self._runner = web.AppRunner(self.app(), shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        return int(self._runner.addresses[0][1])  # the port bound, when asked for any free one

    async def stop(self) -> None:
        """End every open stream and stop serving."""
        self._closing = True
        for events in self._waiting.values():
            for event in events:
                event.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- reading a tournament ----------------------------------------------------------------------------------

    async def read(self, token: str) -> PageState | None:
        """The page's view now, None when the token opens no tournament."""
        if not _TOKEN.fullmatch(token):
            return None
        found = await self.service.clock_page(token)
        if found is None:
            return None
        language = chat_language(found.settings)
        view = clock_view(found.tournament, found.tournament_id, found.reading, language, found.season)
        return PageState(found.table_id, language, view)

    def _changed(self, table_id: str) -> None:
        for event in self._waiting.get(table_id, ()):
            event.set()

    # --- handlers ----------------------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        state = await self.read(request.match_info["token"])
        if state is None:
            raise web.HTTPNotFound()
        nonce = secrets.token_urlsafe(12)
        return web.Response(text=page_html(state.language, state.view, nonce), content_type="text/html",
                            headers=_headers(nonce))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        state = await self.read(token)
        if state is None:
            raise web.HTTPNotFound()
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
            "Referrer-Policy": "no-referrer",
        })
        await response.prepare(request)
        views = self._views(token, state)
        try:
            async for view in views:
                await response.write(b"data: " + orjson.dumps(view) + b"\n\n")
        except ConnectionError:  # the browser went away
            pass
        finally:
            await views.aclose()
        return response

    async def _views(self, token: str, state: PageState) -> AsyncGenerator[dict[str, Any], None]:
        """The views to send: the first at once, then each that differs (the time left of a running clock aside:
        the page counts it down itself), and one every `resync` seconds."""
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        table_id = state.table_id
        self._waiting[table_id].add(wake)
        sent: dict[str, Any] | None = None
        sent_at = 0.0
        try:
            current: PageState | None = state
            while current is not None and not self._closing:
                if current.table_id != table_id:  # the chat moved (a group became a supergroup)
                    self._waiting[table_id].discard(wake)
                    table_id = current.table_id
                    self._waiting[table_id].add(wake)
                steady = dict(current.view)
                if steady["running"]:  # its end is in the view: the time left changes only as time passes
                    del steady["remaining_ms"]
                if steady != sent or loop.time() - sent_at >= self.resync:
                    sent, sent_at = steady, loop.time()
                    yield current.view
                with contextlib.suppress(TimeoutError):  # not `wait_for`: see `bot.telegram.outbox._dispatch`
                    async with asyncio.timeout(self.tick):
                        await wake.wait()
                wake.clear()
                current = await self.read(token)
        finally:
            self._waiting[table_id].discard(wake)
            if not self._waiting[table_id]:
                del self._waiting[table_id]


def _headers(nonce: str) -> dict[str, str]:
    """The page loads nothing from anywhere (its script and style are inline, allowed by their nonce), may not be
    framed, and sends no referrer, so its token stays on the screen it is on."""
    policy = (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return {"Content-Security-Policy": policy, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff", "X-Robots-Tag": "noindex"}


async def serve_clock_pages(service: Service, host: str, port: int) -> ClockPages:
    """Start the clock pages on `host`:`port` for the bot's lifetime (the caller stops them)."""
    pages = ClockPages(service)
    bound = await pages.start(host, port)
    log.info("clock pages served on %s:%d", host, bound)
    return pages
