"""A running tournament on a fake clock with its clock pages served on 127.0.0.1, for the clock page's tests."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.clock import FakeClock
from bot.service import Service, ServiceSettings
from bot.store import Store
from bot.web.server import ClockPages
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import SIX_PM, started_service

SCHEDULE = "10/20 20m; 20/40 20m; break 10m; 40/80"
LINK = re.compile(r"(http://\S+/clock/[\w-]+)")
WAIT_LIMIT = 30.0
"""Seconds after which a wait for what the page or its stream is sure to show is a failure rather than a hang: a guard,
no bound on their pace (a loaded machine may take seconds)."""
AN_HOUR = 3600.0
"""How often a stream looks on its own in the tests that pass it as `looks`: what such a stream sends at once, it was
sent because the service woke it."""


@dataclass
class Night:
    """The service, its fake clock, the clock pages and the link `/clock tv` posted."""

    service: Service
    clock: FakeClock
    pages: ClockPages
    link: str


@asynccontextmanager
async def tournament_night(store: Store, *, start: bool = True, schedule: str = SCHEDULE, options: str = "",
                           looks: float | None = None) -> AsyncIterator[Night]:
    """Three players in a tournament (of 20-minute levels unless `schedule` says otherwise, with the `options` of
    `/tournament create`; started at 18:00 unless `start` is False), its clock pages served on a free port, and the
    link `/clock tv` posted for it. With `looks`, the pages' streams look on their own (`ClockPages.tick`, and their
    resync) only every `looks` seconds."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    pages = ClockPages(service) if looks is None else ClockPages(service, tick=looks, resync=looks)
    port = await pages.start("127.0.0.1", 0)
    service.settings = ServiceSettings(web_url=f"http://127.0.0.1:{port}/")
    try:
        assert (await service.handle(PLACE, ANN, f"/tournament create {schedule} {options}")).error is None
        for actor in (ANN, BOB, CAT):
            assert (await service.handle(PLACE, actor, "/join")).error is None
        if start:
            assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
        posted = await service.handle(PLACE, BOB, "/clock tv")
        assert posted.error is None, posted.error
        found = LINK.search(posted.public[0])
        assert found is not None, posted.public
        yield Night(service, clock, pages, found.group(1))
    finally:
        await pages.stop()


class EventStream:
    """The page's server-sent events, read one view at a time."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> dict[str, Any]:
        """The next view sent (waited for no longer than `WAIT_LIMIT`)."""
        async def read() -> dict[str, Any]:
            while True:
                line = (await self.response.content.readline()).decode()
                if not line:
                    raise AssertionError("the stream ended")
                if line.startswith("data: "):
                    view: dict[str, Any] = json.loads(line[len("data: "):])
                    return view

        try:
            async with asyncio.timeout(WAIT_LIMIT):
                return await read()
        except TimeoutError:
            raise AssertionError(f"no view sent after {WAIT_LIMIT:.0f} s") from None


@asynccontextmanager
async def event_stream(link: str) -> AsyncIterator[EventStream]:
    """The events of the page at `link`."""
    async with aiohttp.ClientSession() as session, session.get(link + "/events") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        yield EventStream(response)
