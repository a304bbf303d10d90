"""Fixtures for the Telegram end-to-end tests: the fake Bot API, and the real bot (service + adapter) talking to it."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram import Update
from telegram.ext import TypeHandler

from bot.clock import FakeClock
from bot.games import default_controllers
from bot.service import Service, ServiceSettings
from bot.store import Store
from bot.telegram import TelegramAdapter, TelegramSettings
from tests.service_seam import ServiceSeam
from tests.telegram.duel import Duel
from tests.telegram.fake_api import GROUP, TOKEN, FakeBotApi, Sent

ANN = {"id": 101, "is_bot": False, "first_name": "Ann", "username": "ann", "language_code": "en"}
BOB = {"id": 102, "is_bot": False, "first_name": "Bob", "last_name": "Brown", "language_code": "en"}
CAT = {"id": 103, "is_bot": False, "first_name": "Cat", "username": "cat"}
WHOLE_HANDS = 30
"""The time scale for tests that play whole hands through a group, or send it more than the three requests the
outbox lets go back to back before it spreads them (their limits' windows last 2 s instead of 60)."""


def private_chat(user: dict[str, Any]) -> dict[str, Any]:
    """The private chat between a user and the bot."""
    return {"id": user["id"], "type": "private", "first_name": user["first_name"]}


class Running:
    """The bot as deployed: a store file, the service, and the Telegram adapter polling the fake server (or, with
    `webhook_port`, receiving its updates by webhook on that port: one of several processes on one database, each
    posted the updates a test routes to it, as Telegram's webhook may hit any of them)."""

    def __init__(self, api: FakeBotApi, path: Path | str, clock: FakeClock, game: str, seed: int,
                 webhook_port: int | None = None) -> None:
        self.api = api
        self.path = path
        self.clock = clock
        self.game = game
        self.seed = seed
        self.webhook_port = webhook_port
        self._handled: set[int] = set()
        self._progress = asyncio.Condition()

    async def start(self) -> None:
        """Open the store, start the service and the adapter (as after a restart, when called again)."""
        self.store = await Store.open(self.path)
        controllers = {**default_controllers(), "duel": Duel()}
        # as the adapter holds it: a test may replace one of its methods there
        self.service = ServiceSeam(Service(self.store, self.clock, rng=random.Random(self.seed),
                                           settings=ServiceSettings(default_game=self.game), controllers=controllers))
        await self.service.start()
        # the fake applies Telegram's limits; the adapter's budget runs on the fake's clock (real time unless a test
        # that plays many hands speeds both up alike)
        hook = {} if self.webhook_port is None else {
            "webhook_url": f"https://poker.example/tg/{self.webhook_port}", "webhook_listen": "127.0.0.1",
            "webhook_port": self.webhook_port}
        settings = TelegramSettings(token=TOKEN, base_url=self.api.base_url, poll_timeout=1,
                                    time_scale=self.api.flood.time_scale, **hook)
        self.adapter = TelegramAdapter(self.service, settings)
        self.adapter.application.add_handler(TypeHandler(Update, self._mark), group=100)
        await self.adapter.start()

    async def stop(self) -> None:
        """Stop the adapter and close the store (a clean shutdown)."""
        await self.adapter.stop()
        await self.store.close()

    async def _mark(self, update: Update, context: object) -> None:
        async with self._progress:
            self._handled.add(update.update_id)
            self._progress.notify_all()

    async def _run(self, update: dict[str, Any]) -> None:
        await self.handled(await self.deliver(update))
        await self.adapter.flush()

    async def deliver(self, update: dict[str, Any]) -> int:
        """Hand the bot an update (queued for its next getUpdates, or posted to its webhook); returns its
        update_id."""
        if self.webhook_port is None:
            return await self.api.push(update)
        numbered = self.api.numbered(update)
        assert self.api.webhook is not None
        async with aiohttp.ClientSession() as http:
            posted = await http.post(f"http://127.0.0.1:{self.webhook_port}/tg/{self.webhook_port}", json=numbered,
                                     headers={"X-Telegram-Bot-Api-Secret-Token": self.api.webhook["secret_token"]})
            assert posted.status == 200
        return int(numbered["update_id"])

    async def handled(self, update_id: int) -> None:
        """Wait until the bot has handled an update (what it sends may still be queued)."""
        async with self._progress:
            await asyncio.wait_for(self._progress.wait_for(lambda: update_id in self._handled), 10)

    async def command(self, user: dict[str, Any], text: str, chat: dict[str, Any] | None = None,
                      topic: int | None = None, mentioned: dict[str, Any] | None = None) -> None:
        """A user types a command (`mentioned`: picking a user without a username from the mention list, see
        `FakeBotApi.command_update`); returns once the bot has handled it and sent what it caused."""
        await self._run(self.api.command_update(user, text, chat, topic, mentioned))

    async def press(self, user: dict[str, Any], sent: Sent, label_part: str) -> dict[str, Any]:
        """A user presses a button; returns the bot's answer to the callback query."""
        return await self.press_data(user, sent, sent.button(label_part)["callback_data"])

    async def press_data(self, user: dict[str, Any], sent: Sent, data: str) -> dict[str, Any]:
        """A user presses a button with this callback data."""
        update, query_id = self.api.press_update(user, sent, data)
        await self._run(update)
        answer = self.api.answer(query_id)
        assert answer is not None, "the callback query was not answered"
        return answer

    async def fire_timers(self, seconds: float) -> None:
        """Let time pass and fire what came due (the application's scheduler loop does this in production)."""
        await self.fire_timers_at(self.clock.now() + seconds)

    async def fire_timers_at(self, timestamp: float) -> None:
        """Move the clock to `timestamp` and fire what came due."""
        self.clock.current = timestamp
        await self.service.scheduler.fire_due()
        await self.adapter.flush()

    def group(self) -> list[Sent]:
        """The group's messages, oldest first."""
        return self.api.chat(GROUP["id"])

    def group_texts(self) -> list[str]:
        """Every text the group ever showed (edits included)."""
        return self.api.texts_ever_shown(GROUP["id"])

    async def seat_three_and_deal(self) -> None:
        """Ann, Bob and Cat sit down with 200 chips each, and Ann deals."""
        for user in (ANN, BOB, CAT):
            await self.command(user, "/join 200")
        await self.command(ANN, "/deal")

    def table_message(self) -> Sent:
        """The newest group message with buttons."""
        with_buttons = [sent for sent in self.group() if sent.buttons()]
        assert with_buttons, "no table message with buttons"
        return with_buttons[-1]


async def no_limit_table(bot: Running, chips: int, *settings: tuple[dict[str, Any], str],
                         players: tuple[dict[str, Any], ...] = (ANN, BOB, CAT)) -> None:
    """A no-limit Hold'em table: Ann sets the structure, `settings` are said next (who says what), then `players`
    sit down with `chips` each."""
    await bot.command(ANN, "/set structure no-limit")
    for user, text in settings:
        await bot.command(user, text)
    for user in players:
        await bot.command(user, f"/join {chips}")


@pytest.fixture
async def api(request: pytest.FixtureRequest):
    """The fake Bot API with Telegram's limits; a test marked `telegram_time_scale(n)` (one that plays whole hands
    through a group, more than the 20 requests a minute allows) runs them, and the bot's budget, n times faster.

    The bot paces itself within the limits: a test fails if the fake had to answer any request 429 for going over
    them, unless it is marked `telegram_allows_429` (it goes over them on purpose; a 429 a test asks `fail` for is
    not counted)."""
    marker = request.node.get_closest_marker("telegram_time_scale")
    fake = FakeBotApi(time_scale=marker.args[0] if marker else 1.0)
    await fake.start()
    yield fake
    await fake.stop()
    if request.node.get_closest_marker("telegram_allows_429") is None:
        assert [(call.method, call.params.get("chat_id")) for call in fake.rejected] == [], "the bot went over a limit"


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (for a webhook)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def two_processes(api: FakeBotApi, postgres_url: str) -> AsyncIterator[Callable[[str], Awaitable[
        tuple[Running, Running]]]]:
    """Start two bots (processes) on one PostgreSQL database and one clock, each receiving the updates a test
    routes to it by webhook (`Running.deliver`); stopped at the end of the test."""
    started: list[Running] = []
    clock = FakeClock()

    async def make(game: str) -> tuple[Running, Running]:
        for seed in (7, 8):
            running = Running(api, postgres_url, clock, game, seed, webhook_port=free_port())
            await running.start()
            started.append(running)
        return started[0], started[1]

    yield make
    for running in started:
        if running.adapter.application.running:
            await running.stop()


@pytest.fixture
async def make_bot(api: FakeBotApi, tmp_path: Path):
    """Start a bot on a given game; stopped at the end of the test."""
    started: list[Running] = []
    clock = FakeClock()

    async def make(game: str, seed: int = 7) -> Running:
        running = Running(api, tmp_path / "bot.db", clock, game, seed)
        await running.start()
        started.append(running)
        return running

    yield make
    for running in started:
        if running.adapter.application.running:
            await running.stop()
